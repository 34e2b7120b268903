import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { afterLoad } from "../../static/js/start.js";

describe("the survey page's start", () => {
  it("waits for the page to load", async () => {
    const target = new EventTarget();
    target.document = { readyState: "interactive" };
    let started = false;
    const waiting = afterLoad(target).then(() => (started = true));
    await Promise.resolve();
    assert.equal(started, false, "nothing before the load");
    target.dispatchEvent(new Event("load"));
    await waiting;
    assert.equal(started, true);
  });

  it("starts at once on a page that has loaded", async () => {
    const target = new EventTarget();
    target.document = { readyState: "complete" };
    await afterLoad(target);
  });
});
