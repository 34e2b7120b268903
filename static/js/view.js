/**
 * What the respondent's page shows, from the page's state (survey.js's `Page`): a notice in place
 * of the form, an item's outcome, the summary of what will be sent, the draws this browser
 * remembers. The controller, the draw (draw.js) and the submission (send.js) all show through it.
 *
 * The answer kinds (answers.js) are loaded with the first answer, or at once where the page has
 * something to put in words already: {@link loadAnswers}.
 * @module view
 */
import { rememberedBit } from "./memo.js";

/**
 * The answer kinds, loaded once and kept on the page.
 * @param {import("./survey.js").Page} page
 * @returns {Promise<typeof import("./answers.js").answerOf>}
 */
export async function loadAnswers(page) {
  page.answerOf ??= (await import("./answers.js")).answerOf;
  return page.answerOf;
}

/**
 * Show the notice `id` in place of the form (and of the consent text).
 * @param {string} id
 */
export function showNotice(id) {
  document.getElementById("survey-form").hidden = true;
  const consent = document.getElementById("consent");
  if (consent) consent.hidden = true;
  for (const other of ["already-answered", "saved", "handback"]) document.getElementById(other).hidden = true;
  document.getElementById(id).hidden = false;
}

/**
 * Uncheck (or empty) the true answers; `locked` also disables the inputs and the Spin button.
 * @param {import("./survey.js").QuestionView} view
 * @param {boolean} locked
 */
export function clearTruth(view, locked) {
  for (const input of view.root.querySelectorAll("fieldset.truth input")) {
    input.checked = false;
    if (input.type === "number") input.value = "";
    if (input.type === "range") input.value = input.min;
    if (locked) input.disabled = true;
  }
  if (!locked) return;
  view.button.disabled = true;
  // Drawn: its report is sent, so it can no longer be skipped.
  if (view.skip) {
    view.skip.checked = false;
    view.skip.disabled = true;
    view.skip.closest(".skip").hidden = true;
  }
}

/** An item's outcome: what will be reported, and why (drawn now, remembered, sent as given). */
export function showItem(page, question, box, value, why) {
  box.dataset.state = "done";
  // The value wheel's size would tell the number: it goes once the report is shown.
  box.querySelector(".value-wheel")?.replaceChildren();
  box.dataset.reported = String(value);
  const words = page.answerOf(question).words(question, value, page.text);
  box.querySelector(".outcome").textContent = `${page.text.willReport} ${words}. ${why}`;
}

/** What a remembered draw must have been drawn under to be replayed for `question`. */
export function paramsOf(page, question) {
  const params = { epsilon: question.epsilon, procedure: question.drawnUnder };
  return page.answerOf(question).params(question, params);
}

/** The remembered report of `item`, if it fits the question as it is now. */
export function rememberedFor(page, question, memo, item) {
  return page.answerOf(question).remembered(question, rememberedBit(memo, item, paramsOf(page, question)));
}

/**
 * Show the questions this browser already drew, as reported bits only.
 * @param {import("./survey.js").Page} page
 * @param {import("./memo.js").Memo} memo
 */
export async function showRemembered(page, memo) {
  // Only a question's own draws (the memo also keeps a condition, orders, the page).
  const drawn = page.config.questions.some((question) => question.items.some((item) => memo.reported.has(item)));
  if (drawn) await loadAnswers(page);
  for (const question of drawn ? page.config.questions : []) {
    const view = page.views.get(question.id);
    if (!view || page.settled.has(question.id)) continue;
    const bits = question.items.map((item) => rememberedFor(page, question, memo, item));
    if (bits.some((bit) => bit === undefined)) continue;
    showSettled(page, question, bits, page.text.remembered);
  }
  updateSummary(page);
}

/**
 * Show `question` answered, never to be asked again: each item's report (`bits`, in the order of
 * its items) with why it is there (remembered, or kept as given).
 */
export function showSettled(page, question, bits, why) {
  const view = page.views.get(question.id);
  page.settled.add(question.id);
  page.skipped.delete(question.id);
  clearTruth(view, true);
  question.items.forEach((item, index) => {
    showItem(page, question, view.items.get(item).box, bits[index], why);
    page.reported.set(item, bits[index]);
  });
}

/** What the answer kinds read of the page: the reports shown, a direct answer, the words. */
export function contextOf(page, question) {
  const chosen = page.answerOf(question).randomized ? null : plainAnswer(page.form, question);
  // A yes/no asked directly is answered by choosing, as any form's field is: its report is the choice.
  const reportedOf = question.plain && question.items.length ? () => chosenReport(page.form, question) : (item) => page.reported.get(item);
  // A grid's rows on which "Prefer not to say" was chosen, as against rows left untouched.
  const declined = (question.rows ?? [])
    .filter((row) => plainFields(page.form, question, row).some((field) => field.type === "radio" && field.checked && field.value === ""))
    .map((row) => row.id);
  return { reportedOf, chosen, declined, text: page.text };
}

