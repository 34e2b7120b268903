/**
 * The orders a questionnaire draws per respondent: a randomized page's questions, a question's
 * shuffled options (each `fixed` option in its own place). Drawn with the browser's cryptographic
 * generator and committed to the survey's memo, beside the reported bits, before the page shows
 * them: a reload, Back or a second tab keeps the same order. Drawn by chance alone, they say
 * nothing about any answer; the orders shown are sent with the reports.
 * @module order
 */
import { commitReported, loadMemo } from "./memo.js";
import { cryptoUint32, uniformInt } from "./random.js";

const KEPT_AS = "order";
/** The memo's entry for an order (no question's item starts with "@"). */
export const orderItem = (key) => `@order:${key}`;

/**
 * What one drawn order permutes.
 * @typedef {object} Ordered
 * @property {string} key A page's id, or a question's (the two never collide).
 * @property {string[]} items In the file's order.
 * @property {boolean[]} fixed Which items keep their place.
 */

/**
 * A uniformly drawn permutation of `items` in which every fixed item keeps its place
 * (Fisher–Yates over the movable places).
 * @param {string[]} items
 * @param {boolean[]} fixed
 * @param {import("./random.js").Uint32Source} [random]
 * @returns {string[]}
 */
export function permutation(items, fixed, random = cryptoUint32) {
  const places = items.flatMap((item, index) => (fixed[index] ? [] : [index]));
  const moved = places.map((index) => items[index]);
  for (let last = moved.length - 1; last > 0; last -= 1) {
    const other = uniformInt(last + 1, random);
    [moved[last], moved[other]] = [moved[other], moved[last]];
  }
  const result = [...items];
  places.forEach((index, position) => (result[index] = moved[position]));
  return result;
}

/**
 * The kept order of `ordered`, if the memo holds one of exactly its items with its fixed ones in
 * place.
 * @param {{reported: Map<string, {bit: unknown, procedure: string}>}} memo
 * @param {Ordered} ordered
 * @returns {string[] | undefined}
 */
export function keptOrder(memo, ordered) {
  const entry = memo.reported.get(orderItem(ordered.key));
  // Kept as the ids joined by spaces (an id has none), as the memo keeps a string.
  if (!entry || entry.procedure !== KEPT_AS || typeof entry.bit !== "string") return undefined;
  const kept = entry.bit.split(" ");
  const same = kept.length === ordered.items.length && [...kept].sort().join("\n") === [...ordered.items].sort().join("\n");
  if (!same || ordered.items.some((item, index) => ordered.fixed[index] && kept[index] !== item)) return undefined;
  return kept;
}

/**
 * Every order of `orderings`: kept in this browser, or drawn now and committed (under the survey's
 * lock, to both stores) before the page shows any; a preview draws afresh and keeps nothing.
 * @param {Ordered[]} orderings
 * @param {{slug: string, revision: number}} config
 * @param {boolean} preview
 * @param {{lock: Function, mirror: Function, share: Function, newId: () => string}} page
 * @param {import("./random.js").Uint32Source} [random]
 * @returns {Promise<Map<string, string[]>>}
 */
export async function chooseOrders(orderings, config, preview, { lock, mirror, share, newId }, random = cryptoUint32) {
  if (preview) return new Map(orderings.map((ordered) => [ordered.key, permutation(ordered.items, ordered.fixed, random)]));
  return lock(async () => {
    const stored = await mirror();
    const memo = loadMemo(stored, config.slug, config.revision);
    const orders = new Map();
    const drawn = new Map();
    for (const ordered of orderings) {
      const kept = keptOrder(memo, ordered);
      const order = kept ?? permutation(ordered.items, ordered.fixed, random);
      orders.set(ordered.key, order);
      if (!kept) drawn.set(orderItem(ordered.key), { bit: order.join(" "), epsilon: 0, procedure: KEPT_AS });
    }
    if (drawn.size) {
      commitReported(stored, config.slug, config.revision, drawn, newId);
      await share(stored.value);
    }
    return orders;
  });
}
