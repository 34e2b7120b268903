/**
 * The coin: an SVG disc that flips a few times and lands on the face that was drawn.
 * @module coin
 */
import { animate, prefersReducedMotion } from "./motion.js";
import { cryptoUint32 } from "./random.js";

const SVG = "http://www.w3.org/2000/svg";
const MS_PER_HALF_TURN = 160;
/** The fewest half turns a flip makes; it makes one more when the parity needs it. */
export const MIN_HALF_TURNS = 7;

/**
 * Which face shows after `halfTurns` half turns, starting from `start`.
 * @param {boolean} start true for heads
 * @param {number} halfTurns
 * @returns {boolean}
 */
export function faceAfter(start, halfTurns) {
  return halfTurns % 2 === 0 ? start : !start;
}

/**
 * How a flip that must land on `heads` is shown: the start face is a fresh fair draw, and the
 * number of half turns (7 or 8) follows from it. Each of the two, seen alone, is independent of
 * the result, so neither the first frame nor the pace of the flip gives the result away.
 * @param {boolean} heads
 * @param {import("./random.js").Uint32Source} [random]
 * @returns {{start: boolean, halfTurns: number}}
 */
export function flipPlan(heads, random = cryptoUint32) {
  const start = (random() & 1) === 1;
  const halfTurns = faceAfter(start, MIN_HALF_TURNS) === heads ? MIN_HALF_TURNS : MIN_HALF_TURNS + 1;
  return { start, halfTurns };
}

/**
 * @typedef {object} Coin
 * @property {(heads: boolean) => Promise<void>} flip Flip and land on the given face.
 */

/**
 * Draw a coin into `container` (invisible until flipped, its place kept by the page's style). The
 * draw creates it when it flips: nothing of it is needed before.
 * @param {HTMLElement} container
 * @param {{heads: string, tails: string, label: string}} text
 * @returns {Coin}
 */
export function createCoin(container, text) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "-50 -50 100 100");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", text.label);
  const disc = document.createElementNS(SVG, "g");
  const face = document.createElementNS(SVG, "circle");
  face.setAttribute("r", "44");
  face.setAttribute("class", "coin-face");
  const label = document.createElementNS(SVG, "text");
  label.setAttribute("text-anchor", "middle");
  label.setAttribute("y", "7");
  disc.append(face, label);
  svg.append(disc);
  container.replaceChildren(svg);
  const show = (heads) => {
    label.textContent = heads ? text.heads : text.tails;
    face.setAttribute("class", heads ? "coin-face heads" : "coin-face tails");
  };
  return {
    flip(heads) {
      container.dataset.flipped = "";
      const { start, halfTurns } = flipPlan(heads);
      const duration = prefersReducedMotion() ? 0 : halfTurns * MS_PER_HALF_TURN;
      return animate(duration, (t) => {
        const angle = t * halfTurns * Math.PI;
        const halfTurnsDone = Math.min(halfTurns, Math.floor(angle / Math.PI + 0.5));
        show(faceAfter(start, halfTurnsDone));
        disc.setAttribute("transform", `scale(1 ${Math.abs(Math.cos(angle)).toFixed(3)})`);
        if (t === 1) {
          show(heads);
          disc.setAttribute("transform", "scale(1 1)");
        }
      });
    },
  };
}
