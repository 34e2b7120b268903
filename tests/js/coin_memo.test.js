import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { MIN_HALF_TURNS, faceAfter, flipPlan } from "../../static/js/coin.js";
import {
  commitReported,
  loadMemo,
  memoKey,
  forgetMemo,
  mergeMemos,
  openMemo,
  rememberSubmitted,
  rememberedBit,
  spentInSeries,
} from "../../static/js/memo.js";

/** A source that returns the given 32-bit values in turn. */
const values = (...list) => () => list.shift();

const ID = "a".repeat(32);
const newId = () => ID;

describe("coin", () => {
  for (const heads of [true, false]) {
    for (const startBit of [0, 1]) {
      it(`lands on ${heads ? "heads" : "tails"} from a ${startBit ? "heads" : "tails"} start`, () => {
        const plan = flipPlan(heads, values(startBit));
        assert.equal(plan.start, startBit === 1);
        assert.equal(faceAfter(plan.start, plan.halfTurns), heads);
        assert.ok([MIN_HALF_TURNS, MIN_HALF_TURNS + 1].includes(plan.halfTurns));
      });
    }
  }

  it("shows nothing of the result in its start face or its number of half turns", () => {
    // Each start face and each count occurs once for heads and once for tails.
    const plans = (heads) => [0, 1].map((bit) => flipPlan(heads, values(bit)));
    const starts = (list) => list.map((plan) => plan.start).sort();
    const counts = (list) => list.map((plan) => plan.halfTurns).sort();
    assert.deepEqual(starts(plans(true)), starts(plans(false)));
    assert.deepEqual(counts(plans(true)), counts(plans(false)));
  });

  it("alternates faces every half turn", () => {
    assert.equal(faceAfter(true, 1), false);
    assert.equal(faceAfter(true, 2), true);
  });
});

class FakeStorage {
  constructor() { this.items = new Map(); }
  getItem(key) { return this.items.has(key) ? this.items.get(key) : null; }
  setItem(key, value) { this.items.set(key, String(value)); }
  removeItem(key) { this.items.delete(key); }
  get length() { return this.items.size; }
  key(index) { return [...this.items.keys()][index] ?? null; }
}

class BrokenStorage {
  getItem() { throw new Error("blocked"); }
  setItem() { throw new Error("blocked"); }
}

const COIN = { epsilon: 1, procedure: "spinner_coin" };
const entries = (object) => new Map(Object.entries(object).map(([item, bit]) => [item, { bit, ...COIN }]));

