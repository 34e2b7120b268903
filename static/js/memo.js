/**
 * What this browser remembers about a survey: the reported bits it drew, each with the ε and
 * procedure it was drawn under, the latest revision it saw, the submission id drawn with the
 * first bits (the server stores one response per id), and whether the browser submitted.
 * A new revision (a question added, moved or reworded) keeps the bits: an item is drawn again only
 * if its own ε or procedure changed, so reordering an open survey gives nobody a second draw.
 * Never the true answer and never the spin's outcome, since outcome plus report would give the
 * truth away. Reported bits are written the moment they are drawn, before any animation, so a
 * reload, a second tab or Back finds them and never draws again.
 *
 * The memo lives in two places: local storage, which is synchronous (a reload finds a draw at
 * once) but may show another tab an older copy for a moment after a write, and the shared copy in
 * IndexedDB (`sharedGet`, `sharedPut`), which a transaction begun after a write has committed
 * always sees: the draw is checked there, under the cross-tab lock. Every shared function resolves
 * (to null where IndexedDB is unavailable): the page then relies on local storage alone.
 *
 * This module also reads the marks other parts leave in local storage, for the page to load those
 * parts only where they are needed: a field device's record (field.js) and responses waiting in
 * the outbox (courier.js).
 * @module memo
 */

const PREFIX = "rr-survey:";
/** How the memo names a direct answer kept until the survey is submitted (pages.js): `@plain:<id>`. */
export const PLAIN_ITEM = "@plain:";
/** Where the memo keeps that the survey ended early for this respondent (static/js/ending.js). */
export const ENDED_ITEM = "@ended";
const SUBMISSION_ID = /^[0-9a-f]{32}$/;

/**
 * @typedef {object} Reported
 * @property {0 | 1 | string} bit The answer that will be sent: a bit, or a single-choice
 *   question's reported option id.
 * @property {number} epsilon The ε it was drawn under.
 * @property {string} procedure The procedure it was drawn under.
 * @property {number} [k] How many options the die had (single choice only).
 */

/**
 * @typedef {object} Memo
 * @property {number} revision The latest survey revision this browser drew under.
 * @property {Map<string, Reported>} reported By item ("question" or "question.option").
 * @property {boolean} submitted Whether this browser submitted the survey (any revision).
 * @property {string | null} submission The submission id, drawn when the first bits were
 *   committed: a resend of the response carries the same one.
 * @property {boolean} newer Whether storage holds bits of a later revision than the one asked
 *   for: the page is out of date and must not draw (it would replace them).
 * @property {Spent | null} spent For a submitted wave of a series: what this browser spent on it.
 */

/**
 * What a submitted wave of a series cost this browser on its questions drawn afresh (those with
 * a kept answer are bound by ε∞ however many waves): the series' privacy ledger adds these up.
 * @typedef {object} Spent
 * @property {string} series
 * @property {number} wave
 * @property {number} epsilon
 */

/**
 * The storage key of a survey's memo.
 * @param {string} slug
 * @returns {string}
 */
export function memoKey(slug) {
  return PREFIX + slug;
}

/**
 * Read the memo of `slug` for a page of `revision`. Bits of this or an older revision are returned
 * (each checked against its item's current ε and procedure by {@link rememberedBit}); none when
 * storage holds a newer revision, where the page is out of date and must not draw.
 * @param {Storage | null} storage
 * @param {string} slug
 * @param {number} revision
 * @returns {Memo}
 */
export function loadMemo(storage, slug, revision) {
  const stored = readStored(storage, slug);
  return {
    revision,
    reported: stored.revision === null || stored.revision <= revision ? stored.reported : new Map(),
    submitted: stored.submitted,
    submission: stored.submission,
    newer: stored.revision !== null && stored.revision > revision,
    spent: stored.spent,
  };
}

/**
 * Read the memo and move it to `revision` in storage when it was older.
 * @param {Storage | null} storage
 * @param {string} slug
 * @param {number} revision
 * @returns {Memo}
 */
export function openMemo(storage, slug, revision) {
  const stored = readStored(storage, slug);
  const memo = loadMemo(storage, slug, revision);
  if (stored.revision !== null && stored.revision < revision) save(storage, slug, memo);
  return memo;
}

