"""XLSForm's ``table-list`` groups as grids: ``begin group`` with appearance ``table-list`` (its
name the grid's id, its label the grid's text, its ``relevant`` the grid's ``show_if``), then one
``select_one`` row per grid row, all on the same list (its name ``<grid>_<row>``, as the
responses export names the row's column, or the row's id alone), up to ``end group``. The grid
is required where every row is. Nothing here touches the database."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from web.core.surveys.designs import ASKED_PLAINLY
from web.core.surveys.questions import QUESTION_TYPES
from web.core.surveys.xlsform.columns import SELECT_TYPE, row_type

TABLE_LIST = "table-list"
GRID_KIND = next(kind.name for kind in QUESTION_TYPES.values() if kind.has_rows)


def row_key(grid: str, name: str) -> str:
    """A grid row's id from its XLSForm name: ``<grid>_<row>``, or the row's id alone."""
    prefix = f"{grid}_"
    return name[len(prefix) :] if name.startswith(prefix) and len(name) > len(prefix) else name


def begins_grid(cells: dict) -> bool:
    """Whether a survey row begins a grid (a ``table-list`` group)."""
    return (
        row_type(cells) == "begin group" and str(cells.get("appearance", "")).strip() == TABLE_LIST
    )


def grid_row_names(survey_rows) -> dict[str, str]:
    """Each grid row's XLSForm name, with the name a display rule gives it (``<grid>.<row>``):
    what a ``relevant`` reads as ``${<grid>_<row>}``."""
    names: dict[str, str] = {}
    grid = None
    for _number, cells in survey_rows:
        if grid is None and begins_grid(cells):
            grid = str(cells.get("name", ""))
        elif grid is not None and row_type(cells) == "end group":
            grid = None
        elif grid is not None and cells.get("name") is not None:
            names[str(cells["name"])] = f"{grid}.{row_key(grid, str(cells['name']))}"
    return names


class GridRows:
    """A grid gathered row by row while its group is open (``open``)."""

    def __init__(self, text, rule_from_relevant) -> None:
        # How a row's texts and a relevant are read (the reader's own, so both read alike).
        self.text, self.rule_from_relevant = text, rule_from_relevant
        self.open: dict[str, Any] | None = None
        self.list_name: str | None = None
        self.required: list[bool] = []
        self.cells: dict = {}
        self.number = 0

    def begin(self, number: int, cells: dict, yes_no: set[str]) -> list[str]:
        """A grid's ``begin group`` row; the mistakes in it."""
        self.open = {"id": cells.get("name"), "type": GRID_KIND, "text": self.text(cells, "label"),
                     "rows": []}  # fmt: skip
        self.list_name, self.required, self.cells, self.number = None, [], cells, number
        hint = self.text(cells, "hint")
        if hint:
            self.open["hint"] = hint
        if cells.get("relevant") is not None:
            try:
                self.open["show_if"] = self.rule_from_relevant(cells["relevant"], yes_no)
            except ValueError as error:
                return [_("survey row %(row)d, column relevant: %(reason)s", row=number,
                          reason=str(error))]  # fmt: skip
        return []

    def row(self, number: int, cells: dict, choices: dict) -> list[str]:
        """One row of the open grid: a ``select_one`` on the grid's list."""
        assert self.open is not None, "a grid is open"
        if row_type(cells) == "begin group":
            return [_("survey row %(row)d: a group inside a grid (table-list) is not supported",
                      row=number)]  # fmt: skip
        select = SELECT_TYPE.match(" ".join(str(cells.get("type", "")).split()))
        if not select or select["kind"] != "one":
            return [_("survey row %(row)d: a grid's (table-list) rows are select_one rows",
                      row=number)]  # fmt: skip
        if cells.get("rr_procedure") not in (None, ASKED_PLAINLY.name):
            return [_("survey row %(row)d: a grid's rows are asked directly (rr_procedure "
                      "direct, or none)", row=number)]  # fmt: skip
        if select["list"] not in choices:
            return [_("survey row %(row)d: no list %(list)r in the choices sheet", row=number,
                      list=select["list"])]  # fmt: skip
        if self.list_name not in (None, select["list"]):
            return [_("survey row %(row)d: every row of a grid uses the same list (%(list)s)",
                      row=number, list=self.list_name)]  # fmt: skip
        self.list_name = select["list"]
        self.open["options"] = choices[select["list"]]
        key = row_key(str(self.open["id"]), str(cells.get("name", "")))
        self.open["rows"].append({"id": key, "text": self.text(cells, "label")})
        self.required.append(str(cells.get("required", "")).strip().lower() in ("yes", "true",
                                                                                 "true()"))  # fmt: skip
        return []

    def end(self) -> dict:
        """The grid as a survey file's question, its group closed."""
        assert self.open is not None, "a grid is open"
        grid = self.open
        if self.required and all(self.required):
            grid["required"] = True
        self.open = None
        return grid


def grid_rows(question, column_texts, relevant: str | None) -> list[dict]:
    """A grid (a stored question or a spec with ``design.rows``) as XLSForm rows: its
    ``table-list`` group, a ``select_one`` row per grid row on the list named after the grid,
    and ``end group``. ``column_texts`` writes a text into its label columns."""
    begin: dict[str, Any] = {"type": "begin group", "name": question.key,
                             "appearance": TABLE_LIST, **column_texts("label", question.text)}  # fmt: skip
    if relevant:
        begin["relevant"] = relevant
    if any((question.hint or {}).values()):
        begin |= column_texts("hint", question.hint)
    rows = [begin]
    for row in question.design.rows or ():
        cells = {"type": f"select_one {question.key}", "name": f"{question.key}_{row.key}",
                 "rr_procedure": ASKED_PLAINLY.name, **column_texts("label", row.text)}  # fmt: skip
        if question.required:
            cells["required"] = "yes"
        rows.append(cells)
    rows.append({"type": "end group"})
    return rows
