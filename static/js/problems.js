/**
 * What stops Next or Submit, said where it is. Next and Submit are never greyed out beyond use:
 * pressed while a question still waits, they stop at the first such question, move the focus to
 * it and say what to do, in the page's language. A randomized question is left only spun or
 * skipped, and a skip is only ever the respondent's own act: a true answer chosen but not spun is
 * never dropped quietly. A number outside its range says so on leaving its box, too. Loaded with
 * the submission (send.js, at the first spin) and, on a survey of pages, with the first answer
 * (pages.js), or else the first time Next is pressed or such a box is left.
 * @module problems
 */
import { isDone, plainFields } from "./view.js";

/**
 * @typedef {object} Problem
 * @property {any} question
 * @property {string} message What to do, in the page's language.
 * @property {HTMLElement} target Where the focus goes: the field to fix, or the Spin button.
 */

/** The question's section on the page. */
const rootOf = (page, question) => page.form.querySelector(`section[data-question="${CSS.escape(question.id)}"]`);

/**
 * Whether the respondent has begun to answer a randomized question: a true answer chosen or
 * typed (its slider's resting place is not an answer).
 * @param {HTMLElement} root
 */
export function begun(root) {
  return [...root.querySelectorAll("fieldset.truth input")].some((input) =>
    input.type === "radio" || input.type === "checkbox" ? input.checked : input.type !== "range" && input.value !== "",
  );
}

/**
 * "A whole number from 18 to 99.": what a number asked directly takes.
 * @param {Record<string, string>} text
 * @param {{min: number, max: number, step: number}} scale
 */
export function rangeMessage(text, scale) {
  const whole = [scale.min, scale.max, scale.step].every(Number.isInteger) && scale.step === 1;
  return (whole ? text.enterWholeNumber : text.enterNumber)
    .replace("{min}", String(scale.min))
    .replace("{max}", String(scale.max))
    .replace("{step}", String(scale.step));
}

/**
 * What stops `question` from being left, or null.
 * @param {import("./survey.js").Page} page
 * @returns {Problem | null}
 */
export function problemOf(page, question) {
  const { text } = page;
  if (page.hidden.has(question.id) || page.skipped.has(question.id) || isDone(page, question)) return null;
  const root = rootOf(page, question);
  if (!question.items.length || question.plain) {
    const fields = (question.rows ?? [null]).flatMap((row) => plainFields(page.form, question, row));
    const invalid = fields.find((field) => !field.checkValidity());
    if (invalid && question.scale) return { question, message: rangeMessage(text, question.scale), target: invalid };
    const first = root.querySelector("fieldset.truth input, input[name^='direct-'], textarea, select") ?? root;
    return { question, message: text.needsAnswer, target: invalid ?? first };
  }
  const { button } = page.views.get(question.id);
  const say = (message) => message.replace("{button}", `“${button.textContent.trim()}”`);
  if (question.required) {
    return begun(root)
      ? { question, message: say(text.spinToSend), target: button }
      : { question, message: say(text.needsAnswerSpin), target: root.querySelector("fieldset.truth input") ?? button };
  }
  return { question, message: say(begun(root) ? text.spinOrSkip : text.spinOrSkipUntouched), target: button };
}

/**
 * Whether `questions` (in the order shown) may be left; if not, the first problem is shown and
 * focused.
 * @param {import("./survey.js").Page} page
 * @param {any[]} questions
 */
export function readyToLeave(page, questions) {
  const order = [...page.form.querySelectorAll("section[data-question]")].map((root) => root.dataset.question);
  const shown = [...questions].sort((first, second) => order.indexOf(first.id) - order.indexOf(second.id));
  const problem = shown.map((question) => problemOf(page, question)).find(Boolean);
  if (!problem) return true;
  page.goToQuestion?.(problem.question);
  showProblem(page, problem);
  return false;
}

/**
 * Say `problem` under its question, tie it to the field it is about, and move the focus there.
 * @param {import("./survey.js").Page} page
 * @param {Problem} problem
 */
export function showProblem(page, problem) {
  const box = rootOf(page, problem.question).querySelector(".problem");
  box.textContent = problem.message;
  box.hidden = false;
  describe(problem.target, box.id, true);
  if (problem.target.matches("input:not([type=radio]):not([type=checkbox]), textarea")) problem.target.setAttribute("aria-invalid", "true");
  page.shownProblems ??= new Map();
  page.shownProblems.set(problem.question.id, problem);
  // view.js's updateSummary runs this after every answer, spin and skip.
  page.recheck ??= () => recheck(page);
  problem.target.focus();
  problem.target.scrollIntoView?.({ block: "center" });
}

/** Clear each problem shown whose question is now answered, spun or skipped. */
function recheck(page) {
  for (const [id, shown] of page.shownProblems) {
    const now = problemOf(page, shown.question);
    if (now && now.message === shown.message) continue;
    clearProblem(page, shown);
    page.shownProblems.delete(id);
    if (now && now.target.matches("input[type=number]")) showProblem(page, now);
  }
}

/** Take a problem's words away, and its field's marks. */
function clearProblem(page, problem) {
  const box = rootOf(page, problem.question).querySelector(".problem");
  box.hidden = true;
  box.textContent = "";
  describe(problem.target, box.id, false);
  problem.target.removeAttribute("aria-invalid");
}

/** Add `id` to (or take it from) the element's aria-describedby. */
function describe(element, id, on) {
  const ids = new Set((element.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean));
  if (on) ids.add(id);
  else ids.delete(id);
  if (ids.size) element.setAttribute("aria-describedby", [...ids].join(" "));
  else element.removeAttribute("aria-describedby");
}

/**
 * A number asked directly, checked as its box is left: outside its range or off its steps, it
 * says so (the focus stays where the respondent moved it).
 * @param {import("./survey.js").Page} page
 * @param {HTMLInputElement} field
 */
export function checkField(page, field) {
  const id = field.name.slice("direct-".length);
  const question = page.config.questions.find((each) => each.id === id);
  if (!question?.scale) return;
  if (field.checkValidity()) {
    const shown = page.shownProblems?.get(id);
    if (shown) {
      clearProblem(page, shown);
      page.shownProblems.delete(id);
    }
    return;
  }
  const focused = document.activeElement;
  showProblem(page, { question, message: rangeMessage(page.text, question.scale), target: field });
  if (focused instanceof HTMLElement && focused !== field) focused.focus();
}
