/**
 * The field link's page: the interviewer sets the device's PIN, and the device opens the survey.
 * @module field-setup
 */
import { browserStorage } from "./memo.js";
import { fieldDevice, setUpDevice, validPin } from "./field.js";

const config = JSON.parse(document.getElementById("field-config").textContent);
const form = document.getElementById("field-form");
const error = document.getElementById("field-error");
const storage = browserStorage();

if (fieldDevice(storage, config.slug)) document.getElementById("field-again").hidden = false;

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const pin = form.elements.namedItem("pin").value;
  const again = form.elements.namedItem("pin-again").value;
  if (!validPin(pin)) return void (error.textContent = error.dataset.badPin);
  if (pin !== again) return void (error.textContent = error.dataset.mismatch);
  if (!storage || !globalThis.crypto?.subtle) return void (error.textContent = error.dataset.noStorage);
  await setUpDevice(storage, config.slug, { token: config.token, label: config.label, pin });
  // Replace: Back from the survey must not lead to this page and its secret again.
  window.location.replace(config.surveyUrl);
});
