import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { whenNear } from "../../static/js/near.js";

/** A window whose IntersectionObserver the test moves by hand, as scrolling would. */
function setting() {
  const observers = [];
  class Observer {
    constructor(callback, options) {
      this.callback = callback;
      this.options = options;
      this.watched = new Set();
      observers.push(this);
    }
    observe(element) { this.watched.add(element); }
    disconnect() { this.watched.clear(); }
    /** Reports `element` in or out of the viewport's margin, if it is still watched. */
    move(element, isIntersecting) {
      if (this.watched.has(element)) this.callback([{ target: element, isIntersecting }], this);
    }
  }
  return { observers, events: new EventTarget(), Observer };
}

describe("whenNear", () => {
  it("waits until its element nears the viewport, then runs once", () => {
    const { observers, events, Observer } = setting();
    const element = {};
    let runs = 0;
    whenNear(element, () => { runs += 1; }, { Observer, events });
    assert.equal(observers[0].options.rootMargin, "300px 0px");
    observers[0].move(element, false);
    assert.equal(runs, 0, "still far away");
    observers[0].move(element, true);
    observers[0].move(element, false);
    observers[0].move(element, true);
    assert.equal(runs, 1, "scrolled to twice, run once");
  });

  it("runs at once when called, and then no more on scrolling or printing", () => {
    const { observers, events, Observer } = setting();
    const element = {};
    let runs = 0;
    const now = whenNear(element, () => (runs += 1), { Observer, events });
    assert.equal(now(), 1, "returns what the task returns");
    observers[0].move(element, true);
    events.dispatchEvent(new Event("beforeprint"));
    assert.equal(runs, 1);
    now();
    assert.equal(runs, 2, "each call runs it again");
  });

  it("runs what still waits before printing, once", () => {
    const { observers, events, Observer } = setting();
    const element = {};
    let runs = 0;
    whenNear(element, () => { runs += 1; }, { Observer, events, margin: "0px" });
    assert.equal(observers[0].options.rootMargin, "0px");
    events.dispatchEvent(new Event("beforeprint"));
    events.dispatchEvent(new Event("beforeprint"));
    observers[0].move(element, true);
    assert.equal(runs, 1);
  });
});
