import assert from "node:assert/strict";
import { test } from "node:test";

import { armItem, drawsArmFirst, keepArms, keptArm } from "../../static/js/arm-draw.js";
import { seeded } from "./seeded.js";

/** A memo store in memory, as memo.js reads and writes one. */
function store() {
  return {
    value: null,
    getItem() {
      return this.value;
    },
    setItem(_key, value) {
      this.value = value;
    },
  };
}

/** A page whose sections hold each question's two everyday questions, and a store for its memo. */
function pageOf(stored, preview = false) {
  const texts = new Map();
  const sectionOf = (id) => {
    if (!texts.has(id)) texts.set(id, [0, 1].map((arm) => ({ dataset: { arm: String(arm) }, hidden: true })));
    return { querySelectorAll: () => texts.get(id) };
  };
  const page = { config: { slug: "s", revision: 1 }, preview, lock: (task) => task(), mirror: async () => stored, share: async () => {} };
  return { page, sectionOf, texts };
}

test("an arm is committed before it is shown, and a second call keeps it", async () => {
  const stored = store();
  const { page, sectionOf, texts } = pageOf(stored);
  const questions = [{ id: "q", answer: "arm", mode: "report" }];
  await keepArms(page, questions, sectionOf, () => 2 ** 32 - 1);
  assert.equal(questions[0].keptArm, 1);
  assert.match(stored.value, /@arm:q/);
  assert.deepEqual(texts.get("q").map((text) => text.hidden), [true, false]);
  // A reload draws nothing: whatever the generator says, the kept arm comes back.
  const again = [{ id: "q", answer: "arm", mode: "report" }];
  await keepArms(pageOf(stored).page, again, sectionOf, () => 0);
  assert.equal(again[0].keptArm, 1);
});

test("a preview draws afresh and keeps nothing", async () => {
  const stored = store();
  const { page, sectionOf } = pageOf(stored, true);
  const questions = [{ id: "q", answer: "arm", mode: "report" }];
  await keepArms(page, questions, sectionOf, () => 0);
  assert.equal(questions[0].keptArm, 0);
  assert.equal(stored.value, null);
});

test("arms are drawn half and half", async () => {
  const random = seeded(4);
  let second = 0;
  const trials = 4000;
  for (let trial = 0; trial < trials; trial += 1) {
    const questions = [{ id: "q" }];
    const { page, sectionOf } = pageOf(store(), true);
    await keepArms(page, questions, sectionOf, random);
    second += questions[0].keptArm;
  }
  // Four standard errors of a half: 4·√(0.25/4000) ≈ 0.032.
  assert.ok(Math.abs(second / trials - 0.5) < 0.032, String(second));
});

test("only a kept arm of 0 or 1 is read back, and only a reported arm question draws first", () => {
  const memo = (entry) => ({ reported: new Map([[armItem("q"), entry]]) });
  assert.equal(keptArm(memo({ bit: "0", epsilon: 0, procedure: "arm" }), "q"), 0);
  assert.equal(keptArm(memo({ bit: "2", epsilon: 0, procedure: "arm" }), "q"), undefined);
  assert.equal(keptArm(memo({ bit: "1", epsilon: 0, procedure: "order" }), "q"), undefined);
  assert.equal(drawsArmFirst({ answer: "arm", mode: "report" }), true);
  assert.equal(drawsArmFirst({ answer: "arm", mode: "spin" }), false);
  assert.equal(drawsArmFirst({ answer: "bit", mode: "report" }), false);
});
