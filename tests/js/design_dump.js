// Draws each wheel the server describes (a design's sectors, from its module) many times with a
// seeded source and prints how many draws report 1 for each true answer and innocuous answer,
// for tests/test_js_reference.py to compare with rr.design.
import { drawDesign } from "../../static/js/procedure.js";
import { seeded } from "./seeded.js";

const wheels = JSON.parse(process.argv[2]);
const n = Number(process.argv[3]);
const rows = wheels.map((sectors, index) => {
  const random = seeded(1000 + index);
  const reports = {};
  for (const truth of [0, 1]) {
    for (const innocuous of [0, 1]) {
      let yes = 0;
      for (let i = 0; i < n; i += 1) yes += drawDesign(truth, sectors, innocuous, random).reported;
      reports[`${truth}${innocuous}`] = yes;
    }
  }
  return { sectors, reports };
});
process.stdout.write(JSON.stringify(rows));