/**
 * The reported bit remembered for `item`, if it was drawn under these parameters.
 * @param {Memo} memo
 * @param {string} item
 * @param {{epsilon: number, procedure: string, k?: number}} params
 * @returns {0 | 1 | string | undefined}
 */
export function rememberedBit(memo, item, params) {
  const entry = memo.reported.get(item);
  if (!entry || entry.epsilon !== params.epsilon || entry.procedure !== params.procedure) return undefined;
  if (entry.k !== params.k) return undefined;
  return entry.bit;
}

/**
 * Commit reported bits for `revision`, merged with those already remembered, and the submission
 * id where there is none yet. Synchronous, so that it is done before the caller shows anything.
 * @param {Storage | null} storage
 * @param {string} slug
 * @param {number} revision
 * @param {Map<string, Reported>} reported
 * @param {() => string} newId Draws a submission id.
 * @returns {boolean} Whether storage took them (false where it is blocked or full).
 */
export function commitReported(storage, slug, revision, reported, newId) {
  const memo = loadMemo(storage, slug, revision);
  for (const [item, entry] of reported) memo.reported.set(item, entry);
  memo.submission ??= newId();
  return save(storage, slug, memo);
}

/**
 * Remember that this browser has submitted the survey, and for a wave of a series what it spent.
 * @param {Storage | null} storage
 * @param {string} slug
 * @param {number} revision
 * @param {Spent | null} [spent]
 * @returns {boolean}
 */
export function rememberSubmitted(storage, slug, revision, spent = null) {
  const memo = loadMemo(storage, slug, revision);
  // Direct answers were kept only for a reload before submitting: once sent, they go.
  for (const item of [...memo.reported.keys()]) if (item.startsWith(PLAIN_ITEM)) memo.reported.delete(item);
  return save(storage, slug, { ...memo, submitted: true, spent: spent ?? memo.spent });
}

/**
 * Remember that the survey ended early for this respondent (`why`: screened out, or a full quota),
 * with a submission id to count it once by; the direct answers kept for a reload go.
 * @param {Storage | null} storage
 * @param {string} slug
 * @param {number} revision
 * @param {string} why
 * @param {() => string} newId Draws a submission id.
 * @returns {string} The submission id.
 */
export function rememberEnded(storage, slug, revision, why, newId) {
  const memo = loadMemo(storage, slug, revision);
  for (const item of [...memo.reported.keys()]) if (item.startsWith(PLAIN_ITEM)) memo.reported.delete(item);
  memo.reported.set(ENDED_ITEM, { bit: why, epsilon: 0, procedure: "ended" });
  memo.submission ??= newId();
  save(storage, slug, memo);
  return memo.submission;
}

/**
 * What this browser spent on the submitted waves of `series`, wave by wave, from its memos.
 * @param {Storage | null} storage
 * @param {string} series
 * @returns {(Spent & {slug: string})[]}
 */
export function spentInSeries(storage, series) {
  const found = [];
  try {
    for (let index = 0; index < (storage?.length ?? 0); index += 1) {
      const key = storage.key(index);
      if (!key?.startsWith(PREFIX)) continue;
      const slug = key.slice(PREFIX.length);
      const stored = readStored(storage, slug);
      if (stored.submitted && stored.spent?.series === series) found.push({ slug, ...stored.spent });
    }
  } catch {
    // Blocked: nothing to add up.
  }
  return found;
}

/**
 * Two stored copies of a survey's memo (JSON text, or null) made one: the later revision, the bits
 * of both (both hold draws of this browser; on a conflict the copy of the later revision wins, and
 * at the same revision the first copy), and submitted if either says so.
 * @param {string | null} first
 * @param {string | null} second
 * @returns {string | null}
 */
