/**
 * A survey's service worker: the survey keeps working on a device that has lost its network.
 *
 * Served from the survey's address (/s/<slug>/sw.js) and registered for it, it answers for that
 * survey's page and thank-you page, and for the static files those pages load, and for nothing
 * else: every other request (the submission, any other page) goes to the network untouched.
 * Pages come from the network whenever it answers, so a new revision of the survey is picked up
 * online (the page's memo rules for revisions then hold); the copy kept is served when it does not.
 * Static files are kept once: their addresses change with every release.
 */

const scope = new URL(self.registration.scope).pathname.replace(/\/$/, "");
const CACHE = `rr-offline:${scope}`;
const STATIC = "/static/v/";
// A page request that takes longer than this on a weak network falls back to the kept copy.
const PAGE_TIMEOUT = 10_000;

self.addEventListener("install", (event) => {
  event.waitUntil(keepOfflineFiles().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname === scope || url.pathname === `${scope}/thanks`) {
    event.respondWith(networkFirst(event.request, url.pathname));
  } else if (url.pathname.startsWith(STATIC)) {
    event.respondWith(keptFirst(event.request));
  }
});

/**
 * Keep the pages and files the survey lists, and let go of static files of older releases. The
 * page that registers the worker has put itself in the cache already (survey.js): it is not
 * fetched again. Static files the page loaded come from the browser's own cache.
 */
async function keepOfflineFiles() {
  const listed = await (await fetch(`${scope}/offline.json`, { cache: "no-store" })).json();
  const cache = await caches.open(CACHE);
  const kept = await Promise.all(listed.pages.map((page) => cache.match(page, { ignoreVary: true, ignoreSearch: true })));
  await cache.addAll([...listed.pages.filter((_page, index) => !kept[index]), ...listed.files]);
  const current = new Set(listed.files.map((path) => new URL(path, self.location.origin).href));
  for (const request of await cache.keys()) {
    if (new URL(request.url).pathname.startsWith(STATIC) && !current.has(request.url)) await cache.delete(request);
  }
}

/** The page from the network, kept for later; the kept copy when the network fails or stalls. */
async function networkFirst(request, path) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(path, { ignoreVary: true, ignoreSearch: true });
  try {
    const response = await withTimeout(fetch(request), kept ? PAGE_TIMEOUT : null);
    if (response.ok) await cache.put(path, response.clone());
    return response;
  } catch {
    return kept ?? Response.error();
  }
}

/** A static file from the cache, else from the network (and kept). */
async function keptFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreVary: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

function withTimeout(promise, milliseconds) {
  if (milliseconds === null) return promise;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timed out")), milliseconds);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error) => (clearTimeout(timer), reject(error)),
    );
  });
}
