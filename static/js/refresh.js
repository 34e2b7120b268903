/**
 * Keeps a results panel current: while the survey is open, fetch the panel's HTML again every few
 * seconds (paused while the tab is hidden) and swap it in.
 * @module refresh
 */

export const INTERVAL_MS = 5000;

/**
 * Start refreshing `panel` from its `data-refresh-url`.
 * @param {HTMLElement} panel
 * @param {{interval?: number, fetchPanel?: (url: string) => Promise<string>}} [options]
 * @returns {() => void} stops refreshing
 */
export function keepFresh(panel, { interval = INTERVAL_MS, fetchPanel = fetchHtml } = {}) {
  const url = panel.dataset.refreshUrl;
  let timer = null;
  let stopped = false;
  const tick = async () => {
    if (!document.hidden) {
      try {
        const html = await fetchPanel(url);
        if (!stopped) panel.innerHTML = html;
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

/** @param {string} url @returns {Promise<string>} */
async function fetchHtml(url) {
  const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
  if (!response.ok) throw new Error(`refresh failed: ${response.status}`);
  return response.text();
}

const panel = globalThis.document?.querySelector("[data-refresh-url]");
if (panel) keepFresh(panel, { interval: Number(panel.dataset.refreshInterval) || INTERVAL_MS });
