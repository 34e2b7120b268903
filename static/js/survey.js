/**
 * The respondent's page: choose the true answer, spin, see what will be reported, submit.
 *
 * This controller sets the page up and loads the rest as it is needed: the draw (draw.js) with
 * the first answer, the submission and its outbox (send.js) with the first spin, a field device's
 * screens (fieldwork.js), an experiment's condition (condition.js), a series' ledger (ledger.js)
 * and the die (die.js) only where the survey has them. What the page shows is view.js's.
 *
 * An experiment's condition is drawn and kept first; a question asked directly is answered as
 * given. The owner's preview (`config.preview`) spins the same way but remembers nothing beyond
 * the page and sends nothing: it neither reads nor writes this browser's memo of the real survey.
 * @module survey
 */
import { ENDED_ITEM, browserStorage, loadMemo, memoKey, mirrorMemo, openMemo, shareMemo, spentInSeries, storedMarks, withLock } from "./memo.js";
import { createSpinner } from "./spinner.js";
import { clearTruth, loadAnswers, showNotice, showRemembered, updateSummary } from "./view.js";

/**
 * @typedef {object} ItemView
 * @property {HTMLElement} box
 * @property {import("./spinner.js").Spinner | null} spinner None where the respondent draws with
 *   their own die or coin, or needs none: the page then records the report only.
 * @property {(arm: number) => import("./spinner.js").Spinner} showArm Cheating detection: the
 *   wheel of the arm drawn, in place of the first.
 * @property {HTMLElement | null} coinBox Where the coin appears when it is flipped.
 * @property {import("./die.js").Die | null} die
 * @property {HTMLElement | null} valueBox A number question's value wheel, drawn once the value
 *   is known and removed once the report is shown.
 */
/**
 * @typedef {object} QuestionView
 * @property {HTMLElement} root
 * @property {HTMLButtonElement} button
 * @property {HTMLElement} hint
 * @property {HTMLInputElement | null} skip "Skip this question", on an optional question until
 *   it is spun.
 * @property {Map<string, ItemView>} items
 */
/**
 * What the page's modules share, made once here and passed to each: no module keeps page state
 * of its own.
 * @typedef {object} Page
 * @property {any} config The page's JSON (`#survey-config`).
 * @property {string | null} pageAsSent The page as the server sent it, kept for use offline.
 * @property {Record<string, string>} text Its messages, in the page's language.
 * @property {boolean} preview
 * @property {Storage | null} storage
 * @property {HTMLFormElement} form
 * @property {{token: string, label: string} | null} field The shared field device this browser
 *   is set up as, or null (a respondent's own device).
 * @property {typeof import("./fieldwork.js") | null} fieldwork Loaded only on a field device.
 * @property {typeof import("./answers.js").answerOf | null} answerOf Loaded by view.js's loadAnswers.
 * @property {import("./courier.js").Courier | null} courier Made by send.js's courierOf.
 * @property {Map<string, QuestionView>} views
 * @property {Map<string, 0 | 1 | string | object>} reported Reported bit (or option id) by item,
 *   once this page shows it.
 * @property {Set<string>} settled Questions drawn or remembered on this page: never drawn again.
 * @property {Set<string>} skipped Questions the respondent chose to skip before spinning: nothing
 *   is drawn or sent for them.
 * @property {Set<string>} hidden Questions display logic hides from this respondent (pages.js):
 *   not asked and not sent.
 * @property {Map<string, string[]>} orders The orders drawn for randomized pages and shuffled
 *   questions, by page or question id (pages.js); sent with the answers.
 * @property {typeof import("./panel.js") | null} panel The panel's module, where the survey is
 *   fielded on one.
 * @property {(() => void) | null} layout Decides again which pages and questions are shown
 *   (pages.js, where the survey has them); run before every update of the summary.
 * @property {(() => Promise<boolean>) | null} mayFinish Whether the respondent may submit, or the
 *   survey ends for them at the last page's end (pages.js; ending.js ends it).
 * @property {<T>(task: () => T | Promise<T>) => Promise<T>} lock Runs `task` under the survey's
 *   cross-tab lock.
 * @property {() => ReturnType<typeof mirrorMemo>} mirror The memo as every tab sees it.
 * @property {(value: string | null) => Promise<void>} share Puts it where every tab reads it.
 */

