/**
 * The coin: an SVG disc that flips a few times and lands on the face that was drawn.
 * @module coin
 */
import { animate, prefersReducedMotion } from "./motion.js";

const SVG = "http://www.w3.org/2000/svg";
const FLIP_MS = 1200;
export const HALF_TURNS = 7;

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
 * The face to start on so that `HALF_TURNS` half turns end on `heads`.
 * @param {boolean} heads
 * @returns {boolean}
 */
export function startFace(heads) {
  return faceAfter(heads, HALF_TURNS);
}

/**
 * @typedef {object} Coin
 * @property {(heads: boolean) => Promise<void>} flip Flip and land on the given face.
 */

/**
 * Draw a coin into `container` (hidden until flipped).
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
      container.hidden = false;
      const start = startFace(heads);
      const duration = prefersReducedMotion() ? 0 : FLIP_MS;
      return animate(duration, (t) => {
        const angle = t * HALF_TURNS * Math.PI;
        const halfTurnsDone = Math.min(HALF_TURNS, Math.floor(angle / Math.PI + 0.5));
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
