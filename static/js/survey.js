/**
 * The respondent's page: choose the true answer, spin, see what will be reported, submit.
 *
 * One draw per item, whatever the respondent does: pressing Spin takes this survey's cross-tab
 * lock, re-reads what this browser already drew (from IndexedDB, which every tab sees at once, and
 * local storage), draws only what is missing and writes the reported bits to both before anything
 * moves. A reload at any moment of the animation, a
 * second tab or Back finds them there and shows them instead of drawing again. The true answer is
 * read from the form at that moment, then the form is cleared; it is never stored or sent.
 *
 * A finished response goes into the outbox (courier.js) before it is sent, with the submission id
 * drawn with its first report: a lost reply or a dead network costs nothing, and the response is
 * sent again until the server has it, and stored once. On a shared field device (field.js), the
 * interviewer's PIN starts the next respondent, with a fresh memo.
 *
 * A question of a series with a bound over all waves (ε∞) spins on the permanent report this
 * device keeps for the true value (permanent.js), drawn once per series and item, for every
 * value, under the series' lock and committed before the wave's draw.
 *
 * An experiment's condition is drawn and kept first (condition.js); a question asked directly
 * (`plain`) is answered as given and kept nowhere but the page.
 *
 * The owner's preview (`config.preview`) spins the same way but remembers nothing beyond the page
 * and sends nothing: it neither reads nor writes this browser's memo of the real survey.
 * @module survey
 */
import { createCoin } from "./coin.js";
import {
  browserStorage,
  commitReported,
  forgetMemo,
  loadMemo,
  memoKey,
  mergeMemos,
  openMemo,
  rememberedBit,
  rememberSubmitted,
  sharedDelete,
  sharedGet,
  sharedPut,
  spentInSeries,
  storedMarks,
} from "./memo.js";
import { answerOf } from "./answers.js";
import { checkedValue } from "./procedure.js";
import { newSubmissionId } from "./random.js";
import { createSpinner } from "./spinner.js";
import { pageAsSent } from "./start.js";

const config = JSON.parse(document.getElementById("survey-config").textContent);
const text = config.messages;
const preview = Boolean(config.preview);
const storage = preview ? null : browserStorage();
const form = document.getElementById("survey-form");
/** The shared field device this browser is set up as, or null (a respondent's own device). */
let field = null;
/** field.js, loaded only on a field device. @type {typeof import("./field.js") | null} */
let fieldModule = null;
/** die.js, loaded only where a question is answered with a die. @type {typeof import("./die.js") | null} */
let dieModule = null;
/** @type {Promise<import("./courier.js").Courier> | null} */
let courierLoading = null;

/**
 * The courier (and the outbox under it), loaded when a response may wait to be sent: at once on a
 * field device or where one waits, else from the first spin, so that it is there at submission.
 * @returns {Promise<import("./courier.js").Courier>}
 */
function loadCourier() {
  courierLoading ??= import("./courier.js").then(({ createCourier }) =>
    // Only a field device keeps the time of its last success, for the interviewer's status.
    createCourier({ storage: field && storage, marks: storage, onChange: showSending }),
  );
  // A failed load (the network went) is tried again at the next need.
  courierLoading.catch(() => {
    courierLoading = null;
  });
  return courierLoading;
}

/**
 * @typedef {object} ItemView
 * @property {HTMLElement} box
 * @property {import("./spinner.js").Spinner | null} spinner None where the respondent draws with
 *   their own die or coin, or needs none: the page then records the report only.
 * @property {import("./coin.js").Coin | null} coin
 * @property {import("./die.js").Die | null} die
 * @property {HTMLElement | null} valueBox A number question's value wheel, drawn once the value
 *   is known and removed once the report is shown.
 */
/**
 * @typedef {object} QuestionView
 * @property {HTMLElement} root
 * @property {HTMLButtonElement} button
 * @property {HTMLElement} hint
 * @property {Map<string, ItemView>} items
 */

/** Reported bit (or single-choice option id) by item, once this page shows it. @type {Map<string, 0 | 1 | string>} */
const reported = new Map();
/** Questions drawn or remembered on this page: never drawn again. @type {Set<string>} */
const settled = new Set();
/** @type {Map<string, QuestionView>} */
const views = new Map();

if (form) start();

