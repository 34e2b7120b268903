/**
 * What the respondent's page does with each kind of answer, in one place: how the true answer is
 * read from the form, how it is drawn, what a draw reports, how a remembered report is checked,
 * how a report reads in words and how it is sent. The server names a question's kind in its
 * `answer` field (its type's `answer_shape`); the page asks {@link answerOf} and never compares
 * that name itself. An unknown kind is refused: there is no default.
 * @module answers
 */
import { checkedValue, draw, drawChoice, drawDesign, drawNumber, valueShare } from "./procedure.js";
import { pickByShares } from "./random.js";

/**
 * The form's inputs of one question, as the answer kinds read them.
 * @typedef {object} Inputs
 * @property {(name: string) => HTMLInputElement | null} picked The checked input of a radio group.
 * @property {(name: string) => HTMLInputElement} named The input of that name.
 */
/**
 * What the page knows besides the question: the reports shown so far, the direct answer chosen,
 * and the page's words.
 * @typedef {object} Context
 * @property {(item: string) => any} reportedOf
 * @property {any} chosen A direct question's chosen option id (null for "prefer not to say").
 * @property {Record<string, string>} text
 */
/**
 * @typedef {object} Answer
 * @property {boolean} randomized Whether it goes through a draw (a direct answer is sent as chosen).
 * @property {boolean} ranged Whether it is a number on a range (a value wheel drawn to scale).
 * @property {(question: any, inputs: Inputs) => Map<string, any> | null} truth The true answer
 *   per item, or null while it is incomplete.
 * @property {(question: any, value: any) => object} draw One draw of an item's true value.
 * @property {(question: any, picked: (name: string) => HTMLInputElement | null) => any} reported
 *   The report the respondent chose on the page (their own draw, or a list's counts), or null.
 * @property {(question: any, result: any) => any} report What a draw reports, as it is sent.
 * @property {(report: any) => any} kept A report as the memo keeps it (bits and strings only).
 * @property {(question: any, value: any) => any} remembered A remembered report if it fits, else undefined.
 * @property {(question: any, params: object) => object} params What a draw must be replayed under.
 * @property {(question: any, value: any, text: Record<string, string>) => string} words A report in words.
 * @property {(question: any, context: Context) => string[]} summary The reports in words, for the summary.
 * @property {(question: any, context: Context) => any} sent The question's answer in the body sent.
 */

const bitOf = (input) => (input.value === "1" ? 1 : 0);
const words = (question, value) => question.reportWords[value === 1 ? 1 : 0];
const optionText = (question, value) => question.options.find((option) => option.id === value)?.text ?? "";
const optionItem = (question, option) => `${question.id}.${option.id}`;

/** One bit: a yes/no question, spun or drawn through its design's wheel. @type {Answer} */
const bit = {
  randomized: true,
  ranged: false,
  truth(question, inputs) {
    if (question.sectors.some((sector) => sector.reports === "innocuous")) {
      const truth = inputs.picked(`truth-${question.id}`);
      const innocuous = inputs.picked(`innocuous-${question.id}`);
      if (!truth || !innocuous) return null;
      return new Map([[question.id, { truth: bitOf(truth), innocuous: bitOf(innocuous) }]]);
    }
    const chosen = inputs.picked(`truth-${question.id}`);
    return chosen ? new Map([[question.id, bitOf(chosen)]]) : null;
  },
  draw(question, value) {
    if (!question.sectors.length) return draw(value, question.dark, question.lightFraction);
    const { truth, innocuous } = typeof value === "object" ? value : { truth: value, innocuous: null };
    return drawDesign(truth, question.sectors, innocuous);
  },
  reported(question, picked) {
    const chosen = picked(`report-${question.id}`);
    return chosen ? (chosen.value === "1" ? 1 : 0) : null;
  },
  report: (question, result) => result.reported,
  kept: (report) => report,
  remembered: (question, value) => (typeof value === "string" ? undefined : value),
  params: (question, params) => params,
  words: (question, value) => words(question, value),
  summary(question, { reportedOf, text }) {
    // A yes/no asked directly is answered by choosing it, and may be left unanswered.
    const value = reportedOf(question.id);
    const said = value === undefined ? text.notSaid : words(question, value);
    return [question.plain ? `${said} (${text.sentAsChosen})` : said];
  },
  sent: (question, { reportedOf }) => reportedOf(question.id),
};

/** A bit per option: a multi-select question, each option spun on its own. @type {Answer} */
const bits = {
  ...bit,
  truth: (question, inputs) =>
    new Map(
      question.options.map((option) => [
        optionItem(question, option),
        inputs.named(`truth-${question.id}-${option.id}`).checked ? 1 : 0,
      ]),
    ),
  draw: (question, value) => draw(value, question.dark, question.lightFraction),
  summary: (question, { reportedOf }) =>
    question.options.map((option) => `${option.text}: ${words(question, reportedOf(optionItem(question, option)))}`),
  sent: (question, { reportedOf }) =>
    Object.fromEntries(question.options.map((option) => [option.id, reportedOf(optionItem(question, option))])),
};

/** A number on a range: a value wheel drawn to its share, then the spinner. @type {Answer} */
const number = {
  ...bit,
  ranged: true,
  truth(question, inputs) {
    const value = checkedValue(inputs.named(`truth-${question.id}`).value, question.scale);
    return value === null ? null : new Map([[question.id, valueShare(value, question.scale)]]);
  },
  draw: (question, share) => drawNumber(share, question.dark, question.lightFraction),
};

