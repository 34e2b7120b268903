/**
 * The simulation lab: privacy of one spin, a simulated class, many classes, and noise mechanisms.
 * A simulated class spins with the same code as a real respondent's browser.
 * @module lab
 */
import { fill } from "./fill.js";
import { whenNear } from "./near.js";
import { plot } from "./plot.js";
import { choiceLightFraction, draw, drawChoice, lightFraction, reportProbabilities, truthProbability } from "./procedure.js";
import { cryptoUint32, uniform } from "./random.js";

/**
 * @typedef {object} Spinner
 * @property {string} name The procedure's name, as the server lists it.
 * @property {import("./procedure.js").Dark} dark What its dark share does.
 */

/**
 * What one spin reveals, for each spinner.
 * @param {number} epsilon
 * @param {Spinner[]} spinners
 */
export function privacyRows(epsilon, spinners) {
  return spinners.map(({ name, dark }) => {
    const { yesGivenYes, yesGivenNo } = reportProbabilities(epsilon, dark);
    return {
      procedure: name, p: lightFraction(epsilon, dark), yesGivenYes, yesGivenNo,
      ratio: yesGivenYes / yesGivenNo, truth: truthProbability(epsilon),
    };
  });
}

/**
 * A class of `n` respondents whose true answers are yes with probability `share`, each spinning.
 * @param {number} n
 * @param {number} share
 * @param {number} epsilon
 * @param {import("./procedure.js").Dark} dark
 * @param {import("./random.js").Uint32Source} [random]
 */
export function simulateClass(n, share, epsilon, dark, random = cryptoUint32) {
  const p = lightFraction(epsilon, dark);
  return Array.from({ length: n }, () => {
    const truth = uniform(random) < share ? 1 : 0;
    return { truth, ...draw(truth, dark, p, random) };
  });
}

/**
 * True shares typed as percentages ("50, 30, 20"), as fractions; null unless there are 2 to
 * `max` numbers ≥ 0 adding up to 100 (within half a point, for typed rounding).
 * @param {string} raw
 * @param {number} [max]
 * @returns {number[] | null}
 */
export function parseShares(raw, max = 8) {
  const parts = raw.split(/[,;\s]+/).filter(Boolean);
  const values = parts.map(Number);
  if (values.length < 2 || values.length > max || values.some((v) => !Number.isFinite(v) || v < 0)) return null;
  const total = values.reduce((sum, v) => sum + v, 0);
  if (Math.abs(total - 100) > 0.5) return null;
  return values.map((v) => v / total);
}

/**
 * The true options of a class of `n`: option i for a share `shares[i]` of it, rounded so the
 * counts add up to n (largest remainders first), in a random order.
 * @param {number[]} shares
 * @param {number} n
 * @returns {number[]}
 */
export function classOptions(shares, n) {
  const exact = shares.map((share) => share * n);
  const counts = exact.map(Math.floor);
  const order = exact.map((value, index) => [value - Math.floor(value), index]).sort((a, b) => b[0] - a[0]);
  for (let i = 0; counts.reduce((sum, c) => sum + c, 0) < n; i += 1) counts[order[i][1]] += 1;
  return counts.flatMap((count, option) => Array(count).fill(option));
}

/**
 * Each respondent with true option `truths[i]` spins and, on dark, rolls the die, as on the
 * respondent's page; the number of reports of each option.
 * @param {number[]} truths
 * @param {number} k
 * @param {number} epsilon
 * @param {import("./procedure.js").Dark} dark
 * @param {import("./random.js").Uint32Source} [random]
 * @returns {number[]}
 */
