import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { attackLines } from "../../static/js/averaging.js";
import { curvePositions } from "../../static/js/power-curve.js";

describe("power curve", () => {
  it("runs from the left edge at no change to the right edge at the largest, power 1 at the top", () => {
    const points = curvePositions([
      { change: 0, power: 0.05 },
      { change: -0.1, power: 0.5 },
      { change: -0.2, power: 1 },
    ]);
    assert.deepEqual(points.map((point) => point.x), [40, 174, 308]);
    assert.equal(points[2].y, 12, "power 1 at the top margin");
    assert.ok(points[0].y > points[1].y && points[1].y > points[2].y);
  });

  it("keeps a power outside [0, 1] on the chart", () => {
    const [low, high] = curvePositions([{ change: 0, power: -0.1 }, { change: 0.1, power: 1.2 }]);
    assert.equal(low.y, 146);
    assert.equal(high.y, 12);
  });
});

describe("averaging attack chart", () => {
  it("puts each wave's share at its wave number, from 1", () => {
    const lines = attackLines({ fresh: [0.73, 0.73, 0.8], permanent: [0.73, 0.7, 0.75] });
    assert.deepEqual(lines.fresh, [[1, 0.73], [2, 0.73], [3, 0.8]]);
    assert.deepEqual(lines.permanent.map(([wave]) => wave), [1, 2, 3]);
  });
});
