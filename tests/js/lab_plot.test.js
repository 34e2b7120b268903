import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { classOptions, classSizeValid, parseShares, privacyRows, simulateChoiceClass, simulateClass } from "../../static/js/lab.js";
import { niceDomain, pathThrough, scale, ticks } from "../../static/js/plot.js";
import { copyButton } from "../../static/js/copy.js";
import { STEPS, stepped } from "../../static/js/present.js";
import { seeded } from "./seeded.js";

describe("lab", () => {
  for (const epsilon of [0.2, 1, Math.log(3), 4]) {
    it(`both procedures give ratio e^ε and the same truth probability at ε = ${epsilon.toFixed(3)}`, () => {
      const [coin, spinner] = privacyRows(epsilon, [{ name: "spinner_coin", dark: "coin" }, { name: "spinner", dark: "opposite" }]);
      assert.ok(Math.abs(coin.ratio - Math.exp(epsilon)) < 1e-9 * Math.exp(epsilon));
      assert.ok(Math.abs(spinner.ratio - Math.exp(epsilon)) < 1e-9 * Math.exp(epsilon));
      assert.ok(Math.abs(coin.truth - spinner.truth) < 1e-12);
    });
  }

  it("simulates a class with the respondents' own draw, repeatably with a seed", () => {
    const first = simulateClass(200, 0.3, 1, "coin", seeded(3));
    const again = simulateClass(200, 0.3, 1, "coin", seeded(3));
    assert.deepEqual(first, again);
    assert.equal(first.length, 200);
    for (const person of first) {
      const expected = person.light ? person.truth : person.heads ? 1 : 0;
      assert.equal(person.reported, expected);
    }
  });

  it("draws true answers with the chosen share (seeded, within 4 standard errors)", () => {
    const n = 20_000;
    const people = simulateClass(n, 0.3, 1, "opposite", seeded(9));
    const share = people.filter((person) => person.truth).length / n;
    assert.ok(Math.abs(share - 0.3) < 4 * Math.sqrt(0.21 / n));
  });

  it("takes a class size only as a whole number within the limit, never a silent 1", () => {
    for (const good of ["1", "30", "2000"]) assert.equal(classSizeValid(good, 2000), true, good);
    for (const bad of ["0", "", " ", "-3", "2.5", "2001", "abc"]) assert.equal(classSizeValid(bad, 2000), false, bad);
  });
});

describe("lab: single choice", () => {
  it("reads typed percentages, and refuses what does not add up to 100", () => {
    assert.deepEqual(parseShares("50, 30, 20"), [0.5, 0.3, 0.2]);
    assert.deepEqual(parseShares("25 25 25 25"), [0.25, 0.25, 0.25, 0.25]);
    for (const bad of ["100", "50, 40", "50, -10, 60", "a, b", "", "10,10,10,10,10,10,10,10,20"]) {
      assert.equal(parseShares(bad), null, bad);
    }
  });

  it("gives a class of n exactly the typed shares, rounded to whole people", () => {
    const truths = classOptions([0.5, 0.3, 0.15, 0.05], 30);
    assert.equal(truths.length, 30);
    assert.deepEqual([0, 1, 2, 3].map((option) => truths.filter((t) => t === option).length), [15, 9, 5, 1]);
  });

  it("reports each option with GRR's probabilities when the class really spins (seeded)", () => {
    const n = 40_000;
    const counts = simulateChoiceClass(new Array(n).fill(0), 4, 1, "opposite", seeded(12));
    const truth = Math.E / (Math.E + 3);
    assert.equal(counts.reduce((a, b) => a + b, 0), n);
    assert.ok(Math.abs(counts[0] / n - truth) < 4.5 * Math.sqrt((truth * (1 - truth)) / n));
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

  it("widens a domain to whole ticks, so the lowest gridline is below every point", () => {
    assert.deepEqual(niceDomain(-0.8, 1), [-1, 1]);
    assert.deepEqual(niceDomain(0, 1), [0, 1]);
    assert.deepEqual(niceDomain(0, 17), [0, 20]);
    const [low, high] = niceDomain(-0.63, 1.2);
    assert.ok(low <= -0.63 && high >= 1.2 && ticks(low, high).at(0) === low);
  });
});

describe("projector slides", () => {
  it("steps within the slides and stops at either end", () => {
    assert.equal(stepped(0, 1, 3), 1);
    assert.equal(stepped(2, 1, 3), 2);
    assert.equal(stepped(0, -1, 3), 0);
    assert.equal(stepped(5, 0, 3), 2, "a slide gone after a refresh: the last one");
    assert.equal(stepped(0, 1, 0), 0);
  });

  it("steps forward with the keys clickers send, back with their opposites", () => {
    for (const key of ["ArrowRight", "ArrowDown", "PageDown"]) assert.equal(STEPS[key], 1);
    for (const key of ["ArrowLeft", "ArrowUp", "PageUp"]) assert.equal(STEPS[key], -1);
    assert.equal(STEPS.Enter, undefined);
  });
});

describe("copy link and code", () => {
  const fakeButton = () => {
    let onClick = null;
    return {
      dataset: { copy: "https://surveys.example.edu/s/x · join code ABCDE", copied: "Copied" },
      addEventListener: (_type, handler) => { onClick = handler; },
      click: () => onClick(),
    };
  };

  it("writes the address and code to the clipboard and says so", async () => {
    const button = fakeButton();
    const status = { textContent: "" };
    const written = [];
    copyButton(button, status, { writeText: async (text) => { written.push(text); } });
    await button.click();
    assert.deepEqual(written, ["https://surveys.example.edu/s/x · join code ABCDE"]);
    assert.equal(status.textContent, "Copied");
  });

  it("shows the text to copy by hand where the clipboard refuses", async () => {
    const button = fakeButton();
    const status = { textContent: "" };
    copyButton(button, status, { writeText: async () => { throw new Error("denied"); } });
    await button.click();
    assert.equal(status.textContent, button.dataset.copy);
  });
});
