// Prints what the browser's single-choice draw computes, for tests/test_js_reference.py to compare
// with rr.choice: the light share and how often each option is reported when the truth is option 0.
import { choiceLightFraction, drawChoice } from "../../static/js/procedure.js";
import { seeded } from "./seeded.js";

const cases = JSON.parse(process.argv[2]);
const n = Number(process.argv[3]);
const rows = [];
for (const [epsilon, k] of cases) {
  for (const [procedure, dark] of [["spinner", "opposite"], ["spinner_coin", "coin"]]) {
    const q = choiceLightFraction(epsilon, k, dark);
    const random = seeded(Math.round(epsilon * 1000) + 31 * k + procedure.length);
    const reports = new Array(k).fill(0);
    let dieOnDark = true;
    for (let i = 0; i < n; i += 1) {
      const result = drawChoice(0, k, dark, q, random);
      reports[result.reported] += 1;
      if (!result.light) {
        const sector = Math.floor(result.diePosition * k);
        dieOnDark &&= sector === result.die && result.die === result.reported;
      }
    }
    rows.push({ epsilon, k, procedure, q, reports, dieOnDark });
  }
}
process.stdout.write(JSON.stringify(rows));
