import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { memoryStorage } from "./memory_storage.js";
import { hasKept, keepPanelParameters, panelKey, takePanelLink } from "../../static/js/panel.js";


const PANEL = { parameters: ["PROLIFIC_PID", "STUDY_ID"], completeUrl: "https://app.prolific.com/done?cc=C1&pid={PROLIFIC_PID}&s={STUDY_ID}" };

describe("panel parameters", () => {
  it("keeps the named parameters, takes them out of the address and leaves the rest", () => {
    const storage = memoryStorage();
    const replaced = [];
    const history = { state: null, replaceState: (state, title, url) => replaced.push(url) };
    keepPanelParameters(PANEL, "exams", { href: "https://rr.example/s/exams?PROLIFIC_PID=5f%20a&lang=ko&OTHER=1#top" }, storage, history);
    assert.deepEqual(JSON.parse(storage.getItem(panelKey("exams"))), { PROLIFIC_PID: "5f a" });
    assert.deepEqual(replaced, ["/s/exams?lang=ko&OTHER=1#top"]);
  });

  it("keeps what an earlier load kept when the address no longer carries them", () => {
    const storage = memoryStorage();
    storage.setItem(panelKey("exams"), JSON.stringify({ PROLIFIC_PID: "abc" }));
    keepPanelParameters(PANEL, "exams", { href: "https://rr.example/s/exams" }, storage, { replaceState: () => assert.fail("nothing to take out") });
    assert.equal(JSON.parse(storage.getItem(panelKey("exams"))).PROLIFIC_PID, "abc");
  });

  it("fills the completion address, URL-encoded, once, and forgets the parameters", () => {
    const storage = memoryStorage();
    storage.setItem(panelKey("exams"), JSON.stringify({ PROLIFIC_PID: "a&b=c" }));
    assert.equal(takePanelLink(PANEL, "exams", storage), "https://app.prolific.com/done?cc=C1&pid=a%26b%3Dc&s=");
    assert.equal(storage.getItem(panelKey("exams")), null);
    // Nothing kept (another device): the address still goes, without the ids.
    assert.equal(takePanelLink(PANEL, "exams", storage), "https://app.prolific.com/done?cc=C1&pid=&s=");
  });

  it("says whether the parameters are still kept, so an end shown again sends no empty id", () => {
    const storage = memoryStorage();
    assert.equal(hasKept("exams", storage), false);
    storage.setItem(panelKey("exams"), JSON.stringify({ PROLIFIC_PID: "abc" }));
    assert.equal(hasKept("exams", storage), true);
    takePanelLink(PANEL, "exams", storage);
    assert.equal(hasKept("exams", storage), false);
  });
});