async function start() {
  const memo = openMemo(storage, config.slug, config.revision);
  const marks = preview ? { fieldDevice: false, outboxWaiting: false } : storedMarks(storage, config.slug);
  if (marks.fieldDevice) {
    fieldModule = await import("./field.js");
    field = fieldModule.fieldDevice(storage, config.slug);
  }
  if (form.querySelector(".die")) dieModule = await import("./die.js");
  if (!preview) startFieldwork(marks.outboxWaiting || memo.submitted);
  showSeriesLedger();
  if (memo.submitted) return field ? showHandback() : showAnswered(memo);
  // The signed cookie (config.answered) says so even when this browser's storage was cleared;
  // a field device answers for many people, and no cookie stops it.
  if (config.answered && !field) return showNotice("already-answered");
  if (memo.newer) return showNotice("survey-changed");
  askConsent();
  if (!config.conditions.length) return begin(memo);
  // Only an experiment's page loads it: the condition is drawn and kept before its questions show.
  import("./condition.js")
    .then((experiment) => experiment.chooseCondition(config, preview, { lock: withSurveyLock, mirror: mirrorStorage, share, newId: newSubmissionId }))
    .then((condition) => {
      config.questions = config.questions.filter((question) => !question.condition || question.condition === condition);
      config.condition = condition;
      for (const section of form.querySelectorAll("section[data-condition]")) {
        if (section.dataset.condition === condition) section.hidden = false;
        else section.remove();
      }
      begin(memo);
    });
}

/** Set up the page's questions (an experiment's, its condition's) and what they listen to. */
function begin(memo) {
  for (const question of spunQuestions()) views.set(question.id, setUpQuestion(question));
  // A direct answer is sent as chosen: the summary shows it as soon as it changes.
  form.addEventListener("change", (event) => {
    if (event.target.name?.startsWith("direct-")) updateSummary();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (preview) showPreviewNotSent();
    else submit();
  });
  window.addEventListener("pagehide", () => {
    for (const view of views.values()) clearTruth(view, false);
  });
  updateSummary();
  if (preview) return;
  showRemembered(memo);
  // What another tab draws appears here at once; a page restored by Back is brought up to date.
  window.addEventListener("storage", (event) => {
    if (event.key === memoKey(config.slug)) catchUp();
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) catchUp();
  });
  // A draw another tab made may have reached the shared store before this tab's local storage.
  withSurveyLock(mirrorStorage).then(catchUp);
}

/** What the waves of this series this browser answered cost, in the privacy section. */
async function showSeriesLedger() {
  const target = document.getElementById("series-ledger-figures");
  if (!config.seriesLedger || !target) return;
  const { seriesCost } = await import("./ledger.js");
  // A shared field device's memos of other waves are other people's: count this wave alone.
  const spent = field ? [] : spentInSeries(storage, config.series).filter((entry) => entry.slug !== config.slug);
  const cost = seriesCost(config.seriesLedger, spent);
  const format = new Intl.NumberFormat(document.documentElement.lang || undefined, { maximumFractionDigits: 4 });
  target.textContent = text.seriesLedger
    .replace("{waves}", cost.waves.join(", "))
    .replace("{fresh}", format.format(cost.fresh))
    .replace("{kept}", format.format(cost.kept));
  target.hidden = false;
}

function showPreviewNotSent() {
  document.getElementById("submit-error").textContent = text.previewNotSent;
}

function catchUp(source = storage) {
  const memo = loadMemo(source, config.slug, config.revision);
  if (memo.submitted) return field ? showHandback() : showAnswered(memo);
  if (memo.newer) return showNotice("survey-changed");
  showRemembered(memo);
}

/** The questions answered through a spinner (a direct question is answered as chosen). */
function spunQuestions() {
  return config.questions.filter((question) => answerOf(question).randomized);
}

/** A direct question's chosen option id, or null for "prefer not to say". */
function directAnswer(question) {
  const chosen = form.querySelector(`input[name="${CSS.escape(`direct-${question.id}`)}"]:checked`);
  return chosen?.value ? chosen.value : null;
}

function showNotice(id) {
  form.hidden = true;
  const consent = document.getElementById("consent");
  if (consent) consent.hidden = true;
  for (const other of ["already-answered", "saved", "handback"]) document.getElementById(other).hidden = true;
  document.getElementById(id).hidden = false;
}

