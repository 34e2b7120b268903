/**
 * The die of a single-choice question: a wheel of k equal sectors, one per option, numbered as
 * the options are; it turns and stops on the sector that was drawn.
 * @module die
 */
import { animate, easeOutCubic, prefersReducedMotion } from "./motion.js";
import { sectorPath, stopRotation } from "./spinner.js";

const SVG = "http://www.w3.org/2000/svg";
const RADIUS = 90;
const ROLL_MS = 1600;

/**
 * Where the label of sector `index` of `faces` sits: the middle of its arc, inside the rim.
 * @param {number} index
 * @param {number} faces
 * @returns {[number, number]}
 */
export function labelPoint(index, faces) {
  const angle = ((index + 0.5) / faces) * 2 * Math.PI;
  const r = RADIUS * 0.68;
  return [r * Math.sin(angle), -r * Math.cos(angle)];
}

/**
 * @typedef {object} Die
 * @property {(position: number) => Promise<void>} rollTo Turn the wheel and stop at `position`.
 */

/**
 * Draw a die of `faces` sectors into `container`; it stays hidden until it rolls.
 * @param {HTMLElement} container
 * @param {number} faces
 * @param {{label: string}} text Its accessible name.
 * @returns {Die}
 */
export function createDie(container, faces, text) {
  const svg = node("svg", { viewBox: "-100 -112 200 214", role: "img", "aria-label": text.label });
  const title = node("title", {});
  title.textContent = text.label;
  const wheel = node("g", { class: "wheel" });
  /** @type {Array<{label: SVGElement, x: number, y: number}>} */
  const labels = [];
  for (let index = 0; index < faces; index += 1) {
    wheel.append(node("path", { class: `die-face face-${index % 2}`, d: sectorPath(index / faces, (index + 1) / faces, RADIUS) }));
    const [x, y] = labelPoint(index, faces);
    const label = node("text", { class: "die-label", x: x.toFixed(2), y: (y + 6).toFixed(2), "text-anchor": "middle" });
    label.textContent = String(index + 1);
    labels.push({ label, x, y });
    wheel.append(label);
  }
  wheel.append(node("circle", { class: "rim", r: String(RADIUS) }));
  svg.append(title, wheel, node("path", { class: "pointer", d: "M-9 -110L9 -110L0 -86Z" }));
  container.replaceChildren(svg);
  return {
    rollTo(position) {
      container.dataset.rolled = "";
      const to = stopRotation(position, 3);
      return animate(prefersReducedMotion() ? 0 : ROLL_MS, (t) => {
        const angle = (to * easeOutCubic(t)).toFixed(3);
        wheel.setAttribute("transform", `rotate(${angle})`);
        // Each number turns back about its own centre, so it reads upright wherever it stops.
        for (const { label, x, y } of labels) label.setAttribute("transform", `rotate(${-angle} ${x.toFixed(2)} ${y.toFixed(2)})`);
      });
    },
  };
}

function node(name, attributes) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}
