/**
 * The two randomized-response procedures, as the respondent's browser runs them.
 * Mirrors `rr.perturb` and `rr.light_fraction` in Python; tests check they agree.
 * @module procedure
 */
import { cryptoUint32, uniform } from "./random.js";

/** @typedef {"spinner" | "spinner_coin"} Procedure */
/** @typedef {0 | 1} Bit */
/**
 * @typedef {object} Draw
 * @property {number} position Where the spinner stopped, as a fraction of a turn in [0, 1).
 * @property {boolean} light Whether it stopped on the light share (position < p).
 * @property {boolean | null} heads The coin, when one was flipped (spinner_coin on dark), else null.
 * @property {Bit} reported The answer that will be sent.
 */

export const PROCEDURES = Object.freeze(["spinner", "spinner_coin"]);

/**
 * The spinner's light share p for a privacy loss ε.
 * spinner_coin: tanh(ε/2) = (e^ε − 1)/(e^ε + 1); spinner: e^ε/(1 + e^ε).
 * @param {number} epsilon
 * @param {Procedure} [procedure]
 * @returns {number}
 */
export function lightFraction(epsilon, procedure = "spinner_coin") {
  if (!(Number.isFinite(epsilon) && epsilon > 0)) {
    throw new RangeError(`epsilon must be finite and > 0, got ${epsilon}`);
  }
  checkProcedure(procedure);
  return procedure === "spinner_coin" ? Math.tanh(epsilon / 2) : 1 / (1 + Math.exp(-epsilon));
}

/**
 * P(report yes | true yes) and P(report yes | true no) of one spin, from the procedure's own steps
 * (spinner_coin: p + d/2 and d/2; spinner: p and d, with the dark share d). Mirrors
 * `rr.report_probabilities`: d is computed directly, not as 1 − p, so it keeps its precision.
 * @param {number} epsilon
 * @param {Procedure} [procedure]
 * @returns {{yesGivenYes: number, yesGivenNo: number}}
 */
export function reportProbabilities(epsilon, procedure = "spinner_coin") {
  const p = lightFraction(epsilon, procedure);
  const tail = Math.exp(-epsilon);
  const dark = procedure === "spinner_coin" ? (2 * tail) / (1 + tail) : tail / (1 + tail);
  return procedure === "spinner_coin"
    ? { yesGivenYes: p + dark / 2, yesGivenNo: dark / 2 }
    : { yesGivenYes: p, yesGivenNo: dark };
}

/**
 * P(reported answer = true answer) = e^ε/(1 + e^ε), the same for both procedures.
 * @param {number} epsilon
 * @returns {number}
 */
export function truthProbability(epsilon) {
  return reportProbabilities(epsilon, "spinner").yesGivenYes;
}

/**
 * The answer that is reported, given the truth and what the spinner and coin showed.
 * @param {Bit} truth
 * @param {Procedure} procedure
 * @param {boolean} light
 * @param {boolean | null} heads
 * @returns {Bit}
 */
export function reportedAnswer(truth, procedure, light, heads) {
  if (light) return truth;
  if (procedure === "spinner_coin") return heads ? 1 : 0;
  return truth === 1 ? 0 : 1;
}

/**
 * Spin (and on dark, for spinner_coin, flip the coin) and work out the reported answer.
 * @param {Bit} truth
 * @param {Procedure} procedure
 * @param {number} light The light share p, in (0, 1).
 * @param {import("./random.js").Uint32Source} [random]
 * @returns {Draw}
 */
export function draw(truth, procedure, light, random = cryptoUint32) {
  checkProcedure(procedure);
  if (truth !== 0 && truth !== 1) throw new RangeError(`truth must be 0 or 1, got ${truth}`);
  const position = uniform(random);
  const onLight = position < light;
  const heads = !onLight && procedure === "spinner_coin" ? (random() & 1) === 1 : null;
  return { position, light: onLight, heads, reported: reportedAnswer(truth, procedure, onLight, heads) };
}

/** @param {string} procedure */
function checkProcedure(procedure) {
  if (!PROCEDURES.includes(procedure)) {
    throw new RangeError(`procedure must be one of ${PROCEDURES.join(", ")}, got ${procedure}`);
  }
}
