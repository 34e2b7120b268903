/**
 * The respondent's page: choose the true answer, spin, see what will be reported, submit.
 * The true answer is read from the form when the spinner is spun and is never stored or sent.
 * @module survey
 */
import { createCoin } from "./coin.js";
import { browserStorage, loadMemo, rememberReported, rememberSubmitted } from "./memo.js";
import { draw } from "./procedure.js";
import { createSpinner } from "./spinner.js";

const config = JSON.parse(document.getElementById("survey-config").textContent);
const text = config.messages;
const storage = browserStorage();
const form = document.getElementById("survey-form");

/** @type {Record<string, 0 | 1>} */
let reported = {};

if (form) start(loadMemo(storage, config.slug));

/** @param {import("./memo.js").Memo} memo */
function start(memo) {
  // The signed cookie (config.answered) says so even when this browser's storage was cleared.
  if (memo.submitted || config.answered) {
    form.hidden = true;
    document.getElementById("already-answered").hidden = false;
    return;
  }
  for (const question of config.questions) setUpQuestion(question, memo.reported);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });
  updateSummary();
}

function section(question) {
  return form.querySelector(`section[data-question="${CSS.escape(question.id)}"]`);
}

function items(question) {
  return question.items;
}

function setUpQuestion(question, remembered) {
  const root = section(question);
  const spinners = new Map();
  for (const item of items(question)) {
    const box = root.querySelector(`[data-item="${CSS.escape(item)}"]`);
    const percent = Math.round(question.lightFraction * 100);
    spinners.set(item, {
      box,
      spinner: createSpinner(box.querySelector(".spinner"), question.lightFraction, {
        label: text.spinnerLabel.replace("{percent}", `${percent}%`),
        lightLabel: `${percent}%`,
      }),
      coin: createCoin(box.querySelector(".coin"), { heads: text.heads, tails: text.tails, label: text.coinLabel }),
    });
  }
  const button = root.querySelector(".spin-button");
  if (items(question).every((item) => item in remembered)) {
    for (const item of items(question)) showRemembered(spinners.get(item).box, remembered[item]);
    reported = { ...reported, ...pick(remembered, items(question)) };
    lock(root, button);
    return;
  }
  button.addEventListener("click", () => spinQuestion(question, root, button, spinners));
}

function pick(source, keys) {
  return Object.fromEntries(keys.map((key) => [key, source[key]]));
}

function truthOf(question, root) {
  if (question.grouped) {
    return Object.fromEntries(
      question.options.map((option) => [
        `${question.id}.${option.id}`,
        root.querySelector(`input[name="truth-${CSS.escape(question.id)}-${CSS.escape(option.id)}"]`).checked ? 1 : 0,
      ]),
    );
  }
  const chosen = root.querySelector(`input[name="truth-${CSS.escape(question.id)}"]:checked`);
  return chosen ? { [question.id]: chosen.value === "1" ? 1 : 0 } : null;
}

async function spinQuestion(question, root, button, spinners) {
  const truth = truthOf(question, root);
  const hint = root.querySelector(".hint");
  if (!truth) {
    hint.textContent = text.chooseFirst;
    return;
  }
  hint.textContent = "";
  lock(root, button);
  const draws = Object.fromEntries(
    Object.entries(truth).map(([item, bit]) => [item, draw(bit, question.procedure, question.lightFraction)]),
  );
  await Promise.all(
    Object.entries(draws).map(async ([item, result]) => {
      const { box, spinner, coin } = spinners.get(item);
      box.dataset.state = "spinning";
      await spinner.spinTo(result.position);
      if (result.heads !== null) await coin.flip(result.heads);
      showOutcome(box, question.procedure, result);
    }),
  );
  const bits = Object.fromEntries(Object.entries(draws).map(([item, result]) => [item, result.reported]));
  rememberReported(storage, config.slug, bits);
  reported = { ...reported, ...bits };
  updateSummary();
}

function lock(root, button) {
  button.disabled = true;
  for (const input of root.querySelectorAll("fieldset.truth input")) input.disabled = true;
}

function showOutcome(box, procedure, result) {
  box.dataset.state = "done";
  box.dataset.outcome = result.light ? "light" : "dark";
  box.dataset.coin = result.heads === null ? "" : result.heads ? "heads" : "tails";
  box.dataset.reported = String(result.reported);
  let why = text.light;
  if (!result.light) why = procedure === "spinner_coin" ? (result.heads ? text.darkHeads : text.darkTails) : text.darkOpposite;
  box.querySelector(".outcome").textContent = `${why} ${text.willReport} ${answerText(result.reported)}.`;
}

function showRemembered(box, bit) {
  box.dataset.state = "done";
  box.dataset.reported = String(bit);
  box.querySelector(".outcome").textContent = `${text.remembered} ${text.willReport} ${answerText(bit)}.`;
}

function answerText(bit) {
  return bit === 1 ? text.yes : text.no;
}

function allSpun() {
  return config.questions.every((question) => items(question).every((item) => item in reported));
}

function updateSummary() {
  const list = document.getElementById("report-summary");
  const done = allSpun();
  form.querySelector(".summary .pending").hidden = done;
  document.getElementById("submit-button").disabled = !done;
  list.replaceChildren(
    ...config.questions
      .filter((question) => items(question).every((item) => item in reported))
      .map((question, index) => {
        const entry = document.createElement("li");
        const title = section(question).querySelector("h2").textContent.trim();
        const parts = question.grouped
          ? question.options.map((option) => `${option.text}: ${answerText(reported[`${question.id}.${option.id}`])}`)
          : [answerText(reported[question.id])];
        entry.textContent = `${title} → ${parts.join(", ")}`;
        entry.dataset.question = question.id;
        return entry;
      }),
  );
}

function answersBody() {
  const answers = {};
  for (const question of config.questions) {
    answers[question.id] = question.grouped
      ? Object.fromEntries(question.options.map((option) => [option.id, reported[`${question.id}.${option.id}`]]))
      : reported[question.id];
  }
  return { answers };
}

async function submit() {
  const button = document.getElementById("submit-button");
  const error = document.getElementById("submit-error");
  if (!allSpun()) return;
  button.disabled = true;
  error.textContent = "";
  try {
    const response = await fetch(config.submitUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Survey-Revision": String(config.revision) },
      credentials: "same-origin",
      body: JSON.stringify(answersBody()),
    });
    if (response.status === 201) {
      rememberSubmitted(storage, config.slug);
      window.location.assign(config.thanksUrl);
      return;
    }
    const body = await response.json().catch(() => ({}));
    error.textContent = body.error ?? text.submitFailed;
  } catch {
    error.textContent = text.offline;
  }
  button.disabled = false;
}
