/**
 * The question editor's live preview: the spinner's light share, the question's privacy cost,
 * the survey's total ε, and the margin of error for a planned number of respondents.
 * @module builder
 */
import { lightFraction, truthProbability } from "./procedure.js";
import { createSpinner } from "./spinner.js";

/**
 * The preview's numbers, computed without the network.
 * `limits` are the server's (the page config's `limits`): ε outside them shows no preview.
 * @param {{epsilon: number, procedure: string, hasOptions: boolean, optionLines: string, otherCost: number,
 *   limits: {minEpsilon: number, maxEpsilon: number}}} input
 * @returns {{light: number, truth: number, spins: number, cost: number, total: number} | null}
 */
export function previewFigures({ epsilon, procedure, hasOptions, optionLines, otherCost, limits }) {
  if (!(Number.isFinite(epsilon) && epsilon >= limits.minEpsilon && epsilon <= limits.maxEpsilon)) return null;
  const spins = hasOptions ? Math.max(1, optionLines.split("\n").filter((line) => line.trim()).length) : 1;
  const cost = spins * epsilon;
  return {
    light: lightFraction(epsilon, procedure),
    truth: truthProbability(epsilon),
    spins,
    cost,
    total: otherCost + cost,
  };
}

/**
 * Fill `{name}` placeholders.
 * @param {string} template
 * @param {Record<string, string | number>} values
 */
export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (match, name) => (name in values ? String(values[name]) : match));
}

/** @param {number} value */
const short = (value) => String(Number(value.toFixed(4)));

function start() {
  const config = JSON.parse(document.getElementById("builder-config").textContent);
  const form = document.getElementById("question-form");
  const field = (name) => form.querySelector(`[name="${name}"]:not([type="hidden"])`) ?? form.querySelector(`[name="${name}"]`);
  const planned = document.getElementById("planned");
  const out = (id) => document.getElementById(id);
  let marginRequest = 0;

  const update = () => {
    const figures = previewFigures({
      epsilon: Number.parseFloat(field("epsilon").value),
      procedure: field("procedure").value,
      hasOptions: config.typesWithOptions.includes(field("kind").value),
      optionLines: field("options").value,
      otherCost: config.otherCost,
      limits: config.limits,
    });
    for (const id of ["options", "option_ids"]) {
      form.querySelector(`.field:has(#${id})`)?.toggleAttribute("hidden", !config.typesWithOptions.includes(field("kind").value));
    }
    if (!figures) {
      out("preview-light").textContent = fill(config.messages.invalid, { min: config.limits.minEpsilon, max: config.limits.maxEpsilon });
      for (const id of ["preview-cost", "preview-total", "preview-margin"]) out(id).textContent = "";
      return;
    }
    const percent = Math.round(figures.light * 1000) / 10;
    createSpinner(out("preview-spinner"), figures.light, {
      label: fill(config.messages.spinnerLabel, { percent }),
      lightLabel: `${Math.round(figures.light * 100)}%`,
    });
    out("preview-light").textContent = fill(config.messages.light, { percent, truth: Math.round(figures.truth * 1000) / 10 });
    out("preview-cost").textContent = figures.spins > 1
      ? fill(config.messages.costMany, { k: figures.spins, epsilon: short(figures.cost / figures.spins), cost: short(figures.cost) })
      : fill(config.messages.costOne, { cost: short(figures.cost) });
    out("preview-total").textContent = fill(config.messages.total, { total: short(figures.total) });
    const n = Number.parseInt(planned.value, 10);
    if (!(n >= 1)) return;
    const request = ++marginRequest;
    const query = new URLSearchParams({ epsilon: field("epsilon").value, procedure: field("procedure").value, n: String(n) });
    fetch(`${config.planUrl}?${query}`, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : null))
      .then((plan) => {
        if (plan && request === marginRequest) {
          out("preview-margin").textContent = fill(config.messages.margin, { n, margin: (plan.margin_of_error * 100).toFixed(1) });
        }
      })
      .catch(() => {});
  };
  form.addEventListener("input", update);
  planned.addEventListener("input", update);
  update();
}

if (globalThis.document?.getElementById("builder-config")) start();
