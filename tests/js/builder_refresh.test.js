import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { fill, previewFigures } from "../../static/js/builder.js";
import { keepFresh } from "../../static/js/refresh.js";

describe("builder preview", () => {
  it("costs a yes/no question its ε and adds it to the rest of the survey", () => {
    const figures = previewFigures({ epsilon: Math.log(3), procedure: "spinner_coin", kind: "yesno", optionLines: "", otherCost: 1.5 });
    assert.ok(Math.abs(figures.light - 0.5) < 1e-12);
    assert.ok(Math.abs(figures.truth - 0.75) < 1e-12);
    assert.equal(figures.spins, 1);
    assert.ok(Math.abs(figures.total - (1.5 + Math.log(3))) < 1e-12);
  });

  it("costs a multi-select question one ε per non-empty option line", () => {
    const figures = previewFigures({ epsilon: 0.5, procedure: "spinner", kind: "multi", optionLines: "a\n\n b \nc\n", otherCost: 0 });
    assert.equal(figures.spins, 3);
    assert.equal(figures.cost, 1.5);
  });

  for (const epsilon of [0, -1, 10.5, NaN]) {
    it(`shows nothing for ε = ${epsilon}`, () => {
      assert.equal(previewFigures({ epsilon, procedure: "spinner", kind: "yesno", optionLines: "", otherCost: 0 }), null);
    });
  }

  it("fills named placeholders and leaves unknown ones", () => {
    assert.equal(fill("{n} people, ±{margin} points {x}", { n: 30, margin: "4.5" }), "30 people, ±4.5 points {x}");
  });
});

describe("results refresh", () => {
  it("fetches the panel again on each tick and swaps it in, skipping hidden tabs", async () => {
    globalThis.document = { hidden: false };
    const panel = { dataset: { refreshUrl: "/surveys/s/panel" }, innerHTML: "old" };
    const asked = [];
    let count = 0;
    const stop = keepFresh(panel, {
      interval: 5,
      fetchPanel: async (url) => {
        asked.push(url);
        count += 1;
        return `<p>${count}</p>`;
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 40));
    globalThis.document.hidden = true;
    const seenWhileVisible = count;
    await new Promise((resolve) => setTimeout(resolve, 30));
    stop();
    assert.ok(seenWhileVisible >= 2, `refreshed ${seenWhileVisible} times`);
    assert.equal(count, seenWhileVisible, "no fetch while the tab is hidden");
    assert.equal(panel.innerHTML, `<p>${count}</p>`);
    assert.ok(asked.every((url) => url === "/surveys/s/panel"));
    delete globalThis.document;
  });

  it("keeps the old panel when a refresh fails", async () => {
    globalThis.document = { hidden: false };
    const panel = { dataset: { refreshUrl: "/p" }, innerHTML: "kept" };
    const stop = keepFresh(panel, { interval: 5, fetchPanel: async () => { throw new Error("offline"); } });
    await new Promise((resolve) => setTimeout(resolve, 25));
    stop();
    assert.equal(panel.innerHTML, "kept");
    delete globalThis.document;
  });
});
