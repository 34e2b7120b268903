import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { memoryStorage } from "./memory_storage.js";
import { countEnding, fullQuotas, quotasDecidedAt } from "../../static/js/ending.js";
import { ENDED_ITEM, PLAIN_ITEM, commitReported, loadMemo, rememberEnded } from "../../static/js/memo.js";
import { takePanelLink } from "../../static/js/panel.js";


const QUOTAS = [
  { id: "women", rule: { question: "gender", in: ["f"] }, decidedAt: "about" },
  { id: "young", rule: { question: "age", at_most: 29 }, decidedAt: "more" },
];

describe("quotas on the device", () => {
  it("names the quotas decided at a page that the plain answers belong to", () => {
    const plain = new Map([["gender", "f"], ["age", 22]]);
    assert.deepEqual(quotasDecidedAt(QUOTAS, "about", plain), ["women"]);
    assert.deepEqual(quotasDecidedAt(QUOTAS, "more", plain), ["young"]);
    assert.deepEqual(quotasDecidedAt(QUOTAS, "about", new Map([["gender", "m"]])), []);
    assert.deepEqual(quotasDecidedAt(QUOTAS, "about", new Map()), []); // unanswered: in none
  });

  it("asks which quotas are full without sending anything of the respondent's", async () => {
    const asked = [];
    const fetcher = async (url, options) => {
      asked.push([url, options.method ?? "GET", options.body]);
      return { ok: true, json: async () => ({ full: ["women"] }) };
    };
    assert.deepEqual(await fullQuotas("/api/surveys/s/quotas/full", fetcher), ["women"]);
    assert.deepEqual(asked, [["/api/surveys/s/quotas/full", "GET", undefined]]);
  });

  it("takes no quota as full where the server cannot be asked", async () => {
    assert.deepEqual(await fullQuotas("/x", async () => { throw new TypeError("offline"); }), []);
    assert.deepEqual(await fullQuotas("/x", async () => ({ ok: false, json: async () => ({}) })), []);
    assert.deepEqual(await fullQuotas("/x", async () => ({ ok: true, json: async () => ({ full: "women" }) })), []);
  });
});

describe("a screen-out", () => {
  it("sends the page's id alone, under the submission id", async () => {
    const sent = [];
    await countEnding("/api/surveys/s/screen-outs", { page: "about" }, "a".repeat(32), async (url, options) => sent.push([url, options]));
    const [[url, options]] = sent;
    assert.equal(url, "/api/surveys/s/screen-outs");
    assert.equal(options.method, "POST");
    assert.equal(options.headers["Idempotency-Key"], "a".repeat(32));
    assert.deepEqual(JSON.parse(options.body), { page: "about" });
  });

  it("lets the respondent go when the count cannot be sent", async () => {
    await countEnding("/x", { page: "about" }, "a".repeat(32), async () => { throw new TypeError("offline"); });
  });

  it("is kept in the memo with a submission id, and the kept direct answers go", () => {
    const storage = memoryStorage();
    const reported = new Map([[`${PLAIN_ITEM}age`, { bit: "15", epsilon: 0, procedure: "plain" }], ["q1", { bit: 1, epsilon: 1, procedure: "spinner" }]]);
    commitReported(storage, "s", 3, reported, () => "b".repeat(32));
    assert.equal(rememberEnded(storage, "s", 3, "screen_out", () => "c".repeat(32)), "b".repeat(32));
    const memo = loadMemo(storage, "s", 3);
    assert.equal(memo.reported.get(ENDED_ITEM).bit, "screen_out");
    assert.equal(memo.reported.has(`${PLAIN_ITEM}age`), false);
  });
});

describe("the panel's other addresses", () => {
  it("fills the kept parameters into the screen-out address", () => {
    const storage = memoryStorage();
    storage.setItem("rr-panel:s", JSON.stringify({ PID: "a b" }));
    const panel = { parameters: ["PID"], completeUrl: "https://p.example/done?pid={PID}", screenOutUrl: "https://p.example/out?pid={PID}" };
    assert.equal(takePanelLink(panel, "s", storage, panel.screenOutUrl), "https://p.example/out?pid=a%20b");
    assert.equal(storage.getItem("rr-panel:s"), null);
  });
});
