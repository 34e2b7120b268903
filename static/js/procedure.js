/**
 * The two randomized-response procedures, as the respondent's browser runs them: for a yes/no
 * answer (spinner, then a coin or the opposite answer) and for one option among k (spinner, then a
 * die). Mirrors `rr.perturb`, `rr.perturb_choice` and the light shares in Python; tests check
 * they agree.
 * @module procedure
 */
import { cryptoUint32, uniform, uniformInt } from "./random.js";

/**
 * What a spinner's dark share does: a fair coin decides ("coin"), or the opposite answer is
 * reported ("opposite"). The server says which for each question (its design's `dark`, from rr.dark_report).
 * @typedef {"coin" | "opposite"} Dark
 */
/** @typedef {0 | 1} Bit */
/**
 * @typedef {object} Draw
 * @property {number} position Where the spinner stopped, as a fraction of a turn in [0, 1).
 * @property {boolean} light Whether it stopped on the light share (position < p).
 * @property {boolean | null} heads The coin, when one was flipped (dark: coin), else null.
 * @property {Bit} reported The answer that will be sent.
 */

export const DARK = Object.freeze(["coin", "opposite"]);

/**
 * The spinner's light share p for a privacy loss ε.
 * dark coin: tanh(ε/2) = (e^ε − 1)/(e^ε + 1); dark opposite: e^ε/(1 + e^ε).
 * @param {number} epsilon
 * @param {Dark} [dark]
 * @returns {number}
 */
export function lightFraction(epsilon, dark = "coin") {
  if (!(Number.isFinite(epsilon) && epsilon > 0)) {
    throw new RangeError(`epsilon must be finite and > 0, got ${epsilon}`);
  }
  checkDark(dark);
  return dark === "coin" ? Math.tanh(epsilon / 2) : 1 / (1 + Math.exp(-epsilon));
}

/**
 * P(report yes | true yes) and P(report yes | true no) of one spin, from the procedure's own steps
 * (dark coin: p + d/2 and d/2; dark opposite: p and d, with the dark share d). Mirrors
 * `rr.report_probabilities`: d is computed directly, not as 1 − p, so it keeps its precision.
 * @param {number} epsilon
 * @param {Dark} [dark]
 * @returns {{yesGivenYes: number, yesGivenNo: number}}
 */
export function reportProbabilities(epsilon, dark = "coin") {
  const p = lightFraction(epsilon, dark);
  const tail = Math.exp(-epsilon);
  const share = dark === "coin" ? (2 * tail) / (1 + tail) : tail / (1 + tail);
  return dark === "coin"
    ? { yesGivenYes: p + share / 2, yesGivenNo: share / 2 }
    : { yesGivenYes: p, yesGivenNo: share };
}

/**
 * P(reported answer = true answer) = e^ε/(1 + e^ε), the same for both procedures.
 * @param {number} epsilon
 * @returns {number}
 */
export function truthProbability(epsilon) {
  return reportProbabilities(epsilon, "opposite").yesGivenYes;
}

/**
 * The answer that is reported, given the truth and what the spinner and coin showed.
 * @param {Bit} truth
 * @param {Dark} dark
 * @param {boolean} light
 * @param {boolean | null} heads
 * @returns {Bit}
 */
export function reportedAnswer(truth, dark, light, heads) {
  if (light) return truth;
  if (dark === "coin") return heads ? 1 : 0;
  return truth === 1 ? 0 : 1;
}

/**
 * Spin (and on dark, where a coin decides, flip it) and work out the reported answer.
 * @param {Bit} truth
 * @param {Dark} dark
 * @param {number} light The light share p, in (0, 1).
 * @param {import("./random.js").Uint32Source} [random]
 * @returns {Draw}
 */
export function draw(truth, dark, light, random = cryptoUint32) {
  checkDark(dark);
  if (truth !== 0 && truth !== 1) throw new RangeError(`truth must be 0 or 1, got ${truth}`);
  const position = uniform(random);
  const onLight = position < light;
  const heads = !onLight && dark === "coin" ? (random() & 1) === 1 : null;
  return { position, light: onLight, heads, reported: reportedAnswer(truth, dark, onLight, heads) };
}

/**
 * @typedef {object} Sector
 * @property {number} share Its share of the wheel, in (0, 1].
 * @property {"truth" | "opposite" | "yes" | "no" | "innocuous"} reports What landing on it
 *   reports: the true answer, the opposite one, a forced "yes" or "no", or the true answer to the
 *   innocuous question.
 */

/**
 * @typedef {object} DesignDraw
 * @property {number} position Where the wheel stopped, as a fraction of a turn in [0, 1).
 * @property {boolean} light Whether it stopped on the first (truth) sector.
 * @property {null} heads No coin is flipped.
 * @property {Sector["reports"]} sector What the sector it stopped on reports.
 * @property {Bit} reported The answer that will be sent.
 */

/**
 * One spin of a design's wheel, as the server describes it (its sectors come from the design's
 * module): sectors laid clockwise from the top in order, the report decided by the one under the
 * pointer. Mirrors `rr.Design.perturb`: P(report 1 | yes) = share of truth + share of "yes"
 * (+ innocuous share × innocuous answer), P(report 1 | no) = share of opposite + share of "yes"
 * (+ the same).
 * @param {Bit} truth
 * @param {Sector[]} sectors
 * @param {Bit | null} [innocuous] The true answer to the innocuous question, where a sector asks it.
 * @param {import("./random.js").Uint32Source} [random]
 * @returns {DesignDraw}
 */
