import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it, mock } from "node:test";

import { previewFigures } from "../../static/js/builder.js";
import { fill } from "../../static/js/fill.js";
import { keepFresh } from "../../static/js/refresh.js";

const LIMITS = { minEpsilon: 1e-6, maxEpsilon: 10 };

describe("builder preview", () => {
  it("costs a yes/no question its ε and adds it to the rest of the survey", () => {
    const figures = previewFigures({ epsilon: Math.log(3), dark: "coin", hasOptions: false, optionLines: "", otherCost: 1.5, limits: LIMITS });
    assert.ok(Math.abs(figures.light - 0.5) < 1e-12);
    assert.ok(Math.abs(figures.truth - 0.75) < 1e-12);
    assert.equal(figures.spins, 1);
    assert.ok(Math.abs(figures.total - (1.5 + Math.log(3))) < 1e-12);
  });

  it("costs a multi-select question one ε per non-empty option line", () => {
    const figures = previewFigures({ epsilon: 0.5, dark: "opposite", hasOptions: true, optionLines: "a\n\n b \nc\n", otherCost: 0, limits: LIMITS });
    assert.equal(figures.spins, 3);
    assert.equal(figures.cost, 1.5);
  });

  for (const epsilon of [0, -1, 1e-7, 10.5, NaN]) {
    it(`shows nothing for ε = ${epsilon}`, () => {
      assert.equal(previewFigures({ epsilon, dark: "opposite", hasOptions: false, optionLines: "", otherCost: 0, limits: LIMITS }), null);
    });
  }

  it("fills named placeholders and leaves unknown ones", () => {
    assert.equal(fill("{n} people, ±{margin} points {x}", { n: 30, margin: "4.5" }), "30 people, ±4.5 points {x}");
  });
});

describe("results refresh", () => {
  // Fake timers: each tick is advanced by hand, so no result depends on the machine's speed.
  beforeEach(() => mock.timers.enable({ apis: ["setTimeout"] }));
  afterEach(() => {
    mock.timers.reset();
    delete globalThis.document;
  });

  /** Let the awaited fetch and the swap after it run (setImmediate is not faked). */
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it("fetches the panel again on each tick and swaps it in, skipping hidden tabs", async () => {
    globalThis.document = { hidden: false };
    const panel = { dataset: { refreshUrl: "/surveys/s/panel" }, innerHTML: "old" };
    const asked = [];
    const stop = keepFresh(panel, {
      interval: 5000,
      fetchPanel: async (url) => {
        asked.push(url);
        return { html: `<p>${asked.length}</p>`, etag: `"v${asked.length}"` };
      },
    });
    mock.timers.tick(4999);
    await settle();
    assert.equal(asked.length, 0, "nothing before the first interval");
    mock.timers.tick(1);
    await settle();
    assert.equal(asked.length, 1);
    for (const expected of [2, 3]) {
      mock.timers.tick(5000);
      await settle();
      assert.equal(asked.length, expected);
      assert.equal(panel.innerHTML, `<p>${expected}</p>`);
    }
    globalThis.document.hidden = true;
    mock.timers.tick(5000 * 4);
    await settle();
    assert.equal(asked.length, 3, "no fetch while the tab is hidden");
    globalThis.document.hidden = false;
    mock.timers.tick(5000);
    await settle();
    assert.equal(asked.length, 4, "fetches again once the tab is visible");
    stop();
    mock.timers.tick(5000 * 3);
    await settle();
    assert.equal(asked.length, 4, "nothing after stop");
    assert.ok(asked.every((url) => url === "/surveys/s/panel"));
  });

  it("names the version it has and touches nothing while the panel is unchanged", async () => {
    globalThis.document = { hidden: false };
    const panel = { dataset: { refreshUrl: "/p" }, innerHTML: "first" };
    const sent = [];
    const swapped = [];
    const replies = [
      { html: "<p>a</p>", etag: '"a"' },
      { html: null, etag: '"a"' }, // 304: unchanged
      { html: null, etag: '"a"' },
      { html: "<p>b</p>", etag: '"b"' },
    ];
    const stop = keepFresh(panel, {
      interval: 1000,
      fetchPanel: async (_url, etag) => {
        sent.push(etag);
        return replies.shift();
      },
      swap: (_panel, html) => swapped.push(html),
    });
    for (let tick = 0; tick < 4; tick += 1) {
      mock.timers.tick(1000);
      await settle();
    }
    stop();
    assert.deepEqual(sent, [null, '"a"', '"a"', '"a"']);
    assert.deepEqual(swapped, ["<p>a</p>", "<p>b</p>"]);
  });

  it("keeps the old panel when a refresh fails, and tries again at the next tick", async () => {
    globalThis.document = { hidden: false };
    const panel = { dataset: { refreshUrl: "/p" }, innerHTML: "kept" };
    let calls = 0;
    const stop = keepFresh(panel, {
      interval: 5000,
      fetchPanel: async () => {
        calls += 1;
        throw new Error("offline");
      },
    });
    mock.timers.tick(5000);
    await settle();
    mock.timers.tick(5000);
    await settle();
    stop();
    assert.equal(calls, 2);
    assert.equal(panel.innerHTML, "kept");
  });

  it("does not swap in a reply that arrives after stop", async () => {
    globalThis.document = { hidden: false };
    const panel = { dataset: { refreshUrl: "/p" }, innerHTML: "kept" };
    let release;
    const stop = keepFresh(panel, {
      interval: 5000,
      fetchPanel: () => new Promise((resolve) => { release = resolve; }),
    });
    mock.timers.tick(5000);
    await settle();
    stop();
    release({ html: "<p>late</p>", etag: '"late"' });
    await settle();
    assert.equal(panel.innerHTML, "kept");
  });
});
