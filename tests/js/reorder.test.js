import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { reorderedKeys } from "../../static/js/reorder.js";

describe("reordering questions by dragging", () => {
  const keys = ["a", "b", "c", "d"];

  it("drops a question before or after another", () => {
    assert.deepEqual(reorderedKeys(keys, "d", "a", false), ["d", "a", "b", "c"]);
    assert.deepEqual(reorderedKeys(keys, "a", "c", true), ["b", "c", "a", "d"]);
    assert.deepEqual(reorderedKeys(keys, "a", "d", true), ["b", "c", "d", "a"]);
    assert.deepEqual(reorderedKeys(keys, "c", "b", false), ["a", "c", "b", "d"]);
  });

  it("changes nothing when dropped on itself or where it already is", () => {
    assert.deepEqual(reorderedKeys(keys, "b", "b", true), keys);
    assert.deepEqual(reorderedKeys(keys, "b", "c", false), keys);
    assert.deepEqual(reorderedKeys(keys, "b", "a", true), keys);
  });
});
