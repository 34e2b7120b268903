import assert from "node:assert/strict";
import { test } from "node:test";

import { SENSITIVE, drawsFirst, keepArms, keptDraw } from "../../static/js/arm-draw.js";
import { loadMemo } from "../../static/js/memo.js";
import { seeded } from "./seeded.js";

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

/** A list's items as the page holds them: each an element that can be shown and moved. */
function listOf(ids) {
  const items = [...ids, SENSITIVE].map((id) => ({ dataset: { item: id }, hidden: true }));
  const list = {
    hidden: true,
    items,
    querySelectorAll: () => [...items],
    append(item) {
      items.splice(items.indexOf(item), 1);
      items.push(item);
    },
  };
  const top = { hidden: false };
  return { list, top };
}

/** A page whose sections hold each question's two everyday questions (or a list), and a store for its memo. */
function pageOf(stored, preview = false, ids = ["a", "b", "c"]) {
  const texts = new Map();
  const lists = new Map();
  const sectionOf = (id) => {
    if (!texts.has(id)) texts.set(id, [0, 1].map((arm) => ({ dataset: { arm: String(arm) }, hidden: true })));
    if (!lists.has(id)) lists.set(id, listOf(ids));
    if (!lists.has(`${id}:b`)) lists.set(`${id}:b`, listOf(["x", "y"]));
    const which = (selector) => lists.get(selector.includes('"b"') ? `${id}:b` : id);
    return {
      querySelectorAll: () => texts.get(id),
      querySelector: (selector) => (selector.startsWith(".list-items") ? which(selector).list : { closest: () => which(selector).top }),
    };
  };
  const page = { config: { slug: "s", revision: 1 }, preview, lock: (task) => task(), mirror: async () => stored, share: async () => {} };
  return { page, sectionOf, texts, lists };
}

const armQuestion = () => ({ id: "q", answer: "arm", mode: "report", drawsFirst: true });
const listQuestion = () => ({ id: "l", answer: "count", mode: "report", drawsFirst: true, listItems: ["a", "b", "c"] });

test("an arm is committed before it is shown, and a second call keeps it", async () => {
  const stored = store();
  const { page, sectionOf, texts } = pageOf(stored);
  const questions = [armQuestion()];
  await keepArms(page, questions, sectionOf, () => 2 ** 32 - 1);
  assert.equal(questions[0].keptArm, 1);
  assert.match(stored.value, /@arm:q/);
  assert.deepEqual(texts.get("q").map((text) => text.hidden), [true, false]);
  // A reload draws nothing: whatever the generator says, the kept arm comes back.
  const again = [armQuestion()];
  await keepArms(pageOf(stored).page, again, sectionOf, () => 0);
  assert.equal(again[0].keptArm, 1);
});

test("a list and its order are committed before they show, and a reload shows the same", async () => {
  const stored = store();
  const { page, sectionOf, lists } = pageOf(stored);
  const questions = [listQuestion()];
  await keepArms(page, questions, sectionOf, seeded(7));
  const { list, top } = lists.get("l");
  const shown = list.items.filter((item) => !item.hidden).map((item) => item.dataset.item);
  assert.match(stored.value, /@list:l/);
  assert.equal(list.hidden, false);
  // The long list shows the sensitive item and may be counted to four; the short list neither.
  assert.equal(shown.includes(SENSITIVE), questions[0].keptArm === 1);
  assert.equal(top.hidden, questions[0].keptArm === 0);
  assert.equal(shown.length, 3 + questions[0].keptArm);
  const again = pageOf(stored);
  const reloaded = [listQuestion()];
  await keepArms(again.page, reloaded, again.sectionOf, seeded(99));
  const reshown = again.lists.get("l").list.items.filter((item) => !item.hidden).map((item) => item.dataset.item);
  assert.deepEqual(reshown, shown);
  assert.equal(reloaded[0].keptArm, questions[0].keptArm);
});

test("a preview draws afresh and keeps nothing", async () => {
  const stored = store();
  const { page, sectionOf } = pageOf(stored, true);
  const questions = [armQuestion(), listQuestion()];
  await keepArms(page, questions, sectionOf, () => 0);
  assert.equal(questions[0].keptArm, 0);
  assert.equal(questions[1].keptArm, 0);
  assert.equal(stored.value, null);
});