/**
 * A survey with a consent text shows it first: the questions appear only once the respondent
 * agrees; declining leaves a short page and sends nothing. Nothing about it is sent or stored.
 */
function askConsent() {
  const box = document.getElementById("consent");
  if (!config.consent || !box) return;
  form.hidden = true;
  box.hidden = false;
  // Disabled in the page as sent, until this code is there to answer them.
  for (const id of ["consent-agree", "consent-decline"]) document.getElementById(id).disabled = false;
  document.getElementById("consent-agree").addEventListener("click", () => {
    box.hidden = true;
    form.hidden = false;
    const first = form.querySelector("h2");
    first?.setAttribute("tabindex", "-1");
    first?.focus();
  });
  document.getElementById("consent-decline").addEventListener("click", () => {
    box.hidden = true;
    const declined = document.getElementById("consent-declined");
    declined.hidden = false;
    declined.focus();
  });
}

/** @returns {QuestionView} */
function setUpQuestion(question) {
  const root = form.querySelector(`section[data-question="${CSS.escape(question.id)}"]`);
  const percent = `${Math.round(question.lightFraction * 100)}%`;
  const items = new Map();
  for (const item of question.items) {
    const box = root.querySelector(`[data-item="${CSS.escape(item)}"]`);
    const coinBox = box.querySelector(".coin");
    const dieBox = box.querySelector(".die");
    const wheel = box.querySelector(".spinner");
    /** The wheel with `sectors` (a design's) or the spinner's light share. */
    const drawWheel = (sectors, light) => {
      const share = `${Math.round(light * 100)}%`;
      return createSpinner(wheel, light, {
        label: text.spinnerLabel.replace("{percent}", share),
        lightLabel: share,
        lightWord: text.lightWord,
        sectorWords: { yes: text.forcedYes, no: text.forcedNo },
      }, sectors);
    };
    items.set(item, {
      box,
      spinner: wheel && drawWheel(question.armSectors[0] ?? question.sectors, question.lightFraction),
      // Cheating detection shows the wheel of the arm drawn for the respondent.
      showArm: (arm) => drawWheel(question.armSectors[arm], question.armSectors[arm][0].share),
      coin: coinBox && createCoin(coinBox, { heads: text.heads, tails: text.tails, label: text.coinLabel }),
      die: dieBox && dieModule.createDie(dieBox, question.options.length, {
        label: text.dieLabel.replace("{count}", String(question.options.length)),
      }),
      valueBox: box.querySelector(".value-wheel"),
    });
  }
  if (answerOf(question).ranged) keepInStep(root, question);
  const view = { root, button: root.querySelector(".spin-button"), hint: root.querySelector(".hint"), items };
  view.button.addEventListener("click", () => spinQuestion(question, view));
  // Disabled in the page as sent, until this code is there to draw (a remembered draw disables it again).
  view.button.disabled = false;
  return view;
}

/**
 * The true answer per item: a bit, or a single-choice question's option index; null when none
 * is chosen yet.
 * @returns {Map<string, number> | null}
 */
function truthOf(question, root) {
  const named = (name) => root.querySelector(`input[name="${CSS.escape(name)}"]`);
  const picked = (name) => root.querySelector(`input[name="${CSS.escape(name)}"]:checked`);
  // The respondent's own die or coin, or a design that draws nothing: the report itself, never the truth.
  if (question.mode === "report") {
    const report = picked(`report-${question.id}`);
    return report ? new Map([[question.id, report.value === "1" ? 1 : 0]]) : null;
  }
  return answerOf(question).truth(question, { named, picked });
}

