/**
 * A questionnaire of pages, one at a time: Next and Back, a progress bar, display logic and the
 * orders drawn per respondent. Loaded only where a survey has pages, display rules or drawn orders
 * (`config.flow`).
 *
 * Before any page shows, the orders are drawn and committed to the memo (flow.js) and applied to
 * the page's sections and options. What is shown is decided from the answers given plainly
 * (flow.js), again whenever one changes; a hidden question is not asked and not sent. The page
 * the respondent is on, and their plain answers, are kept in the memo beside the reports, so a
 * reload or a second tab comes back to the same page with the same answers and draws. Next leaves
 * a page only once each of its randomized questions is spun or skipped by the respondent
 * (problems.js says which waits, and why).
 * @module pages
 */
import { chooseOrders, shownOf } from "./flow.js";
import { PLAIN_ITEM, commitReported, loadMemo } from "./memo.js";
import { chosenReport, clearTruth, isDone, plainAnswer, restorePlainAnswer, updateSummary } from "./view.js";

const AT_PAGE = "@page";
const plainItem = (id) => `${PLAIN_ITEM}${id}`;

/**
 * @typedef {object} Flow
 * @property {import("./flow.js").FlowPage[]} pages
 * @property {Record<string, import("./flow.js").Rule>} rules
 * @property {{question: string, options: string[], fixed: boolean[]}[]} shuffled
 */

/**
 * Set up the questionnaire's pages once the condition is known: orders drawn, kept answers back
 * in place, the page the respondent was on shown.
 * @param {import("./survey.js").Page} page
 * @param {() => string} newId Draws a submission id (for the memo's first commit).
 */
export async function setUpPages(page, newId) {
  const { config, form, preview } = page;
  /** @type {Flow} */
  const flow = config.flow;
  const asked = new Set(config.questions.map((question) => question.sentAs ?? question.id));
  const pages = flow.pages
    .map((each) => ({ ...each, questions: each.questions.filter((id) => asked.has(id)) }))
    .filter((each) => each.questions.length);
  const orderings = [
    ...pages.filter((each) => each.randomize).map((each) => ({ key: each.id, items: each.questions, fixed: each.questions.map(() => false) })),
    ...flow.shuffled.filter((each) => asked.has(each.question)).map((each) => ({ key: each.question, items: each.options, fixed: each.fixed })),
  ];
  page.orders = await chooseOrders(orderings, config, preview, { ...page, newId });
  for (const each of pages) if (each.randomize) each.questions = page.orders.get(each.id);
  applyOrders(page, pages);
  const memo = preview ? null : loadMemo(await page.mirror(), config.slug, config.revision);
  await restorePlainAnswers(page, memo);
  const state = { pages, flow, current: 0, newId, keeping: 0 };
  const nav = document.getElementById("page-nav");
  document.getElementById("page-next").addEventListener("click", () => move(page, state, 1));
  document.getElementById("page-back").addEventListener("click", () => move(page, state, -1));
  // survey.js updates the summary on a direct answer's change, and so the pages.
  form.addEventListener("change", (event) => {
    const name = event.target.name ?? "";
    if (name.startsWith("direct-")) keepPlainAnswer(page, state, name.slice("direct-".length), event.target.value);
    // A yes/no asked directly, kept as its choice (its report) is.
    const plainYesNo = page.config.questions.find((question) => question.plain && `report-${question.id}` === name);
    if (plainYesNo) keepPlainAnswer(page, state, plainYesNo.id, event.target.value);
  });
  // Next checks a page with problems.js (and ends the survey with ending.js where a page screens
  // out or decides a quota), fetched with the first answer rather than with the page (its first
  // load keeps its budget): a network lost after that cannot leave Next without them.
  const ends = pages.some((each) => mayEndAt(page, each));
  const fetchForNext = () => {
    import("./problems.js").catch(() => {});
    if (ends) import("./ending.js").catch(() => {});
  };
  form.addEventListener("input", fetchForNext, { once: true });
  // Every change the summary shows (a draw, a skip, a direct answer) may change what is shown.
  page.layout = () => refresh(page, state);
  // Submit stops at a question that waits, on whichever page it is (problems.js).
  page.goToQuestion = (question) => {
    const visible = visiblePages(page, state);
    const index = visible.findIndex((each) => each.questions.includes(question.sentAs ?? question.id));
    if (index >= 0 && state.pages[state.current] !== visible[index]) show(page, state, index, false);
  };
  // The last page's end comes with Submit (send.js), which asks this first.
  page.mayFinish = async () => {
    const visible = visiblePages(page, state);
    return !(await endsHere(page, state, visible[visible.length - 1]));
  };
  const kept = memo?.reported.get(AT_PAGE)?.bit;
  const start = Math.max(0, visiblePages(page, state).findIndex((each) => each.id === kept));
  nav.hidden = false;
  show(page, state, start, false);
}

