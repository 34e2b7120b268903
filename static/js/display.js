/**
 * Display logic on the device: which pages and questions a respondent is shown, decided from the
 * answers given plainly (a direct question's option id, a yes/no asked directly as "yes" or "no"),
 * never from a report. The same rules, decided the same way, as the server's
 * `web/core/surveys/flow.py` (`tests/cases/display.json` holds both to the same cases).
 * @module display
 */

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
      if (plain.has(id) && plain.get(id) !== null) seen.set(id, plain.get(id));
    }
  }
  return shown;
}
