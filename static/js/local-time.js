/**
 * Instants in the viewer's own time zone: every `<time datetime="…Z" data-local-time>` the server
 * wrote in UTC is written again in the browser's zone and the page's language.
 * @module local-time
 */

/**
 * An instant as the viewer reads it, e.g. "1 December 2026 at 18:00 GMT+9".
 * @param {string} iso an ISO 8601 instant
 * @param {string} language the page's language (BCP 47)
 * @param {string} [timeZone] the zone to show it in; the browser's own when left out
 * @returns {string | null} null when `iso` is not an instant
 */
export function localTime(iso, language, timeZone) {
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return null;
  return new Intl.DateTimeFormat(language, { year: "numeric", month: "long", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short", timeZone }).format(moment);
}

/**
 * Rewrite every marked `<time>` under `root`; the UTC text stays as its title.
 * @param {ParentNode} root
 */
export function showLocalTimes(root = document) {
  const language = document.documentElement.lang || "en";
  for (const element of root.querySelectorAll("time[data-local-time]")) {
    const text = localTime(element.getAttribute("datetime") ?? "", language);
    if (text === null) continue;
    element.title = element.textContent ?? "";
    element.textContent = text;
  }
}

if (typeof document !== "undefined") showLocalTimes();