async function spinQuestion(question, view) {
  const truth = truthOf(question, view.root);
  if (!truth) {
    view.hint.textContent = missingHint(question, view.root);
    return;
  }
  view.hint.textContent = "";
  view.button.disabled = true;
  // Fetched while the respondent answers, so that submitting needs no network but the sending.
  if (!preview) loadCourier().catch(() => {});
  const outcome = await withSurveyLock(() => drawOnce(question, truth));
  // Drawn and committed: the true answer has done its work and leaves the screen.
  clearTruth(view, true);
  if (outcome.changed) return showNotice("survey-changed");
  await Promise.all(
    [...view.items].map(async ([item, { box, spinner, coin, die, showArm, valueBox }]) => {
      const result = outcome.draws.get(item);
      if (!result) return showItem(question, box, outcome.remembered.get(item), text.remembered);
      if (!spinner) return showItem(question, box, reportOf(question, result), question.plain ? text.sentAsGiven : text.recorded);
      box.dataset.state = "spinning";
      if (typeof result.valuePosition === "number") await spinValueWheel(valueBox, result, outcome.shares.get(item));
      const wheel = typeof result.arm === "number" ? showArm(result.arm) : spinner;
      await wheel.spinTo(result.position);
      const flipped = typeof result.heads === "boolean";
      if (flipped) await coin.flip(result.heads);
      if (typeof result.die === "number") await die.rollTo(result.diePosition);
      box.dataset.outcome = result.light ? "light" : "dark";
      box.dataset.coin = flipped ? (result.heads ? "heads" : "tails") : "";
      const which = typeof result.arm === "number" ? `${text.wheel.replace("{number}", String(result.arm + 1))} ` : "";
      showItem(question, box, reportOf(question, result), which + text.decided);
    }),
  );
  for (const [item, result] of outcome.draws) reported.set(item, reportOf(question, result));
  for (const [item, bit] of outcome.remembered) reported.set(item, bit);
  view.root.querySelector(".outcome").focus();
  updateSummary();
}

/** What is still to be chosen before a draw: the report, the true answer, or the innocuous one. */
function missingHint(question, root) {
  if (question.mode === "report") return text.chooseReport;
  if (answerOf(question).ranged) return numberHint(question.scale);
  const truth = root.querySelector(`input[name="${CSS.escape(`truth-${question.id}`)}"]:checked`);
  return truth ? text.chooseInnocuous : text.chooseFirst;
}

/**
 * Run `task` holding this survey's lock, so that two tabs never draw the same item; where the
 * Web Locks API is missing (an insecure origin), run it at once.
 * @template T
 * @param {() => T} task
 * @returns {Promise<T>}
 */
function withSurveyLock(task) {
  const locks = globalThis.navigator?.locks;
  return locks ? locks.request(memoKey(config.slug), task) : Promise.resolve().then(task);
}

/**
 * Inside the lock: re-read what every tab has drawn, draw what none has yet, and commit it before
 * returning, so the first frame of any animation comes after the commit.
 */
async function drawOnce(question, truth) {
  const mirror = await mirrorStorage();
  const memo = loadMemo(mirror, config.slug, config.revision);
  if (memo.newer) return { changed: true };
  const params = paramsOf(question);
  const remembered = new Map();
  const draws = new Map();
  // A number's value wheel is drawn to scale while it spins, then leaves the page.
  const shares = answerOf(question).ranged ? truth : new Map();
  const missing = [...truth.keys()].filter((item) => rememberedFor(question, memo, item) === undefined);
  const kept = question.permanent && missing.length ? await permanentReports(question, missing) : null;
  for (const [item, value] of truth) {
    const known = rememberedFor(question, memo, item);
    // With a permanent layer the wave spins on the kept report for the true value, not on it.
    if (known === undefined) draws.set(item, drawItem(question, kept ? kept.get(item)[value] : value));
    else remembered.set(item, known);
  }
  // A question asked directly has nothing drawn to keep: its answer stays on the page alone.
  if (!question.plain) {
    commitReported(
      mirror,
      config.slug,
      config.revision,
      new Map([...draws].map(([item, result]) => [item, { bit: memoBit(reportOf(question, result)), ...params }])),
      newSubmissionId,
    );
  }
  // In the same task as the commit: once the report is stored, the true answer leaves the screen.
  clearTruth(views.get(question.id), true);
  await share(mirror.value);
  settled.add(question.id);
  return { changed: false, draws, remembered, shares };
}

/**
 * The permanent reports of `items` for this series, drawn where none are kept yet and committed
 * to local storage and the shared store before they are used, under the series' lock (two
 * waves open in two tabs never both draw). A preview draws them afresh and keeps nothing.
 * @returns {Promise<Map<string, number[]>>}
 */
