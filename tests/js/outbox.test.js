import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { createCourier } from "../../static/js/courier.js";
import {
  deliver,
  flush,
  newEntry,
  nextDue,
  retryDelay,
  summarize,
  verdictOf,
} from "../../static/js/outbox.js";
import { newSubmissionId } from "../../static/js/random.js";
import { OUTBOX_WAITING_KEY, storedMarks } from "../../static/js/memo.js";

/** An outbox in memory, with the same calls as the device's IndexedDB one. */
function memoryStore(entries = []) {
  const items = new Map(entries.map((entry) => [entry.id, structuredClone(entry)]));
  return {
    items,
    all: async () => [...items.values()].map((entry) => structuredClone(entry)),
    put: async (entry) => void items.set(entry.id, structuredClone(entry)),
    remove: async (id) => void items.delete(id),
  };
}

/** A server that answers each POST with the next of `statuses` (null: the network is down). */
function server(statuses) {
  const requests = [];
  const fetch = async (url, init) => {
    requests.push({ url, ...init });
    const status = statuses.length > 1 ? statuses.shift() : statuses[0];
    if (status === null) throw new TypeError("Failed to fetch");
    const reply = status === 201 ? { ok: true, completion_code: "RR1" } : { error: `refused ${status}` };
    return { status, json: async () => reply };
  };
  return { fetch, requests };
}

const entry = (id = "a".repeat(32), body = { answers: { q: 1 } }) =>
  newEntry({ id, slug: "s", url: "/api/surveys/s/responses", revision: 3, body });

describe("outbox", () => {
  it("reads a reply as stored, refused for good, or worth another try", () => {
    assert.equal(verdictOf(201), "stored");
    for (const status of [400, 403, 404, 409, 410, 413, 415]) assert.equal(verdictOf(status), "refused");
    for (const status of [null, 408, 429, 500, 502, 503]) assert.equal(verdictOf(status), "retry");
  });

  it("waits longer after each failure, up to five minutes, never less than half the step", () => {
    assert.equal(retryDelay(1, 0), 1_000);
    assert.equal(retryDelay(1, 0.999999), 2_000);
    assert.equal(retryDelay(3, 0), 4_000);
    assert.equal(retryDelay(30, 0.999999), 300_000);
  });

  it("sends the reports with the submission id, the revision and the device's link", async () => {
    const { fetch, requests } = server([201]);
    const store = memoryStore();
    const device = { ...entry(), device: "fd_secret" };
    await store.put(device);
    const sent = await deliver(store, device, { fetch, now: () => 0, random: () => 0 });
    assert.equal(sent.verdict, "stored");
    assert.equal(sent.reply.completion_code, "RR1");
    assert.equal(store.items.size, 0, "stored: it leaves the outbox");
    const [request] = requests;
    assert.equal(request.method, "POST");
    assert.deepEqual(request.headers, {
      "Content-Type": "application/json",
      "X-Survey-Revision": "3",
      "Idempotency-Key": "a".repeat(32),
      "X-Field-Device": "fd_secret",
    });
    assert.deepEqual(JSON.parse(request.body), { answers: { q: 1 } });
  });

  it("keeps a refused response with the server's reason, and never sends it again", async () => {
    const { fetch, requests } = server([409]);
    const store = memoryStore([entry()]);
    await flush(store, { fetch, now: () => 0, random: () => 0 });
    const [kept] = store.items.values();
    assert.deepEqual([kept.state, kept.status, kept.reason], ["refused", 409, "refused 409"]);
    await flush(store, { fetch, now: () => 10 ** 12, random: () => 0 }, true);
    assert.equal(requests.length, 1);
    assert.deepEqual(summarize(await store.all()), { waiting: 0, refused: [{ status: 409, reason: "refused 409" }] });
  });

  it("keeps a response the network lost, and tries again only once it is due", async () => {
    const { fetch, requests } = server([null, 503, 201]);
    const store = memoryStore([entry()]);
    const env = (now) => ({ fetch, now: () => now, random: () => 0 });
    await flush(store, env(1_000));
    let [kept] = store.items.values();
    assert.deepEqual([kept.state, kept.attempts, kept.nextTry], ["waiting", 1, 2_000]);
    await flush(store, env(1_999));
    assert.equal(requests.length, 1, "not due yet");
    await flush(store, env(2_000));
    [kept] = store.items.values();
    assert.deepEqual([kept.attempts, kept.nextTry], [2, 4_000]);
    assert.equal(nextDue(await store.all()), 4_000);
    await flush(store, env(0), true);
    assert.equal(store.items.size, 0);
    assert.equal(nextDue(await store.all()), null);
    assert.deepEqual(new Set(requests.map((request) => request.headers["Idempotency-Key"])), new Set(["a".repeat(32)]));
  });

  it("holds reported answers only: what the page sends, nothing more", () => {
    const held = entry("b".repeat(32), { answers: { q: 0, year: "first" } });
    assert.deepEqual(Object.keys(held).sort(), ["attempts", "body", "device", "id", "nextTry", "revision", "slug", "state", "url"]);
    assert.equal(held.body, '{"answers":{"q":0,"year":"first"}}');
  });

  it("draws 128-bit submission ids from the cryptographic generator", () => {
    const ids = new Set(Array.from({ length: 200 }, newSubmissionId));
    assert.equal(ids.size, 200);
    for (const id of ids) assert.match(id, /^[0-9a-f]{32}$/);
  });
});

