/**
 * A small seeded 32-bit generator (mulberry32) so that statistical tests are repeatable.
 * @param {number} seed
 * @returns {() => number} uniform integers in [0, 2^32)
 */
export function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/**
 * A source that walks an even grid of 2^32 / n steps, offset by half a step.
 * @param {number} n
 */
export function evenGrid(n) {
  let index = 0;
  return () => Math.floor(((index++ % n) + 0.5) * (4294967296 / n));
}
