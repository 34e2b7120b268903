import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { labelPoint } from "../../static/js/die.js";
import { draw } from "../../static/js/procedure.js";
import { isLight, pointAt, positionUnderPointer, sectorPath, stopRotation } from "../../static/js/spinner.js";
import { evenGrid, seeded } from "./seeded.js";

const close = (a, b, tolerance = 1e-9) => Math.abs(a - b) < tolerance;

describe("spinner geometry", () => {
  it("measures positions clockwise from the top", () => {
    const [x0, y0] = pointAt(0, 90);
    const [x1, y1] = pointAt(0.25, 90);
    const [x2, y2] = pointAt(0.5, 90);
    assert.ok(close(x0, 0) && close(y0, -90));
    assert.ok(close(x1, 90) && close(y1, 0));
    assert.ok(close(x2, 0) && close(y2, 90));
  });

  it("draws the light sector from the top to p, with the large-arc flag past half a turn", () => {
    const small = sectorPath(0, 0.3, 90);
    const large = sectorPath(0, 0.7, 90);
    assert.match(small, /^M0 0L0\.000 -90\.000A90\.000 90\.000 0 0 1 /);
    assert.match(large, /A90\.000 90\.000 0 1 1 /);
    const [x, y] = pointAt(0.7, 90);
    assert.ok(large.endsWith(`${x.toFixed(3)} ${y.toFixed(3)}Z`));
  });

  it("stops the wheel with the drawn position under the pointer", () => {
    const source = evenGrid(5000);
    for (let i = 0; i < 5000; i += 1) {
      const position = source() / 4294967296;
      const rotation = stopRotation(position);
      assert.ok(rotation > 0, "turns forward");
      assert.ok(close(positionUnderPointer(rotation), position, 1e-9) || close(position, 0, 1e-9));
    }
  });

  it("shows light exactly when the draw says light", () => {
    const random = seeded(42);
    for (const p of [0.12, 0.46, 0.73, 0.96]) {
      for (let i = 0; i < 5000; i += 1) {
        const result = draw(1, "opposite", p, random);
        const shown = positionUnderPointer(stopRotation(result.position));
        assert.equal(isLight(shown, p), result.light, `p=${p} position=${result.position}`);
      }
    }
  });
});

describe("die", () => {
  it("puts each number inside its own sector", () => {
    for (const faces of [2, 3, 5, 8]) {
      for (let index = 0; index < faces; index += 1) {
        const [x, y] = labelPoint(index, faces);
        // The angle clockwise from the top, as a fraction of a turn.
        const turn = ((Math.atan2(x, -y) / (2 * Math.PI)) + 1) % 1;
        assert.ok(turn > index / faces && turn < (index + 1) / faces, `${index} of ${faces}`);
      }
    }
  });
});