/** Timers that run only when the test says. */
function fakeTimers() {
  const pending = new Map();
  let next = 1;
  return {
    pending,
    setTimeout: (callback, delay) => (pending.set(next, { callback, delay }), next++),
    clearTimeout: (id) => pending.delete(id),
    fire() {
      const [[id, { callback }]] = pending;
      pending.delete(id);
      callback();
    },
  };
}

class MemoryStorage {
  items = new Map();
  getItem(key) { return this.items.get(key) ?? null; }
  setItem(key, value) { this.items.set(key, String(value)); }
  removeItem(key) { this.items.delete(key); }
}

/** Resolves once `condition` holds, checking after each turn of the event loop. */
async function until(condition) {
  for (let turn = 0; turn < 1_000 && !condition(); turn += 1) await new Promise((resolve) => setImmediate(resolve));
  assert.ok(condition(), "the condition never held");
}

describe("courier", () => {
  it("keeps a response whose reply was lost, sends it again on a timer, and says when it arrived", async () => {
    const { fetch, requests } = server([null, 201]);
    const timers = fakeTimers();
    const storage = new MemoryStorage();
    const changes = [];
    let now = 5_000;
    const courier = createCourier({
      store: memoryStore(), fetch, timers, storage, now: () => now, events: new EventTarget(),
      onChange: (status, stored) => changes.push({ ...status, stored: [...stored] }),
    });
    const { kept, sent } = await courier.send(entry());
    assert.deepEqual([kept, sent.verdict], [true, "retry"]);
    assert.deepEqual(changes.at(-1), { waiting: 1, refused: [], lastSync: null, stored: [] });
    assert.equal(timers.pending.size, 1);
    const [{ delay }] = timers.pending.values();
    assert.ok(delay >= 1_000 && delay <= 2_000, `retry after ${delay} ms`);
    now += delay;
    timers.fire();
    await until(() => changes.length === 2);
    assert.deepEqual(changes.at(-1), { waiting: 0, refused: [], lastSync: now, stored: ["a".repeat(32)] });
    assert.equal(requests.length, 2);
    assert.equal(timers.pending.size, 0, "nothing left to send: no timer");
  });

  it("marks that responses wait while one does, for the survey page to load the courier then", async () => {
    const { fetch } = server([null, 201]);
    const timers = fakeTimers();
    const marks = new MemoryStorage();
    let now = 0;
    const courier = createCourier({ store: memoryStore(), fetch, timers, marks, events: new EventTarget(), now: () => now });
    await courier.send(entry());
    assert.deepEqual(storedMarks(marks, "any"), { fieldDevice: false, outboxWaiting: true });
    now += 10_000;
    timers.fire();
    await until(() => marks.getItem(OUTBOX_WAITING_KEY) === null);
    assert.deepEqual(storedMarks(marks, "any"), { fieldDevice: false, outboxWaiting: false });
  });

  it("sends what waits when the page loads and when the browser comes back online", async () => {
    const { fetch, requests } = server([null]);
    const events = new EventTarget();
    const store = memoryStore([entry("c".repeat(32)), { ...entry("d".repeat(32)), nextTry: 10 ** 13 }]);
    const courier = createCourier({ store, fetch, timers: fakeTimers(), events, now: () => 0 });
    await courier.start();
    assert.equal(requests.length, 2, "on load, every waiting response, due or not");
    events.dispatchEvent(new Event("online"));
    await until(() => requests.length === 4);
    assert.deepEqual((await courier.status()).waiting, 2);
  });

  it("drops a refusal the respondent saw at once when asked to, and keeps it otherwise", async () => {
    const store = memoryStore();
    const courier = createCourier({ store, fetch: server([409]).fetch, timers: fakeTimers(), events: new EventTarget() });
    const first = await courier.send(entry("e".repeat(32)), { keepRefused: false });
    assert.equal(first.sent.reply.error, "refused 409");
    assert.equal(store.items.size, 0);
    await courier.send(entry("f".repeat(32)));
    assert.equal((await courier.entry("f".repeat(32))).state, "refused");
  });

  it("sends at once and says nothing was kept where the outbox cannot be written", async () => {
    const broken = { all: async () => [], put: async () => { throw new Error("blocked"); }, remove: async () => {} };
    const courier = createCourier({ store: broken, fetch: server([null]).fetch, timers: fakeTimers(), events: new EventTarget() });
    const { kept, sent } = await courier.send(entry());
    assert.deepEqual([kept, sent.verdict], [false, "retry"]);
  });
});
