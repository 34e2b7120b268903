import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { answerOf } from "../../static/js/answers.js";

const OPTIONS = [
  { id: "never", text: "Never" },
  { id: "once", text: "Once" },
  { id: "more", text: "More" },
];
const TEXT = { notSaid: "Prefer not to say", notAnswered: "Not answered", notWritten: "Nothing written", sentAsChosen: "sent as chosen" };
const base = { id: "q", sectors: [], armSectors: [], dark: "coin", lightFraction: 0.5, reportWords: ["No", "Yes"] };

/** Fake form inputs: checked radio values by name, and checkbox states by name. */
function inputs(checked = {}, boxes = {}) {
  return {
    picked: (name) => (name in checked ? { value: checked[name] } : null),
    named: (name) => ({ checked: Boolean(boxes[name]), value: boxes[name] ?? "" }),
  };
}

function context(reports = {}, chosen = null) {
  return { reportedOf: (item) => reports[item], chosen, text: TEXT };
}

describe("answerOf", () => {
  it("refuses a kind it does not know, and names it", () => {
    assert.throws(() => answerOf({ answer: "dice" }), /unknown answer kind "dice"/);
    assert.throws(() => answerOf({ answer: "toString" }), /unknown answer kind/);
  });

  it("reads a yes/no answer, and none before it is chosen", () => {
    const question = { ...base, answer: "bit" };
    assert.deepEqual(answerOf(question).truth(question, inputs({ "truth-q": "1" })), new Map([["q", 1]]));
    assert.equal(answerOf(question).truth(question, inputs()), null);
    assert.deepEqual(answerOf(question).summary(question, context({ q: 0 })), ["No"]);
    assert.equal(answerOf(question).sent(question, context({ q: 1 })), 1);
  });

  it("reads a design's innocuous answer beside the true one", () => {
    const question = { ...base, answer: "bit", sectors: [{ share: 1, reports: "innocuous" }] };
    const both = inputs({ "truth-q": "0", "innocuous-q": "1" });
    assert.deepEqual(answerOf(question).truth(question, both), new Map([["q", { truth: 0, innocuous: 1 }]]));
    assert.equal(answerOf(question).truth(question, inputs({ "truth-q": "0" })), null);
  });

  it("reads one bit per option of a multi-select question and sends them as one object", () => {
    const question = { ...base, answer: "bits", options: OPTIONS.slice(0, 2) };
    const truth = answerOf(question).truth(question, inputs({}, { "truth-q-once": true }));
    assert.deepEqual(truth, new Map([["q.never", 0], ["q.once", 1]]));
    const reports = { "q.never": 1, "q.once": 0 };
    assert.deepEqual(answerOf(question).sent(question, context(reports)), { never: 1, once: 0 });
    assert.deepEqual(answerOf(question).summary(question, context(reports)), ["Never: Yes", "Once: No"]);
  });

  it("reports a single choice as its option id and replays only a known id", () => {
    const question = { ...base, answer: "option", options: OPTIONS };
    const answer = answerOf(question);
    assert.deepEqual(answer.truth(question, inputs({ "truth-q": "more" })), new Map([["q", 2]]));
    assert.equal(answer.report(question, { reported: 1 }), "once");
    assert.equal(answer.remembered(question, "once"), "once");
    assert.equal(answer.remembered(question, "twice"), undefined);
    assert.deepEqual(answer.params(question, { epsilon: 1 }), { epsilon: 1, k: 3 });
    const result = answer.draw(question, 0);
    assert.ok(result.reported >= 0 && result.reported < 3);
  });

  it("replays cheating detection's arm and bit from the memo's text only", () => {
    const question = { ...base, answer: "arm" };
    const answer = answerOf(question);
    assert.deepEqual(answer.remembered(question, "1:0"), { arm: 1, reported: 0 });
    assert.equal(answer.remembered(question, 1), undefined);
    assert.deepEqual(answer.report(question, { arm: 0, reported: 1, light: true }), { arm: 0, reported: 1 });
    assert.equal(answer.words(question, { arm: 0, reported: 1 }), "Yes");
  });

  it("reads a number only inside its range, as the share of the range", () => {
    const question = { ...base, answer: "number", scale: { min: 0, max: 20, step: 1 } };
    const answer = answerOf(question);
    assert.ok(answer.ranged && answer.randomized);
    assert.deepEqual(answer.truth(question, inputs({}, { "truth-q": "5" })), new Map([["q", 0.25]]));
    assert.equal(answer.truth(question, inputs({}, { "truth-q": "25" })), null);
  });

  it("sends a direct answer as chosen, never draws it, and says when none was chosen", () => {
    const question = { ...base, answer: "direct", options: OPTIONS };
    const answer = answerOf(question);
    assert.equal(answer.randomized, false);
    assert.throws(() => answer.draw(question, 0), /never drawn/);
    assert.equal(answer.sent(question, context({}, "once")), "once");
    assert.deepEqual(answer.summary(question, context({}, null)), ["Prefer not to say (sent as chosen)"]);
  });

  it("sends a number asked directly as a number, with its unit in words", () => {
    const question = { ...base, answer: "value", options: [], scale: { min: 16, max: 99, step: 1, unit: "years" } };
    const answer = answerOf(question);
    assert.equal(answer.randomized, false);
    assert.equal(answer.sent(question, context({}, "21")), 21);
    assert.equal(answer.sent(question, context({}, null)), null);
    assert.deepEqual(answer.summary(question, context({}, "21")), ["21 years (sent as chosen)"]);
  });

  it("sends an open answer's words as written, never draws them, and says when none were written", () => {
    const question = { ...base, answer: "text", options: [] };
    const answer = answerOf(question);
    assert.equal(answer.randomized, false);
    assert.throws(() => answer.draw(question, 0), /never drawn/);
    assert.equal(answer.sent(question, context({}, "the exam was hard")), "the exam was hard");
    assert.deepEqual(answer.summary(question, context({}, "the exam was hard")), ["the exam was hard (sent as chosen)"]);
    assert.deepEqual(answer.summary(question, context({}, null)), ["Nothing written (sent as chosen)"]);
  });

  it("sends a grid's rows as chosen, each in words, a row left unanswered said so", () => {
    const rows = [{ id: "fair", text: "It is fair" }, { id: "clear", text: "It is clear" }];
    const question = { ...base, answer: "grid", options: OPTIONS, rows };
    const answer = answerOf(question);
    assert.equal(answer.randomized, false);
    assert.throws(() => answer.draw(question, 0), /never drawn/);
    assert.deepEqual(answer.sent(question, context({}, { fair: "once" })), { fair: "once" });
    assert.equal(answer.sent(question, context({}, null)), null);
    // A row never touched is not answered; "Prefer not to say" is the respondent's own choice.
    assert.deepEqual(answer.summary(question, context({}, { fair: "once" })), ["It is fair: Once; It is clear: Not answered (sent as chosen)"]);
    const declined = { ...context({}, { fair: "once" }), declined: ["clear"] };
    assert.deepEqual(answer.summary(question, declined), ["It is fair: Once; It is clear: Prefer not to say (sent as chosen)"]);
  });
});

