/**
 * Keeps a results panel current: while the survey is open, ask for the panel's HTML again every
 * few seconds (paused while the tab is hidden). The request names the version it has (ETag), so
 * an unchanged panel costs a 304 and touches nothing; a changed one replaces only the parts that
 * changed, so a screen reader is not read the whole panel again and a selection in an unchanged
 * table survives. With batched releases the results change once per batch.
 * @module refresh
 */

export const INTERVAL_MS = 5000;

/**
 * @typedef {object} Fetched
 * @property {string | null} html The new panel, or null when it has not changed.
 * @property {string | null} etag Its version.
 */

/**
 * Start refreshing `panel` from its `data-refresh-url`.
 * @param {HTMLElement} panel
 * @param {{interval?: number, fetchPanel?: (url: string, etag: string | null) => Promise<Fetched>,
 *   swap?: (panel: HTMLElement, html: string) => void}} [options]
 * @returns {() => void} stops refreshing
 */
export function keepFresh(panel, { interval = INTERVAL_MS, fetchPanel = fetchHtml, swap = swapChanged } = {}) {
  const url = panel.dataset.refreshUrl;
  let timer = null;
  let stopped = false;
  let etag = null;
  const tick = async () => {
    if (!document.hidden) {
      try {
        const fetched = await fetchPanel(url, etag);
        if (!stopped && fetched.html !== null) {
          swap(panel, fetched.html);
          etag = fetched.etag;
        }
      } catch {
        // A missed refresh is retried at the next tick.
      }
    }
    if (!stopped) timer = setTimeout(tick, interval);
  };
  timer = setTimeout(tick, interval);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * Put `html` into `panel`, replacing only the elements that differ (where a browser can parse it;
 * elsewhere the whole content).
 * @param {HTMLElement} panel
 * @param {string} html
 */
export function swapChanged(panel, html) {
  if (!globalThis.DOMParser) {
    panel.innerHTML = html;
    return;
  }
  const incoming = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html").body;
  replaceChanged(panel, incoming);
}

function replaceChanged(current, incoming) {
  const olds = [...current.children];
  const news = [...incoming.children];
  const sameShape = olds.length === news.length && olds.every((node, i) => node.tagName === news[i].tagName);
  if (!sameShape || ownText(current) !== ownText(incoming)) {
    current.replaceChildren(...incoming.childNodes);
    return;
  }
  olds.forEach((node, i) => {
    const next = news[i];
    if (node.outerHTML === next.outerHTML) return;
    const descend = node.children.length > 0 && sameAttributes(node, next) && ownText(node) === ownText(next);
    if (descend) replaceChanged(node, next);
    else node.replaceWith(next);
  });
}

function ownText(node) {
  return [...node.childNodes]
    .filter((child) => child.nodeType === 3)
    .map((child) => child.textContent.trim())
    .filter(Boolean)
    .join(" ");
}

function sameAttributes(a, b) {
  return a.attributes.length === b.attributes.length && [...a.attributes].every((attr) => b.getAttribute(attr.name) === attr.value);
}

/**
 * @param {string} url
 * @param {string | null} etag
 * @returns {Promise<Fetched>}
 */
async function fetchHtml(url, etag) {
  const headers = { Accept: "text/html" };
  if (etag) headers["If-None-Match"] = etag;
  const response = await fetch(url, { credentials: "same-origin", headers, cache: "no-store" });
  if (response.status === 304) return { html: null, etag };
  if (!response.ok) throw new Error(`refresh failed: ${response.status}`);
  return { html: await response.text(), etag: response.headers.get("ETag") };
}

const panel = globalThis.document?.querySelector("[data-refresh-url]");
if (panel) keepFresh(panel, { interval: Number(panel.dataset.refreshInterval) || INTERVAL_MS });