describe("memo", () => {
  it("starts empty", () => {
    const memo = loadMemo(new FakeStorage(), "s", 1);
    assert.deepEqual([memo.reported.size, memo.submitted, memo.newer], [0, false, false]);
  });

  it("remembers reported bits per survey and revision, and merges them", () => {
    const storage = new FakeStorage();
    commitReported(storage, "s", 1, entries({ q1: 1 }), newId);
    commitReported(storage, "s", 1, entries({ "q2.a": 0 }), newId);
    const memo = loadMemo(storage, "s", 1);
    assert.equal(rememberedBit(memo, "q1", COIN), 1);
    assert.equal(rememberedBit(memo, "q2.a", COIN), 0);
    assert.equal(loadMemo(storage, "other", 1).reported.size, 0);
  });

  it("never replays bits drawn under another ε or procedure", () => {
    const storage = new FakeStorage();
    commitReported(storage, "s", 1, entries({ q1: 1 }), newId);
    const memo = loadMemo(storage, "s", 1);
    assert.equal(rememberedBit(memo, "q1", { epsilon: 0.2, procedure: "spinner_coin" }), undefined);
    assert.equal(rememberedBit(memo, "q1", { epsilon: 1, procedure: "spinner" }), undefined);
  });

  it("carries bits into a newer revision, replaying only those whose ε and procedure still hold", () => {
    const storage = new FakeStorage();
    commitReported(storage, "s", 1, entries({ q1: 1, q2: 0 }), newId);
    rememberSubmitted(storage, "s", 1);
    const memo = openMemo(storage, "s", 2);
    assert.equal(memo.submitted, true);
    assert.equal(rememberedBit(memo, "q1", COIN), 1, "a question moved, not changed: no second draw");
    assert.equal(rememberedBit(memo, "q2", { ...COIN, epsilon: 0.5 }), undefined, "its ε changed: drawn afresh");
    assert.deepEqual(JSON.parse(storage.getItem(memoKey("s"))).revision, 2);
  });

  it("tells a page of an older revision that storage holds a newer one", () => {
    const storage = new FakeStorage();
    commitReported(storage, "s", 3, entries({ q1: 0 }), newId);
    const memo = openMemo(storage, "s", 2);
    assert.equal(memo.newer, true);
    assert.equal(memo.reported.size, 0);
    assert.equal(JSON.parse(storage.getItem(memoKey("s"))).revision, 3);
  });

  it("stores only reported bits with their parameters, and the submitted flag", () => {
    const storage = new FakeStorage();
    commitReported(storage, "s", 1, entries({ q1: 1 }), newId);
    rememberSubmitted(storage, "s", 1);
    assert.deepEqual(JSON.parse(storage.getItem("rr-survey:s")), {
      revision: 1,
      reported: { q1: { bit: 1, epsilon: 1, procedure: "spinner_coin" } },
      submitted: true,
      submission: ID,
    });
  });

  it("draws the submission id once, with the first bits, and keeps it through later ones", () => {
    const storage = new FakeStorage();
    let draws = 0;
    const counted = () => (draws += 1, ID);
    commitReported(storage, "s", 1, entries({ q1: 1 }), counted);
    commitReported(storage, "s", 2, entries({ q2: 0 }), counted);
    assert.equal(draws, 1);
    assert.equal(loadMemo(storage, "s", 2).submission, ID);
    storage.setItem("rr-survey:t", JSON.stringify({ revision: 1, reported: {}, submission: "not-an-id" }));
    assert.equal(loadMemo(storage, "t", 1).submission, null, "a tampered id is no id");
  });

  it("records what a submitted wave of a series cost, and gives it back by series", () => {
    const storage = new FakeStorage();
    const w1 = { series: "climate", wave: 1, epsilon: 1.5 };
    commitReported(storage, "w1", 1, entries({ q1: 1 }), newId);
    rememberSubmitted(storage, "w1", 1, w1);
    commitReported(storage, "w2", 1, entries({ q1: 0 }), newId);
    rememberSubmitted(storage, "w2", 1, { series: "climate", wave: 2, epsilon: 1 });
    commitReported(storage, "w3", 1, entries({ q1: 0 }), newId); // drawn, never submitted
    commitReported(storage, "other", 1, entries({ q1: 0 }), newId);
    rememberSubmitted(storage, "other", 1, { series: "another", wave: 1, epsilon: 9 });
    rememberSubmitted(storage, "alone", 1);
    storage.setItem("rr-survey:forged", JSON.stringify({ revision: 1, reported: {}, submitted: true, spent: { series: "climate", wave: "x", epsilon: 1 } }));
    assert.deepEqual(
      spentInSeries(storage, "climate").sort((a, b) => a.wave - b.wave),
      [{ slug: "w1", ...w1 }, { slug: "w2", series: "climate", wave: 2, epsilon: 1 }],
    );
    // Kept through a later revision, and through a merge with a copy that lacks it.
    openMemo(storage, "w1", 2);
    assert.deepEqual(loadMemo(storage, "w1", 2).spent, w1);
    const merged = JSON.parse(mergeMemos(storage.getItem("rr-survey:w1"), JSON.stringify({ revision: 2, reported: {} })));
    assert.deepEqual(merged.spent, w1);
    // A survey on its own stores no such field.
    assert.equal("spent" in JSON.parse(storage.getItem("rr-survey:alone")), false);
    assert.deepEqual(spentInSeries(new BrokenStorage(), "climate"), []);
  });

  it("is forgotten whole for the next respondent of a shared device", () => {
    const storage = new FakeStorage();
    commitReported(storage, "s", 1, entries({ q1: 1 }), newId);
    rememberSubmitted(storage, "s", 1);
    forgetMemo(storage, "s");
    const memo = loadMemo(storage, "s", 1);
    assert.deepEqual([memo.reported.size, memo.submitted, memo.submission], [0, false, null]);
  });

  it("keeps ids that every object has as plain keys", () => {
    const storage = new FakeStorage();
    const ids = ["__proto__", "constructor", "toString", "hasOwnProperty"];
    commitReported(storage, "s", 1, entries(Object.fromEntries(ids.map((id) => [id, 1]))), newId);
    const fresh = loadMemo(new FakeStorage(), "s", 1);
    for (const id of ids) assert.equal(rememberedBit(fresh, id, COIN), undefined);
    const memo = loadMemo(storage, "s", 1);
    for (const id of ids) assert.equal(rememberedBit(memo, id, COIN), 1);
    assert.equal(Object.getPrototypeOf(JSON.parse(storage.getItem("rr-survey:s")).reported), Object.prototype);
  });

  it("ignores tampered or corrupt entries", () => {
    const storage = new FakeStorage();
    storage.setItem(
      "rr-survey:s",
      JSON.stringify({ revision: 1, reported: { q1: { bit: 7, ...COIN }, q2: { bit: 1, ...COIN }, q3: 1 }, submitted: "yes" }),
    );
    const memo = loadMemo(storage, "s", 1);
    assert.deepEqual([...memo.reported.keys()], ["q2"]);
    assert.equal(memo.submitted, false);
    storage.setItem("rr-survey:t", "{not json");
    assert.equal(loadMemo(storage, "t", 1).reported.size, 0);
    storage.setItem("rr-survey:u", JSON.stringify({ reported: { q1: { bit: 1, ...COIN } } }));
    assert.equal(loadMemo(storage, "u", 1).reported.size, 0);
  });

  it("keeps working when storage is blocked", () => {
    assert.equal(commitReported(new BrokenStorage(), "s", 1, entries({ q1: 0 }), newId), false);
    assert.equal(commitReported(null, "s", 1, entries({ q1: 0 }), newId), false);
    assert.equal(loadMemo(new BrokenStorage(), "s", 1).reported.size, 0);
    assert.equal(loadMemo(null, "s", 1).reported.size, 0);
  });
});

