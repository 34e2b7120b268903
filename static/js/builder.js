/**
 * The question editor's live preview: the spinner's light share, the question's privacy cost,
 * the survey's total ε, and the margin of error for a planned number of respondents.
 * @module builder
 */
import { createExperimentPlanner } from "./experiment-plan.js";
import { fill } from "./fill.js";
import { choiceLightFraction, lightFraction, truthProbability } from "./procedure.js";
import { drawPowerCurve } from "./power-curve.js";
import { createSpinner } from "./spinner.js";

/**
 * The preview's numbers, computed without the network.
 * `limits` are the server's (the page config's `limits`): ε outside them shows no preview.
 * A single-choice question (`oneOf`) spins once whatever its k options, and tells the truth with
 * probability e^ε/(e^ε + k − 1); a multi-select question spins once per option.
 * @param {{epsilon: number, dark: import("./procedure.js").Dark, hasOptions: boolean, oneOf?: boolean,
 *   optionLines: string, otherCost: number, limits: {minEpsilon: number, maxEpsilon: number}}} input
 * @returns {{light: number, truth: number, spins: number, options: number, cost: number, total: number} | null}
 */
export function previewFigures({ epsilon, dark, hasOptions, oneOf = false, optionLines, otherCost, limits }) {
  if (!(Number.isFinite(epsilon) && epsilon >= limits.minEpsilon && epsilon <= limits.maxEpsilon)) return null;
  const options = hasOptions ? optionLines.split("\n").filter((line) => line.trim()).length : 0;
  const k = Math.max(2, options);
  const spins = oneOf || !hasOptions ? 1 : Math.max(1, options);
  const cost = spins * epsilon;
  return {
    light: oneOf ? choiceLightFraction(epsilon, k, dark) : lightFraction(epsilon, dark),
    truth: oneOf ? 1 / (1 + (k - 1) * Math.exp(-epsilon)) : truthProbability(epsilon),
    spins,
    options,
    cost,
    total: otherCost + cost,
  };
}

/**
 * A number question's range as typed, or null while it is not one (smallest not below largest).
 * @param {(name: string) => HTMLInputElement} field
 * @returns {{min: number, max: number, unit: string} | null}
 */
export function numberRange(field) {
  const min = Number.parseFloat(field("value_min").value);
  const max = Number.parseFloat(field("value_max").value);
  if (!(Number.isFinite(min) && Number.isFinite(max) && min < max)) return null;
  return { min, max, unit: field("unit").value.trim() };
}

/** @param {number} value */
const short = (value) => String(Number(value.toFixed(4)));

/** How many lines of `text` hold something (a list's items, one per line). @param {string} text */
const lineCount = (text) => text.split("\n").filter((line) => line.trim()).length;

