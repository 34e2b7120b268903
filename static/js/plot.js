/**
 * Small SVG charts for the lab: lines, a shaded band, bars, and reference lines, with axes.
 * @module plot
 */

const SVG = "http://www.w3.org/2000/svg";
// The top margin holds reference-line labels, so they never sit on a bar or a line.
const MARGIN = { top: 26, right: 16, bottom: 40, left: 56 };

/**
 * A linear map from `domain` to `range`.
 * @param {[number, number]} domain
 * @param {[number, number]} range
 * @returns {(value: number) => number}
 */
export function scale([d0, d1], [r0, r1]) {
  const span = d1 - d0 || 1;
  return (value) => r0 + ((value - d0) / span) * (r1 - r0);
}

/**
 * An SVG path through points.
 * @param {Array<[number, number]>} points
 * @param {(v: number) => number} x
 * @param {(v: number) => number} y
 */
export function pathThrough(points, x, y) {
  return points.map(([a, b], i) => `${i ? "L" : "M"}${x(a).toFixed(2)} ${y(b).toFixed(2)}`).join("");
}

/**
 * Evenly spaced "nice" tick values covering [low, high].
 * @param {number} low
 * @param {number} high
 * @param {number} [count]
 */
export function ticks(low, high, count = 5) {
  const raw = (high - low) / count || 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const values = [];
  for (let v = Math.ceil(low / step) * step; v <= high + step * 1e-9; v += step) values.push(Number(v.toFixed(12)));
  return values;
}

/**
 * `[low, high]` widened to the nearest ticks, so the lowest and highest gridlines frame every point.
 * @param {number} low
 * @param {number} high
 * @param {number} [count]
 * @returns {[number, number]}
 */
export function niceDomain(low, high, count = 5) {
  const inside = ticks(low, high, count);
  const step = inside.length > 1 ? inside[1] - inside[0] : Math.abs(high - low) || 1;
  const floor = inside[0] > low ? inside[0] - step : inside[0];
  const ceiling = inside.at(-1) < high ? inside.at(-1) + step : inside.at(-1);
  return [Number(floor.toFixed(12)), Number(ceiling.toFixed(12))];
}

/**
 * @typedef {object} PlotSpec
 * @property {[number, number]} x
 * @property {[number, number]} y
 * @property {Array<{points: Array<[number, number]>, className: string}>} [lines]
 * @property {Array<[number, number, number]>} [band] x, low, high
 * @property {Array<{x0: number, x1: number, y: number}>} [bars]
 * @property {Array<{x?: number, y?: number, className: string, label?: string}>} [rules]
 * @property {string} [xLabel]
 * @property {string} [yLabel]
 * @property {string} title
 * @property {Array<[number, string]>} [xTicks] Labelled x positions, instead of round numbers.
 * @property {number} [width] In SVG units (640 by default): smaller for a chart shown at half width,
 *   so that its text stays as large on screen.
 * @property {number} [height]
 * @property {(v: number) => string} [formatX]
 * @property {(v: number) => string} [formatY]
 */

/**
 * Draw a chart into `container`, replacing what was there.
 * @param {HTMLElement} container
 * @param {PlotSpec} spec
 * @returns {SVGSVGElement}
 */
export function plot(container, spec) {
  const width = spec.width ?? 640;
  const height = spec.height ?? 260;
  const yDomain = niceDomain(...spec.y);
  const x = scale(spec.x, [MARGIN.left, width - MARGIN.right]);
  const y = scale(yDomain, [height - MARGIN.bottom, MARGIN.top]);
  const svg = node("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "lab-plot" });
  const title = node("title", {});
  title.textContent = spec.title;
  svg.append(title);
  // An interval at n = 1 can reach far past the axes: it is cut at the plot's edges.
  const clipId = `plot-area-${++plotCount}`;
  const clip = node("clipPath", { id: clipId });
  clip.append(node("rect", { x: MARGIN.left, y: MARGIN.top, width: width - MARGIN.left - MARGIN.right, height: height - MARGIN.top - MARGIN.bottom }));
  svg.append(clip);
  const formatX = spec.formatX ?? String;
  const formatY = spec.formatY ?? String;
  for (const value of ticks(...yDomain)) {
    svg.append(node("line", { class: "grid", x1: MARGIN.left, x2: width - MARGIN.right, y1: y(value), y2: y(value) }));
    svg.append(text(formatY(value), { x: MARGIN.left - 6, y: y(value) + 4, "text-anchor": "end", class: "tick" }));
  }
  const xTicks = spec.xTicks ?? ticks(...spec.x).map((value) => [value, formatX(value)]);
  for (const [value, label] of xTicks) {
    svg.append(text(label, { x: x(value), y: height - MARGIN.bottom + 16, "text-anchor": "middle", class: "tick" }));
  }
  if (spec.band?.length) {
    const upper = spec.band.map(([a, , high]) => [a, high]);
    const lower = spec.band.map(([a, low]) => [a, low]).reverse();
    svg.append(node("path", { class: "band", d: `${pathThrough([...upper, ...lower], x, y)}Z`, "clip-path": `url(#${clipId})` }));
  }
  for (const bar of spec.bars ?? []) {
    svg.append(node("rect", { class: "bar", x: x(bar.x0), width: Math.max(0, x(bar.x1) - x(bar.x0) - 1), y: y(bar.y), height: Math.max(0, y(yDomain[0]) - y(bar.y)) }));
  }
  for (const line of spec.lines ?? []) svg.append(node("path", { class: `line ${line.className}`, d: pathThrough(line.points, x, y) }));
  for (const rule of spec.rules ?? []) {
    const attributes = rule.x !== undefined
      ? { x1: x(rule.x), x2: x(rule.x), y1: MARGIN.top, y2: height - MARGIN.bottom }
      : { x1: MARGIN.left, x2: width - MARGIN.right, y1: y(rule.y), y2: y(rule.y) };
    svg.append(node("line", { class: `rule ${rule.className}`, ...attributes }));
    if (rule.label) svg.append(text(rule.label, ruleLabelPlace(attributes, width), { class: `rule-label ${rule.className}` }));
  }
  if (spec.xLabel) svg.append(text(spec.xLabel, { x: (MARGIN.left + width - MARGIN.right) / 2, y: height - 6, "text-anchor": "middle", class: "axis-label" }));
  if (spec.yLabel) svg.append(text(spec.yLabel, { x: 14, y: height / 2, "text-anchor": "middle", class: "axis-label", transform: `rotate(-90 14 ${height / 2})` }));
  container.replaceChildren(svg);
  return svg;
}

let plotCount = 0;

/**
 * Where a reference line's label goes: above the plot for a vertical line (leaning away from the
 * nearer edge), at the right end above the line for a horizontal one.
 */
function ruleLabelPlace({ x1, y1 }, width) {
  if (x1 === MARGIN.left) return { x: width - MARGIN.right - 4, y: y1 - 6, "text-anchor": "end" };
  const anchor = x1 > width * 0.75 ? "end" : x1 < width * 0.25 ? "start" : "middle";
  return { x: x1, y: MARGIN.top - 8, "text-anchor": anchor };
}

function node(name, attributes) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

function text(content, attributes, extra = {}) {
  const element = node("text", { ...attributes, ...extra });
  element.textContent = content;
  return element;
}