/**
 * Set the survey page up, once its code has loaded (start.js calls it, and reads the page as the
 * server sent it before any script changes it).
 * @param {string | null} pageAsSent
 */
export function run(pageAsSent) {
  const form = document.getElementById("survey-form");
  if (form) start(pageOf(form, pageAsSent));
}

/** @returns {Page} */
function pageOf(form, pageAsSent) {
  const config = JSON.parse(document.getElementById("survey-config").textContent);
  const preview = Boolean(config.preview);
  const storage = preview ? null : browserStorage();
  return {
    config,
    pageAsSent,
    text: config.messages,
    preview,
    storage,
    form,
    field: null,
    fieldwork: null,
    answerOf: null,
    courier: null,
    views: new Map(),
    reported: new Map(),
    settled: new Set(),
    skipped: new Set(),
    hidden: new Set(),
    orders: new Map(),
    layout: null,
    mayFinish: null,
    panel: null,
    lock: (task) => withLock(memoKey(config.slug), task),
    mirror: () => mirrorMemo(storage, config.slug, preview),
    share: async (value) => {
      if (!preview) await shareMemo(config.slug, value);
    },
  };
}

async function start(page) {
  const { config, preview, storage } = page;
  // A panel's parameters: kept on this device, out of the address bar, never sent (panel.js).
  if (config.panel && storage) {
    page.panel = await import("./panel.js");
    page.panel.keepPanelParameters(config.panel, config.slug, window.location, storage, window.history);
  }
  const memo = openMemo(storage, config.slug, config.revision);
  const marks = preview ? { fieldDevice: false, outboxWaiting: false } : storedMarks(storage, config.slug);
  if (marks.fieldDevice) {
    page.fieldwork = await import("./fieldwork.js");
    page.field = page.fieldwork.fieldDevice(storage, config.slug);
  }
  const dies = page.form.querySelector(".die") ? await import("./die.js") : null;
  // A remembered draw or a direct answer is put in words at once; else the words come with the draw.
  // A survey of pages shows its summary on the last page only: its words wait for it (view.js).
  const words = memo.reported.size || config.questions.some((question) => !question.items.length);
  if (words && !config.flow) await loadAnswers(page);
  if (!preview) setUpDelivery(page, marks.outboxWaiting || memo.submitted);
  showSeriesLedger(page);
  if (memo.submitted) return showAnswered(page, memo);
  if (memo.reported.has(ENDED_ITEM)) return showEndedFrom(page, memo);
  // The signed cookie (config.answered) says so even when this browser's storage was cleared;
  // a field device answers for many people, and no cookie stops it.
  if (config.answered && !page.field) return showNotice("already-answered");
  if (memo.newer) return showNotice("survey-changed");
  // Only a survey with a consent text loads its module.
  if (config.consent) (await import("./consent.js")).askConsent(page, memo);
  if (!config.conditions.length) return begin(page, memo, dies);
  // Only an experiment's page loads it: the condition is drawn and kept before its questions show.
  const [experiment, { newSubmissionId }] = await Promise.all([import("./condition.js"), import("./random.js")]);
  const condition = await experiment.chooseCondition(config, preview, { ...page, newId: newSubmissionId });
  config.questions = config.questions.filter((question) => !question.condition || question.condition === condition);
  config.condition = condition;
  for (const section of page.form.querySelectorAll("section[data-condition]")) {
    if (section.dataset.condition === condition) section.hidden = false;
    else section.remove();
  }
  begin(page, memo, dies);
}

/** The draw, loaded with the first answer (and at once for a number's field and slider). */
const loadDraw = () => import("./draw.js");
/** The submission, loaded with the first spin (and at once where a response may wait). */
const loadSend = () => import("./send.js");
/** A submission whose code failed: say so, and let the respondent press again (its id stores it once). */
const tryAgain = (page, error) => ((error.textContent = page.text.submitFailed), (document.getElementById("submit-button").disabled = false));

/**
 * Set up the page's questions (an experiment's, its condition's) and what they listen to; a
 * questionnaire of pages then draws its orders and shows the page the respondent is on.
 */
