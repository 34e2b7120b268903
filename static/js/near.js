/**
 * Work that waits for its part of the page: a long page's charts are drawn as the reader nears
 * them, not all at load, where a slow phone would spend its first seconds on charts nobody sees
 * yet. Printing starts whatever is still waiting (work that asks the server finishes after the
 * print has taken its copy).
 * @module near
 */

/**
 * Runs `task` once `element` comes within `margin` of the viewport, or the page is about to be
 * printed, whichever is first. The returned function runs the task at once and stops the waiting:
 * a control that changes the section calls it, so the section is never drawn a second time, with
 * other draws, merely because it was scrolled to.
 * @template T
 * @param {Element} element
 * @param {() => T} task
 * @param {{margin?: string, Observer?: typeof IntersectionObserver, events?: EventTarget}} [options]
 *   `Observer` and `events` (the window by default) are there for tests.
 * @returns {() => T}
 */
export function whenNear(element, task, { margin = "300px 0px", Observer = globalThis.IntersectionObserver, events = globalThis } = {}) {
  let waiting = true;
  const stopWaiting = () => {
    waiting = false;
    observer.disconnect();
    events.removeEventListener("beforeprint", arrive);
  };
  const run = () => {
    if (waiting) stopWaiting();
    return task();
  };
  const arrive = () => { if (waiting) run(); };
  const observer = new Observer((entries) => { if (entries.some((entry) => entry.isIntersecting)) arrive(); }, { rootMargin: margin });
  observer.observe(element);
  events.addEventListener("beforeprint", arrive);
  return run;
}
