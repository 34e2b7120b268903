import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { seriesCost } from "../../static/js/ledger.js";

describe("seriesCost", () => {
  const ledger = { wave: 3, fresh: 1.5, kept: 4 };

  it("adds up what the other waves this browser submitted cost, and this one", () => {
    const cost = seriesCost(ledger, [{ wave: 2, epsilon: 1.0 }, { wave: 1, epsilon: 1.5 }]);
    assert.deepEqual(cost.waves, [1, 2, 3]);
    assert.equal(cost.fresh, 4);
    assert.equal(cost.kept, 4);
  });

  it("counts this wave alone on a browser that answered no other", () => {
    assert.deepEqual(seriesCost(ledger, []), { waves: [3], fresh: 1.5, kept: 4 });
  });
});
