"""Text that a spreadsheet would take for a formula, made inert in every export.

A cell whose text begins with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return, which
some spreadsheets skip before looking) can be evaluated when the file is opened: a survey text
from a template found on the internet is enough to plant ``=HYPERLINK("https://…?"&A1, …)`` (OWASP:
CSV injection). So every export writes such a text inertly, as OWASP recommends:

- in CSV, with a leading apostrophe, which spreadsheets read as "this is text" and do not show;
- in XLSX, as an explicit string cell with the quote-prefix style, which keeps the text exactly
  (so the app's import of its own export gives back the original).

Numbers stay numbers: an estimate of −0.05 is written as the number it is, never as text.
"""

from __future__ import annotations

from collections.abc import Iterable

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def looks_like_formula(text: str) -> bool:
    """Whether a spreadsheet could evaluate this text as a formula."""
    return text.startswith(TRIGGERS)


def csv_value(value: object) -> object:
    """A CSV field: a text that looks like a formula gets a leading apostrophe; anything else
    (numbers included) is written as it is."""
    if isinstance(value, str) and looks_like_formula(value):
        return "'" + value
    return value


def csv_row(values: Iterable[object]) -> list[object]:
    """A CSV row with every text field made inert (:func:`csv_value`)."""
    return [csv_value(value) for value in values]


def set_cell(cell, value: object) -> None:
    """Write ``value`` into an openpyxl cell: a text always as a string (never a formula), with
    the quote-prefix style when it looks like one; numbers and empty cells as they are."""
    cell.value = value
    if isinstance(value, str):
        cell.data_type = "s"
        if looks_like_formula(value):
            cell.quotePrefix = True


def append_row(sheet, values: Iterable[object]) -> None:
    """``sheet.append(values)`` with every text written by :func:`set_cell`'s rule."""
    sheet.append(list(values))
    for cell in sheet[sheet.max_row]:
        if isinstance(cell.value, str):
            set_cell(cell, cell.value)
