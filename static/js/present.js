/**
 * The projector: results stay hidden until the teacher reveals them, then show one question at a
 * time, full screen, stepped with the arrow keys, PageUp/PageDown (presentation clickers) or the
 * buttons. The state lives on the panel's wrapper and in this module, so it survives the panel
 * being refreshed.
 * @module present
 */

/**
 * Which slide to show after a step, staying within [0, count).
 * @param {number} index
 * @param {number} step
 * @param {number} count
 * @returns {number}
 */
export function stepped(index, step, count) {
  return count === 0 ? 0 : Math.min(count - 1, Math.max(0, index + step));
}

/** Keys that step the slides: arrows and what presentation clickers send. */
export const STEPS = Object.freeze({ ArrowRight: 1, ArrowDown: 1, PageDown: 1, ArrowLeft: -1, ArrowUp: -1, PageUp: -1 });

/**
 * Wire the reveal switch and the slides to a panel.
 * @param {{reveal: HTMLButtonElement, previous: HTMLButtonElement, next: HTMLButtonElement,
 *   position: HTMLElement, slideControls: HTMLElement}} controls
 * @param {HTMLElement} panel
 */
export function projector(controls, panel) {
  let index = 0;
  const slides = () => [...panel.querySelectorAll(".present-result")];
  const revealed = () => controls.reveal.getAttribute("aria-pressed") === "true";
  const show = () => {
    const all = slides();
    index = stepped(index, 0, all.length);
    all.forEach((slide, number) => slide.toggleAttribute("data-current", number === index));
    controls.position.textContent = all.length ? `${index + 1} / ${all.length}` : "";
    controls.previous.disabled = index === 0;
    controls.next.disabled = index >= all.length - 1;
  };
  const go = (step) => {
    index = stepped(index, step, slides().length);
    show();
  };
  const set = (on) => {
    controls.reveal.setAttribute("aria-pressed", String(on));
    controls.reveal.textContent = on ? controls.reveal.dataset.hide : controls.reveal.dataset.reveal;
    panel.toggleAttribute("data-revealed", on);
    document.body.classList.toggle("revealed", on);
    controls.slideControls.hidden = !on;
    show();
  };
  controls.reveal.addEventListener("click", () => set(!revealed()));
  controls.previous.addEventListener("click", () => go(-1));
  controls.next.addEventListener("click", () => go(1));
  document.addEventListener("keydown", (event) => {
    if (!revealed() || !(event.key in STEPS) || event.target.closest?.("input, textarea, select")) return;
    event.preventDefault();
    go(STEPS[event.key]);
  });
  // A refresh may replace a slide: mark the current one again.
  new MutationObserver(show).observe(panel, { childList: true, subtree: true });
  set(false);
}

const byId = (id) => globalThis.document?.getElementById(id);
const panel = byId("present-panel");
if (panel && byId("reveal")) {
  projector(
    {
      reveal: byId("reveal"),
      previous: byId("previous-slide"),
      next: byId("next-slide"),
      position: byId("slide-position"),
      slideControls: document.querySelector(".slide-controls"),
    },
    panel,
  );
}