async function permanentReports(question, items) {
  const { drawPermanent, keptReports, mergePermanent, permanentKey, readPermanent, writePermanent } = await import("./permanent.js");
  const key = permanentKey(config.series);
  const run = async () => {
    let local = null;
    try {
      local = storage?.getItem(key) ?? null;
    } catch {
      // Blocked: the shared copy alone.
    }
    const kept = readPermanent(preview ? null : mergePermanent(await sharedGet(key), local));
    const params = question.permanent;
    const found = new Map();
    for (const item of items) {
      let reports = keptReports(kept, item, params);
      if (!reports) {
        reports = drawPermanent(params.values, params.keep);
        kept.set(item, { epsilonPermanent: params.epsilonPermanent, values: params.values, labels: params.labels, reports });
      }
      found.set(item, reports);
    }
    if (!preview) {
      const value = writePermanent(kept);
      try {
        storage?.setItem(key, value);
      } catch {
        // Full or blocked: the shared copy still holds them.
      }
      await sharedPut(key, value);
    }
    return found;
  };
  const locks = globalThis.navigator?.locks;
  return locks ? locks.request(key, run) : Promise.resolve().then(run);
}

/** What a remembered draw must have been drawn under to be replayed for `question`. */
function paramsOf(question) {
  const params = { epsilon: question.epsilon, procedure: question.drawnUnder };
  return answerOf(question).params(question, params);
}

/**
 * A report as the memo keeps it: a bit, an option id, or cheating detection's arm and bit as
 * "arm:bit" (the memo holds bits and strings only).
 */
function memoBit(report) {
  return typeof report === "object" ? `${report.arm}:${report.reported}` : report;
}

/** The remembered report of `item`, if it fits the question as it is now. */
function rememberedFor(question, memo, item) {
  return answerOf(question).remembered(question, rememberedBit(memo, item, paramsOf(question)));
}

/**
 * One draw for `item`: the respondent's own report as given, a design's wheel, a yes/no spin, or
 * a single-choice spin and die.
 */
function drawItem(question, value) {
  if (question.mode === "report") return { own: true, reported: value };
  return answerOf(question).draw(question, value);
}

/**
 * What a draw reports, as it is sent: a bit, the id of the option the single-choice draw reports,
 * or cheating detection's arm with its bit.
 */
function reportOf(question, result) {
  return answerOf(question).report(question, result);
}

/**
 * This survey's memo as every tab sees it: the shared copy (IndexedDB) when there is one, else
 * local storage. Writes go to local storage at once (for this tab's reloads); the caller puts the
 * final value in the shared store.
 * @returns {Promise<{value: string | null, getItem: () => string | null, setItem: (key: string, value: string) => void}>}
 */
async function mirrorStorage() {
  const key = memoKey(config.slug);
  let local = null;
  try {
    local = storage?.getItem(key) ?? null;
  } catch {
    // Blocked: the shared copy alone.
  }
  const mirror = {
    value: preview ? null : mergeMemos(await sharedGet(key), local),
    getItem() {
      return this.value;
    },
    setItem(_key, value) {
      this.value = value;
      try {
        storage?.setItem(key, value);
      } catch {
        // Full or blocked: the shared copy still holds it.
      }
    },
  };
  if (mirror.value !== local && mirror.value !== null) mirror.setItem(key, mirror.value);
  return mirror;
}

/** Put this survey's memo in the store every tab reads (never a preview's). */
async function share(value) {
  if (value !== null && !preview) await sharedPut(memoKey(config.slug), value);
}

/** Show the questions this browser already drew, as reported bits only. */
function showRemembered(memo) {
  for (const question of spunQuestions()) {
    if (settled.has(question.id)) continue;
    const bits = question.items.map((item) => rememberedFor(question, memo, item));
    if (bits.some((bit) => bit === undefined)) continue;
    settled.add(question.id);
    const view = views.get(question.id);
    clearTruth(view, true);
    question.items.forEach((item, index) => {
      showItem(question, view.items.get(item).box, bits[index], text.remembered);
      reported.set(item, bits[index]);
    });
  }
  updateSummary();
}

/** Uncheck (or empty) the true answers; `locked` also disables the inputs and the Spin button. */
function clearTruth(view, locked) {
  for (const input of view.root.querySelectorAll("fieldset.truth input")) {
    input.checked = false;
    if (input.type === "number") input.value = "";
    if (input.type === "range") input.value = input.min;
    if (locked) input.disabled = true;
  }
  if (locked) view.button.disabled = true;
}

function showItem(question, box, value, why) {
  box.dataset.state = "done";
  // The value wheel's size would tell the number: it goes once the report is shown.
  box.querySelector(".value-wheel")?.replaceChildren();
  box.dataset.reported = String(value);
  box.querySelector(".outcome").textContent = `${text.willReport} ${answerText(question, value)}. ${why}`;
}

