import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { CONDITION_ITEM, conditionEntry, drawCondition, keptCondition } from "../../static/js/condition.js";
import { seeded } from "./seeded.js";

const CONDITIONS = [{ id: "direct", share: 1 }, { id: "spin", share: 2 }, { id: "cross", share: 1 }];

describe("drawCondition", () => {
  it("draws each condition by its share of the total", () => {
    const random = seeded(7);
    const counts = { direct: 0, spin: 0, cross: 0 };
    const trials = 40000;
    for (let i = 0; i < trials; i += 1) counts[drawCondition(CONDITIONS, random)] += 1;
    // Four standard errors of each share.
    for (const [id, share] of [["direct", 0.25], ["spin", 0.5], ["cross", 0.25]]) {
      assert.ok(Math.abs(counts[id] / trials - share) < 4 * Math.sqrt((share * (1 - share)) / trials), id);
    }
  });

  it("maps the ends of the generator's range to the first and last conditions", () => {
    assert.equal(drawCondition(CONDITIONS, () => 0), "direct");
    assert.equal(drawCondition(CONDITIONS, () => 2 ** 32 - 1), "cross");
    assert.equal(drawCondition(CONDITIONS, () => 2 ** 30), "spin"); // a quarter of the way
  });

  it("refuses conditions without a positive share", () => {
    assert.throws(() => drawCondition([]), RangeError);
    assert.throws(() => drawCondition([{ id: "a", share: 0 }]), RangeError);
  });
});

describe("keptCondition", () => {
  it("reads back a kept condition, and nothing that is not one of the survey's", () => {
    const memo = (entry) => ({ reported: new Map(entry ? [[CONDITION_ITEM, entry]] : []) });
    assert.equal(keptCondition(memo(conditionEntry("spin")), CONDITIONS), "spin");
    assert.equal(keptCondition(memo(conditionEntry("other")), CONDITIONS), undefined);
    assert.equal(keptCondition(memo({ bit: "spin", epsilon: 0, procedure: "spinner" }), CONDITIONS), undefined);
    assert.equal(keptCondition(memo(null), CONDITIONS), undefined);
  });
});
