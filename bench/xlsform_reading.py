"""How long the XLSForm import takes to answer hostile workbooks (issue: under two seconds each).

A stray cell at XFD1048576 (a sheet that declares 16,384 columns by 1,048,576 rows), a survey
sheet of 10,000 rows, a file that starts like a zip and is none, and a zip bomb whose one sheet
unpacks to 60 MB. Each is imported five times; the slowest wall time and its answer are printed.

    python bench/xlsform_reading.py
"""

from __future__ import annotations

import io
import sys
import time
import zipfile
from pathlib import Path

import openpyxl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from web.core.surveys.problems import SurveyFileError  # noqa: E402
from web.core.surveys.xlsform.read import load_any_survey  # noqa: E402


def survey_sheet(rows: int, stray: bool) -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "survey"
    sheet.append(["type", "name", "label", "rr_procedure", "rr_epsilon"])
    for index in range(rows):
        sheet.append(["select_one yes_no", f"q{index}", "Q?", "spinner", 1])
    if stray:
        sheet["XFD1048576"] = "x"
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def zip_bomb() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"<" + b" " * (60 * 1024 * 1024))
    return buffer.getvalue()


def main() -> None:
    cases = {
        "far stray cell (XFD1048576)": survey_sheet(1, stray=True),
        "10,000 rows": survey_sheet(10_000, stray=False),
        "not a zip": b"PK\x03\x04 not a workbook" + b"x" * 10_000,
        "zip bomb (60 MB sheet)": zip_bomb(),
    }
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "bench"})
    print("case | bytes | slowest of 5 (s) | answer")
    print("---|---|---|---")
    with app.test_request_context():
        for name, raw in cases.items():
            times = []
            for _ in range(5):
                started = time.perf_counter()
                try:
                    spec = load_any_survey("form.xlsx", raw)
                    answer = f"read: {len(spec.questions)} question(s)"
                except SurveyFileError as error:
                    answer = "refused: " + "; ".join(error.problems)
                times.append(time.perf_counter() - started)
            print(f"{name} | {len(raw):,} | {max(times):.3f} | {answer}")


if __name__ == "__main__":
    main()
