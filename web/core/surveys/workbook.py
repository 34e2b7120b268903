"""Reading an uploaded workbook within fixed bounds: no file makes the import hang or fill memory.

An ``.xlsx`` file is a zip of XML. Before openpyxl opens it, its entries are checked: a file that
is not a zip, or whose parts would unpack to more than ``MAX_UNPACKED`` bytes (a zip bomb), is
refused at once. A legacy ``.xls`` file (OLE2) is recognised and refused with what to do. Sheets
are read in openpyxl's read-only mode with their declared size ignored (a stray cell at XFD1048576
declares sixteen thousand columns and a million rows), so only cells that hold values are read;
a sheet stops at the first ``EMPTY_RUN`` empty rows in a row, and a sheet with more than
``MAX_ROWS`` rows or a value beyond column ``MAX_COLUMNS`` is refused, the cap named. Library
warnings (unsupported extensions, styles) are not the respondent's or researcher's business and
are not printed.
"""

from __future__ import annotations

import io
import warnings
import zipfile
from typing import Any

from flask_babel import gettext as _

from web.core.surveys.problems import SurveyFileError

XLSX_MAGIC = b"PK\x03\x04"
XLS_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # OLE2: Excel 97-2003
MAX_UNPACKED = 50 * 1024 * 1024  # bytes of XML; a large real form is well under 1 MB
MAX_ROWS = 2000  # per sheet: 100 questions of up to 30 options fit ten times over
MAX_COLUMNS = 200
EMPTY_RUN = 500  # empty rows in a row that end a sheet

Row = tuple[int, tuple[Any, ...]]


def is_legacy_excel(raw: bytes) -> bool:
    return raw.startswith(XLS_MAGIC)


def open_workbook(raw: bytes):
    """The workbook in read-only mode, or a SurveyFileError saying why it cannot be read."""
    if is_legacy_excel(raw):
        raise SurveyFileError(
            [
                _(
                    "file: this is an Excel 97-2003 workbook (.xls); open it in a spreadsheet "
                    "and save it as an Excel Workbook (.xlsx), then import that file"
                )
            ]
        )
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            unpacked = sum(entry.file_size for entry in archive.infolist())
    except (zipfile.BadZipFile, ValueError, OSError):
        raise SurveyFileError([_("file: not an XLSForm workbook (.xlsx)")]) from None
    if unpacked > MAX_UNPACKED:
        raise SurveyFileError(
            [
                _(
                    "file: the workbook unpacks to more than %(megabytes)d MB; an XLSForm is far "
                    "smaller",
                    megabytes=MAX_UNPACKED // (1024 * 1024),
                )
            ]
        )
    # Here: openpyxl is a twelfth of the app's import time, and only a workbook needs it.
    from openpyxl import load_workbook
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, ValueError, OSError, TypeError):
        raise SurveyFileError([_("file: not an XLSForm workbook (.xlsx)")]) from None


def sheet_rows(sheet, name: str) -> list[Row]:
    """The sheet's rows that hold a value, as (row number, values), within the bounds above;
    a SurveyFileError naming the cap it passes."""
    sheet.reset_dimensions()  # read the cells there are, not the size the file declares
    rows: list[Row] = []
    empty = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for number, values in enumerate(sheet.iter_rows(values_only=True), start=1):
            if not any(value not in (None, "") for value in values):
                empty += 1
                if empty >= EMPTY_RUN:
                    break
                continue
            empty = 0
            if number > MAX_ROWS:
                raise SurveyFileError(
                    [_("%(sheet)s: more than %(rows)d rows", sheet=name, rows=MAX_ROWS)]
                )
            if any(value not in (None, "") for value in values[MAX_COLUMNS:]):
                raise SurveyFileError(
                    [
                        _(
                            "%(sheet)s row %(row)d: a value beyond column %(column)s; an XLSForm "
                            "has at most %(columns)d columns",
                            sheet=name,
                            row=number,
                            column=_column_letter(MAX_COLUMNS),
                            columns=MAX_COLUMNS,
                        )
                    ]
                )
            rows.append((number, tuple(values[:MAX_COLUMNS])))
    return rows


def _column_letter(number: int) -> str:
    from openpyxl.utils import get_column_letter  # here: as in open_workbook

    return get_column_letter(number)
