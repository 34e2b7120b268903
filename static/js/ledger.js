/**
 * A series' privacy ledger on this browser: the waves it answered (their memos say so), what
 * their questions drawn afresh add up to, and the bound that the questions with a kept
 * (permanent) answer keep over every wave. Nothing here is sent anywhere.
 * @module ledger
 */

/**
 * @typedef {object} SeriesLedger What the server says of the series (the page's config).
 * @property {number} wave This survey's wave.
 * @property {number} fresh ε of this wave's questions drawn afresh.
 * @property {number} kept The bound over all waves on its questions with a kept answer.
 * @property {{slug: string, wave: number, fresh: number}[]} waves The series' other waves.
 */

/**
 * The waves this browser answered, this one included, and their costs.
 * @param {SeriesLedger} ledger
 * @param {(slug: string) => boolean} answered Whether this browser submitted the wave at `slug`.
 * @returns {{waves: number[], fresh: number, kept: number}}
 */
export function seriesCost(ledger, answered) {
  const others = ledger.waves.filter((wave) => answered(wave.slug));
  const waves = [...others.map((wave) => wave.wave), ledger.wave].sort((a, b) => a - b);
  const fresh = others.reduce((sum, wave) => sum + wave.fresh, ledger.fresh);
  return { waves, fresh, kept: ledger.kept };
}
