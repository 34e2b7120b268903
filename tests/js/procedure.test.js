import assert from "node:assert/strict";
import { describe, it, mock } from "node:test";

import {
  checkedValue,
  choiceLightFraction,
  draw,
  drawChoice,
  drawDesign,
  drawNumber,
  lightFraction,
  reportProbabilities,
  reportedAnswer,
  truthProbability,
  valueShare,
} from "../../static/js/procedure.js";
import { cryptoUint32, uniform, uniformInt } from "../../static/js/random.js";
import { evenGrid, seeded } from "./seeded.js";

const LN3 = Math.log(3);

describe("lightFraction", () => {
  it("matches the hand values at e^ε = 3", () => {
    assert.ok(Math.abs(lightFraction(LN3, "coin") - 0.5) < 1e-15);
    assert.ok(Math.abs(lightFraction(LN3, "opposite") - 0.75) < 1e-15);
  });
  it("defaults to spinner_coin", () => {
    assert.equal(lightFraction(1), lightFraction(1, "coin"));
  });
  for (const bad of [0, -1, NaN, Infinity, "1"]) {
    it(`refuses epsilon ${String(bad)}`, () => {
      assert.throws(() => lightFraction(bad), RangeError);
    });
  }
  it("refuses an unknown dark share", () => {
    assert.throws(() => lightFraction(1, "dice"), /dark/);
  });
});

describe("reportedAnswer", () => {
  const cases = [
    // truth, procedure, light, heads, reported
    [1, "coin", true, null, 1],
    [0, "coin", true, null, 0],
    [1, "coin", false, false, 0],
    [0, "coin", false, true, 1],
    [1, "opposite", true, null, 1],
    [1, "opposite", false, null, 0],
    [0, "opposite", false, null, 1],
  ];
  for (const [truth, procedure, light, heads, expected] of cases) {
    it(`${procedure}: truth ${truth}, ${light ? "light" : "dark"}, coin ${heads} -> ${expected}`, () => {
      assert.equal(reportedAnswer(truth, procedure, light, heads), expected);
    });
  }
});

describe("draw", () => {
  it("lands on light for exactly a share p of an even grid of positions", () => {
    const n = 100_000;
    for (const p of [0.05, 0.4621171572600098, 0.731, 0.99]) {
      const source = evenGrid(n);
      let light = 0;
      for (let i = 0; i < n; i += 1) light += draw(1, "opposite", p, source).light ? 1 : 0;
      assert.ok(Math.abs(light / n - p) <= 1 / n, `p=${p}: ${light / n}`);
    }
  });

  it("flips a coin only on dark, and only for spinner_coin", () => {
    const random = seeded(1);
    for (let i = 0; i < 2000; i += 1) {
      const coin = draw(1, "coin", 0.5, random);
      assert.equal(coin.heads === null, coin.light);
      assert.equal(draw(1, "opposite", 0.5, random).heads, null);
    }
  });

  for (const epsilon of [0.5, 1, 2]) {
    for (const procedure of ["opposite", "coin"]) {
      it(`${procedure} at ε=${epsilon} reports yes with the right probabilities (seeded)`, () => {
        const random = seeded(1000 + epsilon * 10 + (procedure === "coin" ? 12 : 7));
        const p = lightFraction(epsilon, procedure);
        const truthProbability = Math.exp(epsilon) / (1 + Math.exp(epsilon));
        const n = 100_000;
        let yesGivenYes = 0;
        let yesGivenNo = 0;
        for (let i = 0; i < n; i += 1) {
          yesGivenYes += draw(1, procedure, p, random).reported;
          yesGivenNo += draw(0, procedure, p, random).reported;
        }
        const tolerance = 4 * Math.sqrt(0.25 / n);
        assert.ok(Math.abs(yesGivenYes / n - truthProbability) < tolerance);
        assert.ok(Math.abs(yesGivenNo / n - (1 - truthProbability)) < tolerance);
      });
    }
  }

  it("refuses a truth that is not 0 or 1", () => {
    assert.throws(() => draw(2, "opposite", 0.5), RangeError);
    assert.throws(() => draw(true, "opposite", 0.5), RangeError);
  });
});

describe("randomness", () => {
  it("comes from crypto.getRandomValues by default", (t) => {
    const spy = t.mock.method(globalThis.crypto, "getRandomValues", (buffer) => {
      buffer[0] = 2147483648;
      return buffer;
    });
    assert.equal(cryptoUint32(), 2147483648);
    assert.equal(uniform(), 0.5);
    const result = draw(1, "coin", 0.4);
    assert.equal(result.position, 0.5);
    assert.equal(result.light, false);
    assert.ok(spy.mock.callCount() >= 4);
  });

  it("maps 32-bit integers onto [0, 1)", () => {
    assert.equal(uniform(() => 0), 0);
    assert.ok(uniform(() => 4294967295) < 1);
  });
});

mock.restoreAll();

describe("report probabilities", () => {
  for (const procedure of ["opposite", "coin"]) {
    it(`${procedure}: P(yes|yes) = e^ε/(1+e^ε), P(yes|no) = 1/(1+e^ε), kept precise at ε = 50`, () => {
      for (const epsilon of [0.5, Math.log(3), 4, 50]) {
        const { yesGivenYes, yesGivenNo } = reportProbabilities(epsilon, procedure);
        assert.ok(Math.abs(yesGivenYes - Math.exp(epsilon) / (1 + Math.exp(epsilon))) < 1e-15);
        assert.ok(Math.abs(yesGivenNo / (1 / (1 + Math.exp(epsilon))) - 1) < 1e-12, `${epsilon}`);
        assert.ok(Math.abs(truthProbability(epsilon) - yesGivenYes) < 1e-15);
      }
    });
  }
});