test("arms and lists are drawn half and half, and every order of a list is as likely", async () => {
  const random = seeded(4);
  let second = 0;
  let longer = 0;
  const firsts = new Map();
  const trials = 4000;
  for (let trial = 0; trial < trials; trial += 1) {
    const questions = [armQuestion(), listQuestion()];
    const { page, sectionOf, lists } = pageOf(store(), true);
    await keepArms(page, questions, sectionOf, random);
    second += questions[0].keptArm;
    longer += questions[1].keptArm;
    const first = lists.get("l").list.items.find((item) => !item.hidden).dataset.item;
    firsts.set(first, (firsts.get(first) ?? 0) + 1);
  }
  // Four standard errors of a half: 4·√(0.25/4000) ≈ 0.032.
  assert.ok(Math.abs(second / trials - 0.5) < 0.032, String(second));
  assert.ok(Math.abs(longer / trials - 0.5) < 0.032, String(longer));
  // The first item shown: each control item 1/3 of the short lists and 1/4 of the long ones,
  // (1/3 + 1/4)/2 = 7/24 in all, the sensitive item 1/8; four standard errors of 7/24 ≈ 0.029.
  for (const id of ["a", "b", "c"]) assert.ok(Math.abs(firsts.get(id) / trials - 7 / 24) < 0.029, `${id}: ${firsts.get(id)}`);
  assert.ok(Math.abs(firsts.get(SENSITIVE) / trials - 1 / 8) < 0.021, String(firsts.get(SENSITIVE)));
});

test("only a kept draw that fits its question is read back", () => {
  const memo = (item, entry) => ({ reported: new Map([[item, entry]]) });
  assert.equal(keptDraw(memo("@arm:q", { bit: "0", epsilon: 0, procedure: "arm" }), armQuestion()), "0");
  assert.equal(keptDraw(memo("@arm:q", { bit: "2", epsilon: 0, procedure: "arm" }), armQuestion()), undefined);
  assert.equal(keptDraw(memo("@arm:q", { bit: "1", epsilon: 0, procedure: "order" }), armQuestion()), undefined);
  const list = (bit) => keptDraw(memo("@list:l", { bit, epsilon: 0, procedure: "list" }), listQuestion());
  assert.equal(list("0:c a b"), "0:c a b");
  assert.equal(list(`1:c ${SENSITIVE} a b`), `1:c ${SENSITIVE} a b`);
  // A list whose items changed, or a long list without its sensitive item, is drawn again.
  assert.equal(list("0:c a"), undefined);
  assert.equal(list("1:c a b"), undefined);
  assert.equal(list("0:c a d"), undefined);
  assert.equal(drawsFirst({ drawsFirst: true }), true);
  assert.equal(drawsFirst({ answer: "arm", mode: "report" }), false);
});

test("a double list shows both lists, the sensitive item in the one drawn, and keeps them", async () => {
  const stored = store();
  const { page, sectionOf, lists } = pageOf(stored);
  const question = () => ({ ...listQuestion(), listItemsB: ["x", "y"] });
  const questions = [question()];
  await keepArms(page, questions, sectionOf, seeded(3));
  const shownIn = (key) => lists.get(key).list.items.filter((item) => !item.hidden).map((item) => item.dataset.item);
  const [first, second] = [shownIn("l"), shownIn("l:b")];
  const holder = questions[0].keptArm === 0 ? first : second;
  assert.ok(holder.includes(SENSITIVE));
  assert.equal([...first, ...second].filter((id) => id === SENSITIVE).length, 1);
  assert.deepEqual([...first].sort(), questions[0].keptArm === 0 ? ["a", "b", "c", SENSITIVE].sort() : ["a", "b", "c"]);
  // The top count is offered only for the list holding the sensitive item.
  assert.equal(lists.get("l").top.hidden, questions[0].keptArm !== 0);
  assert.equal(lists.get("l:b").top.hidden, questions[0].keptArm !== 1);
  const memo = loadMemo(stored, "s", 1);
  const kept = memo.reported.get("@list:l").bit;
  assert.equal(kept, `${questions[0].keptArm}:${first.join(" ")}|${second.join(" ")}`);
  assert.equal(keptDraw(memo, question()), kept);
  assert.equal(keptDraw(memo, listQuestion()), undefined);
});