describe("two copies of a memo", () => {
  const copy = (revision, reported, submitted = false) =>
    JSON.stringify({ revision, reported: Object.fromEntries(Object.entries(reported).map(([k, bit]) => [k, { bit, ...COIN }])), submitted });
  const bits = (text) => Object.fromEntries(Object.entries(JSON.parse(text).reported).map(([k, v]) => [k, v.bit]));

  it("keeps the later revision, both copies' bits, and the later copy's on a conflict", () => {
    const merged = mergeMemos(copy(1, { q1: 1, q2: 1 }), copy(2, { q2: 0 }));
    assert.equal(JSON.parse(merged).revision, 2);
    assert.deepEqual(bits(merged), { q1: 1, q2: 0 });
    assert.deepEqual(bits(mergeMemos(copy(2, { q2: 0 }), copy(1, { q1: 1, q2: 1 }))), { q1: 1, q2: 0 });
  });

  it("keeps the submission id of the stronger copy, or whichever has one", () => {
    const withId = (revision, id) => JSON.stringify({ revision, reported: {}, submitted: false, submission: id });
    const other = "b".repeat(32);
    assert.equal(JSON.parse(mergeMemos(withId(1, ID), withId(2, other))).submission, other);
    assert.equal(JSON.parse(mergeMemos(withId(2, null), withId(1, ID))).submission, ID);
  });

  it("joins the bits of one revision, the first copy winning a conflict, and any submission", () => {
    const merged = mergeMemos(copy(3, { q1: 1, q2: 1 }), copy(3, { q2: 0, q3: 0 }, true));
    assert.deepEqual(bits(merged), { q1: 1, q2: 1, q3: 0 });
    assert.equal(JSON.parse(merged).submitted, true);
  });

  it("takes whichever copy exists", () => {
    assert.equal(mergeMemos(null, copy(1, {})), copy(1, {}));
    assert.equal(mergeMemos(copy(1, {}), null), copy(1, {}));
    assert.equal(mergeMemos(null, null), null);
  });
});
