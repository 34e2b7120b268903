/**
 * The planner's power curve: power against the size of a change, as an SVG drawn from points the
 * server computed (GET /api/plan/change). No figures are computed here.
 * @module power-curve
 */

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 180;
const MARGIN = { left: 40, right: 12, top: 12, bottom: 34 };

/**
 * @typedef {object} CurvePoint
 * @property {number} change A change in the true share (−1 to 1).
 * @property {number} power The test's power against it (0 to 1).
 */

/**
 * Where each point goes on the chart: x by the size of the change (from 0 to the largest given),
 * y by power (1 at the top).
 * @param {CurvePoint[]} points
 * @returns {{x: number, y: number}[]}
 */
export function curvePositions(points) {
  const largest = Math.max(...points.map((point) => Math.abs(point.change)), 1e-9);
  const innerWidth = WIDTH - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  return points.map((point) => ({
    x: round(MARGIN.left + (Math.abs(point.change) / largest) * innerWidth),
    y: round(MARGIN.top + (1 - Math.min(1, Math.max(0, point.power))) * innerHeight),
  }));
}

/**
 * Draw the curve into `box`, replacing what was there.
 * @param {HTMLElement} box
 * @param {CurvePoint[]} points
 * @param {{label: string, change: string, power: string, target?: number}} words
 * @returns {SVGSVGElement}
 */
export function drawPowerCurve(box, points, words) {
  const target = words.target ?? 0.8;
  const svg = element("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": words.label });
  const innerBottom = HEIGHT - MARGIN.bottom;
  const right = WIDTH - MARGIN.right;
  const targetY = round(MARGIN.top + (1 - target) * (innerBottom - MARGIN.top));
  svg.append(
    element("line", { class: "axis", x1: MARGIN.left, y1: MARGIN.top, x2: MARGIN.left, y2: innerBottom }),
    element("line", { class: "axis", x1: MARGIN.left, y1: innerBottom, x2: right, y2: innerBottom }),
    element("line", { class: "target", x1: MARGIN.left, y1: targetY, x2: right, y2: targetY }),
    element("polyline", {
      class: "curve",
      points: curvePositions(points).map(({ x, y }) => `${x},${y}`).join(" "),
    }),
    text(words.power, 4, MARGIN.top + 8),
    text("1", MARGIN.left - 10, MARGIN.top + 4),
    text("0", MARGIN.left - 10, innerBottom),
    text(words.change, (MARGIN.left + right) / 2, HEIGHT - 6, "middle"),
    text(points.length ? `${round(Math.abs(points.at(-1).change) * 100)}` : "", right, innerBottom + 14, "end"),
  );
  box.replaceChildren(svg);
  return svg;
}

function element(name, attributes) {
  const node = globalThis.document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  return node;
}

function text(content, x, y, anchor = "start") {
  const node = element("text", { x, y, "text-anchor": anchor });
  node.textContent = content;
  return node;
}

function round(value) {
  return Math.round(value * 10) / 10;
}
