import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { drawChoice, draw } from "../../static/js/procedure.js";
import { drawPermanent, keptReports, mergePermanent, readPermanent, writePermanent } from "../../static/js/permanent.js";
import { seeded } from "./seeded.js";

const DRAWS = 40000;

describe("drawPermanent", () => {
  it("keeps each value with its keep share and spreads the rest evenly over the others", () => {
    const random = seeded(11);
    const keep = 0.7;
    const counts = Array.from({ length: 3 }, () => [0, 0, 0]);
    for (let i = 0; i < DRAWS; i += 1) {
      drawPermanent(3, keep, random).forEach((report, value) => (counts[value][report] += 1));
    }
    const spread = Math.sqrt((keep * (1 - keep)) / DRAWS);
    for (let value = 0; value < 3; value += 1) {
      assert.ok(Math.abs(counts[value][value] / DRAWS - keep) < 4 * spread, `value ${value}`);
      for (let other = 0; other < 3; other += 1) {
        if (other === value) continue;
        assert.ok(Math.abs(counts[value][other] / DRAWS - (1 - keep) / 2) < 4 * spread);
      }
    }
  });

  it("makes one wave's report the symmetric channel at the wave's ε (yes/no, spinner and coin)", () => {
    // ε∞ = 2, ε = 1: keep = e²/(1 + e²), the wave's light share tanh(½)/tanh(1).
    const keep = Math.exp(2) / (1 + Math.exp(2));
    const light = Math.tanh(0.5) / Math.tanh(1);
    const random = seeded(5);
    let yes = 0;
    for (let i = 0; i < DRAWS; i += 1) {
      const kept = drawPermanent(2, keep, random);
      yes += draw(kept[1], "coin", light, random).reported;
    }
    const expected = Math.exp(1) / (1 + Math.exp(1));
    assert.ok(Math.abs(yes / DRAWS - expected) < 4 * Math.sqrt((expected * (1 - expected)) / DRAWS));
  });

  it("makes a single choice's wave report generalized randomized response at ε (die on the others)", () => {
    const k = 4;
    const keep = Math.exp(2) / (Math.exp(2) + k - 1);
    const lambda = (eps) => -Math.expm1(-eps) / (1 + (k - 1) * Math.exp(-eps));
    const light = ((lambda(1) / lambda(2)) * (k - 1) + 1) / k;
    const random = seeded(9);
    let truthful = 0;
    for (let i = 0; i < DRAWS; i += 1) {
      const kept = drawPermanent(k, keep, random);
      truthful += drawChoice(kept[2], k, "opposite", light, random).reported === 2 ? 1 : 0;
    }
    const expected = Math.exp(1) / (Math.exp(1) + k - 1);
    assert.ok(Math.abs(truthful / DRAWS - expected) < 4 * Math.sqrt((expected * (1 - expected)) / DRAWS));
  });

  it("refuses a bad count or share", () => {
    assert.throws(() => drawPermanent(1, 0.5), RangeError);
    assert.throws(() => drawPermanent(2, 1), RangeError);
  });
});

describe("the kept reports", () => {
  const params = { epsilonPermanent: 2, values: 2, keep: 0.88 };

  it("are read back only under the parameters they were drawn under", () => {
    const kept = new Map([["cheated", { epsilonPermanent: 2, values: 2, labels: null, reports: [1, 1] }]]);
    const again = readPermanent(writePermanent(kept));
    assert.deepEqual(keptReports(again, "cheated", { ...params, labels: null }), [1, 1]);
    assert.equal(keptReports(again, "cheated", { ...params, epsilonPermanent: 3 }), undefined);
    assert.equal(keptReports(again, "other", params), undefined);
  });

  it("of one option among k are not reused once the options are reordered", () => {
    const where = { epsilonPermanent: 2, values: 3, labels: ["a", "b", "c"], reports: [0, 2, 2] };
    const again = readPermanent(writePermanent(new Map([["where", where]])));
    const asked = { epsilonPermanent: 2, values: 3, keep: 0.7 };
    assert.deepEqual(keptReports(again, "where", { ...asked, labels: ["a", "b", "c"] }), [0, 2, 2]);
    assert.equal(keptReports(again, "where", { ...asked, labels: ["b", "a", "c"] }), undefined);
  });

  it("drop entries edited by hand into something else", () => {
    const text = JSON.stringify({
      items: {
        a: { epsilonPermanent: 2, values: 2, reports: [0, 2] },
        b: { epsilonPermanent: 2, values: 2, reports: [0] },
        c: { epsilonPermanent: "2", values: 2, reports: [0, 1] },
        __proto__: { epsilonPermanent: 2, values: 2, reports: [0, 1] },
      },
    });
    assert.deepEqual([...readPermanent(text).keys()], []);
    assert.equal(readPermanent("not json").size, 0);
    assert.equal(readPermanent(null).size, 0);
  });

  it("merge with the first copy winning where both hold an item", () => {
    const first = writePermanent(new Map([["a", { epsilonPermanent: 2, values: 2, reports: [0, 0] }]]));
    const second = writePermanent(
      new Map([
        ["a", { epsilonPermanent: 2, values: 2, reports: [1, 1] }],
        ["b", { epsilonPermanent: 2, values: 2, reports: [1, 0] }],
      ]),
    );
    const merged = readPermanent(mergePermanent(first, second));
    assert.deepEqual(merged.get("a").reports, [0, 0]);
    assert.deepEqual(merged.get("b").reports, [1, 0]);
    assert.equal(mergePermanent(null, second), second);
  });
});