describe("single-choice draw", () => {
  it("draws integers without modulo bias, and refuses a bad range", () => {
    // 2^32 − 1 is past the last whole multiple of 3, so it is drawn again.
    const values = [0xffffffff, 7];
    assert.equal(uniformInt(3, () => values.shift()), 1);
    assert.throws(() => uniformInt(0), RangeError);
  });

  it("on dark the spinner-only die never lands on the true option", () => {
    const random = seeded(5);
    for (let i = 0; i < 2000; i += 1) {
      const result = drawChoice(2, 4, "opposite", 0.3, random);
      if (!result.light) assert.notEqual(result.reported, 2);
    }
  });

  it("on light reports the truth with no die", () => {
    const result = drawChoice(1, 3, "coin", 0.99, () => 0);
    assert.deepEqual([result.light, result.die, result.reported], [true, null, 1]);
  });

  it("has the yes/no light shares at k = 2, and refuses k < 2", () => {
    for (const procedure of ["opposite", "coin"]) {
      assert.ok(Math.abs(choiceLightFraction(1.3, 2, procedure) - lightFraction(1.3, procedure)) < 1e-15);
    }
    assert.throws(() => choiceLightFraction(1, 1), RangeError);
  });
});

describe("drawDesign", () => {
  const forced = [
    { share: 0.5, reports: "truth" },
    { share: 0.25, reports: "yes" },
    { share: 0.25, reports: "no" },
  ];
  it("reports what the sector under the pointer says, laid clockwise in order", () => {
    // An even grid of 4 positions: 0.125 and 0.375 (truth), 0.625 (yes), 0.875 (no).
    const random = evenGrid(4);
    const reports = [0, 1, 2, 3].map(() => drawDesign(0, forced, null, random));
    assert.deepEqual(reports.map((result) => result.sector), ["truth", "truth", "yes", "no"]);
    assert.deepEqual(reports.map((result) => result.reported), [0, 0, 1, 0]);
    assert.deepEqual(reports.map((result) => result.light), [true, true, false, false]);
  });
  it("reports the innocuous answer on the unrelated question's dark sector", () => {
    const sectors = [{ share: 0.5, reports: "truth" }, { share: 0.5, reports: "innocuous" }];
    const random = evenGrid(2);
    assert.equal(drawDesign(1, sectors, 0, random).reported, 1);
    assert.equal(drawDesign(1, sectors, 0, random).reported, 0);
  });
  it("reports the opposite answer on an opposite sector", () => {
    const opposite = [{ share: 0.5, reports: "truth" }, { share: 0.5, reports: "opposite" }];
    const random = evenGrid(4);
    const reports = [0, 1, 2, 3].map(() => drawDesign(1, opposite, null, random).reported);
    assert.deepEqual(reports, [1, 1, 0, 0]);
    assert.throws(() => drawDesign(1, [{ share: 1, reports: "maybe" }]), /unknown sector/);
  });
  it("refuses a missing truth or innocuous answer and an empty wheel", () => {
    assert.throws(() => drawDesign(2, forced), RangeError);
    assert.throws(() => drawDesign(1, [{ share: 1, reports: "innocuous" }]), /innocuous/);
    assert.throws(() => drawDesign(1, []), /sectors/);
  });
  it("uses crypto randomness by default", () => {
    const spy = mock.method(globalThis.crypto, "getRandomValues");
    drawDesign(1, forced);
    assert.ok(spy.mock.callCount() >= 1);
    spy.mock.restore();
  });
});

describe("number draws", () => {
  it("places a value on its range", () => {
    assert.equal(valueShare(0, { min: 0, max: 30 }), 0);
    assert.equal(valueShare(30, { min: 0, max: 30 }), 1);
    assert.equal(valueShare(0, { min: -5, max: 5 }), 0.5);
    for (const bad of [-0.1, 31, NaN, Infinity]) assert.throws(() => valueShare(bad, { min: 0, max: 30 }), RangeError);
  });
  it("says yes on the value wheel below the share, then goes through the spinner", () => {
    const at = (value) => () => value;
    const low = drawNumber(0.4, "coin", 0.5, at(0));
    assert.deepEqual([low.valueYes, low.light, low.reported], [1, true, 1]);
    const high = drawNumber(0.4, "opposite", 0.75, at(0xfffffffe));
    assert.deepEqual([high.valueYes, high.light, high.reported], [0, false, 1]);
    assert.equal(drawNumber(0, "coin", 0.5, at(0)).valueYes, 0);
    assert.equal(drawNumber(1, "coin", 0.5, at(0xffffffff)).valueYes, 1);
    assert.throws(() => drawNumber(1.2, "coin", 0.5), RangeError);
  });
  it("takes a typed value only inside the range and on its steps", () => {
    const scale = { min: 0, max: 10, step: 0.5 };
    assert.equal(checkedValue("2.5", scale), 2.5);
    assert.equal(checkedValue("10", scale), 10);
    assert.equal(checkedValue("0.3", { min: 0, max: 1, step: 0.1 }), 0.3);
    for (const bad of ["", " ", "2.4", "-1", "10.5", "abc", "1e400"]) assert.equal(checkedValue(bad, scale), null, bad);
  });
});
