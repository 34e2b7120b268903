import assert from "node:assert/strict";
import { test } from "node:test";

import { chooseOrders, keptOrder, orderItem, permutation } from "../../static/js/flow.js";
import { seeded } from "./seeded.js";

test("a permutation keeps every item once and each fixed item in its place", () => {
  const random = seeded(11);
  const items = ["a", "b", "c", "d", "none"];
  const fixed = [false, false, false, false, true];
  for (let draw = 0; draw < 200; draw += 1) {
    const order = permutation(items, fixed, random);
    assert.deepEqual([...order].sort(), [...items].sort());
    assert.equal(order[4], "none");
  }
});

test("every order of three is drawn about equally often", () => {
  const random = seeded(5);
  const counts = new Map();
  const draws = 6000;
  for (let draw = 0; draw < draws; draw += 1) {
    const key = permutation(["x", "y", "z"], [false, false, false], random).join("");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  assert.equal(counts.size, 6);
  // Each count is binomial(6000, 1/6): sd ≈ 28.9; 5 sd either side.
  for (const count of counts.values()) assert.ok(Math.abs(count - 1000) < 145, String(count));
});

/** A memo store in memory, as memo.js reads and writes one. */
function store() {
  return {
    value: null,
    getItem() {
      return this.value;
    },
    setItem(_key, value) {
      this.value = value;
    },
  };
}

test("orders are committed before they are returned, and a second call keeps them", async () => {
  const stored = store();
  const page = { lock: (task) => task(), mirror: async () => stored, share: async () => {}, newId: () => "0".repeat(32) };
  const config = { slug: "s", revision: 1 };
  const orderings = [{ key: "sensitive", items: ["s1", "s2", "s3"], fixed: [false, false, false] }];
  const first = await chooseOrders(orderings, config, false, page, seeded(3));
  assert.match(stored.value, /@order:sensitive/);
  const again = await chooseOrders(orderings, config, false, page, seeded(99));
  assert.deepEqual(again.get("sensitive"), first.get("sensitive"));
});

test("a kept order of other items, or with a fixed item moved, is not reused", () => {
  const memo = (bit) => ({ reported: new Map([[orderItem("q"), { bit, epsilon: 0, procedure: "order" }]]) });
  const ordered = { key: "q", items: ["a", "b", "none"], fixed: [false, false, true] };
  assert.deepEqual(keptOrder(memo("b a none"), ordered), ["b", "a", "none"]);
  assert.equal(keptOrder(memo("none a b"), ordered), undefined);
  assert.equal(keptOrder(memo("a b c"), ordered), undefined);
  assert.equal(keptOrder(memo("a b"), ordered), undefined);
});
