// Prints what the browser's procedure computes, for tests/test_js_reference.py to compare with rr.
import { draw, lightFraction } from "../../static/js/procedure.js";
import { seeded } from "./seeded.js";

const epsilons = JSON.parse(process.argv[2]);
const n = Number(process.argv[3]);
const rows = [];
for (const epsilon of epsilons) {
  for (const [procedure, dark] of [["spinner", "opposite"], ["spinner_coin", "coin"]]) {
    const p = lightFraction(epsilon, dark);
    const random = seeded(Math.round(epsilon * 1000) + procedure.length);
    let yesGivenYes = 0;
    let yesGivenNo = 0;
    for (let i = 0; i < n; i += 1) {
      yesGivenYes += draw(1, dark, p, random).reported;
      yesGivenNo += draw(0, dark, p, random).reported;
    }
    rows.push({ epsilon, procedure, p, yesGivenYes, yesGivenNo });
  }
}
process.stdout.write(JSON.stringify(rows));
