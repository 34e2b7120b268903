/**
 * A shared field device: an interviewer's tablet, set up for one survey through its field link.
 * What the device keeps in local storage: the link's secret (sent with each submission), its
 * label, and a salted PBKDF2 hash of the interviewer's PIN. Never a respondent's answer.
 * @module field
 */
import { fieldKey } from "./memo.js";

// The record's key belongs to the memo's marks, which the survey page reads before loading this.
export { fieldKey };

const ITERATIONS = 100_000;
export const MIN_PIN = 4;
export const MAX_PIN = 12;

/**
 * @typedef {object} FieldDevice
 * @property {string} token The field link's secret.
 * @property {string} label
 * @property {string} salt Hex.
 * @property {string} pinHash Hex PBKDF2-SHA-256 of the PIN.
 */

/**
 * The field device this browser is set up as for `slug`, or null (a respondent's own device).
 * @param {Storage | null} storage
 * @param {string} slug
 * @returns {FieldDevice | null}
 */
export function fieldDevice(storage, slug) {
  let parsed;
  try {
    parsed = JSON.parse(storage?.getItem(fieldKey(slug)) ?? "null");
  } catch {
    return null;
  }
  const fields = ["token", "label", "salt", "pinHash"];
  if (!parsed || typeof parsed !== "object" || !fields.every((name) => typeof parsed[name] === "string")) return null;
  return { token: parsed.token, label: parsed.label, salt: parsed.salt, pinHash: parsed.pinHash };
}

/**
 * Whether `pin` will do: digits only, from MIN_PIN to MAX_PIN of them.
 * @param {string} pin
 * @returns {boolean}
 */
export function validPin(pin) {
  return new RegExp(`^[0-9]{${MIN_PIN},${MAX_PIN}}$`).test(pin);
}

/**
 * Set this browser up as the field device of `slug`, with the interviewer's PIN (hashed).
 * @param {Storage} storage
 * @param {string} slug
 * @param {{token: string, label: string, pin: string}} setup
 * @param {Crypto} [cryptoImpl]
 * @returns {Promise<FieldDevice>}
 */
export async function setUpDevice(storage, slug, { token, label, pin }, cryptoImpl = globalThis.crypto) {
  if (!validPin(pin)) throw new RangeError(`a PIN is ${MIN_PIN} to ${MAX_PIN} digits`);
  const salt = cryptoImpl.getRandomValues(new Uint8Array(16));
  const device = { token, label, salt: hex(salt), pinHash: await pinHash(pin, salt, cryptoImpl) };
  storage.setItem(fieldKey(slug), JSON.stringify(device));
  return device;
}

/**
 * Whether `pin` is the device's PIN.
 * @param {FieldDevice} device
 * @param {string} pin
 * @param {Crypto} [cryptoImpl]
 * @returns {Promise<boolean>}
 */
export async function checkPin(device, pin, cryptoImpl = globalThis.crypto) {
  if (!validPin(pin)) return false;
  return (await pinHash(pin, unhex(device.salt), cryptoImpl)) === device.pinHash;
}

/** PBKDF2-SHA-256 of the PIN under `salt`, as hex. */
async function pinHash(pin, salt, cryptoImpl) {
  const key = await cryptoImpl.subtle.importKey("raw", new TextEncoder().encode(pin), "PBKDF2", false, ["deriveBits"]);
  const bits = await cryptoImpl.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations: ITERATIONS }, key, 256);
  return hex(new Uint8Array(bits));
}

function hex(bytes) {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function unhex(text) {
  return new Uint8Array((text.match(/../g) ?? []).map((pair) => Number.parseInt(pair, 16)));
}