async function begin(page, memo, dies) {
  const { config, preview } = page;
  // A question that shows what was drawn for it (an arm's innocuous question, a list) draws first.
  if (config.questions.some((question) => question.drawsFirst)) await (await import("./arm-draw.js")).keepArmsOf(page);
  for (const question of config.questions) {
    if (question.items.length) page.views.set(question.id, setUpQuestion(page, question, dies));
  }
  page.form.addEventListener("input", () => loadDraw().catch(() => {}), { once: true });
  // A direct answer is sent as chosen: the summary shows it as soon as it changes; words and
  // numbers as they are typed (a required answer unlocks Next without leaving its box), and not
  // again when the box loses focus: the summary redrawn then, under a click on Submit, moved the
  // button away.
  for (const type of ["change", "input"]) {
    page.form.addEventListener(type, (event) => {
      const typed = event.target.type !== "radio";
      if (/^(direct|report)-/.test(event.target.name ?? "") && typed === (type === "input")) updateSummary(page);
      if (type === "change" && event.target.type === "number" && event.target.name.startsWith("direct-")) import("./problems.js").then((problems) => problems.checkField(page, event.target));
    });
  }
  page.form.addEventListener("submit", (event) => {
    event.preventDefault();
    const error = document.getElementById("submit-error");
    if (preview) error.textContent = page.text.previewNotSent;
    else loadSend().then((send) => send.submit(page)).catch(() => tryAgain(page, error));
  });
  window.addEventListener("pagehide", () => {
    for (const view of page.views.values()) clearTruth(view, false);
  });
  if (!preview) await showRemembered(page, memo);
  if (config.flow) await setUpFlow(page);
  if (preview) return updateSummary(page);
  // What another tab draws appears here at once; a page restored by Back is brought up to date.
  window.addEventListener("storage", (event) => {
    if (event.key === memoKey(config.slug)) catchUp(page, page.storage);
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) catchUp(page, page.storage);
  });
  // A draw another tab made may have reached the shared store before this tab's local storage.
  page.lock(page.mirror).then((mirror) => catchUp(page, mirror));
}

/** The survey ended early for this respondent (ending.js), in this tab or another. */
async function showEndedFrom(page, memo) {
  (await import("./ending.js")).showEnded(page, memo.reported.get(ENDED_ITEM).bit);
}

/** Only a survey with pages, display logic or drawn orders loads them. */
async function setUpFlow(page) {
  const [{ setUpPages }, { newSubmissionId }] = await Promise.all([import("./pages.js"), import("./random.js")]);
  await setUpPages(page, newSubmissionId);
}

/** Show what this browser drew since the page was set up: in another tab, or before Back. */
function catchUp(page, source) {
  const { config } = page;
  const memo = loadMemo(source, config.slug, config.revision);
  if (memo.submitted) return showAnswered(page, memo);
  if (memo.reported.has(ENDED_ITEM)) return showEndedFrom(page, memo);
  if (memo.newer) return showNotice("survey-changed");
  showRemembered(page, memo);
}

/** This browser has submitted: the handback on a field device, else sent or waiting (send.js). */
function showAnswered(page, memo) {
  if (page.field) return page.fieldwork.showHandback();
  loadSend().then(
    (send) => send.showAnswered(page, memo),
    () => showNotice("already-answered"),
  );
}

