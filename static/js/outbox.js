/**
 * The outbox: finished responses wait here, on the device, until the server has them.
 *
 * A response goes into the outbox before it is first sent, with its submission id (drawn when its
 * first report was committed), so it survives a lost reply, a dead network, a closed tab and a
 * restart; sending it again is safe, since the server stores one response per submission id and
 * answers a resend as it answered the first send. An entry leaves the outbox only when the server
 * has it (201). A definite refusal (the survey closed or changed, the device's link revoked) stays,
 * marked refused with the server's reason, for an interviewer to see; a failure that may pass (no
 * network, a server error, too many requests) is retried with growing delays.
 *
 * An entry holds the reported answers exactly as they will be sent, never a true answer.
 * @module outbox
 */

const DATABASE = "rr-outbox";
const STORE = "outbox";
export const LAST_SYNC_KEY = "rr-outbox:last-sync";
const FIRST_DELAY = 2_000;
const LONGEST_DELAY = 5 * 60_000;

/**
 * @typedef {object} Entry
 * @property {string} id The submission id, sent as the Idempotency-Key header.
 * @property {string} slug
 * @property {string} url Where it is posted.
 * @property {number} revision The survey revision the page was drawn under.
 * @property {string} body The JSON body: reported answers only.
 * @property {string | null} device A field device's link secret, or null.
 * @property {"waiting" | "refused"} state
 * @property {number} attempts Sends that failed and may be retried.
 * @property {number} nextTry When (ms since 1970, this device's clock) to try again.
 * @property {number} [status] A refusal's HTTP status.
 * @property {string} [reason] A refusal's reason, in the respondent's language.
 */

/**
 * @typedef {object} Store
 * @property {() => Promise<Entry[]>} all
 * @property {(entry: Entry) => Promise<void>} put
 * @property {(id: string) => Promise<void>} remove
 */

/**
 * @typedef {object} Sent
 * @property {"stored" | "refused" | "retry"} verdict
 * @property {number} [status]
 * @property {any} [reply] The server's JSON reply.
 */

/**
 * What a reply means for an entry: stored (201, stored now or before), refused for good (any
 * other 4xx but 408 and 429), or worth another try (no reply, 408, 429, 5xx).
 * @param {number | null} status null where no reply arrived.
 * @returns {"stored" | "refused" | "retry"}
 */
export function verdictOf(status) {
  if (status === 201) return "stored";
  if (status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429) return "refused";
  return "retry";
}

/**
 * How long to wait before try number `attempts + 1`: doubling from 2 s to at most 5 min, with a
 * random part so that devices that lost the network together do not all come back at once.
 * @param {number} attempts Failed tries so far (at least 1).
 * @param {number} random A number in [0, 1).
 * @returns {number} Milliseconds.
 */
export function retryDelay(attempts, random) {
  const base = Math.min(LONGEST_DELAY, FIRST_DELAY * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.5 + random / 2));
}

/**
 * A new entry for a finished response.
 * @param {{id: string, slug: string, url: string, revision: number, body: object, device?: string | null}} response
 * @returns {Entry}
 */
export function newEntry({ id, slug, url, revision, body, device = null }) {
  return { id, slug, url, revision, body: JSON.stringify(body), device, state: "waiting", attempts: 0, nextTry: 0 };
}

/**
 * Send one entry once.
 * @param {Entry} entry
 * @param {typeof fetch} fetchImpl
 * @returns {Promise<Sent>}
 */
export async function sendEntry(entry, fetchImpl) {
  const headers = {
    "Content-Type": "application/json",
    "X-Survey-Revision": String(entry.revision),
    "Idempotency-Key": entry.id,
  };
  if (entry.device) headers["X-Field-Device"] = entry.device;
  let response;
  try {
    response = await fetchImpl(entry.url, { method: "POST", headers, credentials: "same-origin", body: entry.body });
  } catch {
    return { verdict: "retry" };
  }
  const reply = await response.json().catch(() => ({}));
  return { verdict: verdictOf(response.status), status: response.status, reply };
}

/**
 * Send `entry` and record what became of it in `store`: removed once stored, kept as refused
 * with the reason, or kept with its next try scheduled.
 * @param {Store} store
 * @param {Entry} entry
 * @param {{fetch: typeof fetch, now: () => number, random: () => number}} env
 * @returns {Promise<Sent>}
 */
export async function deliver(store, entry, env) {
  const sent = await sendEntry(entry, env.fetch);
  if (sent.verdict === "stored") {
    await store.remove(entry.id);
  } else if (sent.verdict === "refused") {
    await store.put({ ...entry, state: "refused", status: sent.status, reason: String(sent.reply?.error ?? "") });
  } else {
    const attempts = entry.attempts + 1;
    await store.put({ ...entry, attempts, nextTry: env.now() + retryDelay(attempts, env.random()) });
  }
  return sent;
}

/**
 * Send every waiting entry that is due (every waiting entry when `all`); what became of each.
 * @param {Store} store
 * @param {{fetch: typeof fetch, now: () => number, random: () => number}} env
 * @param {boolean} [all]
 * @returns {Promise<Map<string, Sent>>}
 */
export async function flush(store, env, all = false) {
  const outcomes = new Map();
  for (const entry of await store.all()) {
    if (entry.state !== "waiting" || (!all && entry.nextTry > env.now())) continue;
    outcomes.set(entry.id, await deliver(store, entry, env));
  }
  return outcomes;
}

/**
 * When the next waiting entry is due, or null when none waits.
 * @param {Entry[]} entries
 * @returns {number | null}
 */
export function nextDue(entries) {
  const due = entries.filter((entry) => entry.state === "waiting").map((entry) => entry.nextTry);
  return due.length ? Math.min(...due) : null;
}

/**
 * What an interviewer's status view counts: responses waiting, and those refused with reasons.
 * @param {Entry[]} entries
 * @returns {{waiting: number, refused: {status: number | undefined, reason: string | undefined}[]}}
 */
export function summarize(entries) {
  return {
    waiting: entries.filter((entry) => entry.state === "waiting").length,
    refused: entries.filter((entry) => entry.state === "refused").map(({ status, reason }) => ({ status, reason })),
  };
}

let opened = null;

/** @returns {Promise<IDBDatabase>} */
function database() {
  opened ??= new Promise((resolve, reject) => {
    const request = globalThis.indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return opened;
}

/** Run one request on the outbox store and resolve with its result once its transaction is done. */
async function inStore(mode, operate) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(STORE, mode);
    const request = operate(transaction.objectStore(STORE));
    transaction.oncomplete = () => resolve(request.result);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

/**
 * The outbox in this browser's IndexedDB, which every tab and the page's next load share. Writes
 * resolve once committed; they reject where IndexedDB is unavailable (the caller then sends at
 * once and says that nothing could be kept).
 * @type {Store}
 */
export const deviceOutbox = {
  all: () => inStore("readonly", (store) => store.getAll()),
  put: (entry) => inStore("readwrite", (store) => store.put(entry)).then(() => undefined),
  remove: (id) => inStore("readwrite", (store) => store.delete(id)).then(() => undefined),
};
