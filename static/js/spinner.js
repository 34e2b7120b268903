/**
 * The spinner: geometry (pure, tested) and the SVG wheel the page draws at load. The light sector
 * runs clockwise from the top over a fraction p of the turn; the pointer is fixed at the top, so
 * the wheel turned by R degrees shows position ((−R / 360) mod 1) under the pointer. The wheel is
 * turned by motion.js, loaded with the draw.
 * @module spinner
 */

const SVG = "http://www.w3.org/2000/svg";
const RADIUS = 90;
const TURNS = 4;

/**
 * The point at `fraction` of a turn clockwise from the top, on a circle of `radius` around 0.
 * @param {number} fraction
 * @param {number} radius
 * @returns {[number, number]}
 */
export function pointAt(fraction, radius) {
  const angle = fraction * 2 * Math.PI;
  return [radius * Math.sin(angle), -radius * Math.cos(angle)];
}

/**
 * SVG path of the sector from `start` to `end` (fractions of a turn, clockwise from the top).
 * @param {number} start
 * @param {number} end
 * @param {number} [radius]
 * @returns {string}
 */
export function sectorPath(start, end, radius = RADIUS) {
  const [x0, y0] = pointAt(start, radius);
  const [x1, y1] = pointAt(end, radius);
  const largeArc = end - start > 0.5 ? 1 : 0;
  const r = radius.toFixed(3);
  return `M0 0L${x0.toFixed(3)} ${y0.toFixed(3)}A${r} ${r} 0 ${largeArc} 1 ${x1.toFixed(3)} ${y1.toFixed(3)}Z`;
}

/**
 * The clockwise rotation, in degrees, that stops the wheel with `position` under the pointer,
 * after `turns` full turns.
 * @param {number} position in [0, 1)
 * @param {number} [turns]
 * @returns {number}
 */
export function stopRotation(position, turns = TURNS) {
  return turns * 360 - position * 360;
}

/**
 * The position under the pointer when the wheel is turned by `rotation` degrees.
 * @param {number} rotation
 * @returns {number} in [0, 1)
 */
export function positionUnderPointer(rotation) {
  const turn = (-rotation / 360) % 1;
  return turn < 0 ? turn + 1 : turn;
}

/**
 * Whether a position lies on the light sector of a spinner with light share p.
 * @param {number} position
 * @param {number} light
 * @returns {boolean}
 */
export function isLight(position, light) {
  return position < light;
}

/**
 * @typedef {object} Spinner
 * @property {SVGSVGElement} svg
 * @property {SVGGElement} wheel The part that turns (motion.js's spinTo).
 */

/**
 * Draw a spinner with light share `light` into `container`.
 * @param {HTMLElement} container
 * @param {number} light
 * @param {{label: string, lightLabel: string, lightWord?: string, sectorWords?: Record<string, string>}} text
 *   Accessible name, the light share's figure, the word that names it (under the figure in the
 *   hub), and the words written on a design's forced sectors.
 * @param {import("./procedure.js").Sector[]} [sectors] A design's sectors, in place of light and dark.
 * @returns {Spinner}
 */
export function createSpinner(container, light, text, sectors = []) {
  const svg = element("svg", { viewBox: "-100 -112 200 214", role: "img", "aria-label": text.label });
  const title = element("title", {});
  title.textContent = text.label;
  const wheel = element("g", { class: "wheel" });
  if (sectors.length) wheel.append(...designSectors(sectors, text.sectorWords ?? {}));
  else {
    wheel.append(
      element("path", { class: "sector-light", d: sectorPath(0, light) }),
      element("path", { class: "sector-dark", d: sectorPath(light, 1) }),
    );
  }
  wheel.append(element("circle", { class: "rim", r: String(RADIUS) }));
  const share = element("text", { class: "share", y: text.lightWord ? "1" : "6", "text-anchor": "middle" });
  share.textContent = text.lightLabel;
  const named = element("text", { class: "share-word", y: "16", "text-anchor": "middle" });
  named.textContent = text.lightWord ?? "";
  const pointer = element("path", { class: "pointer", d: "M-9 -110L9 -110L0 -86Z" });
  svg.append(title, wheel, element("circle", { class: "hub", r: "30" }), share, named, pointer);
  container.replaceChildren(svg);
  return { svg, wheel };
}

/**
 * A design's sectors, clockwise from the top: the truth sector light, a forced "yes" or "no"
 * sector marked with its word, an innocuous-question or opposite-answer sector dark.
 * @param {import("./procedure.js").Sector[]} sectors
 * @param {Record<string, string>} words The word written on each kind of forced sector.
 * @returns {SVGElement[]}
 */
function designSectors(sectors, words) {
  const parts = [];
  let start = 0;
  for (const sector of sectors) {
    const end = Math.min(1, start + sector.share);
    const kind = sector.reports === "truth" ? "light" : ["innocuous", "opposite"].includes(sector.reports) ? "dark" : sector.reports;
    parts.push(element("path", { class: `sector-${kind}`, d: sectorPath(start, end) }));
    if (words[sector.reports]) {
      const [x, y] = pointAt((start + end) / 2, RADIUS * 0.68);
      const label = element("text", { class: "sector-word", x: x.toFixed(1), y: (y + 5).toFixed(1), "text-anchor": "middle" });
      label.textContent = words[sector.reports];
      parts.push(label);
    }
    start = end;
  }
  return parts;
}

/**
 * @param {string} name
 * @param {Record<string, string>} attributes
 * @returns {SVGElement}
 */
function element(name, attributes) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}