export function mergeMemos(first, second) {
  if (first === null || second === null) return first ?? second;
  const a = readStored({ getItem: () => first }, "");
  const b = readStored({ getItem: () => second }, "");
  const revision = Math.max(a.revision ?? -Infinity, b.revision ?? -Infinity);
  if (!Number.isFinite(revision)) return first;
  const reported = new Map();
  // Written from the weaker copy to the stronger, so the stronger one's entries stay.
  const weakerFirst = (a.revision ?? -Infinity) < (b.revision ?? -Infinity) ? [a, b] : [b, a];
  for (const copy of weakerFirst) for (const [item, entry] of copy.reported) reported.set(item, entry);
  return JSON.stringify({
    revision,
    reported: Object.fromEntries(reported),
    submitted: a.submitted || b.submitted,
    submission: weakerFirst[1].submission ?? weakerFirst[0].submission,
    ...withSpent(weakerFirst[1].spent ?? weakerFirst[0].spent),
  });
}

/** @returns {Storage | null} localStorage, or null where the browser blocks it. */
export function browserStorage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * Whatever is stored, validated entry by entry (storage can be edited by hand).
 * @returns {{revision: number | null, reported: Map<string, Reported>, submitted: boolean, submission: string | null, spent: Spent | null}}
 */
function readStored(storage, slug) {
  const reported = new Map();
  let parsed;
  try {
    parsed = JSON.parse(storage?.getItem(memoKey(slug)) ?? "null");
  } catch {
    parsed = null;
  }
  const submitted = parsed?.submitted === true;
  const submission = typeof parsed?.submission === "string" && SUBMISSION_ID.test(parsed.submission) ? parsed.submission : null;
  const spent = isSpent(parsed?.spent) ? { series: parsed.spent.series, wave: parsed.spent.wave, epsilon: parsed.spent.epsilon } : null;
  if (!parsed || typeof parsed !== "object" || !Number.isInteger(parsed.revision)) {
    return { revision: null, reported, submitted, submission, spent };
  }
  const items = parsed.reported && typeof parsed.reported === "object" ? parsed.reported : {};
  // Object.entries sees own keys only, so ids such as "__proto__" or "constructor" are plain keys.
  for (const [item, entry] of Object.entries(items)) {
    if (isReported(entry)) {
      const { bit, epsilon, procedure, k } = entry;
      reported.set(item, Number.isInteger(k) ? { bit, epsilon, procedure, k } : { bit, epsilon, procedure });
    }
  }
  return { revision: parsed.revision, reported, submitted, submission, spent };
}

function isSpent(spent) {
  return (
    spent !== null &&
    typeof spent === "object" &&
    typeof spent.series === "string" &&
    Number.isInteger(spent.wave) &&
    Number.isFinite(spent.epsilon) &&
    spent.epsilon >= 0
  );
}

/** The memo's `spent` field where there is one: memos of surveys on their own have none. */
function withSpent(spent) {
  return spent ? { spent } : {};
}

function isReported(entry) {
  return (
    entry !== null &&
    typeof entry === "object" &&
    (entry.bit === 0 || entry.bit === 1 || typeof entry.bit === "string") &&
    Number.isFinite(entry.epsilon) &&
    typeof entry.procedure === "string"
  );
}

function save(storage, slug, memo) {
  const value = {
    revision: memo.revision,
    reported: Object.fromEntries(memo.reported),
    submitted: memo.submitted,
    submission: memo.submission,
    ...withSpent(memo.spent),
  };
  try {
    storage?.setItem(memoKey(slug), JSON.stringify(value));
    return Boolean(storage);
  } catch {
    // Storage full or blocked: the page still works, it just cannot stop a redraw on reload.
    return false;
  }
}

/**
 * Forget the survey's memo in this browser: a shared field device's next respondent starts afresh
 * (the interviewer's PIN allows it). The outbox keeps what still waits to be sent.
 * @param {Storage | null} storage
 * @param {string} slug
 */
export function forgetMemo(storage, slug) {
  try {
    storage?.removeItem(memoKey(slug));
  } catch {
    // Blocked: nothing was kept there.
  }
}

// The shared copy: one IndexedDB store of memos (and series' permanent reports) by key.
const DATABASE = "rr-survey";
const STORE = "memo";
let opened = null;