/**
 * A yes/no question asked directly, as its form holds it: 1 or 0 once chosen, else undefined.
 * @returns {0 | 1 | undefined}
 */
export function chosenReport(form, question) {
  const chosen = form.querySelector(`input[name="${CSS.escape(`report-${question.id}`)}"]:checked`);
  return chosen ? (chosen.value === "1" ? 1 : 0) : undefined;
}

/** The name of a question's plain fields; each row of a grid has its own. */
const fieldName = (question, row) => `direct-${question.id}${row ? `.${row.id}` : ""}`;

/** The fields of a question asked plainly (or of one row of a grid): radio buttons, or a box. */
export const plainFields = (form, question, row = null) => [...form.querySelectorAll(`[name="${CSS.escape(fieldName(question, row))}"]`)];

/** The value a group of plain fields holds: the chosen option's id or the words written. */
function fieldsValue(fields) {
  const field = fields.find((input) => input.type !== "radio" || input.checked);
  return field?.value.trim() || null;
}

/**
 * A question asked plainly, as its form holds it: the chosen option's id or the words written, or
 * null for none ("prefer not to say", a blank box); for a grid, each answered row's option id by
 * row id, or null when no row is answered.
 * @returns {string | Record<string, string> | null}
 */
export function plainAnswer(form, question) {
  if (!question.rows) return fieldsValue(plainFields(form, question));
  const answered = Object.fromEntries(
    question.rows.map((row) => [row.id, fieldsValue(plainFields(form, question, row))]).filter(([, value]) => value !== null),
  );
  return Object.keys(answered).length ? answered : null;
}

/** Put a kept plain answer back in its form (a grid's: one `row` at a time): check its option, or fill its box. */
export function restorePlainAnswer(form, question, value, row = null) {
  for (const field of plainFields(form, question, row)) {
    if (field.type !== "radio") field.value = value;
    else if (field.value === value) field.checked = true;
  }
}

/** Whether a plain answer is whole: given, and for a grid given on every row. */
const isWhole = (question, answer) => answer !== null && (!question.rows || question.rows.every((row) => Object.hasOwn(answer, row.id)));

/**
 * Whether a question is ready to send: skipped or not shown (display logic), or every item
 * reported; a direct question has nothing to wait for unless it is required and nothing is
 * chosen yet.
 */
export function isDone(page, question) {
  if (page.skipped.has(question.id) || page.hidden?.has(question.id)) return true;
  if (question.plain && question.items.length) return !question.required || chosenReport(page.form, question) !== undefined;
  if (!question.items.length) {
    // A number outside its range, or off its steps, is not an answer yet.
    const fields = (question.rows ?? [null]).flatMap((row) => plainFields(page.form, question, row));
    return fields.every((field) => field.checkValidity()) && (!question.required || isWhole(question, plainAnswer(page.form, question)));
  }
  return question.items.every((item) => page.reported.has(item));
}

/** Whether every question is ready to send: answered, or skipped. */
export function allSpun(page) {
  return page.config.questions.every((question) => isDone(page, question));
}

/** The summary of what will be sent, and the Submit button, ready once every item is. */
export function updateSummary(page) {
  const { config, form } = page;
  // A questionnaire of pages decides first what is shown (pages.js).
  page.layout?.();
  // A problem said at Next or Submit goes once it is answered (problems.js).
  page.recheck?.();
  const done = allSpun(page);
  form.querySelector(".summary .pending").hidden = done;
  // Not disabled: pressed before every question is answered, it says which one waits and why.
  const submit = document.getElementById("submit-button");
  submit.disabled = false;
  submit.toggleAttribute("data-waiting", !done);
  // The words wait until the summary shows (a survey of pages: its last page) and their module is
  // there; a page that needs them loads it.
  const described = config.questions.filter((question) => isDone(page, question) && !page.hidden?.has(question.id));
  if (form.querySelector(".summary").hidden) return;
  if (described.length && !page.answerOf) {
    loadAnswers(page).then(() => updateSummary(page));
    return;
  }
  // In the order the questions are shown (a randomized page's drawn order).
  const shownOrder = [...form.querySelectorAll("section[data-question]")].map((root) => root.dataset.question);
  const position = (question) => shownOrder.indexOf(question.id);
  document.getElementById("report-summary").replaceChildren(
    ...described
      .sort((first, second) => position(first) - position(second))
      .map((question) => {
        const entry = document.createElement("li");
        const root = form.querySelector(`section[data-question="${CSS.escape(question.id)}"]`);
        const title = root.querySelector("h2, h3").textContent.trim();
        const parts = page.skipped.has(question.id)
          ? [page.text.skipped]
          : page.answerOf(question).summary(question, contextOf(page, question));
        entry.textContent = `${title} → ${parts.join(", ")}`;
        entry.dataset.question = question.id;
        return entry;
      }),
  );
}
