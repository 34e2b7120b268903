/**
 * A questionnaire's flow on the device, without the page: which pages and questions a respondent
 * is shown, and the orders drawn for them. pages.js shows the pages with these.
 *
 * Display logic is decided from the answers given plainly (a direct question's option id, a yes/no
 * asked directly as "yes" or "no"), never from a report: the same rules, decided the same way, as
 * the server's `web/core/surveys/flow/walk.py` (`tests/cases/display.json` holds both to the same
 * cases).
 *
 * The orders (a randomized page's questions, a question's shuffled options, each `fixed` option in
 * its own place) are drawn with the browser's cryptographic generator and committed to the
 * survey's memo, beside the reported bits, before the page shows them: a reload, Back or a second
 * tab keeps the same order. Drawn by chance alone, they say nothing about any answer; the orders
 * shown are sent with the reports.
 * @module flow
 */
import { commitReported, loadMemo } from "./memo.js";
import { cryptoUint32, uniformInt } from "./random.js";

/**
 * A display rule, as the survey file writes it.
 * @typedef {{question: string, in?: string[], at_least?: number, at_most?: number} | {all: Rule[]} | {any: Rule[]}} Rule
 */
/**
 * @typedef {object} FlowPage
 * @property {string | null} id
 * @property {string[]} questions Question ids in the file's order.
 * @property {boolean} [randomize]
 * @property {Rule | null} [showIf]
 */

/**
 * Whether `rule` holds for these plain answers (an unanswered question matches nothing).
 * @param {Rule} rule
 * @param {Map<string, string | number>} plain
 * @returns {boolean}
 */
export function holds(rule, plain) {
  if ("all" in rule) return rule.all.every((inner) => holds(inner, plain));
  if ("any" in rule) return rule.any.some((inner) => holds(inner, plain));
  const value = plain.get(rule.question);
  if (value === undefined || value === null) return false;
  if (rule.in) return rule.in.includes(/** @type {string} */ (value));
  if (typeof value !== "number") return false;
  return (rule.at_least == null || value >= rule.at_least) && (rule.at_most == null || value <= rule.at_most);
}

/**
 * The pages and questions shown, decided in the order they are asked: a rule reads only the
 * questions before it, and the answer to a hidden question is no answer.
 * @param {FlowPage[]} pages
 * @param {Record<string, Rule>} rules A question's display rule by its id.
 * @param {Map<string, string | number>} plain
 * @returns {{pages: Set<string | null>, questions: Set<string>}}
 */
export function shownOf(pages, rules, plain) {
  const seen = new Map();
  const shown = { pages: new Set(), questions: new Set() };
  for (const page of pages) {
    if (page.showIf && !holds(page.showIf, seen)) continue;
    shown.pages.add(page.id);
    for (const id of page.questions) {
      const rule = Object.hasOwn(rules, id) ? rules[id] : null;
      if (rule && !holds(rule, seen)) continue;
      shown.questions.add(id);
      // What the question gave: its answer, or a grid's rows ("<grid>.<row>"; no id holds a dot).
      for (const [name, value] of plain) {
        if ((name === id || name.startsWith(`${id}.`)) && value !== null) seen.set(name, value);
      }
    }
  }
  return shown;
}

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