/**
 * The builder's split-ballot planner: how many respondents each condition needs for the one-sided
 * test that this question's design finds a given lift more than asking directly, and the power at
 * the planned n per condition (`GET /api/plan/experiment`, where the formulas live).
 * @module experiment-plan
 */

/**
 * @typedef {object} PlannerOptions
 * @property {string} url The planner's address.
 * @property {Record<string, string>} messages experimentN, experimentPower, experimentNone.
 * @property {(template: string, values: Record<string, unknown>) => string} fill
 */

/**
 * A planner bound to its panel (a `<details>` with #experiment-baseline, #experiment-lift,
 * #experiment-n and #experiment-power).
 * @param {HTMLDetailsElement} panel
 * @param {PlannerOptions} options
 * @returns {(designQuery: URLSearchParams | null, n: number) => void} Shows the plan of a design
 *   (null hides the panel: a question the planner does not fit).
 */
export function createExperimentPlanner(panel, { url, messages, fill }) {
  const find = (id) => panel.querySelector(`#${id}`);
  let latest = 0;
  return (designQuery, n) => {
    panel.hidden = designQuery === null;
    if (designQuery === null || !panel.open) return;
    const baseline = Number.parseFloat(find("experiment-baseline").value);
    const lift = Number.parseFloat(find("experiment-lift").value);
    const request = ++latest;
    find("experiment-power").textContent = "";
    if (!(baseline >= 0 && lift > 0 && baseline + lift <= 100)) {
      find("experiment-n").textContent = messages.experimentNone;
      return;
    }
    const query = new URLSearchParams(designQuery);
    query.delete("n");
    query.set("baseline", String(baseline / 100));
    query.set("lift", String(lift / 100));
    if (n >= 1) query.set("n", String(n));
    fetch(`${url}?${query}`, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : null))
      .then((plan) => {
        if (request !== latest) return;
        find("experiment-n").textContent = plan ? fill(messages.experimentN, { n: plan.n_per_condition, lift, baseline }) : "";
        if (plan && plan.power !== null) {
          find("experiment-power").textContent = fill(messages.experimentPower, { n: plan.n, power: (plan.power * 100).toFixed(1) });
        }
      })
      .catch(() => {});
  };
}
