/**
 * The respondent page on a shared field device (field.js holds the device's record): the
 * interviewer's bar, the handback screen between two respondents, and the PIN that starts the
 * next one with a fresh memo. Loaded only where this browser is set up as a field device.
 * @module fieldwork
 */
import { checkPin, fieldDevice } from "./field.js";
import { forgetMemo, memoKey, sharedDelete } from "./memo.js";
import { showNotice } from "./view.js";

export { fieldDevice };

/**
 * Show the interviewer's bar and listen for the PIN on the handback screen.
 * @param {import("./survey.js").Page} page
 */
export function showFieldBar(page) {
  document.getElementById("already-answered").hidden = true;
  if (!page.config.consent) page.form.hidden = false;
  document.getElementById("field-label").textContent = page.field.label;
  document.getElementById("field-bar").hidden = false;
  document.getElementById("next-form").addEventListener("submit", (event) => nextRespondent(page, event));
}

/** The screen between two respondents of a field device: only the interviewer's PIN leads on. */
export function showHandback() {
  showNotice("handback");
  document.getElementById("handback").focus();
}

async function nextRespondent(page, event) {
  event.preventDefault();
  const { config, storage } = page;
  const pin = document.getElementById("interviewer-pin");
  if (!(await checkPin(page.field, pin.value))) {
    document.getElementById("pin-error").textContent = page.text.wrongPin;
    pin.value = "";
    return;
  }
  // The last respondent's reports leave the memo (the outbox keeps what still waits to be sent).
  forgetMemo(storage, config.slug);
  await sharedDelete(memoKey(config.slug));
  // And the series' permanent reports: they stand for one person's answers, never the next one's.
  if (config.series) {
    const { permanentKey } = await import("./permanent.js");
    try {
      storage?.removeItem(permanentKey(config.series));
    } catch {
      // Blocked: nothing was kept there.
    }
    await sharedDelete(permanentKey(config.series));
  }
  window.location.reload();
}
