// Prints what the browser computes for each design (its report probabilities, ε, and the reports
// of seeded draws of its wheel), for tests/test_js_reference.py to compare with rr.design.
import { designFigures, drawDesign } from "../../static/js/procedure.js";
import { seeded } from "./seeded.js";

const cases = JSON.parse(process.argv[2]);
const n = Number(process.argv[3]);
const rows = cases.map(([procedure, parameters], index) => {
  const figures = designFigures(procedure, parameters);
  const random = seeded(1000 + index);
  // For each true answer (and innocuous answer), how many draws report 1.
  const reports = {};
  if (figures.sectors.length) {
    for (const truth of [0, 1]) {
      for (const innocuous of [0, 1]) {
        let yes = 0;
        for (let i = 0; i < n; i += 1) yes += drawDesign(truth, figures.sectors, innocuous, random).reported;
        reports[`${truth}${innocuous}`] = yes;
      }
    }
  }
  return { procedure, parameters, ...figures, reports };
});
process.stdout.write(JSON.stringify(rows));