/** A reported value in words: yes or no, or the reported option's text. */
function answerText(question, value) {
  return answerOf(question).words(question, value, text);
}

/** What the answer kinds read of the page: the reports shown, a direct answer, the words. */
function contextOf(question) {
  const chosen = answerOf(question).randomized ? null : directAnswer(question);
  return { reportedOf: (item) => reported.get(item), chosen, text };
}

function allSpun() {
  return config.questions.every((question) => question.items.every((item) => reported.has(item)));
}

function updateSummary() {
  const done = allSpun();
  form.querySelector(".summary .pending").hidden = done;
  document.getElementById("submit-button").disabled = !done;
  document.getElementById("report-summary").replaceChildren(
    ...config.questions
      .filter((question) => question.items.every((item) => reported.has(item)))
      .map((question) => {
        const entry = document.createElement("li");
        const root = form.querySelector(`section[data-question="${CSS.escape(question.id)}"]`);
        const title = root.querySelector("h2").textContent.trim();
        const parts = answerOf(question).summary(question, contextOf(question));
        entry.textContent = `${title} → ${parts.join(", ")}`;
        entry.dataset.question = question.id;
        return entry;
      }),
  );
}

/** The body to send. Object.fromEntries defines own keys, so no id can reach a prototype. */
function answersBody() {
  const answer = (question) => answerOf(question).sent(question, contextOf(question));
  const answers = Object.fromEntries(config.questions.map((question) => [question.sentAs ?? question.id, answer(question)]));
  return config.conditions.length ? { condition: config.condition, answers } : { answers };
}

async function submit() {
  const button = document.getElementById("submit-button");
  const error = document.getElementById("submit-error");
  if (!allSpun()) return;
  button.disabled = true;
  error.textContent = "";
  const memo = loadMemo(await mirrorStorage(), config.slug, config.revision);
  const loaded = await Promise.all([loadCourier(), import("./outbox.js")]).catch(() => null);
  if (!loaded) {
    error.textContent = text.submitFailed;
    button.disabled = false;
    return;
  }
  const [courier, { newEntry }] = loaded;
  const entry = newEntry({
    id: memo.submission ?? newSubmissionId(),
    slug: config.slug,
    url: config.submitUrl,
    revision: config.revision,
    body: answersBody(),
    device: field?.token ?? null,
  });
  // A respondent's own device shows a refusal at once; a field device keeps it for the interviewer.
  const { kept, sent } = await courier.send(entry, { keepRefused: Boolean(field) });
  if (sent.verdict === "refused") {
    error.textContent = sent.reply?.error ?? text.submitFailed;
    button.disabled = false;
    return;
  }
  if (sent.verdict === "retry" && !kept) {
    error.textContent = text.noOutbox;
    button.disabled = false;
    return;
  }
  // Stored, or kept on this device to be sent: either way this respondent is done.
  await markSubmitted(entry.id);
  if (field) return showHandback();
  if (sent.verdict === "stored") {
    // A panel provider's address (https, checked by the server) or the thank-you page, which
    // shows the completion code.
    window.location.assign(sent.reply?.completion_url ?? config.thanksUrl);
    return;
  }
  showSaved(false);
}

/** Remember, in both stores, that this browser has submitted the survey under `id`. */
async function markSubmitted(id) {
  const mirror = await mirrorStorage();
  const memo = loadMemo(mirror, config.slug, config.revision);
  if (memo.submission === null) commitReported(mirror, config.slug, config.revision, new Map(), () => id);
  // A wave of a series records what it cost this browser, for the series' ledger.
  const ledger = config.seriesLedger;
  const spent = ledger && { series: config.series, wave: ledger.wave, epsilon: ledger.fresh };
  rememberSubmitted(mirror, config.slug, config.revision, spent);
  await share(mirror.value);
}

/**
 * Send what waits in the outbox (where something may: `waiting`, or on a field device), keep the
 * survey's pages for use offline, show the device bar.
 */
function startFieldwork(waiting) {
  if (field || waiting) loadCourier().then((courier) => courier.start(), () => {});
  if (navigator.serviceWorker) {
    keepPageForOffline()
      .catch(() => {})
      .then(() => navigator.serviceWorker.register(config.serviceWorker, { scope: config.offlineScope }))
      .catch(() => {});
  }
  if (!field) return;
  document.getElementById("already-answered").hidden = true;
  if (!config.consent) form.hidden = false;
  document.getElementById("field-label").textContent = field.label;
  document.getElementById("field-bar").hidden = false;
  askToKeepStorage();
  document.getElementById("next-form").addEventListener("submit", nextRespondent);
}