/** Put each randomized page's questions, and each shuffled question's options, in their drawn order. */
function applyOrders(page, pages) {
  const { form, config } = page;
  for (const each of pages) {
    const section = form.querySelector(`section.page[data-page="${CSS.escape(each.id)}"]`);
    const end = section.querySelector(".page-end");
    for (const id of each.questions) section.insertBefore(questionRoot(form, id, config), end);
  }
  for (const question of config.questions) {
    const order = page.orders.get(question.sentAs ?? question.id);
    if (!order) continue;
    const root = form.querySelector(`section[data-question="${CSS.escape(question.id)}"]`);
    const holders = new Map([...root.querySelectorAll("[data-option]")].map((holder) => [holder.dataset.option, holder]));
    const last = [...holders.values()].at(-1);
    const anchor = last.nextSibling;
    const parent = last.parentElement;
    for (const id of order) parent.insertBefore(holders.get(id), anchor);
    // The die's faces and the options' numbers follow the order shown.
    question.options = order.map((id) => question.options.find((option) => option.id === id));
    question.items = question.answer === "bits" ? order.map((id) => `${question.id}.${id}`) : question.items;
    root.querySelectorAll(".choice-number").forEach((number, index) => (number.textContent = `${index + 1}.`));
  }
}

function questionRoot(form, id, config) {
  const question = config.questions.find((each) => (each.sentAs ?? each.id) === id);
  return form.querySelector(`section[data-question="${CSS.escape(question.id)}"]`);
}

/**
 * The answers given plainly, as display rules read them: a direct question's option id (a grid's
 * per row, as `<grid>.<row>`), a yes/no asked directly as "yes" or "no".
 * @returns {Map<string, string>}
 */
export function plainAnswers(page) {
  const plain = new Map();
  for (const question of page.config.questions) {
    if (!question.plain || page.skipped.has(question.id)) continue;
    const id = question.sentAs ?? question.id;
    if (!question.items.length) {
      const given = plainAnswer(page.form, question);
      if (given === null) continue;
      // A grid's rows are read one by one ("<grid>.<row>"); a number asked directly as a number.
      if (question.rows) for (const [row, option] of Object.entries(given)) plain.set(`${id}.${row}`, option);
      else plain.set(id, question.scale ? Number(given) : given);
    } else if (chosenReport(page.form, question) !== undefined) {
      plain.set(id, chosenReport(page.form, question) === 1 ? "yes" : "no");
    }
  }
  return plain;
}

/** The pages shown, given the plain answers; and which questions are hidden, on `page.hidden`. */
function visiblePages(page, state) {
  const shown = shownOf(state.pages, state.flow.rules, plainAnswers(page));
  page.hidden = new Set(
    page.config.questions.filter((question) => !shown.questions.has(question.sentAs ?? question.id)).map((question) => question.id),
  );
  // A page is shown where one of its questions is.
  return state.pages.filter((each) => shown.pages.has(each.id) && each.questions.some((id) => shown.questions.has(id)));
}

/** Decide again what is shown, and update the page, its progress and its buttons (called by
 * view.js's updateSummary, before the summary). */
function refresh(page, state) {
  const visible = visiblePages(page, state);
  const currentId = state.pages[state.current]?.id;
  let index = visible.findIndex((each) => each.id === currentId);
  if (index < 0) {
    // The page the respondent was on is no longer shown: the one before it that is.
    const after = visible.findIndex((each) => state.pages.indexOf(each) > state.current);
    index = after < 0 ? visible.length - 1 : Math.max(0, after - 1);
  }
  for (const question of page.config.questions) {
    const root = page.form.querySelector(`section[data-question="${CSS.escape(question.id)}"]`);
    const hidden = page.hidden.has(question.id);
    if (hidden && !root.hidden) clearTruth(page.views.get(question.id) ?? { root, items: new Map() }, false);
    root.hidden = hidden;
  }
  renumber(page, visible);
  state.current = state.pages.indexOf(visible[index]);
  const last = index === visible.length - 1;
  const onPage = page.config.questions.filter(
    (question) => visible[index].questions.includes(question.sentAs ?? question.id) && !page.hidden.has(question.id),
  );
  const ready = onPage.every((question) => isDone(page, question));
  const next = document.getElementById("page-next");
  next.hidden = last;
  // Not disabled: pressed too soon, it says which question waits (problems.js).
  next.toggleAttribute("data-waiting", !ready);
  document.getElementById("page-back").hidden = index === 0;
  page.form.querySelector(".summary").hidden = !last;
  const progress = document.getElementById("page-progress");
  progress.max = visible.length;
  progress.value = index + 1;
  document.getElementById("page-count").textContent = page.text.pageOf.replace("{page}", String(index + 1)).replace("{pages}", String(visible.length));
  for (const each of state.pages) {
    page.form.querySelector(`section.page[data-page="${CSS.escape(each.id)}"]`).hidden = each !== visible[index];
  }
  return { visible, index };
}