it("reads, keeps and reads back a list's count, and a double list's two, with their list", () => {
  const single = { id: "l", answer: "count", listItems: ["a", "b", "c"] };
  const double = { ...single, listItemsB: ["x", "y"] };
  const checked = (values) => (name) => (name in values ? { value: String(values[name]) } : null);
  const count = answerOf(single);
  assert.equal(count.reported(single, checked({ "report-l": 2 })), 2);
  assert.equal(count.reported(single, checked({})), null);
  assert.deepEqual(count.reported(double, checked({ "report-l-a": 1, "report-l-b": 3 })), { a: 1, b: 3 });
  assert.equal(count.reported(double, checked({ "report-l-a": 1 })), null);
  const sent = count.report(single, { arm: 1, reported: 2 });
  assert.deepEqual(sent, { arm: "treatment", count: 2 });
  assert.deepEqual(count.remembered(single, count.kept(sent)), sent);
  const both = count.report(double, { arm: 0, reported: { a: 1, b: 3 } });
  assert.deepEqual(both, { arm: "a", counts: { a: 1, b: 3 } });
  assert.deepEqual(count.remembered(double, count.kept(both)), both);
  // A kept report of the other shape is not this question's.
  assert.equal(count.remembered(double, count.kept(sent)), undefined);
  const text = { listCount: "{count} apply", listCounts: "{a} and {b} apply" };
  assert.equal(count.words(double, both, text), "1 and 3 apply");
  assert.equal(count.words(single, sent, text), "2 apply");
});