/**
 * Put this page, as the server sent it, in the cache the survey's service worker keeps (named as
 * sw.js names it: `rr-offline:` and the worker's scope), before the worker is registered: the
 * worker then keeps it rather than fetching the page again.
 */
async function keepPageForOffline() {
  if (!globalThis.caches || !pageAsSent || window.location.pathname !== config.offlineScope) return;
  const cache = await caches.open(`rr-offline:${config.offlineScope}`);
  const headers = { "Content-Type": "text/html; charset=utf-8" };
  await cache.put(config.offlineScope, new Response(pageAsSent, { headers }));
}

/** A respondent's own browser that has submitted: sent already, or still waiting to be sent. */
async function showAnswered(memo) {
  const courier = await loadCourier().catch(() => null);
  const waiting = (await courier?.entry(memo.submission))?.state === "waiting";
  if (waiting) showSaved(false);
  else showNotice("already-answered");
}

/** The response waits on this device (or, once `sent`, has reached the server). */
function showSaved(sent) {
  showNotice("saved");
  document.getElementById("saved-waiting").hidden = sent;
  document.getElementById("saved-sent").hidden = !sent;
  if (!sent) askToKeepStorage();
  document.getElementById("saved").focus();
}

/** Ask the browser not to evict the outbox under storage pressure; say so when it will not promise. */
async function askToKeepStorage() {
  const persisted = await navigator.storage?.persist?.().catch(() => false);
  document.getElementById("persist-refused").hidden = persisted !== false;
}

/** The screen between two respondents of a field device: only the interviewer's PIN leads on. */
function showHandback() {
  showNotice("handback");
  document.getElementById("handback").focus();
}

async function nextRespondent(event) {
  event.preventDefault();
  const pin = document.getElementById("interviewer-pin");
  if (!(await fieldModule.checkPin(field, pin.value))) {
    document.getElementById("pin-error").textContent = text.wrongPin;
    pin.value = "";
    return;
  }
  // The last respondent's reports leave the memo (the outbox keeps what still waits to be sent).
  forgetMemo(storage, config.slug);
  await sharedDelete(memoKey(config.slug));
  // And the series' permanent reports: they stand for one person's answers, never the next one's.
  if (config.series) {
    const { permanentKey } = await import("./permanent.js");
    try {
      storage?.removeItem(permanentKey(config.series));
    } catch {
      // Blocked: nothing was kept there.
    }
    await sharedDelete(permanentKey(config.series));
  }
  window.location.reload();
}

/** What the courier reports: the device's queue for the interviewer, and this response's fate. */
function showSending(status, stored) {
  const memo = loadMemo(storage, config.slug, config.revision);
  if (!field) {
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

/** "Enter a number from 0 to 30 in steps of 1": what a number question takes. */
function numberHint(scale) {
  return text.enterNumber
    .replace("{min}", String(scale.min))
    .replace("{max}", String(scale.max))
    .replace("{step}", String(scale.step));
}

/** A number question's field and slider show the same value; the field is what is read. */
function keepInStep(root, question) {
  const field = root.querySelector(`input[name="${CSS.escape(`truth-${question.id}`)}"]`);
  const slider = root.querySelector(`input[name="${CSS.escape(`slider-${question.id}`)}"]`);
  slider.addEventListener("input", () => {
    field.value = slider.value;
  });
  field.addEventListener("input", () => {
    const value = checkedValue(field.value, question.scale);
    if (value !== null) slider.value = String(value);
    const hint = root.querySelector(".hint");
    hint.textContent = field.value === "" || value !== null ? "" : numberHint(question.scale);
  });
}

/** Draw a number's value wheel to the value's share and spin it to the drawn position. */
async function spinValueWheel(box, result, share) {
  const percent = `${Math.round(share * 100)}%`;
  const wheel = createSpinner(box, share, {
    label: text.valueWheelLabel.replace("{percent}", percent),
    lightLabel: percent,
    lightWord: text.yesWord,
  });
  await wheel.spinTo(result.valuePosition);
}