/** Number the questions shown 1, 2, … in the order they are shown (a drawn order included). */
function renumber(page, visible) {
  let number = 0;
  for (const each of visible) {
    for (const id of each.questions) {
      const root = questionRoot(page.form, id, page.config);
      if (!root || root.hidden) continue;
      number += 1;
      root.querySelector(".number").textContent = `${number}.`;
    }
  }
}

/** Show the `index`th page shown; `focus` moves the focus to its heading (not on first load). */
function show(page, state, index, focus) {
  const visible = visiblePages(page, state);
  const target = visible[Math.min(index, visible.length - 1)];
  state.current = state.pages.indexOf(target);
  updateSummary(page);
  if (!page.preview) keep(page, state, new Map([[AT_PAGE, { bit: String(target.id), epsilon: 0, procedure: "page" }]]));
  if (!focus) return;
  const heading = page.form.querySelector(`section.page[data-page="${CSS.escape(target.id)}"] .page-title`);
  heading?.focus();
  heading?.scrollIntoView({ block: "start" });
}

/** Next (+1) or Back (−1). Next first asks whether the survey ends here for the respondent. */
async function move(page, state, step) {
  const { visible, index } = refresh(page, state);
  if (step > 0) {
    const next = document.getElementById("page-next");
    if (next.disabled) return;
    const onPage = page.config.questions.filter((question) => visible[index].questions.includes(question.sentAs ?? question.id));
    const { readyToLeave } = await import("./problems.js");
    if (!readyToLeave(page, onPage)) return;
    next.disabled = true; // one question to the server at a time
    const ends = await endsHere(page, state, visible[index]);
    next.disabled = false;
    if (ends) return;
  }
  show(page, state, Math.max(0, index + step), true);
  return visible;
}

/** Whether the survey may end at the end of `flowPage`: it screens out, or decides a quota. */
const mayEndAt = (page, flowPage) => Boolean(flowPage.screenOutIf) || page.config.quotas.some((quota) => quota.decidedAt === flowPage.id);

/**
 * Whether the survey ends at the end of `flowPage` (screened out, or a full quota), and if so end
 * it. Only a page that screens out or decides a quota loads ending.js.
 */
async function endsHere(page, state, flowPage) {
  if (!mayEndAt(page, flowPage) || page.preview) return false;
  const ending = await import("./ending.js");
  const ended = await ending.endingAt(page, flowPage, plainAnswers(page));
  if (ended) await ending.endSurvey(page, ended, state.newId);
  return Boolean(ended);
}

/** Keep a direct question's answer beside the reports, for a reload to find. */
function keepPlainAnswer(page, state, questionId, value) {
  if (page.preview) return;
  keep(page, state, new Map([[plainItem(questionId), { bit: value, epsilon: 0, procedure: "plain" }]]));
}

/**
 * Commit `entries` to the memo. While a commit is pending the form carries `data-keeping`, so that
 * whoever reloads on purpose (a test, a kiosk's reset) can wait for the page and answers to be kept.
 */
function keep(page, state, entries) {
  const { config, form } = page;
  state.keeping += 1;
  form.dataset.keeping = "";
  return page
    .lock(async () => {
      const stored = await page.mirror();
      commitReported(stored, config.slug, config.revision, entries, state.newId);
      await page.share(stored.value);
    })
    .finally(() => {
      state.keeping -= 1;
      if (!state.keeping) delete form.dataset.keeping;
    });
}

/** Put back the direct answers this browser kept: a direct question's, and a yes/no asked directly. */
async function restorePlainAnswers(page, memo) {
  if (!memo) return;
  for (const question of page.config.questions) {
    if (question.plain && question.items.length) {
      // Kept as the choice "1" or "0" (a memo of an earlier version kept the number).
      const kept = memo.reported.get(plainItem(question.id))?.bit;
      const radio = page.form.querySelector(`input[name="${CSS.escape(`report-${question.id}`)}"][value="${String(kept)}"]`);
      if (radio) radio.checked = true;
      continue;
    }
    if (question.items.length) continue;
    // A grid's rows are kept one by one, each under its own field's name.
    for (const row of question.rows ?? [null]) {
      const kept = memo.reported.get(plainItem(row ? `${question.id}.${row.id}` : question.id));
      if (typeof kept?.bit === "string") restorePlainAnswer(page.form, question, kept.bit, row);
    }
  }
}
