/**
 * A key-value store that every tab of the origin sees at once: IndexedDB. Local storage is
 * synchronous, which the page needs so that a reload finds a draw at once, but another tab may read
 * an older copy of it for a moment after a write; an IndexedDB transaction that starts after a
 * write has committed always sees it. So the draw is checked here, under the cross-tab lock.
 * Every function resolves (to null where IndexedDB is unavailable): the page then relies on local
 * storage alone.
 * @module shared
 */

const DATABASE = "rr-survey";
const STORE = "memo";
let opened = null;

/** @returns {Promise<IDBDatabase>} */
function database() {
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
    const db = await database();
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
  return write((store) => store.put(value, key));
}

/**
 * Remove whatever is stored under `key`; resolves once the removal has committed.
 * @param {string} key
 * @returns {Promise<void>}
 */
export function sharedDelete(key) {
  return write((store) => store.delete(key));
}

/** Run one change on the store; resolves once it has committed, or at once where it cannot. */
async function write(change) {
  try {
    const db = await database();
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
