/**
 * The lab's averaging attack: how often the majority of one respondent's reports is their true
 * answer, wave after wave, with fresh draws and with a permanent randomized response. The
 * figures are the server's (GET /api/lab/averaging, rr.averaging_attack); this draws them.
 * @module averaging
 */
import { fill } from "./fill.js";
import { whenNear } from "./near.js";
import { plot } from "./plot.js";

/**
 * The chart's two lines: (wave, share) for the fresh draws and for the permanent answer.
 * @param {{fresh: number[], permanent: number[]}} attack
 * @returns {{fresh: [number, number][], permanent: [number, number][]}}
 */
export function attackLines(attack) {
  const at = (series) => series.map((share, index) => [index + 1, share]);
  return { fresh: at(attack.fresh), permanent: at(attack.permanent) };
}

function start() {
  const config = JSON.parse(document.getElementById("lab-config").textContent);
  const text = config.messages;
  const percent = new Intl.NumberFormat(config.locale, { style: "percent", maximumFractionDigits: 1 });
  const read = (id) => Number(document.getElementById(id).value);
  let asked = 0;

  const show = async () => {
    const epsilon = read("averaging-epsilon");
    const bound = read("averaging-bound");
    const waves = Math.round(read("averaging-waves"));
    const error = document.getElementById("averaging-error");
    if (!(epsilon > 0 && bound > epsilon && waves >= 1 && waves <= 200)) {
      error.textContent = text.averagingInvalid;
      return;
    }
    error.textContent = "";
    const request = ++asked;
    const query = new URLSearchParams({ epsilon: String(epsilon), epsilon_permanent: String(bound), waves: String(waves) });
    const response = await fetch(`${config.averagingUrl}?${query}`, { credentials: "same-origin" });
    const attack = await response.json();
    if (request !== asked) return;
    if (!response.ok) {
      error.textContent = attack.error ?? text.averagingInvalid;
      return;
    }
    const lines = attackLines(attack);
    plot(document.getElementById("averaging-chart"), {
      title: text.averagingShare,
      x: [1, Math.max(2, waves)],
      y: [0.5, 1],
      lines: [
        { points: lines.fresh, className: "estimate" },
        { points: lines.permanent, className: "laplace" },
      ],
      rules: [{ y: attack.limit, className: "truth", label: `e^ε∞/(1+e^ε∞) = ${percent.format(attack.limit)}` }],
      xLabel: text.averagingAxis,
      yLabel: text.averagingShare,
      formatY: (share) => percent.format(share),
    });
    document.getElementById("averaging-summary").textContent = fill(text.averagingSummary, {
      waves,
      fresh: percent.format(attack.fresh.at(-1)),
      permanent: percent.format(attack.permanent.at(-1)),
      limit: percent.format(attack.limit),
      bound,
    });
  };
  document.getElementById("averaging-controls").addEventListener("input", whenNear(document.getElementById("averaging-chart"), show));
}

if (globalThis.document?.getElementById("averaging-chart")) start();