/** One option among k: the spinner, then on dark a die. @type {Answer} */
const option = {
  ...bit,
  truth(question, inputs) {
    const chosen = inputs.picked(`truth-${question.id}`);
    const index = question.options.findIndex((each) => each.id === chosen?.value);
    return index < 0 ? null : new Map([[question.id, index]]);
  },
  draw: (question, index) => drawChoice(index, question.options.length, question.dark, question.lightFraction),
  report: (question, result) => question.options[result.reported].id,
  remembered: (question, value) => (question.options.some((each) => each.id === value) ? value : undefined),
  params: (question, params) => ({ ...params, k: question.options.length }),
  words: (question, value) => optionText(question, value),
  summary: (question, { reportedOf }) => [optionText(question, reportedOf(question.id))],
};

/**
 * Cheating detection: the question's arms are its conditions, one drawn by share as an
 * experiment's condition is (random.js's pickByShares), then that arm's wheel; committed with the
 * report. @type {Answer}
 */
const arm = {
  ...bit,
  draw(question, value) {
    const drawn = pickByShares(question.armSectors.map(() => 1));
    return { arm: drawn, ...drawDesign(value, question.armSectors[drawn]) };
  },
  report: (question, result) => ({ arm: result.arm, reported: result.reported }),
  kept: (report) => `${report.arm}:${report.reported}`,
  remembered(question, value) {
    const match = /^([01]):([01])$/.exec(typeof value === "string" ? value : "");
    return match ? { arm: Number(match[1]), reported: Number(match[2]) } : undefined;
  },
  words: (question, value) => words(question, value?.reported),
  summary: (question, { reportedOf }) => [words(question, reportedOf(question.id)?.reported)],
};

/** The arms of a list experiment, as a submission names them (index: the kept draw's arm). */
const LISTS = ["control", "treatment"];

/** A double list's arms: which list holds the sensitive item (index: the kept draw's arm). */
const DOUBLE_LISTS = ["a", "b"];

/**
 * A list experiment: the list and its order drawn first (arm-draw.js), then the respondent's
 * count of the items that apply, sent with the list's arm; a double list's two counts with the
 * list that held the sensitive item. Nothing is drawn from the counts.
 * @type {Answer}
 */
const count = {
  ...bit,
  reported(question, picked) {
    if (!question.listItemsB) {
      const chosen = picked(`report-${question.id}`);
      return chosen ? Number(chosen.value) : null;
    }
    const [a, b] = DOUBLE_LISTS.map((name) => picked(`report-${question.id}-${name}`));
    return a && b ? { a: Number(a.value), b: Number(b.value) } : null;
  },
  report: (question, result) =>
    question.listItemsB ? { arm: DOUBLE_LISTS[result.arm], counts: result.reported } : { arm: LISTS[result.arm], count: result.reported },
  kept: (report) => (report.counts ? `${report.arm}:${report.counts.a}:${report.counts.b}` : `${report.arm}:${report.count}`),
  remembered(question, value) {
    const text = typeof value === "string" ? value : "";
    if (question.listItemsB) {
      const match = /^([ab]):(\d+):(\d+)$/.exec(text);
      return match ? { arm: match[1], counts: { a: Number(match[2]), b: Number(match[3]) } } : undefined;
    }
    const match = /^(control|treatment):(\d+)$/.exec(text);
    return match ? { arm: match[1], count: Number(match[2]) } : undefined;
  },
  words: (question, value, text) =>
    value?.counts
      ? text.listCounts.replace("{a}", String(value.counts.a)).replace("{b}", String(value.counts.b))
      : text.listCount.replace("{count}", String(value?.count)),
  summary(question, { reportedOf, text }) {
    return [this.words(question, reportedOf(question.id), text)];
  },
};

/** A direct question: asked plainly, sent as chosen, never drawn. @type {Answer} */
const direct = {
  ...option,
  randomized: false,
  truth: () => null,
  draw() {
    throw new Error("a direct question is never drawn");
  },
  words: (question, value, text) => (value === null ? text.notSaid : optionText(question, value)),
  // The kinds that spread this one (words, numbers) put their own words here.
  summary(question, { chosen, text }) {
    return [`${this.words(question, chosen, text)} (${text.sentAsChosen})`];
  },
  sent: (question, { chosen }) => chosen,
};

/** An open answer: the respondent's own words, sent as written (blank is no answer). @type {Answer} */
const text = {
  ...direct,
  words: (question, value, words) => value ?? words.notWritten,
};

/** A number asked directly: typed in its range, sent as a number. @type {Answer} */
const value = {
  ...text,
  words: (question, given, words) => (given === null ? words.notSaid : `${given}${question.scale?.unit ? ` ${question.scale.unit}` : ""}`),
  sent: (question, { chosen }) => (chosen === null ? null : Number(chosen)),
};

/** A grid: each row answered on the shared options, sent as `{row: option}` (null: no row answered). @type {Answer} */
const grid = {
  ...direct,
  words: (question, given, text, declined = []) =>
    question.rows
      .map((row) => {
        if (given?.[row.id]) return `${row.text}: ${optionText(question, given[row.id])}`;
        return `${row.text}: ${declined.includes(row.id) ? text.notSaid : text.notAnswered}`;
      })
      .join("; "),
  summary(question, { chosen, declined, text }) {
    return [`${this.words(question, chosen, text, declined)} (${text.sentAsChosen})`];
  },
};

const ANSWERS = { bit, bits, number, option, arm, count, direct, text, value, grid };

/**
 * The answer kind of `question` (its `answer` field).
 * @param {{ answer: string }} question
 * @returns {Answer}
 */
export function answerOf(question) {
  const found = Object.hasOwn(ANSWERS, question.answer) ? ANSWERS[question.answer] : undefined;
  if (!found) throw new Error(`unknown answer kind ${JSON.stringify(question.answer)}`);
  return found;
}
