/**
 * The page's courier: takes a finished response into the outbox, sends it, and keeps sending
 * whatever waits there (on page load, when the browser comes back online, and on a timer with
 * growing delays) until the server has it. One tab sends at a time (a Web Lock); a resend is safe
 * anyway, since the server stores one response per submission id.
 * @module courier
 */
import { OUTBOX_WAITING_KEY } from "./memo.js";
import { LAST_SYNC_KEY, deliver, deviceOutbox, flush, nextDue, summarize } from "./outbox.js";
import { uniform } from "./random.js";

const LOCK = "rr-outbox";

/**
 * @typedef {object} Status
 * @property {number} waiting Responses on this device not yet sent.
 * @property {{status: number | undefined, reason: string | undefined}[]} refused
 * @property {number | null} lastSync When this device last had a response stored (its clock).
 */

/**
 * @typedef {object} Courier
 * @property {(entry: import("./outbox.js").Entry, options?: {keepRefused?: boolean}) => Promise<{kept: boolean, sent: import("./outbox.js").Sent}>} send
 *   Keep `entry` in the outbox, then send it once.
 * @property {() => Promise<void>} start Send what waits, then keep at it.
 * @property {() => Promise<Status>} status
 * @property {(id: string | null) => Promise<import("./outbox.js").Entry | undefined>} entry
 *   The outbox's entry with this id, if any.
 */

/**
 * @param {object} options
 * @param {(status: Status, stored: Set<string>) => void} [options.onChange] Told after every
 *   round of sending: the status, and the ids the server now has.
 * @param {import("./outbox.js").Store} [options.store]
 * @param {typeof fetch} [options.fetch]
 * @param {() => number} [options.now]
 * @param {Storage | null} [options.storage] Where the time of the last success is kept.
 * @param {Storage | null} [options.marks] Where the mark that responses wait is kept, for the
 *   survey page to load the courier at once only then (memo.js `storedMarks`).
 * @param {{setTimeout: typeof setTimeout, clearTimeout: typeof clearTimeout}} [options.timers]
 * @param {EventTarget} [options.events] What says "online" (the window).
 * @returns {Courier}
 */
export function createCourier({
  onChange = () => {},
  store = deviceOutbox,
  fetch: fetchImpl = globalThis.fetch.bind(globalThis),
  now = Date.now,
  storage = null,
  marks = null,
  timers = globalThis,
  events = globalThis,
} = {}) {
  const env = { fetch: fetchImpl, now, random: () => uniform() };
  let timer = null;

  function noteStored() {
    try {
      storage?.setItem(LAST_SYNC_KEY, String(now()));
    } catch {
      // Storage blocked: the status view then shows no time.
    }
  }

  async function status() {
    const entries = await store.all().catch(() => []);
    const stored = Number(storage?.getItem(LAST_SYNC_KEY) ?? Number.NaN);
    return { ...summarize(entries), lastSync: Number.isFinite(stored) ? stored : null };
  }

  function markWaiting(waiting) {
    try {
      if (waiting) marks?.setItem(OUTBOX_WAITING_KEY, "1");
      else marks?.removeItem(OUTBOX_WAITING_KEY);
    } catch {
      // Storage blocked: every page then starts without sending what waits, until a submission.
    }
  }

  async function report(stored) {
    const now = await status();
    markWaiting(now.waiting > 0);
    onChange(now, stored);
  }

  /** Send every due entry (all of them when `all`), then wait for the next one due. */
  async function round(all) {
    const outcomes = await withLock(() => flush(store, env, all).catch(() => new Map()));
    const stored = new Set([...outcomes].filter(([, sent]) => sent.verdict === "stored").map(([id]) => id));
    if (stored.size) noteStored();
    await report(stored);
    await schedule();
  }

  async function schedule() {
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
    const due = nextDue(await store.all().catch(() => []));
    if (due === null) return;
    timer = timers.setTimeout(() => {
      timer = null;
      round(false);
    }, Math.max(0, due - now()));
  }

  return {
    async send(entry, { keepRefused = true } = {}) {
      const kept = await store.put(entry).then(() => true, () => false);
      if (kept) markWaiting(true);
      const target = kept ? store : { put: async () => {}, remove: async () => {}, all: async () => [] };
      const sent = await withLock(() => deliver(target, entry, env));
      if (sent.verdict === "stored") noteStored();
      if (sent.verdict === "refused" && !keepRefused) await store.remove(entry.id).catch(() => {});
      await report(new Set(sent.verdict === "stored" ? [entry.id] : []));
      await schedule();
      return { kept, sent };
    },
    async start() {
      events.addEventListener?.("online", () => round(true));
      await round(true);
    },
    status,
    async entry(id) {
      if (!id) return undefined;
      return (await store.all().catch(() => [])).find((entry) => entry.id === id);
    },
  };
}

/** Run `task` holding the outbox lock, where the browser has Web Locks. */
function withLock(task) {
  const locks = globalThis.navigator?.locks;
  return locks ? locks.request(LOCK, task) : task();
}
