/**
 * The simulation lab: privacy of one spin, a simulated class, many classes, and noise mechanisms.
 * A simulated class spins with the same code as a real respondent's browser.
 * @module lab
 */
import { fill } from "./builder.js";
import { plot } from "./plot.js";
import { draw, lightFraction, reportProbabilities, truthProbability } from "./procedure.js";
import { cryptoUint32, uniform } from "./random.js";

/**
 * What one spin reveals, for both procedures.
 * @param {number} epsilon
 */
export function privacyRows(epsilon) {
  return ["spinner_coin", "spinner"].map((procedure) => {
    const { yesGivenYes, yesGivenNo } = reportProbabilities(epsilon, procedure);
    return {
      procedure, p: lightFraction(epsilon, procedure), yesGivenYes, yesGivenNo,
      ratio: yesGivenYes / yesGivenNo, truth: truthProbability(epsilon),
    };
  });
}

/**
 * A class of `n` respondents whose true answers are yes with probability `share`, each spinning.
 * @param {number} n
 * @param {number} share
 * @param {number} epsilon
 * @param {"spinner" | "spinner_coin"} procedure
 * @param {import("./random.js").Uint32Source} [random]
 */
export function simulateClass(n, share, epsilon, procedure, random = cryptoUint32) {
  const p = lightFraction(epsilon, procedure);
  return Array.from({ length: n }, () => {
    const truth = uniform(random) < share ? 1 : 0;
    return { truth, ...draw(truth, procedure, p, random) };
  });
}

/**
 * Whether the class-size field holds a whole number from 1 to `max`.
 * @param {string} raw
 * @param {number} max
 */
export function classSizeValid(raw, max) {
  const n = Number(raw);
  return raw.trim() !== "" && Number.isInteger(n) && n >= 1 && n <= max;
}

