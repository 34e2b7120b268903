import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { holds, shownOf } from "../../static/js/flow.js";

const cases = JSON.parse(readFileSync(new URL("../cases/display.json", import.meta.url), "utf8"));

test("each rule holds where the server's holds it (tests/cases/display.json)", () => {
  for (const { rule, plain, holds: expected } of cases.rules) {
    assert.equal(holds(rule, new Map(Object.entries(plain))), expected, JSON.stringify({ rule, plain }));
  }
});

test("a hidden question's answer is no answer, and pages are decided in order", () => {
  for (const flow of cases.flows) {
    const shown = shownOf(flow.pages, flow.rules, new Map(Object.entries(flow.plain)));
    assert.deepEqual([...shown.pages], flow.pages_shown);
    assert.deepEqual([...shown.questions], flow.questions_shown);
  }
});

test("a rule named like an object's own property is never read from the prototype", () => {
  const shown = shownOf([{ id: "p", questions: ["constructor", "toString"] }], {}, new Map());
  assert.deepEqual([...shown.questions], ["constructor", "toString"]);
});
