/**
 * A series' privacy ledger on this browser: the waves it answered, what their questions drawn
 * afresh add up to, and the bound that the questions with a kept (permanent) answer keep over
 * every wave. What each earlier wave cost comes from this browser's own memos (memo.js records
 * it at submission, under the parameters of the time); nothing here is sent anywhere.
 * @module ledger
 */

/**
 * @typedef {object} SeriesLedger What the server says of this wave (the page's config).
 * @property {number} wave This survey's wave.
 * @property {number} fresh ε of this wave's questions drawn afresh.
 * @property {number} kept The bound over all waves on its questions with a kept answer.
 */

/**
 * The waves this browser answered, this one included, and their costs.
 * @param {SeriesLedger} ledger
 * @param {{wave: number, epsilon: number}[]} spent What the other waves this browser submitted
 *   cost it (memo.js `spentInSeries`, this wave left out).
 * @returns {{waves: number[], fresh: number, kept: number}}
 */
export function seriesCost(ledger, spent) {
  const waves = [...spent.map((entry) => entry.wave), ledger.wave].sort((a, b) => a - b);
  const fresh = spent.reduce((sum, entry) => sum + entry.epsilon, ledger.fresh);
  return { waves, fresh, kept: ledger.kept };
}
