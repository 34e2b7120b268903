/**
 * The projector's "reveal results" switch: results stay hidden until the teacher reveals them.
 * The state lives on the panel's wrapper, so it survives the panel being refreshed.
 * @module present
 */

/**
 * Wire a toggle button to a panel.
 * @param {HTMLButtonElement} button
 * @param {HTMLElement} panel
 */
export function revealSwitch(button, panel) {
  const set = (revealed) => {
    button.setAttribute("aria-pressed", String(revealed));
    panel.toggleAttribute("data-revealed", revealed);
  };
  button.addEventListener("click", () => set(button.getAttribute("aria-pressed") !== "true"));
  set(false);
}

const button = globalThis.document?.getElementById("reveal");
const panel = globalThis.document?.getElementById("present-panel");
if (button && panel) revealSwitch(button, panel);
