/**
 * The survey page's entry. The page's code (survey.js and what it imports) is fetched only once
 * the page and its styles have loaded: on a slow phone the questions show first, and the code
 * that draws the wheels and keeps the draws follows, without competing with them for the network.
 * @module start
 */

/**
 * Resolves once `target` (the window) has loaded, at once if it already has.
 * @param {{document: {readyState: string}, addEventListener: Function}} [target]
 * @returns {Promise<void>}
 */
export function afterLoad(target = globalThis) {
  if (target.document.readyState === "complete") return Promise.resolve();
  return new Promise((resolve) => target.addEventListener("load", () => resolve(), { once: true }));
}

/**
 * The page as the server sent it, read before any script changes it: the survey's service worker
 * keeps this copy for use offline rather than fetching the page a second time. It holds no answer:
 * what a respondent checks or types lives in the inputs' state, which the markup does not carry.
 * @type {string | null}
 */
export const pageAsSent = globalThis.document ? `<!doctype html>\n${document.documentElement.outerHTML}` : null;

if (globalThis.document) afterLoad().then(() => import("./survey.js")).then((survey) => survey.run(pageAsSent));
