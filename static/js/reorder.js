/**
 * Reordering a survey's questions by dragging their rows. The arrow buttons in each row do the
 * same without a mouse (and without this script); after either, the page comes back with focus
 * on the control that was used.
 * @module reorder
 */

/**
 * The ids in their new order once `dragged` is dropped before or after `target`.
 * @param {string[]} keys
 * @param {string} dragged
 * @param {string} target
 * @param {boolean} after Whether it lands below the target.
 * @returns {string[]}
 */
export function reorderedKeys(keys, dragged, target, after) {
  if (dragged === target) return [...keys];
  const rest = keys.filter((key) => key !== dragged);
  const index = rest.indexOf(target) + (after ? 1 : 0);
  return [...rest.slice(0, index), dragged, ...rest.slice(index)];
}

/**
 * Make the rows of `table` draggable; a drop submits the new order through `form`.
 * @param {HTMLTableElement} table
 * @param {HTMLFormElement} form
 */
export function enableDragging(table, form) {
  const rows = () => [...table.tBodies[0].rows];
  const keys = () => rows().map((row) => row.dataset.question);
  let dragged = null;
  const clearMarks = () => rows().forEach((row) => row.classList.remove("drop-before", "drop-after"));
  const below = (row, event) => {
    const box = row.getBoundingClientRect();
    return event.clientY > box.top + box.height / 2;
  };
  for (const row of rows()) {
    row.draggable = true;
    row.addEventListener("dragstart", (event) => {
      dragged = row.dataset.question;
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", dragged);
      row.classList.add("dragging");
    });
    row.addEventListener("dragend", () => {
      row.classList.remove("dragging");
      clearMarks();
    });
    row.addEventListener("dragover", (event) => {
      if (dragged === null) return;
      event.preventDefault();
      clearMarks();
      row.classList.add(below(row, event) ? "drop-after" : "drop-before");
    });
    row.addEventListener("drop", (event) => {
      event.preventDefault();
      if (dragged === null) return;
      const order = reorderedKeys(keys(), dragged, row.dataset.question, below(row, event));
      dragged = null;
      clearMarks();
      if (order.join(",") === keys().join(",")) return;
      form.elements.namedItem("order").value = order.join(",");
      form.submit();
    });
  }
}

function start() {
  const table = document.getElementById("question-table");
  const form = document.getElementById("order-form");
  if (table && form && table.tBodies[0].rows.length > 1) enableDragging(table, form);
  // Back from a move: the keyboard stays on the arrow that was pressed.
  const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (target instanceof HTMLElement) target.focus();
}

if (globalThis.document?.getElementById("question-table")) start();
