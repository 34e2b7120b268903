/**
 * One question's draw, loaded with the respondent's first answer (survey.js): read the true
 * answer, draw once under the survey's lock, commit, clear the truth, then show the spin.
 *
 * One draw per item, whatever the respondent does: pressing Spin takes this survey's cross-tab
 * lock, re-reads what this browser already drew (from IndexedDB, which every tab sees at once, and
 * local storage), draws only what is missing and writes the reported bits to both before anything
 * moves. A reload at any moment of the animation, a second tab or Back finds them there and shows
 * them instead of drawing again. The true answer is read from the form at that moment, then the
 * form is cleared; it is never stored or sent.
 *
 * A question of a series with a bound over all waves (ε∞) spins on the permanent report this
 * device keeps for the true value (permanent.js), drawn once per series and item, for every
 * value, under the series' lock and committed before the wave's draw. A question asked directly
 * is never drawn: it is answered by choosing, as a form's field is (view.js, pages.js).
 * @module draw
 */
import { answerOf } from "./answers.js";
import { createCoin } from "./coin.js";
import { commitReported, loadMemo, sharedGet, sharedPut, withLock } from "./memo.js";
import { spinTo } from "./motion.js";
import { checkedValue } from "./procedure.js";
import { newSubmissionId } from "./random.js";
import { createSpinner } from "./spinner.js";
import { clearTruth, loadAnswers, paramsOf, rememberedFor, showItem, showNotice, updateSummary } from "./view.js";

/**
 * Draw `question` once and show it: its spin, its coin or die, and what will be reported.
 * @param {import("./survey.js").Page} page
 * @param {any} question
 * @param {import("./survey.js").QuestionView} view
 */
export async function spinQuestion(page, question, view) {
  await loadAnswers(page);
  const { text } = page;
  const truth = truthOf(question, view.root);
  if (!truth) {
    view.hint.textContent = missingHint(page, question, view.root);
    return;
  }
  view.hint.textContent = "";
  view.button.disabled = true;
  // From here the draw is made: skipping is no longer offered, whatever it shows.
  if (view.skip) view.skip.disabled = true;
  // Fetched while the respondent answers, so that submitting needs no network but the sending.
  if (!page.preview) import("./send.js").then((send) => send.courierOf(page)).catch(() => {});
  const outcome = await page.lock(() => drawOnce(page, question, truth));
  // Drawn and committed: the true answer has done its work and leaves the screen.
  clearTruth(view, true);
  if (outcome.changed) return showNotice("survey-changed");
  await Promise.all(
    [...view.items].map(async ([item, { box, spinner, coinBox, die, showArm, valueBox }]) => {
      const result = outcome.draws.get(item);
      if (!result) return showItem(page, question, box, outcome.remembered.get(item), text.remembered);
      const report = reportOf(question, result);
      if (!spinner) return showItem(page, question, box, report, text.recorded);
      box.dataset.state = "spinning";
      if (typeof result.valuePosition === "number") await spinValueWheel(text, valueBox, result, outcome.shares.get(item));
      await spinTo(typeof result.arm === "number" ? showArm(result.arm) : spinner, result.position);
      const flipped = typeof result.heads === "boolean";
      if (flipped) await createCoin(coinBox, { heads: text.heads, tails: text.tails, label: text.coinLabel }).flip(result.heads);
      if (typeof result.die === "number") await die.rollTo(result.diePosition);
      box.dataset.outcome = result.light ? "light" : "dark";
      box.dataset.coin = flipped ? (result.heads ? "heads" : "tails") : "";
      const which = typeof result.arm === "number" ? `${text.wheel.replace("{number}", String(result.arm + 1))} ` : "";
      showItem(page, question, box, report, which + text.decided);
    }),
  );
  for (const [item, result] of outcome.draws) page.reported.set(item, reportOf(question, result));
  for (const [item, bit] of outcome.remembered) page.reported.set(item, bit);
  view.root.querySelector(".outcome").focus();
  updateSummary(page);
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
    const report = answerOf(question).reported(question, picked);
    return report === null ? null : new Map([[question.id, report]]);
  }
  return answerOf(question).truth(question, { named, picked });
}

/** What is still to be chosen before a draw: the report, the true answer, or the innocuous one. */
function missingHint(page, question, root) {
  if (question.mode === "report") return page.text.chooseReport;
  if (answerOf(question).ranged) return numberHint(page.text, question.scale);
  const truth = root.querySelector(`input[name="${CSS.escape(`truth-${question.id}`)}"]:checked`);
  return truth ? page.text.chooseInnocuous : page.text.chooseFirst;
}