export function simulateChoiceClass(truths, k, epsilon, dark, random = cryptoUint32) {
  const light = choiceLightFraction(epsilon, k, dark);
  const counts = new Array(k).fill(0);
  for (const truth of truths) counts[drawChoice(truth, k, dark, light, random).reported] += 1;
  return counts;
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
  // Axis labels of any size in the plot's margin, never cut: 164,224,210 as 164M (1.64억), and
  // 0.0000000061 (a λ of the report's variable) as 6.1E-9.
  const compact = new Intl.NumberFormat(config.locale, { notation: "compact", maximumSignificantDigits: 3 });
  const scientific = new Intl.NumberFormat(config.locale, { notation: "scientific", maximumSignificantDigits: 2 });
  const tick = (v) => (v !== 0 && Math.abs(v) < 0.01 ? scientific : compact).format(v);
  const controls = document.getElementById("lab-controls");
  const value = (id) => document.getElementById(id).value;
  /** @param {string} procedure */
  const darkOf = (procedure) => config.spinners.find((spinner) => spinner.name === procedure).dark;
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
    for (const row of privacyRows(epsilon, config.spinners)) {
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
    const people = simulateClass(n, share, epsilon, darkOf(procedure));
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

  const runChoice = async () => {
    const shares = parseShares(value("choice-shares"));
    const sharesField = document.getElementById("choice-shares");
    sharesField.setAttribute("aria-invalid", String(shares === null));
    document.getElementById("choice-error").textContent = shares ? "" : text.choiceShares;
    const nField = document.getElementById("choice-n");
    if (!shares || !classSizeValid(nField.value, config.limits.labMaxN)) return;
    const epsilon = Number(value("choice-epsilon"));
    const n = Number(nField.value);
    const k = shares.length;
    const truths = classOptions(shares, n);
    for (const panel of document.querySelectorAll(".choice-panel")) {
      const procedure = panel.dataset.procedure;
      const counts = simulateChoiceClass(truths, k, epsilon, darkOf(procedure));
      const result = await getJson(config.choiceUrl, { counts: counts.join(","), epsilon, procedure });
      const bars = counts.map((count, i) => ({ x0: i + 0.1, x1: i + 0.9, y: count / n }));
      const intervals = result.estimate.map((estimate, i) => ({
        points: [[i + 0.5, result.ci_low[i]], [i + 0.5, result.ci_high[i]]], className: "interval",
      }));
      const estimates = result.estimate.map((estimate, i) => ({ points: [[i + 0.3, estimate], [i + 0.7, estimate]], className: "estimate" }));
      const truthMarks = shares.map((share, i) => ({ points: [[i + 0.15, share], [i + 0.85, share]], className: "truth-mark" }));
      const everything = [...result.estimate, ...result.ci_high, ...counts.map((count) => count / n), ...shares];
      plot(panel.querySelector(".plot"), {
        title: panel.querySelector("figcaption").textContent,
        x: [0, k], y: [Math.min(0, ...result.estimate), Math.max(...everything)],
        bars, lines: [...truthMarks, ...intervals, ...estimates],
        xTicks: shares.map((_, i) => [i + 0.5, String(i + 1)]),
        xLabel: text.optionAxis, yLabel: text.shareAxis, formatY: (v) => percent.format(v),
        width: 400, height: 280,
      });
      const perOption = result.estimate.map((estimate, i) =>
        `${fill(text.optionWord, { number: i + 1 })}: ${percent.format(estimate)} (${percent.format(result.ci_low[i])}–${percent.format(result.ci_high[i])})`);
      panel.querySelector(".choice-summary").textContent = `${fill(text.choiceSummary, {
        light: percent.format(result.light_fraction), truth: percent.format(result.truth_probability),
      })} ${perOption.join("; ")}.`;
    }
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

  const runNumber = async () => {
    const field = document.getElementById("number-n");
    const ok = classSizeValid(field.value, config.limits.labMaxN);
    field.setAttribute("aria-invalid", String(!ok));
    document.getElementById("number-n-error").textContent = ok ? "" : fill(text.classSize, { max: config.limits.labMaxN.toLocaleString(config.locale) });
    if (!ok) return;
    const epsilon = Number(value("number-epsilon"));
    const result = await getJson(config.numberUrl, { n: field.value, epsilon });
    const at = (series) => series.map((mean, index) => [index + 1, mean]);
    const n = result.n;
    // The running Laplace and Gaussian means can start far outside the range: the axis keeps
    // to twice the range around it, and the plot cuts what lies beyond.
    const reach = result.max - result.min;
    const everything = [...result.estimate, ...result.laplace, ...result.gaussian]
      .map((mean) => Math.min(result.max + reach, Math.max(result.min - reach, mean)));
    plot(document.getElementById("number-chart"), {
      title: text.meanAxis,
      x: [1, Math.max(2, n)],
      y: [Math.min(result.min, ...everything), Math.max(result.max / 2, ...everything)],
      band: result.ci_low.map((low, index) => [index + 1, low, result.ci_high[index]]),
      lines: [
        { points: at(result.gaussian), className: "analytic" },
        { points: at(result.laplace), className: "laplace" },
        { points: at(result.estimate), className: "estimate" },
      ],
      rules: [{ y: result.true_mean, className: "truth", label: text.trueMean }],
      xLabel: text.respondentsAxis, yLabel: text.meanAxis,
      formatY: (v) => decimal.format(v),
    });
    const last = n - 1;
    document.getElementById("number-summary").textContent = fill(text.numberSummary, {
      truth: decimal.format(result.true_mean), estimate: decimal.format(result.estimate[last]),
      low: decimal.format(result.ci_low[last]), high: decimal.format(result.ci_high[last]),
      scale: decimal.format(result.laplace_scale), laplace: decimal.format(result.laplace[last]),
      sigma: decimal.format(result.gaussian_sigma), gaussian: decimal.format(result.gaussian[last]),
      ratioLaplace: percent.format(result.ratio_laplace), ratioGaussian: percent.format(result.ratio_gaussian),
    });
  };

  /** The report's trace plots: each chain against its sweep, with the end of burn-in marked.
   * Each is drawn as it nears the viewport: six plots of a thousand points drawn at load would
   * hold the page's first seconds on a slow phone. */
  const drawTraces = () => {
    const data = document.getElementById("report-data");
    if (!data) return;
    /** @type {any[] | null} */
    let runs = null;
    const drawTrace = (/** @type {HTMLElement} */ box) => {
      runs ??= JSON.parse(data.textContent);
      const run = runs[Number(box.dataset.index)];
      const chain = run[box.dataset.trace];
      const points = chain.map((value, index) => [index * run.step, value]);
      // The scale from the second half of burn-in on: the chains start far apart on purpose,
      // and their first steps would flatten everything after them (drawn past the frame).
      const settled = chain.slice(Math.floor(run.burnIn / 2 / run.step));
      plot(box, {
        title: box.closest("figure").querySelector("figcaption").textContent,
        x: [0, run.sweeps], y: [Math.min(...settled), Math.max(...settled)],
        lines: [{ points, className: "estimate" }],
        rules: [{ x: run.burnIn, className: "truth", label: text.burnIn }],
        xLabel: text.sweepAxis, formatY: tick,
        width: 400, height: 200,
      });
    };
    for (const box of document.querySelectorAll("#report-traces [data-trace]")) {
      whenNear(box, () => drawTrace(/** @type {HTMLElement} */ (box)));
    }
  };

  const guard = (task) => () => task().then(() => { document.getElementById("lab-error").textContent = ""; }, showError);
  // Each section is simulated as it nears the viewport, then again whenever its controls change.
  const near = (id, task) => whenNear(document.getElementById(id), guard(task));
  const showClass = near("class-grid", runClass);
  const showMany = near("histogram", runMany);
  const showChoice = near("choice-panels", runChoice);
  const showNoise = near("noise-chart", runNoise);
  const showNumber = near("number-chart", runNumber);
  /** Runs `show` once its controls have been still for 300 ms. */
  const afterTyping = (show) => {
    let timer = null;
    return () => {
      clearTimeout(timer);
      timer = setTimeout(show, 300);
    };
  };
  const classControlsChanged = afterTyping(() => { showClass(); showMany(); });
  controls.addEventListener("input", () => {
    updatePrivacy();
    classControlsChanged();
  });
  document.getElementById("noise-controls").addEventListener("input", afterTyping(showNoise));
  const choiceControlsChanged = afterTyping(showChoice);
  document.getElementById("choice-controls").addEventListener("input", () => {
    document.getElementById("choice-epsilon-out").textContent = decimal.format(Number(value("choice-epsilon")));
    choiceControlsChanged();
  });
  document.getElementById("number-controls").addEventListener("input", afterTyping(showNumber));
  document.getElementById("run-choice").addEventListener("click", showChoice);
  document.getElementById("run-number").addEventListener("click", showNumber);
  document.getElementById("run-class").addEventListener("click", showClass);
  document.getElementById("run-many").addEventListener("click", showMany);
  document.getElementById("choice-epsilon-out").textContent = decimal.format(Number(value("choice-epsilon")));
  updatePrivacy();
  drawTraces();
}

if (globalThis.document?.getElementById("lab-config")) start();