/** @returns {QuestionView} */
function setUpQuestion(page, question, dies) {
  const { text } = page;
  const root = page.form.querySelector(`section[data-question="${CSS.escape(question.id)}"]`);
  const items = new Map();
  for (const item of question.items) {
    const box = root.querySelector(`[data-item="${CSS.escape(item)}"]`);
    const wheel = box.querySelector(".spinner");
    const dieBox = box.querySelector(".die");
    /** The wheel with `sectors` (a design's) or the spinner's light share. */
    const drawWheel = (sectors, light) => {
      const share = `${Math.round(light * 100)}%`;
      const words = { label: text.spinnerLabel.replace("{percent}", share), lightLabel: share, lightWord: text.lightWord };
      return createSpinner(wheel, light, { ...words, sectorWords: { yes: text.forcedYes, no: text.forcedNo } }, sectors);
    };
    items.set(item, {
      box,
      spinner: wheel && drawWheel(question.armSectors[0] ?? question.sectors, question.lightFraction),
      showArm: (arm) => drawWheel(question.armSectors[arm], question.armSectors[arm][0].share),
      coinBox: box.querySelector(".coin"),
      die: dieBox && dies.createDie(dieBox, question.options.length, { label: text.dieLabel.replace("{count}", String(question.options.length)) }),
      valueBox: box.querySelector(".value-wheel"),
    });
  }
  const skip = root.querySelector(".skip-question");
  const view = { root, button: root.querySelector(".spin-button"), hint: root.querySelector(".hint"), skip, items };
  // A number's field and slider keep in step from the start.
  if (root.querySelector("input[type='range']")) loadDraw().then((draw) => draw.keepInStep(page, root, question));
  view.button.addEventListener("click", () => {
    loadDraw().then(
      (draw) => draw.spinQuestion(page, question, view),
      () => (view.hint.textContent = text.notLoaded),
    );
  });
  // Disabled in the page as sent, until this code is there to draw (a remembered draw disables it again).
  view.button.disabled = false;
  if (skip) {
    skip.disabled = false;
    skip.addEventListener("change", () => skipQuestion(page, question, view, skip.checked));
  }
  return view;
}

/**
 * Skip a question, or take the skip back, before it is spun: a skipped question draws nothing
 * and sends nothing. Once spun, its report is sent (draw.js hides the skip first).
 */
function skipQuestion(page, question, view, skipped) {
  if (page.settled.has(question.id)) return;
  if (skipped) page.skipped.add(question.id);
  else page.skipped.delete(question.id);
  view.root.dataset.skipped = skipped ? "true" : "";
  // A true answer chosen before skipping leaves the screen with the question.
  if (skipped) clearTruth(view, false);
  for (const input of view.root.querySelectorAll("fieldset.truth input")) input.disabled = skipped;
  view.button.disabled = skipped;
  view.hint.textContent = "";
  loadAnswers(page).then(() => updateSummary(page));
}

/** What the waves of this series this browser answered cost, in the privacy section. */
async function showSeriesLedger(page) {
  const { config, text } = page;
  const target = document.getElementById("series-ledger-figures");
  if (!config.seriesLedger || !target) return;
  const { seriesCost } = await import("./ledger.js");
  // A shared field device's memos of other waves are other people's: count this wave alone.
  const spent = page.field ? [] : spentInSeries(page.storage, config.series).filter((entry) => entry.slug !== config.slug);
  const cost = seriesCost(config.seriesLedger, spent);
  const format = new Intl.NumberFormat(document.documentElement.lang || undefined, { maximumFractionDigits: 4 });
  target.textContent = text.seriesLedger
    .replace("{waves}", cost.waves.join(", "))
    .replace("{fresh}", format.format(cost.fresh))
    .replace("{kept}", format.format(cost.kept));
  target.hidden = false;
}

/**
 * Send what waits in the outbox (where something may: `waiting`, or on a field device), keep the
 * survey's pages for use offline, show the device bar.
 */
function setUpDelivery(page, waiting) {
  if (page.field || waiting) loadSend().then((send) => send.courierOf(page).start(), () => {});
  if (navigator.serviceWorker) {
    keepPageForOffline(page.config, page.pageAsSent)
      .catch(() => {})
      .then(() => navigator.serviceWorker.register(page.config.serviceWorker, { scope: page.config.offlineScope }))
      .catch(() => {});
  }
  if (!page.field) return;
  page.fieldwork.showFieldBar(page);
  loadSend().then((send) => send.askToKeepStorage(), () => {});
}

/**
 * Put this page, as the server sent it, in the cache the survey's service worker keeps (named as
 * sw.js names it: `rr-offline:` and the worker's scope), before the worker is registered: the
 * worker then keeps it rather than fetching the page again.
 */
async function keepPageForOffline(config, pageAsSent) {
  if (!globalThis.caches || !pageAsSent || window.location.pathname !== config.offlineScope) return;
  const cache = await caches.open(`rr-offline:${config.offlineScope}`);
  const headers = { "Content-Type": "text/html; charset=utf-8" };
  await cache.put(config.offlineScope, new Response(pageAsSent, { headers }));
}
