/**
 * Randomness for the respondent's draws: always the browser's cryptographic generator.
 * Functions that draw take a `random` source so tests can pass a seeded one.
 * @module random
 */

/** @typedef {() => number} Uint32Source A function returning a uniform integer in [0, 2^32). */

const TWO_TO_32 = 4294967296;

/**
 * A uniform 32-bit integer from `crypto.getRandomValues`.
 * @type {Uint32Source}
 */
export function cryptoUint32() {
  const buffer = new Uint32Array(1);
  globalThis.crypto.getRandomValues(buffer);
  return buffer[0];
}

/**
 * A uniform number in [0, 1) on a grid of 2^-32.
 * @param {Uint32Source} [random]
 * @returns {number}
 */
export function uniform(random = cryptoUint32) {
  return random() / TWO_TO_32;
}

/**
 * A uniform integer in [0, n), without the bias of `random() % n` (draws past the last whole
 * multiple of n are drawn again).
 * @param {number} n a whole number in [1, 2^32]
 * @param {Uint32Source} [random]
 * @returns {number}
 */
export function uniformInt(n, random = cryptoUint32) {
  if (!(Number.isInteger(n) && n >= 1 && n <= TWO_TO_32)) throw new RangeError(`n must be a whole number in [1, 2^32], got ${n}`);
  const limit = TWO_TO_32 - (TWO_TO_32 % n);
  for (;;) {
    const value = random();
    if (value < limit) return value % n;
  }
}

/**
 * The index of one of `shares`, drawn with probability share / (sum of shares): an experiment's
 * condition, or an arm of a question.
 * @param {number[]} shares each above 0
 * @param {Uint32Source} [random]
 * @returns {number}
 */
export function pickByShares(shares, random = cryptoUint32) {
  if (!shares.length || shares.some((share) => !(Number.isFinite(share) && share > 0))) {
    throw new RangeError("shares must be numbers above 0");
  }
  let point = uniform(random) * shares.reduce((sum, share) => sum + share, 0);
  for (const [index, share] of shares.entries()) {
    if (point < share) return index;
    point -= share;
  }
  return shares.length - 1; // rounding at the very top of the range
}

/** A random submission id: 128 bits from the browser's cryptographic generator, as 32 hex digits. */
export function newSubmissionId() {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
