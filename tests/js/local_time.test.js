import assert from "node:assert/strict";
import { test } from "node:test";

import { localTime } from "../../static/js/local-time.js";

test("an instant is written in the zone asked for, in the page's language", () => {
  const seoul = localTime("2026-12-01T09:00:00Z", "en", "Asia/Seoul");
  assert.match(seoul, /December 1, 2026/);
  assert.match(seoul, /6:00\s?PM/);
  const korean = localTime("2026-12-01T09:00:00Z", "ko", "Asia/Seoul");
  assert.match(korean, /2026년 12월 1일/);
  assert.match(korean, /6:00/);
  assert.match(localTime("2026-12-01T09:00:00Z", "en", "UTC"), /9:00\s?AM/);
});

test("something that is not an instant is left alone", () => {
  assert.equal(localTime("soon", "en", "UTC"), null);
});
