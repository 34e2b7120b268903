/**
 * The submission, loaded with the first spin (or at once where a response may wait to be sent):
 * the body, its entry in the outbox, the courier that sends it, and what the page shows after.
 *
 * A finished response goes into the outbox (courier.js) before it is sent, with the submission id
 * drawn with its first report: a lost reply or a dead network costs nothing, and the response is
 * sent again until the server has it, and stored once.
 *
 * Everything Submit needs comes with this module, which loads with the first spin: a network lost
 * after that cannot leave Submit without the code that checks the answers or keeps the response.
 * @module send
 */
import { createCourier } from "./courier.js";
import { commitReported, loadMemo, rememberSubmitted } from "./memo.js";
import { newEntry } from "./outbox.js";
import { readyToLeave } from "./problems.js";
import { newSubmissionId } from "./random.js";
import { contextOf, loadAnswers, showNotice } from "./view.js";

/**
 * The page's courier (and the outbox under it), created once.
 * @param {import("./survey.js").Page} page
 * @returns {import("./courier.js").Courier}
 */
export function courierOf(page) {
  // Only a field device keeps the time of its last success, for the interviewer's status.
  page.courier ??= createCourier({
    storage: page.field && page.storage,
    marks: page.storage,
    onChange: (status, stored) => showSending(page, status, stored),
  });
  return page.courier;
}

/**
 * Send the finished response: into the outbox, then to the server; on to the thank-you page, the
 * interviewer's handback, or the notice that it waits on this device.
 * @param {import("./survey.js").Page} page
 */
export async function submit(page) {
  const { config, text } = page;
  const button = document.getElementById("submit-button");
  const error = document.getElementById("submit-error");
  // Stops at the first question that waits, and says why (problems.js).
  if (!readyToLeave(page, page.config.questions)) return;
  button.disabled = true;
  error.textContent = "";
  // Screened out, or a full quota, at the last page's end: nothing is sent.
  if (page.mayFinish && !(await page.mayFinish())) return;
  const memo = loadMemo(await page.mirror(), config.slug, config.revision);
  const entry = newEntry({
    id: memo.submission ?? newSubmissionId(),
    slug: config.slug,
    url: config.submitUrl,
    revision: config.revision,
    body: answersBody(page, await loadAnswers(page)),
    device: page.field?.token ?? null,
  });
  // A respondent's own device shows a refusal at once; a field device keeps it for the interviewer.
  const { kept, sent } = await courierOf(page).send(entry, { keepRefused: Boolean(page.field) });
  if (sent.verdict === "refused" && sent.reply?.quota && !page.field) {
    // The respondent's quota filled while they answered: nothing was stored.
    const ending = await import("./ending.js");
    return ending.endSurvey(page, { why: "quota_full", where: sent.reply.quota }, () => entry.id);
  }
  if (sent.verdict === "refused" || (sent.verdict === "retry" && !kept)) {
    error.textContent = sent.verdict === "refused" ? (sent.reply?.error ?? text.submitFailed) : text.noOutbox;
    button.disabled = false;
    return;
  }
  // Stored, or kept on this device to be sent: either way this respondent is done.
  await markSubmitted(page, entry.id);
  if (page.field) return page.fieldwork.showHandback();
  if (sent.verdict !== "stored") return showSaved(false);
  // The panel's address with its parameters from this device, a panel provider's address (https,
  // checked by the server) or the thank-you page, which shows the completion code.
  const panelLink = page.panel ? page.panel.takePanelLink(config.panel, config.slug, page.storage) : null;
  window.location.assign(panelLink ?? sent.reply?.completion_url ?? config.thanksUrl);
}

/** The body to send. Object.fromEntries defines own keys, so no id can reach a prototype. */
function answersBody(page, answerOf) {
  const { config } = page;
  const answer = (question) => answerOf(question).sent(question, contextOf(page, question));
  // A skipped question, or one not shown (display logic), is left out: the server stores it as
  // skipped.
  const asked = config.questions.filter((question) => !page.skipped.has(question.id) && !page.hidden?.has(question.id));
  const answers = Object.fromEntries(asked.map((question) => [question.sentAs ?? question.id, answer(question)]));
  const body = config.conditions.length ? { condition: config.condition, answers } : { answers };
  return page.orders?.size ? { ...body, order: ordersShown(page) } : body;
}

/** The orders drawn for the randomized pages and the shuffled questions shown. */
function ordersShown(page) {
  const shownIds = new Set(page.config.questions.filter((question) => !page.hidden?.has(question.id)).map((question) => question.sentAs ?? question.id));
  const order = {};
  for (const [key, items] of page.orders) {
    const isQuestion = page.config.questions.some((question) => (question.sentAs ?? question.id) === key);
    // A page is shown where one of its questions is; a question where it is.
    if (isQuestion ? shownIds.has(key) : items.some((id) => shownIds.has(id))) order[key] = items;
  }
  return order;
}

/** Remember, in both stores, that this browser has submitted the survey under `id`. */
async function markSubmitted(page, id) {
  const { config } = page;
  const mirror = await page.mirror();
  const memo = loadMemo(mirror, config.slug, config.revision);
  if (memo.submission === null) commitReported(mirror, config.slug, config.revision, new Map(), () => id);
  // A wave of a series records what it cost this browser, for the series' ledger.
  const ledger = config.seriesLedger;
  const spent = ledger && { series: config.series, wave: ledger.wave, epsilon: ledger.fresh };
  rememberSubmitted(mirror, config.slug, config.revision, spent);
  await page.share(mirror.value);
}

/**
 * A respondent's own browser that has submitted: sent already, or still waiting to be sent.
 * @param {import("./survey.js").Page} page
 * @param {import("./memo.js").Memo} memo
 */
export async function showAnswered(page, memo) {
  const waiting = (await courierOf(page).entry(memo.submission))?.state === "waiting";
  if (waiting) showSaved(false);
  else showNotice("already-answered");
}

/** The response waits on this device (or, once `sent`, has reached the server). */
function showSaved(sent) {
  showNotice("saved");
  document.getElementById("saved-waiting").hidden = sent;
  document.getElementById("saved-sent").hidden = !sent;
  // Nothing waits once sent: the warning that the browser may delete what waits goes.
  if (sent) document.getElementById("persist-refused").hidden = true;
  else askToKeepStorage();
  document.getElementById("saved").focus();
}

/** Ask the browser not to evict the outbox under storage pressure; say so when it will not promise. */
export async function askToKeepStorage() {
  const persisted = await navigator.storage?.persist?.().catch(() => false);
  document.getElementById("persist-refused").hidden = persisted !== false;
}

/** What the courier reports: the device's queue for the interviewer, and this response's fate. */
function showSending(page, status, stored) {
  const { config, text } = page;
  const memo = loadMemo(page.storage, config.slug, config.revision);
  if (!page.field) {
    if (memo.submission && stored.has(memo.submission) && !document.getElementById("saved").hidden) showSaved(true);
    return;
  }
  const time = status.lastSync === null ? text.neverSent : new Date(status.lastSync).toLocaleString();
  document.getElementById("field-status").textContent = text.fieldStatus
    .replace("{waiting}", String(status.waiting))
    .replace("{time}", time);
  const refusals = document.getElementById("field-refusals");
  refusals.hidden = status.refused.length === 0;
  refusals.replaceChildren(
    ...status.refused.map(({ status: code, reason }) => {
      const item = document.createElement("li");
      item.textContent = text.refusedItem.replace("{status}", String(code)).replace("{reason}", reason ?? "");
      return item;
    }),
  );
}
