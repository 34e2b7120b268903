/**
 * What this browser remembers about a survey: only the reported bits, and whether it submitted.
 * Never the true answer and never the spin outcome, since outcome plus report would give the
 * truth away.
 * @module memo
 */

const PREFIX = "rr-survey:";

/**
 * @typedef {object} Memo
 * @property {Record<string, 0 | 1>} reported Reported bit by item ("question" or "question.option").
 * @property {boolean} submitted
 */

/**
 * @param {Storage | null} storage
 * @param {string} slug
 * @returns {Memo}
 */
export function loadMemo(storage, slug) {
  const empty = { reported: {}, submitted: false };
  try {
    const parsed = JSON.parse(storage?.getItem(PREFIX + slug) ?? "null");
    if (!parsed || typeof parsed !== "object") return empty;
    const reported = {};
    for (const [item, bit] of Object.entries(parsed.reported ?? {})) {
      if (bit === 0 || bit === 1) reported[item] = bit;
    }
    return { reported, submitted: parsed.submitted === true };
  } catch {
    return empty;
  }
}

/**
 * Remember reported bits (merged with what is already remembered).
 * @param {Storage | null} storage
 * @param {string} slug
 * @param {Record<string, 0 | 1>} reported
 * @returns {Memo}
 */
export function rememberReported(storage, slug, reported) {
  const memo = loadMemo(storage, slug);
  return save(storage, slug, { ...memo, reported: { ...memo.reported, ...reported } });
}

/**
 * Remember that this browser has submitted the survey.
 * @param {Storage | null} storage
 * @param {string} slug
 * @returns {Memo}
 */
export function rememberSubmitted(storage, slug) {
  return save(storage, slug, { ...loadMemo(storage, slug), submitted: true });
}

/** @returns {Storage | null} localStorage, or null where the browser blocks it. */
export function browserStorage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function save(storage, slug, memo) {
  try {
    storage?.setItem(PREFIX + slug, JSON.stringify({ reported: memo.reported, submitted: memo.submitted }));
  } catch {
    // Storage full or blocked: the page still works, it just cannot stop a redraw on reload.
  }
  return memo;
}
