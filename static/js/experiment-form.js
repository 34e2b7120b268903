/**
 * The builder's split-ballot form: each condition's cells named after the id typed for it and
 * shown only where a condition is declared; a question's cells shown only where it is asked its
 * own way in each condition. Without this script every cell shows, numbered.
 * @module experiment-form
 */

/** Show the cells that a declared condition and a question's mode call for. */
export function refresh(form) {
  const named = new Map([...form.querySelectorAll("[data-condition-place]")].map((input) => [input.dataset.conditionPlace, input.value.trim()]));
  for (const label of form.querySelectorAll("[data-condition-name]")) {
    const name = named.get(label.dataset.conditionName) ?? "";
    label.textContent = name ? `(${name})` : "";
  }
  for (const cell of form.querySelectorAll(".asking-cell")) cell.hidden = !named.get(cell.dataset.place);
  for (const asking of form.querySelectorAll("fieldset.asking")) {
    const each = asking.querySelector("input[value='each']").checked;
    asking.querySelector("[data-mode-cells]").hidden = !each;
  }
}

const form = document.getElementById("experiment-form");
if (form) {
  form.addEventListener("input", () => refresh(form));
  form.addEventListener("change", () => refresh(form));
  refresh(form);
}