export function drawDesign(truth, sectors, innocuous = null, random = cryptoUint32) {
  if (truth !== 0 && truth !== 1) throw new RangeError(`truth must be 0 or 1, got ${truth}`);
  if (!sectors.length) throw new RangeError("a design's wheel needs sectors");
  const needsInnocuous = sectors.some((sector) => sector.reports === "innocuous");
  if (needsInnocuous && innocuous !== 0 && innocuous !== 1) {
    throw new RangeError(`the innocuous answer must be 0 or 1, got ${innocuous}`);
  }
  const position = uniform(random);
  let end = 0;
  let index = sectors.length - 1;
  for (const [at, sector] of sectors.entries()) {
    end += sector.share;
    if (position < end) {
      index = at;
      break;
    }
  }
  const sector = sectors[index].reports;
  const reports = { truth, opposite: 1 - truth, yes: 1, no: 0, innocuous };
  if (!(sector in reports)) throw new RangeError(`unknown sector ${sector}`);
  const reported = /** @type {Bit} */ (reports[sector]);
  return { position, light: index === 0, heads: null, sector, reported };
}

/**
 * @typedef {object} ChoiceDraw
 * @property {number} position Where the spinner stopped, as a fraction of a turn in [0, 1).
 * @property {boolean} light Whether it stopped on the light share.
 * @property {number | null} die The option the die landed on (dark only), else null.
 * @property {number} diePosition Where the die wheel stopped, in [0, 1) (inside that option's sector).
 * @property {number} reported The index of the option that will be sent.
 */

/**
 * The light share q of a single-choice question of k options (generalized randomized response).
 * dark coin: (e^ε − 1)/(e^ε + k − 1), the die then picks any option; dark opposite: e^ε/(e^ε + k − 1),
 * the die then picks one of the other options. For k = 2 these are the yes/no light shares.
 * @param {number} epsilon
 * @param {number} k
 * @param {Dark} [dark]
 * @returns {number}
 */
export function choiceLightFraction(epsilon, k, dark = "coin") {
  lightFraction(epsilon, dark);
  if (!(Number.isInteger(k) && k >= 2)) throw new RangeError(`k must be a whole number >= 2, got ${k}`);
  const tail = Math.exp(-epsilon);
  const scale = 1 + (k - 1) * tail;
  return dark === "coin" ? -Math.expm1(-epsilon) / scale : 1 / scale;
}

/**
 * Spin for one true option among k and, on dark, roll the die: over all k options
 * (dark coin) or over the k − 1 others (dark opposite). The die is drawn as a wheel of k equal
 * sectors; the spinner-only die never lands on the true option's sector.
 * @param {number} truth The true option's index, in [0, k).
 * @param {number} k
 * @param {Dark} dark
 * @param {number} light The light share q, in (0, 1).
 * @param {import("./random.js").Uint32Source} [random]
 * @returns {ChoiceDraw}
 */
export function drawChoice(truth, k, dark, light, random = cryptoUint32) {
  checkDark(dark);
  if (!(Number.isInteger(truth) && truth >= 0 && truth < k)) throw new RangeError(`truth must be an option index below ${k}, got ${truth}`);
  const position = uniform(random);
  const onLight = position < light;
  if (onLight) return { position, light: true, die: null, diePosition: 0, reported: truth };
  let die = dark === "coin" ? uniformInt(k, random) : uniformInt(k - 1, random);
  if (dark === "opposite" && die >= truth) die += 1;
  const diePosition = (die + uniform(random)) / k;
  return { position, light: false, die, diePosition, reported: die };
}

/** @param {string} dark */
function checkDark(dark) {
  if (!DARK.includes(dark)) throw new RangeError(`dark must be one of ${DARK.join(", ")}, got ${dark}`);
}

/**
 * @typedef {Draw & {valuePosition: number, valueYes: Bit}} NumberDraw
 */

/**
 * The value wheel's yes share for a number: (x − min)/(max − min). Mirrors `rr.BoundedMean.share`.
 * @param {number} value
 * @param {{min: number, max: number}} scale
 * @returns {number}
 */
export function valueShare(value, scale) {
  if (!(Number.isFinite(value) && value >= scale.min && value <= scale.max)) {
    throw new RangeError(`value must lie in [${scale.min}, ${scale.max}], got ${value}`);
  }
  return (value - scale.min) / (scale.max - scale.min);
}

/**
 * One report of a number (the one-bit mean, `rr.mean`): the value wheel says yes with the value's
 * share, and its answer goes through the spinner as a yes/no answer would. So
 * P(report 1) = a + b·share on the spinner's own line, for both procedures.
 * @param {number} share The value wheel's yes share, in [0, 1].
 * @param {Dark} dark
 * @param {number} light The spinner's light share p.
 * @param {import("./random.js").Uint32Source} [random]
 * @returns {NumberDraw}
 */
export function drawNumber(share, dark, light, random = cryptoUint32) {
  if (!(share >= 0 && share <= 1)) throw new RangeError(`share must lie in [0, 1], got ${share}`);
  const valuePosition = uniform(random);
  const valueYes = valuePosition < share ? 1 : 0;
  return { valuePosition, valueYes, ...draw(valueYes, dark, light, random) };
}

/**
 * A typed number as the question takes it: inside [min, max] and on a whole number of steps from
 * min (to a millionth of a step, so 0.1 + 0.2 is on a step of 0.1); null otherwise.
 * @param {string} typed
 * @param {{min: number, max: number, step: number}} scale
 * @returns {number | null}
 */
export function checkedValue(typed, scale) {
  if (typeof typed !== "string" || typed.trim() === "") return null;
  const value = Number(typed);
  if (!Number.isFinite(value) || value < scale.min || value > scale.max) return null;
  const steps = (value - scale.min) / scale.step;
  return Math.abs(steps - Math.round(steps)) <= 1e-6 ? value : null;
}
