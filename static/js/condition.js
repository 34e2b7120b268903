/**
 * An experiment's condition: drawn once per respondent by the declared shares, with the browser's
 * cryptographic generator, and kept in the survey's memo beside the reported bits, so that a
 * reload, Back or a second tab keeps it. It is drawn by chance alone, so it says nothing about
 * any answer; it is sent with the reports.
 * @module condition
 */
import { cryptoUint32, uniform } from "./random.js";

/** The memo's entry for the condition (no question's item starts with "@"). */
export const CONDITION_ITEM = "@condition";
const KEPT_AS = "condition";

/**
 * @typedef {object} Condition
 * @property {string} id
 * @property {number} share A relative share, above 0.
 */

/**
 * Draw one condition with probability share / (sum of shares).
 * @param {Condition[]} conditions
 * @param {import("./random.js").Uint32Source} [random]
 * @returns {string}
 */
export function drawCondition(conditions, random = cryptoUint32) {
  if (!conditions.length || conditions.some((c) => !(Number.isFinite(c.share) && c.share > 0))) {
    throw new RangeError("conditions need positive shares");
  }
  const total = conditions.reduce((sum, condition) => sum + condition.share, 0);
  let point = uniform(random) * total;
  for (const condition of conditions) {
    if (point < condition.share) return condition.id;
    point -= condition.share;
  }
  return conditions[conditions.length - 1].id; // rounding at the very top of the range
}

/**
 * The condition this browser's memo keeps for the survey, if it is one of `conditions`.
 * @param {{reported: Map<string, {bit: unknown, procedure: string}>}} memo
 * @param {Condition[]} conditions
 * @returns {string | undefined}
 */
export function keptCondition(memo, conditions) {
  const entry = memo.reported.get(CONDITION_ITEM);
  if (!entry || entry.procedure !== KEPT_AS) return undefined;
  return conditions.some((condition) => condition.id === entry.bit) ? String(entry.bit) : undefined;
}

/**
 * The memo entry that keeps a drawn condition.
 * @param {string} id
 */
export function conditionEntry(id) {
  return { bit: id, epsilon: 0, procedure: KEPT_AS };
}
