/**
 * Copy buttons ("Copy link and code", the methods paragraph's): each puts its text on the
 * clipboard and says so.
 * @module copy
 */

/**
 * @param {HTMLButtonElement} button with `data-copy` (the text) and `data-copied` (the message)
 * @param {HTMLElement} status where the message is announced
 * @param {{writeText: (text: string) => Promise<void>}} [clipboard]
 */
export function copyButton(button, status, clipboard = globalThis.navigator?.clipboard) {
  button.addEventListener("click", async () => {
    try {
      await clipboard.writeText(button.dataset.copy);
      status.textContent = button.dataset.copied;
    } catch {
      status.textContent = button.dataset.copy; // no clipboard here: show it to copy by hand
    }
  });
}

for (const button of globalThis.document?.querySelectorAll(".copy-link") ?? []) {
  copyButton(button, button.parentElement.querySelector(".copy-status"));
}
