// Prints how often the browser's number draw reports 1 for each (ε, procedure, min, max, value),
// for tests/test_js_reference.py to compare with rr.BoundedMean's report probability.
import { drawNumber, lightFraction, valueShare } from "../../static/js/procedure.js";
import { seeded } from "./seeded.js";

const cases = JSON.parse(process.argv[2]);
const n = Number(process.argv[3]);
const rows = [];
for (const [epsilon, min, max, value] of cases) {
  for (const [procedure, dark] of [["spinner", "opposite"], ["spinner_coin", "coin"]]) {
    const light = lightFraction(epsilon, dark);
    const share = valueShare(value, { min, max });
    const random = seeded(Math.round(epsilon * 1000) + 7 * value + procedure.length);
    let ones = 0;
    for (let i = 0; i < n; i += 1) ones += drawNumber(share, dark, light, random).reported;
    rows.push({ epsilon, min, max, value, procedure, share, ones });
  }
}
process.stdout.write(JSON.stringify(rows));