/** @returns {Promise<IDBDatabase>} */
function sharedDatabase() {
  opened ??= new Promise((resolve, reject) => {
    const request = globalThis.indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return opened;
}

/**
 * The value stored under `key`, or null.
 * @param {string} key
 * @returns {Promise<string | null>}
 */
export async function sharedGet(key) {
  try {
    const db = await sharedDatabase();
    return await new Promise((resolve, reject) => {
      const request = db.transaction(STORE).objectStore(STORE).get(key);
      request.onsuccess = () => resolve(typeof request.result === "string" ? request.result : null);
      request.onerror = () => reject(request.error);
    });
  } catch {
    return null;
  }
}

/**
 * Store `value` under `key`; resolves once the write has committed.
 * @param {string} key
 * @param {string} value
 * @returns {Promise<void>}
 */
export function sharedPut(key, value) {
  // Where IndexedDB is unavailable, local storage still holds the draw for this tab's reloads.
  return sharedWrite((store) => store.put(value, key));
}

/**
 * Remove whatever is stored under `key`; resolves once the removal has committed.
 * @param {string} key
 * @returns {Promise<void>}
 */
export function sharedDelete(key) {
  return sharedWrite((store) => store.delete(key));
}

/** Run one change on the store; resolves once it has committed, or at once where it cannot. */
async function sharedWrite(change) {
  try {
    const db = await sharedDatabase();
    await new Promise((resolve, reject) => {
      const transaction = db.transaction(STORE, "readwrite");
      change(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  } catch {
    // Unavailable: nothing is kept there.
  }
}

/**
 * Run `task` holding the lock of `key` (a survey's memo key, a series' permanent key), so that two
 * tabs never draw the same item; where the Web Locks API is missing (an insecure origin), run it
 * at once.
 * @template T
 * @param {string} key
 * @param {() => T | Promise<T>} task
 * @returns {Promise<T>}
 */
export function withLock(key, task) {
  const locks = globalThis.navigator?.locks;
  return locks ? locks.request(key, task) : Promise.resolve().then(task);
}

/**
 * A survey's memo as every tab sees it: the shared copy merged with local storage (a preview's
 * is empty). Writes go to local storage at once (for this tab's reloads); the caller puts the
 * final value in the shared store ({@link shareMemo}).
 * @param {Storage | null} storage
 * @param {string} slug
 * @param {boolean} preview
 * @returns {Promise<{value: string | null, getItem: () => string | null, setItem: (key: string, value: string) => void}>}
 */
export async function mirrorMemo(storage, slug, preview) {
  const key = memoKey(slug);
  let local = null;
  try {
    local = storage?.getItem(key) ?? null;
  } catch {
    // Blocked: the shared copy alone.
  }
  const mirror = {
    value: preview ? null : mergeMemos(await sharedGet(key), local),
    getItem() {
      return this.value;
    },
    setItem(_key, value) {
      this.value = value;
      try {
        storage?.setItem(key, value);
      } catch {
        // Full or blocked: the shared copy still holds it.
      }
    },
  };
  if (mirror.value !== local && mirror.value !== null) mirror.setItem(key, mirror.value);
  return mirror;
}

/**
 * Put a survey's memo in the store every tab reads.
 * @param {string} slug
 * @param {string | null} value
 * @returns {Promise<void>}
 */
export async function shareMemo(slug, value) {
  if (value !== null) await sharedPut(memoKey(slug), value);
}

const FIELD_PREFIX = "rr-field:";
/** Set while the outbox holds responses not yet stored by the server (courier.js keeps it). */
export const OUTBOX_WAITING_KEY = "rr-outbox:waiting";

/**
 * The storage key of the field device record set up for a survey (field.js).
 * @param {string} slug
 * @returns {string}
 */
export function fieldKey(slug) {
  return FIELD_PREFIX + slug;
}

/**
 * Whether this browser holds a field device record for the survey, or responses waiting to be
 * sent: what decides whether the page loads field.js and the courier at once.
 * @param {Storage | null} storage
 * @param {string} slug
 * @returns {{fieldDevice: boolean, outboxWaiting: boolean}}
 */
export function storedMarks(storage, slug) {
  try {
    return {
      fieldDevice: storage?.getItem(fieldKey(slug)) != null,
      outboxWaiting: storage?.getItem(OUTBOX_WAITING_KEY) != null,
    };
  } catch {
    return { fieldDevice: false, outboxWaiting: false };
  }
}
