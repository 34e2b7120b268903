/**
 * An experiment's condition: drawn once per respondent by the declared shares, with the browser's
 * cryptographic generator, and kept in the survey's memo beside the reported bits, so that a
 * reload, Back or a second tab keeps it. It is drawn by chance alone, so it says nothing about
 * any answer; it is sent with the reports.
 * @module condition
 */
import { commitReported, loadMemo } from "./memo.js";
import { cryptoUint32, pickByShares } from "./random.js";

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
  return conditions[pickByShares(conditions.map((condition) => condition.share), random)].id;
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

/**
 * The condition this browser keeps for the survey, or one drawn now and committed (under the
 * survey's lock, to both stores) before any of its questions is shown; a preview draws afresh and
 * keeps nothing.
 * @param {{slug: string, revision: number, conditions: Condition[]}} config
 * @param {boolean} preview
 * @param {{lock: Function, mirror: Function, share: Function, newId: () => string}} page The
 *   survey page's lock, its memo as every tab sees it, the shared store and the submission id.
 * @returns {Promise<string>}
 */
export async function chooseCondition(config, preview, { lock, mirror, share, newId }) {
  if (preview) return drawCondition(config.conditions);
  return lock(async () => {
    const stored = await mirror();
    const kept = keptCondition(loadMemo(stored, config.slug, config.revision), config.conditions);
    if (kept !== undefined) return kept;
    const drawn = drawCondition(config.conditions);
    commitReported(stored, config.slug, config.revision, new Map([[CONDITION_ITEM, conditionEntry(drawn)]]), newId);
    await share(stored.value);
    return drawn;
  });
}