function start() {
  const config = JSON.parse(document.getElementById("builder-config").textContent);
  const form = document.getElementById("question-form");
  const field = (name) => form.querySelector(`[name="${name}"]:not([type="hidden"])`) ?? form.querySelector(`[name="${name}"]`);
  const planned = document.getElementById("planned");
  const out = (id) => document.getElementById(id);
  let marginRequest = 0;
  let lastKind = "";

  // Where a design's field sits: a share's, an arm's share's or the randomizer's own field, or
  // the innocuous question's translations.
  const place = (name) => (name.endsWith("innocuous") ? `.translations:has(#${name})` : `.field:has(#${name})`);
  const everyField = [...new Set(Object.values(config.designs).flatMap((design) => design.fields))];
  /** A design's fields shown for it alone; its preview in place of the spinner's. Whether shown. */
  const showDesign = (direct) => {
    const design = direct ? undefined : config.designs[field("procedure").value];
    const derived = Boolean(design?.derived);
    const show = (selector, visible) => form.querySelector(selector)?.toggleAttribute("hidden", !visible);
    show("#design-parameters", derived && design.fields.length > 0);
    show(".field:has(#epsilon)", !direct && !derived);
    for (const name of everyField) show(place(name), derived && design.fields.includes(name));
    return derived;
  };

  /** The plan of the chosen design from the server (the one place its formulas live). */
  const showDesignPreview = () => {
    const procedure = field("procedure").value;
    const n = Number.parseInt(planned.value, 10);
    const query = new URLSearchParams({ procedure, n: String(n >= 1 ? n : 1) });
    const { fields, armShares } = config.designs[procedure];
    for (const name of fields) {
      if (name !== "innocuous" && name !== "randomizer" && !name.startsWith("arm_")) query.set(name, field(name).value);
    }
    if (armShares) {
      const arm = (number) => armShares.map((share) => field(`arm_${number}_${share}`).value).join(",");
      query.set("arms", `${arm(1)};${arm(2)}`);
    }
    if (config.listDesigns.includes(procedure)) query.set("controls", String(lineCount(field("controls").value)));
    // A design of two arms has no single line: no change plan (a list's split ballot is planned).
    showChangePlan(query.has("arms") ? null : query);
    const request = ++marginRequest;
    fetch(`${config.planUrl}?${query}`, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : null))
      .then((plan) => {
        if (request === marginRequest) showPlan(plan, n);
      })
      .catch(() => {});
  };

  /** @param {any} plan the design's plan, or null where its parameters make none */
  const showPlan = (plan, n) => {
    for (const id of ["preview-compare", "preview-margin"]) out(id).textContent = "";
    if (!plan) {
      out("preview-light").textContent = config.messages.designInvalid;
      for (const id of ["preview-cost", "preview-total"]) out(id).textContent = "";
      out("preview-spinner").replaceChildren();
      return;
    }
    const percent = (value) => Math.round(value * 1000) / 10;
    if (plan.sectors.length) {
      const light = plan.sectors[0].share;
      createSpinner(out("preview-spinner"), light, {
        label: fill(config.messages.spinnerLabel, { percent: percent(light) }),
        lightLabel: `${Math.round(light * 100)}%`,
        sectorWords: config.messages.sectorWords,
      }, plan.sectors);
    } else out("preview-spinner").replaceChildren();
    const arms = plan.arm_probabilities;
    if (plan.controls) {
      // A list experiment: no ε bound, and the difference in means' margin at its worst.
      out("preview-light").textContent = "";
      out("preview-cost").textContent = "";
      out("preview-total").textContent = fill(config.messages.total, { total: short(config.otherCost) });
      out("preview-margin").textContent = fill(config.messages.listPlan, { n, items: plan.controls, margin: (plan.margin_of_error * 100).toFixed(1) });
      return;
    }
    if (plan.bounded === false) {
      // No ε bound (the stochastic lie detector): said, and left out of the survey's total.
      out("preview-light").textContent = fill(config.messages.unbounded, {
        yes1: percent(arms[0][0]), no1: percent(arms[0][1]), yes2: percent(arms[1][0]), no2: percent(arms[1][1]),
      });
      out("preview-cost").textContent = "";
      out("preview-total").textContent = fill(config.messages.total, { total: short(config.otherCost) });
      if (n >= 4) out("preview-margin").textContent = fill(config.messages.unboundedMargin, { n, margin: (plan.margin_of_error * 100).toFixed(1) });
      return;
    }
    if (plan.epsilon === null) {
      // Asked directly: nothing protects the answer, and it costs nothing in the ledger.
      out("preview-light").textContent = config.messages.askedDirectly;
      out("preview-cost").textContent = "";
      out("preview-total").textContent = fill(config.messages.total, { total: short(config.otherCost) });
      if (n >= 1) out("preview-margin").textContent = fill(config.messages.margin, { n, margin: (plan.margin_of_error * 100).toFixed(1) });
      return;
    }
    out("preview-light").textContent = arms
      ? fill(plan.second_figure === "model_test" ? config.messages.modelTest : config.messages.cheating, {
        epsilon: short(plan.epsilon),
        yes1: percent(arms[0][0]), no1: percent(arms[0][1]), yes2: percent(arms[1][0]), no2: percent(arms[1][1]),
      })
      : fill(config.messages.design, {
        epsilon: short(plan.epsilon), ratio: short(Math.exp(plan.epsilon)),
        yes: percent(plan.yes_given_yes), no: percent(plan.yes_given_no),
      });
    out("preview-cost").textContent = fill(config.messages.costOne, { cost: short(plan.epsilon) });
    out("preview-total").textContent = fill(config.messages.total, { total: short(config.otherCost + plan.epsilon) });
    if (!(n >= (arms ? 2 : 1))) return;
    const margin = (plan.margin_of_error * 100).toFixed(1);
    const tested = plan.second_figure === "model_test";
    const marginWords = tested ? config.messages.modelTestMargin : arms ? config.messages.cheatingMargin : config.messages.margin;
    out("preview-margin").textContent = fill(marginWords, { n, margin });
  };

  const changePlan = out("change-plan");
  let changeRequest = 0;
  /** The power to see a change, for a yes/no (or multi-select) question's design in `designQuery`. */
  const experimentPanel = out("experiment-plan");
  const planExperiment = createExperimentPlanner(experimentPanel, { url: config.experimentPlanUrl, messages: config.messages, fill });
  const showChangePlan = (designQuery) => {
    const kind = field("kind").value;
    // A split ballot compares one yes/no item's share: not options, a range or one of k.
    const oneShare = !config.typesWithOptions.includes(kind) && !config.rangedTypes.includes(kind);
    planExperiment(oneShare ? designQuery : null, Number.parseInt(planned.value, 10));
    const fits = designQuery !== null && !designQuery.has("controls") && !config.rangedTypes.includes(kind) && !config.singleChoiceTypes.includes(kind);
    changePlan.hidden = !fits;
    if (!fits || !changePlan.open) return;
    const n = Number.parseInt(planned.value, 10);
    const baseline = Number.parseFloat(out("baseline").value);
    const change = Number.parseFloat(out("change").value);
    const after = baseline + change;
    const results = ["change-power", "change-n", "change-detectable"];
    const request = ++changeRequest;
    if (!(n >= 2) || !(baseline >= 0 && baseline <= 100) || !(after >= 0 && after <= 100) || !Number.isFinite(change)) {
      for (const id of results) out(id).textContent = "";
      out("change-power").textContent = config.messages.changeNone;
      out("power-curve").replaceChildren();
      return;
    }
    const query = new URLSearchParams(designQuery);
    query.set("n", String(n));
    query.set("baseline", String(baseline / 100));
    query.set("change", String(change / 100));
    fetch(`${config.changePlanUrl}?${query}`, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : null))
      .then((plan) => {
        if (request !== changeRequest) return;
        if (!plan) {
          for (const id of results) out(id).textContent = "";
          return;
        }
        const points = (share) => (share === null ? config.messages.changeNothing : (share * 100).toFixed(1));
        out("change-power").textContent = fill(config.messages.changePower, {
          baseline: short(baseline), after: short(after), n, power: (plan.power * 100).toFixed(1),
        });
        out("change-n").textContent = plan.n_per_wave === null ? "" : fill(config.messages.changeN, { n: plan.n_per_wave });
        out("change-detectable").textContent = fill(config.messages.changeDetectable, {
          n, up: points(plan.detectable_change.up), down: points(plan.detectable_change.down),
        });
        drawPowerCurve(out("power-curve"), plan.curve, {
          label: fill(config.messages.curveLabel, { n }),
          change: config.messages.curveChange,
          power: config.messages.curvePower,
        });
      })
      .catch(() => {});
  };

  /** The display rule's fields that fit the question it reads: its answers, or a number's bounds. */
  const showRuleParts = () => {
    const chosen = form.querySelector("#show_if_question")?.value ?? "";
    const entry = Object.hasOwn(config.readable, chosen) ? config.readable[chosen] : null;
    form.querySelector("[data-rule-part='answers']")?.toggleAttribute("hidden", !entry || entry.numeric);
    form.querySelector("[data-rule-part='numbers']")?.toggleAttribute("hidden", !entry?.numeric);
  };

  const update = () => {
    const kind = field("kind").value;
    const direct = config.directTypes.includes(kind);
    // The options in every language (their fields sit together), and their ids.
    const grid = config.gridTypes.includes(kind);
    for (const selector of [".translations:has(#options)", ".field:has(#option_ids)", "#option-order"]) {
      form.querySelector(selector)?.toggleAttribute("hidden", !config.typesWithOptions.includes(kind));
    }
    // A grid's rows; its options are one scale for every row, never shuffled.
    out("grid-rows")?.toggleAttribute("hidden", !grid);
    // A list question is asked as a list only; a yes/no question may be (its text the sensitive item).
    const listed = config.listTypes.includes(kind);
    if (listed) field("procedure").value = config.listDesigns[0];
    else if (config.listTypes.includes(lastKind) && config.listDesigns.includes(field("procedure").value)) field("procedure").selectedIndex = 0;
    lastKind = kind;
    out("list-items")?.toggleAttribute("hidden", direct || !config.listDesigns.includes(field("procedure").value));
    form.querySelector(".translations:has(#sensitive)")?.toggleAttribute("hidden", !listed);
    if (grid) out("option-order")?.setAttribute("hidden", "");
    for (const id of ["epsilon", "procedure"]) form.querySelector(`.field:has(#${id})`)?.toggleAttribute("hidden", direct || listed);
    const number = config.rangedTypes.includes(kind);
    out("number-range")?.toggleAttribute("hidden", !number);
    out("answer-length")?.toggleAttribute("hidden", !config.writtenTypes.includes(kind));
    // A right answer is one of a direct question's options: a comprehension check.
    out("right-answer")?.toggleAttribute("hidden", !(direct && config.typesWithOptions.includes(kind)));
    showRuleParts();
    out("preview").toggleAttribute("data-direct", direct);
    if (showDesign(direct)) return showDesignPreview();
    showChangePlan(direct ? null : new URLSearchParams({ epsilon: field("epsilon").value, procedure: field("procedure").value }));
    if (direct) {
      out("preview-light").textContent = config.writtenTypes.includes(kind) ? config.messages.openQuestion : config.messages.directQuestion;
      for (const id of ["preview-cost", "preview-total", "preview-margin", "preview-compare"]) out(id).textContent = "";
      out("preview-spinner").replaceChildren();
      return;
    }
    const figures = previewFigures({
      epsilon: Number.parseFloat(field("epsilon").value),
      dark: config.designs[field("procedure").value].dark,
      hasOptions: config.typesWithOptions.includes(field("kind").value),
      oneOf: config.singleChoiceTypes.includes(field("kind").value),
      optionLines: field("options").value,
      otherCost: config.otherCost,
      limits: config.limits,
    });
    if (!figures) {
      out("preview-light").textContent = fill(config.messages.invalid, { min: config.limits.minEpsilon, max: config.limits.maxEpsilon });
      for (const id of ["preview-cost", "preview-total", "preview-margin", "preview-compare"]) out(id).textContent = "";
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
    const oneOf = config.singleChoiceTypes.includes(field("kind").value);
    if (oneOf) query.set("k", String(Math.max(2, figures.options)));
    const range = number ? numberRange(field) : null;
    if (number && !range) {
      out("preview-margin").textContent = config.messages.rangeInvalid;
      return;
    }
    if (range) for (const name of ["min", "max"]) query.set(name, String(range[name]));
    fetch(`${config.planUrl}?${query}`, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : null))
      .then((plan) => {
        if (!plan || request !== marginRequest) return;
        const points = (margin) => (margin * 100).toFixed(1);
        out("preview-margin").textContent = range
          ? fill(config.messages.marginNumber, { n, margin: short(plan.margin_of_error), unit: range.unit, min: range.min, max: range.max })
          : fill(config.messages.margin, { n, margin: points(plan.margin_of_error) });
        out("preview-compare").textContent = plan.as_multi
          ? fill(config.messages.asMulti, {
              k: plan.k, cost: short(plan.as_multi.epsilon_total), margin: points(plan.as_multi.margin_of_error),
              epsilon: short(plan.epsilon),
              sameTotal: plan.as_multi.same_total_margin_of_error === null ? "—" : points(plan.as_multi.same_total_margin_of_error),
            })
          : "";
      })
      .catch(() => {});
  };
  form.addEventListener("input", update);
  for (const input of [planned, out("baseline"), out("change"), out("experiment-baseline"), out("experiment-lift")]) {
    input.addEventListener("input", update);
  }
  changePlan.addEventListener("toggle", update);
  experimentPanel.addEventListener("toggle", update);
  update();
}

if (globalThis.document?.getElementById("builder-config")) start();