function start() {
  const config = JSON.parse(document.getElementById("lab-config").textContent);
  const text = config.messages;
  const percent = new Intl.NumberFormat(config.locale, { style: "percent", maximumFractionDigits: 1 });
  const decimal = new Intl.NumberFormat(config.locale, { maximumFractionDigits: 3 });
  const controls = document.getElementById("lab-controls");
  const value = (id) => document.getElementById(id).value;
  const settings = () => ({
    share: Number(value("share")),
    epsilon: Number(value("epsilon")),
    n: Number(value("n")),
    procedure: controls.elements.namedItem("procedure").value,
    options: Math.min(config.limits.maxOptions, Math.max(1, Number.parseInt(value("options"), 10) || 1)),
  });
  const showError = (error) => {
    document.getElementById("lab-error").textContent = fill(text.error, { error: String(error.message ?? error) });
  };
  const getJson = async (url, query) => {
    const response = await fetch(`${url}?${new URLSearchParams(query)}`, { credentials: "same-origin" });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error);
    return body;
  };

  const updatePrivacy = () => {
    const { epsilon, options, share } = settings();
    document.getElementById("share-out").textContent = percent.format(share);
    document.getElementById("epsilon-out").textContent = decimal.format(epsilon);
    for (const row of privacyRows(epsilon)) {
      const cells = document.querySelector(`#privacy-table tr[data-procedure="${row.procedure}"]`);
      cells.querySelector(".p").textContent = decimal.format(row.p);
      cells.querySelector(".yy").textContent = decimal.format(row.yesGivenYes);
      cells.querySelector(".yn").textContent = decimal.format(row.yesGivenNo);
      cells.querySelector(".ratio").textContent = decimal.format(row.ratio);
      cells.querySelector(".truth").textContent = percent.format(row.truth);
    }
    document.getElementById("multi-total").textContent = fill(text.multiTotal, {
      k: options, epsilon: decimal.format(epsilon), total: decimal.format(options * epsilon),
    });
  };

  /** Whether the class size is usable; if not, says why next to the field instead of guessing. */
  const classSizeOk = () => {
    const field = document.getElementById("n");
    const ok = classSizeValid(field.value, config.limits.labMaxN);
    field.setAttribute("aria-invalid", String(!ok));
    field.closest(".field").classList.toggle("has-error", !ok);
    document.getElementById("n-error").textContent = ok ? "" : fill(text.classSize, { max: config.limits.labMaxN.toLocaleString(config.locale) });
    return ok;
  };

  const runClass = async () => {
    if (!classSizeOk()) return;
    const { n, share, epsilon, procedure } = settings();
    const people = simulateClass(n, share, epsilon, procedure);
    const grid = document.getElementById("class-grid");
    grid.replaceChildren(...people.map((person, index) => {
      const cell = document.createElement("span");
      cell.className = `person ${person.reported ? "yes" : "no"}${person.light ? "" : " dark"}`;
      if (person.heads !== null) cell.textContent = "◎";
      cell.title = `${text.respondent} ${index + 1}: ${person.reported ? text.yes : text.no}`;
      return cell;
    }));
    const bits = people.map((person) => person.reported).join("");
    const series = await getJson(config.runningUrl, { bits, epsilon, procedure });
    const last = n - 1;
    document.getElementById("class-summary").textContent = fill(text.classSummary, {
      trueYes: people.filter((person) => person.truth).length, n,
      reportedYes: people.filter((person) => person.reported).length,
      estimate: percent.format(series.estimate[last]), level: percent.format(0.95),
      low: percent.format(series.ci_low[last]), high: percent.format(series.ci_high[last]),
    });
    const points = series.estimate.map((estimate, index) => [index + 1, estimate]);
    plot(document.getElementById("running-chart"), {
      title: text.estimateAxis,
      x: [1, Math.max(2, n)],
      y: [Math.min(0, ...series.estimate), Math.max(1, ...series.estimate)],
      band: series.ci_low.map((low, index) => [index + 1, low, series.ci_high[index]]),
      lines: [{ points, className: "estimate" }],
      rules: [{ y: share, className: "truth", label: text.truth }],
      xLabel: text.respondentsAxis, yLabel: text.estimateAxis,
      formatY: (v) => percent.format(v),
    });
  };

  const runMany = async () => {
    if (!classSizeOk()) return;
    const { n, share, epsilon, procedure } = settings();
    const result = await getJson(config.distributionUrl, { true_proportion: share, n, epsilon, procedure, trials: 2000 });
    const bars = result.counts.map((count, index) => ({ x0: result.edges[index], x1: result.edges[index + 1], y: count }));
    plot(document.getElementById("histogram"), {
      title: text.estimateAxis,
      x: [result.edges[0], result.edges.at(-1)],
      y: [0, Math.max(...result.counts)],
      bars,
      rules: [{ x: share, className: "truth", label: text.truth }],
      xLabel: text.estimateAxis, yLabel: text.classesAxis,
      formatX: (v) => percent.format(v),
    });
    document.getElementById("coverage-summary").textContent = fill(text.coverage, {
      trials: result.trials.toLocaleString(config.locale), mean: percent.format(result.mean), truth: percent.format(share),
      sd: decimal.format(result.sd), theory: decimal.format(result.theory_sd),
      level: percent.format(0.95), coverage: percent.format(result.coverage),
    });
  };

  const runNoise = async () => {
    const query = { sensitivity: value("sensitivity"), epsilon: value("noise-epsilon"), delta: value("delta") };
    const result = await getJson(config.noiseUrl, query);
    document.getElementById("laplace-scale").textContent = decimal.format(result.laplace_scale);
    for (const method of ["reference", "analytic", "classical"]) {
      document.getElementById(`sigma-${method}`).textContent = decimal.format(result.sigma[method]);
    }
    document.getElementById("noise-note").textContent = [
      fill(text.laplace, { scale: decimal.format(result.laplace_scale) }),
      result.classical_valid ? "" : fill(result.classical_enough ? text.classicalLucky : text.classicalInvalid, {
        delta: result.classical_delta.toExponential(2),
      }),
    ].join(" ");
    const b = result.laplace_scale;
    const sigmas = Object.values(result.sigma);
    const reach = 4 * Math.max(b, ...sigmas);
    const xs = Array.from({ length: 241 }, (_, i) => -reach + (2 * reach * i) / 240);
    const gaussian = (sigma) => xs.map((x) => [x, Math.exp(-(x * x) / (2 * sigma * sigma)) / (sigma * Math.sqrt(2 * Math.PI))]);
    const curves = [
      { points: xs.map((x) => [x, Math.exp(-Math.abs(x) / b) / (2 * b)]), className: "laplace" },
      { points: gaussian(result.sigma.reference), className: "reference" },
      { points: gaussian(result.sigma.analytic), className: "analytic" },
      { points: gaussian(result.sigma.classical), className: "classical" },
    ];
    plot(document.getElementById("noise-chart"), {
      title: text.noiseAxis, x: [-reach, reach], y: [0, Math.max(...curves.flatMap((curve) => curve.points.map(([, y]) => y)))],
      lines: curves, xLabel: text.noiseAxis, formatX: (v) => decimal.format(v), formatY: (v) => decimal.format(v),
    });
  };

  const guard = (task) => () => task().then(() => { document.getElementById("lab-error").textContent = ""; }, showError);
  let timer = null;
  controls.addEventListener("input", () => {
    updatePrivacy();
    clearTimeout(timer);
    timer = setTimeout(() => { guard(runClass)(); guard(runMany)(); }, 300);
  });
  document.getElementById("noise-controls").addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(guard(runNoise), 300);
  });
  document.getElementById("run-class").addEventListener("click", guard(runClass));
  document.getElementById("run-many").addEventListener("click", guard(runMany));
  updatePrivacy();
  guard(runClass)();
  guard(runMany)();
  guard(runNoise)();
}

if (globalThis.document?.getElementById("lab-config")) start();
