/**
 * The builder's split-ballot form: each condition's cells named after the id typed for it and
 * shown only where a condition is declared; a question's cells shown only where it is asked its
 * own way in each condition; ε only for a spinner; one empty condition row to add one. Without
 * this script every row and cell shows, numbered.
 * @module experiment-form
 */

/** Show the cells that a declared condition and a question's mode call for. */
export function refresh(form) {
  const named = new Map([...form.querySelectorAll("[data-condition-place]")].map((input) => [input.dataset.conditionPlace, input.value.trim()]));
  // Two rows at least, and one empty row after the last condition typed: room to add one.
  const last = Math.max(0, ...[...named].filter(([, name]) => name).map(([place]) => Number(place)));
  for (const input of form.querySelectorAll("[data-condition-place]")) {
    input.closest(".condition-row").hidden = Number(input.dataset.conditionPlace) > Math.max(2, last + 1);
  }
  for (const label of form.querySelectorAll("[data-condition-name]")) {
    const name = named.get(label.dataset.conditionName) ?? "";
    label.textContent = name ? `(${name})` : "";
  }
  for (const cell of form.querySelectorAll(".asking-cell")) {
    cell.hidden = !named.get(cell.dataset.place);
    // ε is a spinner's to state; a design's comes from its own shares, and "not asked" has none.
    cell.querySelector("[data-epsilon-field]").hidden = !cell.querySelector("select").selectedOptions[0]?.hasAttribute("data-epsilon");
  }
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
