import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { privacyRows, simulateClass } from "../../static/js/lab.js";
import { pathThrough, scale, ticks } from "../../static/js/plot.js";
import { revealSwitch } from "../../static/js/present.js";
import { seeded } from "./seeded.js";

describe("lab", () => {
  for (const epsilon of [0.2, 1, Math.log(3), 4]) {
    it(`both procedures give ratio e^ε and the same truth probability at ε = ${epsilon.toFixed(3)}`, () => {
      const [coin, spinner] = privacyRows(epsilon);
      assert.ok(Math.abs(coin.ratio - Math.exp(epsilon)) < 1e-9 * Math.exp(epsilon));
      assert.ok(Math.abs(spinner.ratio - Math.exp(epsilon)) < 1e-9 * Math.exp(epsilon));
      assert.ok(Math.abs(coin.truth - spinner.truth) < 1e-12);
    });
  }

  it("simulates a class with the respondents' own draw, repeatably with a seed", () => {
    const first = simulateClass(200, 0.3, 1, "spinner_coin", seeded(3));
    const again = simulateClass(200, 0.3, 1, "spinner_coin", seeded(3));
    assert.deepEqual(first, again);
    assert.equal(first.length, 200);
    for (const person of first) {
      const expected = person.light ? person.truth : person.heads ? 1 : 0;
      assert.equal(person.reported, expected);
    }
  });

  it("draws true answers with the chosen share (seeded, within 4 standard errors)", () => {
    const n = 20_000;
    const people = simulateClass(n, 0.3, 1, "spinner", seeded(9));
    const share = people.filter((person) => person.truth).length / n;
    assert.ok(Math.abs(share - 0.3) < 4 * Math.sqrt(0.21 / n));
  });
});

describe("plot", () => {
  it("maps domains onto ranges, including reversed ones", () => {
    const y = scale([0, 1], [200, 0]);
    assert.equal(y(0), 200);
    assert.equal(y(1), 0);
    assert.equal(y(0.25), 150);
  });

  it("builds a path through points", () => {
    const identity = (v) => v;
    assert.equal(pathThrough([[0, 0], [1, 2]], identity, identity), "M0.00 0.00L1.00 2.00");
  });

  it("chooses round ticks that cover the range", () => {
    assert.deepEqual(ticks(0, 1), [0, 0.2, 0.4, 0.6, 0.8, 1]);
    assert.deepEqual(ticks(0, 30, 3), [0, 10, 20, 30]);
    assert.deepEqual(ticks(-0.5, 1.5, 4), [-0.5, 0, 0.5, 1, 1.5]);
  });
});

describe("projector reveal switch", () => {
  it("starts hidden and toggles the panel", () => {
    const attributes = new Map();
    const panelAttributes = new Set();
    let onClick = null;
    const button = {
      setAttribute: (name, value) => attributes.set(name, value),
      getAttribute: (name) => attributes.get(name),
      addEventListener: (_type, handler) => { onClick = handler; },
    };
    const panel = { toggleAttribute: (name, on) => (on ? panelAttributes.add(name) : panelAttributes.delete(name)) };
    revealSwitch(button, panel);
    assert.equal(attributes.get("aria-pressed"), "false");
    assert.equal(panelAttributes.has("data-revealed"), false);
    onClick();
    assert.equal(attributes.get("aria-pressed"), "true");
    assert.equal(panelAttributes.has("data-revealed"), true);
    onClick();
    assert.equal(panelAttributes.has("data-revealed"), false);
  });
});
