import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { seriesCost } from "../../static/js/ledger.js";

describe("seriesCost", () => {
  const ledger = {
    wave: 3,
    fresh: 1.5,
    kept: 4,
    waves: [
      { slug: "w1", wave: 1, fresh: 1.5 },
      { slug: "w2", wave: 2, fresh: 1.0 },
      { slug: "w4", wave: 4, fresh: 2.0 },
    ],
  };

  it("adds up the fresh draws of the waves this browser answered, this one included", () => {
    const cost = seriesCost(ledger, (slug) => slug === "w1" || slug === "w2");
    assert.deepEqual(cost.waves, [1, 2, 3]);
    assert.equal(cost.fresh, 4);
    assert.equal(cost.kept, 4);
  });

  it("counts this wave alone on a browser that answered no other", () => {
    assert.deepEqual(seriesCost(ledger, () => false), { waves: [3], fresh: 1.5, kept: 4 });
  });
});
