import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { checkPin, fieldDevice, fieldKey, setUpDevice, validPin } from "../../static/js/field.js";

class MemoryStorage {
  items = new Map();
  getItem(key) { return this.items.get(key) ?? null; }
  setItem(key, value) { this.items.set(key, String(value)); }
}

describe("field device", () => {
  it("takes PINs of 4 to 12 digits only", () => {
    for (const pin of ["1234", "000000000000"]) assert.ok(validPin(pin), pin);
    for (const pin of ["123", "1234567890123", "12a4", " 1234", ""]) assert.ok(!validPin(pin), pin);
  });

  it("keeps the link's secret, its label and a salted hash of the PIN, never the PIN", async () => {
    const storage = new MemoryStorage();
    await setUpDevice(storage, "s", { token: "fd_secret", label: "tablet 2", pin: "482913" });
    const raw = storage.getItem(fieldKey("s"));
    assert.ok(!raw.includes("482913"));
    const device = fieldDevice(storage, "s");
    assert.deepEqual([device.token, device.label], ["fd_secret", "tablet 2"]);
    assert.match(device.pinHash, /^[0-9a-f]{64}$/);
    assert.equal(await checkPin(device, "482913"), true);
    assert.equal(await checkPin(device, "482914"), false);
    assert.equal(await checkPin(device, "48"), false);
    assert.equal(fieldDevice(storage, "other"), null, "set up for one survey only");
  });

  it("salts each set-up afresh, so equal PINs give unequal hashes", async () => {
    const [one, two] = [new MemoryStorage(), new MemoryStorage()];
    const a = await setUpDevice(one, "s", { token: "t", label: "a", pin: "1111" });
    const b = await setUpDevice(two, "s", { token: "t", label: "b", pin: "1111" });
    assert.notEqual(a.pinHash, b.pinHash);
  });

  it("is no device when what is stored is not a whole set-up", () => {
    const storage = new MemoryStorage();
    storage.setItem(fieldKey("s"), JSON.stringify({ token: "t", label: "a" }));
    assert.equal(fieldDevice(storage, "s"), null);
    storage.setItem(fieldKey("s"), "{not json");
    assert.equal(fieldDevice(storage, "s"), null);
    assert.equal(fieldDevice(null, "s"), null);
  });
});