/**
 * Inside the lock: re-read what every tab has drawn, draw what none has yet, and commit it before
 * returning, so the first frame of any animation comes after the commit.
 */
async function drawOnce(page, question, truth) {
  const { config } = page;
  const mirror = await page.mirror();
  const memo = loadMemo(mirror, config.slug, config.revision);
  if (memo.newer) return { changed: true };
  const params = paramsOf(page, question);
  const remembered = new Map();
  const draws = new Map();
  // A number's value wheel is drawn to scale while it spins, then leaves the page.
  const shares = answerOf(question).ranged ? truth : new Map();
  const missing = [...truth.keys()].filter((item) => rememberedFor(page, question, memo, item) === undefined);
  const kept = question.permanent && missing.length ? await permanentReports(page, question, missing) : null;
  for (const [item, value] of truth) {
    const known = rememberedFor(page, question, memo, item);
    // With a permanent layer the wave spins on the kept report for the true value, not on it.
    if (known === undefined) draws.set(item, drawItem(question, kept ? kept.get(item)[value] : value));
    else remembered.set(item, known);
  }
  const entries = [...draws].map(([item, result]) => [item, { bit: answerOf(question).kept(reportOf(question, result)), ...params }]);
  commitReported(mirror, config.slug, config.revision, new Map(entries), newSubmissionId);
  // In the same task as the commit: once the report is stored, the true answer leaves the screen.
  clearTruth(page.views.get(question.id), true);
  await page.share(mirror.value);
  page.settled.add(question.id);
  return { changed: false, draws, remembered, shares };
}

/**
 * The permanent reports of `items` for this series, drawn where none are kept yet and committed
 * to local storage and the shared store before they are used, under the series' lock (two
 * waves open in two tabs never both draw). A preview draws them afresh and keeps nothing.
 * @returns {Promise<Map<string, number[]>>}
 */
async function permanentReports(page, question, items) {
  const { drawPermanent, keptReports, mergePermanent, permanentKey, readPermanent, writePermanent } = await import("./permanent.js");
  const { preview, storage } = page;
  const key = permanentKey(page.config.series);
  return withLock(key, async () => {
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
  });
}

/**
 * One draw for `item`: the respondent's own report as given, a design's wheel, a yes/no spin, or
 * a single-choice spin and die.
 */
function drawItem(question, value) {
  // A report the respondent gives, with the arm kept for it where one was drawn (arm-draw.js).
  if (question.mode === "report") return { own: true, reported: value, arm: question.keptArm };
  return answerOf(question).draw(question, value);
}

/**
 * What a draw reports, as it is sent: a bit, the id of the option the single-choice draw reports,
 * or cheating detection's arm with its bit.
 */
function reportOf(question, result) {
  return answerOf(question).report(question, result);
}

/** Draw a number's value wheel to the value's share and spin it to the drawn position. */
async function spinValueWheel(text, box, result, share) {
  const percent = `${Math.round(share * 100)}%`;
  const wheel = createSpinner(box, share, {
    label: text.valueWheelLabel.replace("{percent}", percent),
    lightLabel: percent,
    lightWord: text.yesWord,
  });
  await spinTo(wheel, result.valuePosition);
}

/** "Enter a number from 0 to 30 in steps of 1": what a number question takes. */
function numberHint(text, scale) {
  return text.enterNumber
    .replace("{min}", String(scale.min))
    .replace("{max}", String(scale.max))
    .replace("{step}", String(scale.step));
}

/**
 * A number question's field and slider show the same value; the field is what is read.
 * @param {import("./survey.js").Page} page
 * @param {HTMLElement} root The question's section.
 * @param {any} question
 */
export function keepInStep(page, root, question) {
  const field = root.querySelector(`input[name="${CSS.escape(`truth-${question.id}`)}"]`);
  const slider = root.querySelector(`input[name="${CSS.escape(`slider-${question.id}`)}"]`);
  slider.addEventListener("input", () => {
    field.value = slider.value;
  });
  // The slider answers before this module arrives (a slow network): a move made then counts.
  if (field.value === "" && slider.value !== slider.defaultValue) field.value = slider.value;
  field.addEventListener("input", () => {
    const value = checkedValue(field.value, question.scale);
    if (value !== null) slider.value = String(value);
    const hint = root.querySelector(".hint");
    hint.textContent = field.value === "" || value !== null ? "" : numberHint(page.text, question.scale);
  });
}
