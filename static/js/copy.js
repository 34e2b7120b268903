/**
 * "Copy link and code": puts the survey's address and join code on the clipboard and says so.
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

const button = globalThis.document?.querySelector(".copy-link");
if (button) copyButton(button, button.parentElement.querySelector(".copy-status"));
