/**
 * What a question draws before it is answered, once per respondent, with the browser's
 * cryptographic generator, kept in the survey's memo beside the reports before anything of it is
 * shown; a reload, Back or a second tab shows the same draw. Two kinds:
 * - the extended crosswise model's arm (half and half), which shows that arm's innocuous question;
 * - a list experiment's list (the short list or the long one, half and half) and the order of its
 *   items, which shows that list in that order.
 * The draw is chance alone, and its arm is sent with the report.
 * @module arm-draw
 */
import { permutation } from "./flow.js";
import { commitReported, loadMemo } from "./memo.js";
import { cryptoUint32, newSubmissionId, pickByShares } from "./random.js";

/** A list's sensitive item, as its kept order names it (no item's id starts with "@"). */
export const SENSITIVE = "@sensitive";

/**
 * A kind of draw made before the question is answered.
 * @typedef {object} DrawnFirst
 * @property {string} keptAs The memo entry's procedure.
 * @property {(id: string) => string} item The memo's entry for a question's draw.
 * @property {(question: any, random: import("./random.js").Uint32Source) => string} draw
 * @property {(question: any, kept: string) => boolean} fits Whether a kept draw fits the question.
 * @property {(question: any, kept: string, section: HTMLElement | null) => void} show
 */

/** The extended crosswise model's arm, "0" or "1". @type {DrawnFirst} */
const arm = {
  keptAs: "arm",
  item: (id) => `@arm:${id}`,
  draw: (question, random) => String(pickByShares([1, 1], random)),
  fits: (question, kept) => kept === "0" || kept === "1",
  show(question, kept, section) {
    question.keptArm = Number(kept);
    for (const text of section?.querySelectorAll(".arm-innocuous") ?? []) {
      text.hidden = Number(text.dataset.arm) !== question.keptArm;
    }
  },
};

/**
 * The lists a question shows, each with its items in the file's order: one list (`a`), or a
 * double list's A and B.
 * @param {{listItems: string[], listItemsB?: string[]}} question
 */
const listsOf = (question) => [["a", question.listItems], ...(question.listItemsB ? [["b", question.listItemsB]] : [])];

/**
 * Which list holds the sensitive item under a drawn arm: a single list's long one (arm 1), or
 * a double list's A (arm 0) or B (arm 1).
 * @returns {string | null}
 */
const holderOf = (question, arm) => (question.listItemsB ? ["a", "b"][arm] : arm === 1 ? "a" : null);

/** Each list's items under a drawn arm, the sensitive item in the list that holds it. */
const itemsUnder = (question, arm) =>
  listsOf(question).map(([name, items]) => (holderOf(question, arm) === name ? [...items, SENSITIVE] : items));

/**
 * A list experiment's arm (a single list: "0" the short list, "1" the long one; a double list:
 * "0" the sensitive item in A, "1" in B) and its items' order, kept as "arm:id id …", a double
 * list's two orders joined by "|". @type {DrawnFirst}
 */
const list = {
  keptAs: "list",
  item: (id) => `@list:${id}`,
  draw(question, random) {
    const drawn = pickByShares([1, 1], random);
    const orders = itemsUnder(question, drawn).map((items) => permutation(items, items.map(() => false), random).join(" "));
    return `${drawn}:${orders.join("|")}`;
  },
  fits(question, kept) {
    const match = /^([01]):(.*)$/.exec(kept);
    if (!match) return false;
    const orders = match[2].split("|").map((order) => order.split(" "));
    const expected = itemsUnder(question, Number(match[1]));
    return (
      orders.length === expected.length &&
      expected.every((items, index) => orders[index].length === items.length && items.every((item) => orders[index].includes(item)))
    );
  },
  show(question, kept, section) {
    const [drawn, orders] = kept.split(":");
    question.keptArm = Number(drawn);
    const holder = holderOf(question, question.keptArm);
    listsOf(question).forEach(([name, items], index) => {
      const list = section?.querySelector(`.list-items[data-list="${name}"]`);
      if (!list) return;
      const shown = new Map([...list.querySelectorAll("li[data-item]")].map((item) => [item.dataset.item, item]));
      for (const id of orders.split("|")[index].split(" ")) {
        const item = shown.get(id);
        if (item) {
          item.hidden = false;
          list.append(item);
        }
      }
      list.hidden = false;
      // A count of every item and the sensitive one only where the list holds it.
      const top = section.querySelector(`fieldset[data-list="${name}"] input[value="${items.length + 1}"]`);
      if (top) top.closest("label").hidden = holder !== name;
    });
  },
};

const KINDS = { arm, count: list };

/**
 * Whether a question draws before it is answered (the server says so: `drawsFirst`).
 * @param {{drawsFirst?: boolean}} question
 */
export const drawsFirst = (question) => Boolean(question.drawsFirst);

/**
 * The draw this browser keeps for the question, if it fits it.
 * @param {{reported: Map<string, {bit: unknown, procedure: string}>}} memo
 * @param {any} question
 * @returns {string | undefined}
 */
export function keptDraw(memo, question) {
  const kind = KINDS[question.answer];
  const entry = memo.reported.get(kind.item(question.id));
  if (!entry || entry.procedure !== kind.keptAs || typeof entry.bit !== "string") return undefined;
  return kind.fits(question, entry.bit) ? entry.bit : undefined;
}

/**
 * Keep a draw for each question of the page that draws first ({@link drawsFirst}).
 * @param {any} page
 */
export function keepArmsOf(page) {
  const section = (id) => page.form.querySelector(`section[data-question="${CSS.escape(id)}"]`);
  return keepArms(page, page.config.questions.filter(drawsFirst), section);
}

/**
 * Keep a draw for each of `questions`: the one this browser keeps, or one drawn now and committed
 * (under the survey's lock, to both stores) before anything of it shows; a preview draws afresh
 * and keeps nothing. Each question's `keptArm` is set and its draw shown.
 * @param {any} page The survey page (its config, lock, memo mirror and shared store).
 * @param {any[]} questions
 * @param {(id: string) => HTMLElement | null} sectionOf
 * @param {import("./random.js").Uint32Source} [random]
 */
export async function keepArms(page, questions, sectionOf, random = cryptoUint32) {
  const { config } = page;
  const draw = (question) => KINDS[question.answer].draw(question, random);
  const draws = page.preview
    ? new Map(questions.map((question) => [question.id, draw(question)]))
    : await page.lock(async () => {
        const stored = await page.mirror();
        const memo = loadMemo(stored, config.slug, config.revision);
        const found = new Map();
        const drawn = new Map();
        for (const question of questions) {
          const kept = keptDraw(memo, question);
          const value = kept ?? draw(question);
          const kind = KINDS[question.answer];
          if (kept === undefined) drawn.set(kind.item(question.id), { bit: value, epsilon: 0, procedure: kind.keptAs });
          found.set(question.id, value);
        }
        if (drawn.size) {
          commitReported(stored, config.slug, config.revision, drawn, newSubmissionId);
          await page.share(stored.value);
        }
        return found;
      });
  for (const question of questions) KINDS[question.answer].show(question, draws.get(question.id), sectionOf(question.id));
}
