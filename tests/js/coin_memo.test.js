import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { HALF_TURNS, faceAfter, startFace } from "../../static/js/coin.js";
import { loadMemo, rememberReported, rememberSubmitted } from "../../static/js/memo.js";

describe("coin", () => {
  for (const heads of [true, false]) {
    it(`lands on ${heads ? "heads" : "tails"} after its flips`, () => {
      assert.equal(faceAfter(startFace(heads), HALF_TURNS), heads);
    });
  }
  it("alternates faces every half turn", () => {
    assert.equal(faceAfter(true, 1), false);
    assert.equal(faceAfter(true, 2), true);
  });
});

class FakeStorage {
  constructor() { this.items = new Map(); }
  getItem(key) { return this.items.has(key) ? this.items.get(key) : null; }
  setItem(key, value) { this.items.set(key, String(value)); }
}

class BrokenStorage {
  getItem() { throw new Error("blocked"); }
  setItem() { throw new Error("blocked"); }
}

describe("memo", () => {
  it("starts empty", () => {
    assert.deepEqual(loadMemo(new FakeStorage(), "s"), { reported: {}, submitted: false });
  });

  it("remembers reported bits per survey and merges them", () => {
    const storage = new FakeStorage();
    rememberReported(storage, "s", { q1: 1 });
    rememberReported(storage, "s", { "q2.a": 0 });
    assert.deepEqual(loadMemo(storage, "s").reported, { q1: 1, "q2.a": 0 });
    assert.deepEqual(loadMemo(storage, "other").reported, {});
  });

  it("stores only the reported bits and the submitted flag", () => {
    const storage = new FakeStorage();
    rememberReported(storage, "s", { q1: 1 });
    rememberSubmitted(storage, "s");
    const raw = JSON.parse(storage.getItem("rr-survey:s"));
    assert.deepEqual(Object.keys(raw).sort(), ["reported", "submitted"]);
    assert.deepEqual(raw, { reported: { q1: 1 }, submitted: true });
  });

  it("ignores tampered or corrupt entries", () => {
    const storage = new FakeStorage();
    storage.setItem("rr-survey:s", JSON.stringify({ reported: { q1: 7, q2: 1 }, submitted: "yes" }));
    assert.deepEqual(loadMemo(storage, "s"), { reported: { q2: 1 }, submitted: false });
    storage.setItem("rr-survey:t", "{not json");
    assert.deepEqual(loadMemo(storage, "t"), { reported: {}, submitted: false });
  });

  it("keeps working when storage is blocked", () => {
    const memo = rememberReported(new BrokenStorage(), "s", { q1: 0 });
    assert.deepEqual(memo.reported, { q1: 0 });
    assert.deepEqual(loadMemo(null, "s"), { reported: {}, submitted: false });
  });
});
