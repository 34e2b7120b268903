/**
 * Motion, shared by the spinner, the coin and the die: frames, easing, and the reduced-motion
 * preference. Loaded with the draw (draw.js), never with the page: nothing moves before a spin.
 * @module motion
 */
import { stopRotation } from "./spinner.js";

const SPIN_MS = 2200;

/** @returns {boolean} Whether the person asked the system for less motion. */
export function prefersReducedMotion() {
  return Boolean(globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches);
}

/** @param {number} t in [0, 1] @returns {number} */
export const easeOutCubic = (t) => 1 - (1 - t) ** 3;

/**
 * Call `onFrame(t)` with t from 0 to 1 over `duration` ms, once per frame; resolves after t = 1.
 * A duration of 0 calls `onFrame(1)` at once.
 * @param {number} duration
 * @param {(t: number) => void} onFrame
 * @returns {Promise<void>}
 */
export function animate(duration, onFrame) {
  if (duration <= 0) {
    onFrame(1);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    let start = null;
    const frame = (now) => {
      start ??= now;
      const t = Math.min(1, (now - start) / duration);
      onFrame(t);
      if (t < 1) requestAnimationFrame(frame);
      else resolve();
    };
    requestAnimationFrame(frame);
  });
}

/**
 * Turn a spinner's wheel (each is spun once) and stop it with `position` under the pointer.
 * @param {import("./spinner.js").Spinner} spinner
 * @param {number} position in [0, 1)
 * @returns {Promise<void>}
 */
export function spinTo(spinner, position) {
  const to = stopRotation(position);
  return animate(prefersReducedMotion() ? 0 : SPIN_MS, (t) => {
    spinner.wheel.setAttribute("transform", `rotate(${(to * easeOutCubic(t)).toFixed(3)})`);
  });
}
