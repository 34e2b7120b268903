/**
 * The permanent randomized response of a series (RAPPOR's first layer), kept on this device.
 *
 * For an item whose question has a bound over all waves (ε∞), the first wave that asks it draws
 * a permanent report for *every* value the answer could take: the value itself with probability
 * `keep` = e^ε∞/(e^ε∞ + k − 1), else one of the other k − 1 values (for yes/no: the opposite). All
 * of them are kept, so storage alone says nothing about which value is true, and no true answer
 * is ever stored. Each wave then spins again on the permanent report of this wave's true value
 * (procedure.js, with the server's wave light share), so that one wave's report is generalized
 * randomized response at ε and every report of an unchanged answer is a function of one
 * permanent report: all waves together reveal at most ε∞ per distinct answer.
 *
 * Kept by series and item under `rr-permanent:<series>`, in local storage and in the shared
 * store (IndexedDB) like the memo, and drawn under the series' cross-tab lock. Mirrors
 * `rr.permanent_response`; tests check they agree.
 * @module permanent
 */
import { cryptoUint32, uniform, uniformInt } from "./random.js";

const PREFIX = "rr-permanent:";

/**
 * @typedef {object} Permanent
 * @property {number} epsilonPermanent ε∞ it was drawn under.
 * @property {number} values How many values the answer can take (k).
 * @property {string[] | null} labels The options the values stand for, in order (one option
 *   among k), or null for no and yes.
 * @property {number[]} reports The permanent report for each value 0 … k − 1.
 */
/** @typedef {{epsilonPermanent: number, values: number, labels: string[] | null, keep: number}} PermanentParams */

/**
 * The storage key of a series' permanent reports.
 * @param {string} series
 * @returns {string}
 */
export function permanentKey(series) {
  return PREFIX + series;
}

/**
 * One permanent report per possible value: the value with probability `keep`, else one of the
 * others, each as likely.
 * @param {number} values k ≥ 2.
 * @param {number} keep In (0, 1).
 * @param {import("./random.js").Uint32Source} [random]
 * @returns {number[]}
 */
export function drawPermanent(values, keep, random = cryptoUint32) {
  if (!(Number.isInteger(values) && values >= 2)) throw new RangeError(`values must be a whole number >= 2, got ${values}`);
  if (!(keep > 0 && keep < 1)) throw new RangeError(`keep must lie in (0, 1), got ${keep}`);
  return Array.from({ length: values }, (_, value) => {
    if (uniform(random) < keep) return value;
    const other = uniformInt(values - 1, random);
    return other >= value ? other + 1 : other;
  });
}

/**
 * The permanent reports kept for a series, validated entry by entry (storage can be edited).
 * @param {string | null} text The stored JSON, or null.
 * @returns {Map<string, Permanent>}
 */
export function readPermanent(text) {
  const kept = new Map();
  let parsed;
  try {
    parsed = JSON.parse(text ?? "null");
  } catch {
    parsed = null;
  }
  const items = parsed && typeof parsed === "object" && parsed.items && typeof parsed.items === "object" ? parsed.items : {};
  for (const [item, entry] of Object.entries(items)) {
    if (isPermanent(entry)) {
      const labels = Array.isArray(entry.labels) ? [...entry.labels] : null;
      kept.set(item, { epsilonPermanent: entry.epsilonPermanent, values: entry.values, labels, reports: [...entry.reports] });
    }
  }
  return kept;
}

/**
 * The kept reports of `item`, if drawn under these parameters (another ε∞, option count or
 * order of options is a question asked another way: its reports are not reused).
 * @param {Map<string, Permanent>} kept
 * @param {string} item
 * @param {PermanentParams} params
 * @returns {number[] | undefined}
 */
export function keptReports(kept, item, params) {
  const entry = kept.get(item);
  if (!entry || entry.epsilonPermanent !== params.epsilonPermanent || entry.values !== params.values) return undefined;
  if (JSON.stringify(entry.labels ?? null) !== JSON.stringify(params.labels ?? null)) return undefined;
  return entry.reports;
}

/**
 * Two stored copies made one: every item of either, the first copy's where both have one (the
 * shared store's, written under the lock, is passed first).
 * @param {string | null} first
 * @param {string | null} second
 * @returns {string | null}
 */
export function mergePermanent(first, second) {
  if (first === null || second === null) return first ?? second;
  const merged = readPermanent(second);
  for (const [item, entry] of readPermanent(first)) merged.set(item, entry);
  return writePermanent(merged);
}

/**
 * The JSON that keeps `kept`.
 * @param {Map<string, Permanent>} kept
 * @returns {string}
 */
export function writePermanent(kept) {
  return JSON.stringify({ items: Object.fromEntries(kept) });
}

function isPermanent(entry) {
  return (
    entry !== null &&
    typeof entry === "object" &&
    Number.isFinite(entry.epsilonPermanent) &&
    Number.isInteger(entry.values) &&
    entry.values >= 2 &&
    Array.isArray(entry.reports) &&
    entry.reports.length === entry.values &&
    entry.reports.every((report) => Number.isInteger(report) && report >= 0 && report < entry.values) &&
    (entry.labels === undefined ||
      entry.labels === null ||
      (Array.isArray(entry.labels) && entry.labels.length === entry.values && entry.labels.every((label) => typeof label === "string")))
  );
}
