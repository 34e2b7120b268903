"""XLSForm with the real tooling: the export converts with pyxform (the converter behind ODK and
KoboToolbox) for every question type and design, in one language and in two; forms written as
xlsform.org documents them import, or are refused with every unsupported row and column named;
hostile workbooks are answered at once; no exported cell is a formula."""

from __future__ import annotations

import copy
import io
import re
import zipfile

import openpyxl
import pytest
from pyxform.xls2xform import convert

from tests.conftest import no_database
from web.core.surveys.problems import SurveyFileError
from web.core.surveys.surveyfile import parse_survey
from web.core.surveys.workbook import MAX_ROWS
from web.core.surveys.xlsform.read import load_any_survey, load_xlsform
from web.core.surveys.xlsform.write import survey_xlsform


def both(en: str, ko: str) -> dict:
    return {"en": en, "ko": ko}


def options(*keys: str) -> list[dict]:
    return [{"id": key, "text": both(key.title(), f"{key} (ko)")} for key in keys]


EVERYTHING = {
    "slug": "everything",
    "title": both("Everything", "모든 것"),
    "languages": ["en", "ko"],
    "description": both("=1+1 is not a formula here", "설명"),
    "questions": [
        {"id": "year", "type": "direct", "text": both("Year?", "학년?"),
         "options": options("first", "second")},
        {"id": "sc", "type": "yesno", "text": both("-Cheated?", "부정행위?"), "epsilon": 1.0,
         "procedure": "spinner_coin", "required": True,
         "hint": both("=Any exam this year", "올해 치른 시험 모두")},
        {"id": "sp", "type": "yesno", "text": both("@Skipped?", "결석?"), "epsilon": 1.5,
         "procedure": "spinner"},
        {"id": "fr", "type": "yesno", "text": both("Copied?", "베꼈나요?"),
         "procedure": "forced_response", "p_truth": 0.75, "p_forced_yes": 0.15,
         "p_forced_no": 0.1},
        {"id": "own", "type": "yesno", "text": both("Lied?", "거짓말?"),
         "procedure": "forced_response", "p_truth": 4 / 6, "p_forced_yes": 1 / 6,
         "p_forced_no": 1 / 6, "randomizer": "own"},
        {"id": "uq", "type": "yesno", "text": both("Drugs?", "약물?"),
         "procedure": "unrelated_question", "p_truth": 0.7,
         "innocuous": {"text": both("Born in spring?", "봄에 태어났나요?"), "prevalence": 0.25}},
        {"id": "cw", "type": "yesno", "text": both("Cheated on a partner?", "바람?"),
         "procedure": "crosswise",
         "innocuous": {"text": both("Mother born in spring?", "어머니가 봄에?"),
                       "prevalence": 0.25}},
        {"id": "cd", "type": "yesno", "text": both("Plagiarised?", "표절?"),
         "procedure": "cheating_detection",
         "arms": [{"p_truth": 0.6, "p_forced_yes": 0.3, "p_forced_no": 0.1},
                  {"p_truth": 0.6, "p_forced_yes": 0.1, "p_forced_no": 0.3}]},
        {"id": "multi", "type": "multi", "text": both("Used?", "사용?"), "epsilon": 1.0,
         "procedure": "spinner", "options": options("alcohol", "tobacco")},
        {"id": "choice", "type": "choice", "text": both("How often?", "얼마나?"), "epsilon": 1.0,
         "procedure": "spinner_coin", "options": options("never", "once", "often")},
        {"id": "nights", "type": "number", "text": both("+How many nights?", "며칠?"),
         "epsilon": 1.0, "procedure": "spinner", "min": 0, "max": 20, "step": 1,
         "unit": both("nights", "밤")},
        {"id": "comment", "type": "text", "text": both("=Anything else?", "더 하실 말씀?"),
         "max_length": 300},
        {"id": "age", "type": "number", "procedure": "direct", "text": both("Age?", "나이?"),
         "min": 16, "max": 99, "step": 1, "unit": both("years", "세")},
        {"id": "done", "type": "list", "text": both("How many of these?", "몇 가지?"),
         "controls": [{"id": "voted", "text": both("Voted", "투표")},
                      {"id": "ran", "text": both("Ran", "달리기")}],
         "sensitive": {"text": both("Cheated on taxes", "탈세")}},
        {"id": "exam", "type": "yesno", "text": both("Cheated on an exam", "시험 부정"),
         "procedure": "list",
         "controls": [{"id": "read", "text": both("Read", "독서")},
                      {"id": "abroad", "text": both("Abroad", "해외")},
                      {"id": "swam", "text": both("Swam", "수영")}]},
        {"id": "views", "type": "grid", "text": both("How far do you agree?", "얼마나 동의?"),
         "hint": both("One answer per row", "줄마다 하나씩"),
         "rows": [{"id": "fair", "text": both("-Fair", "공정")},
                  {"id": "clear", "text": both("Clear", "명확")}],
         "options": options("disagree", "agree")},
    ],
}  # fmt: skip


def one_language(data: dict) -> dict:
    """The same survey in English alone."""

    def english(value):
        if isinstance(value, dict) and set(value) == {"en", "ko"}:
            return value["en"]
        if isinstance(value, dict):
            return {key: english(item) for key, item in value.items()}
        if isinstance(value, list):
            return [english(item) for item in value]
        return value

    plain = english(copy.deepcopy(data))
    del plain["languages"]
    return plain


def workbook(sheets: dict[str, list[list]]) -> bytes:
    book = openpyxl.Workbook()
    book.remove(book.worksheets[0])
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def cells(raw: bytes) -> dict[str, list[tuple]]:
    book = openpyxl.load_workbook(io.BytesIO(raw))
    return {sheet.title: list(sheet.iter_rows(values_only=True)) for sheet in book.worksheets}


def refusal(raw: bytes, filename: str = "form.xlsx") -> list[str]:
    with pytest.raises(SurveyFileError) as refused:
        load_any_survey(filename, raw)
    return refused.value.problems


@pytest.mark.parametrize("languages", ["two", "one"])
@no_database
def test_pyxform_converts_every_type_and_design_and_the_round_trip_is_exact(app, languages):
    data = EVERYTHING if languages == "two" else one_language(EVERYTHING)
    with app.test_request_context():
        spec = parse_survey(data)
        exported = survey_xlsform(spec)
        again = load_xlsform(exported)
        assert again == spec
        assert cells(survey_xlsform(again)) == cells(exported)
    xform = convert(xlsform=io.BytesIO(exported), file_type=".xlsx", validate=False).xform
    for question in data["questions"]:
        assert f"/data/{question['id']}" in xform
    assert "How many nights?" in xform and "Fourth" not in xform
    # A question's help, and a grid's on its group, are XLSForm's hint.
    assert "Any exam this year" in xform and "One answer per row" in xform
    if languages == "two":
        assert 'lang="English (en)"' in xform and "한국어 (ko)" in xform
        assert "며칠?" in xform and "모든 것" not in xform  # the title is the default's
    assert "rr_" not in xform  # the app's own columns are left out of the form
    # XLSForm's own required: the one required question is, every other may be skipped.
    assert re.findall(r'<bind [^>]*nodeset="/data/(\w+)"[^>]*required="true\(\)"', xform) == ["sc"]


@no_database
def test_the_export_writes_no_formula_and_reads_back_every_text_exactly(app):
    with app.test_request_context():
        spec = parse_survey(EVERYTHING)
        exported = survey_xlsform(spec)
        assert load_xlsform(exported) == spec
    book = openpyxl.load_workbook(io.BytesIO(exported))
    texts = [cell for sheet in book.worksheets for row in sheet.iter_rows() for cell in row]
    risky = [cell for cell in texts if isinstance(cell.value, str) and cell.value[:1] in "=+-@"]
    assert {cell.value for cell in risky} >= {
        "=1+1 is not a formula here",
        "-Cheated?",
        "=Any exam this year",
    }
    assert all(cell.data_type == "s" and cell.quotePrefix for cell in risky)
    with zipfile.ZipFile(io.BytesIO(exported)) as archive:
        sheets = [name for name in archive.namelist() if name.startswith("xl/worksheets/")]
        assert not any(b"<f>" in archive.read(name) for name in sheets)


SPEC_FORM = {
    "survey": [
        ["type", "name", "label::English (en)", "label::Korean (ko)", "rr_procedure",
         "rr_epsilon"],
        ["select one yes_no", "cheated", "Cheated?", "부정행위?", "spinner_coin", 1],
        ["select one from freq", "often", "How often?", "얼마나?", "spinner", 1],
        ["select_multiple substances", "used", "Used?", "사용?", "spinner", 1],
        ["select all that apply from substances", "tried", "Tried?", "해봄?", "spinner", 1],
        ["select_one freq", "asked", "Asked?", "질문?", "direct", None],
    ],
    "choices": [
        ["list name", "name", "label::English (en)", "label::Korean (ko)"],
        ["yes_no", "1", "Yes", "예"],
        ["yes_no", "0", "No", "아니요"],
        ["freq", "never", "Never", "전혀"],
        ["freq", "often", "Often", "자주"],
        ["substances", "alcohol", "Alcohol", "술"],
        ["substances", "tobacco", "Tobacco", "담배"],
    ],
}  # fmt: skip


@no_database
def test_forms_as_the_spec_spells_them_import(app):
    with_settings = dict(
        SPEC_FORM, settings=[["form_title", "form_id", "default_language"],
                             ["Habits", "habits", "English (en)"]],
    )  # fmt: skip
    with app.test_request_context():
        spec = load_any_survey("habits.xlsx", workbook(with_settings))
        assert spec.slug == "habits" and list(spec.languages) == ["en", "ko"]
        assert dict(spec.title.items()) == {"en": "Habits", "ko": "Habits"}  # one plain title
        assert [question.kind for question in spec.questions] == [
            "yesno", "choice", "multi", "multi", "direct",
        ]  # fmt: skip
        # Without a settings sheet, the slug and title come from the file's name.
        named = load_any_survey("Campus Habits 2026.xlsx", workbook(SPEC_FORM))
        assert named.slug == "campus-habits-2026"
        assert dict(named.title.items()) == {
            "en": "Campus Habits 2026",
            "ko": "Campus Habits 2026",
        }


@no_database
def test_typed_numbers_are_numbers_asked_directly_with_their_bounds(app):
    form = copy.deepcopy(SPEC_FORM)
    form["survey"][0] += ["constraint", "parameters"]
    form["survey"] += [
        ["integer", "age", "Age?", "나이?", "direct", None, ". >= 16 and . <= 99", None],
        ["decimal", "sleep", "Sleep?", "수면?", "direct", None, ".>=0 and .<=12", "step=0.5"],
        ["integer", "spun", "Spun?", "돌림?", "spinner", 1, ". >= 0 and . <= 9", None],
        ["decimal", "loose", "Loose?", "느슨?", "direct", None, ". >= 0 and . <= 1", None],
        ["integer", "open", "Open?", "열린?", "direct", None, ". > 3", None],
    ]
    with app.test_request_context():
        problems = refusal(workbook(form))
        assert problems == [
            "survey row 9: an integer row is a number asked directly (rr_procedure direct); a "
            "randomized number is a range row",
            "survey row 10: a number asked directly needs its bounds as the constraint . >= "
            "smallest and . <= largest (and a decimal its step in parameters, step=0.5)",
            "survey row 11: a number asked directly needs its bounds as the constraint . >= "
            "smallest and . <= largest (and a decimal its step in parameters, step=0.5)",
        ]
        del form["survey"][-3:]
        spec = load_any_survey("form.xlsx", workbook(form))
    age, sleep = spec.questions[-2:]
    assert (age.procedure, age.design.scale.numbers()) == ("direct", (16, 99, 1))
    assert (sleep.procedure, sleep.design.scale.numbers()) == ("direct", (0, 12, 0.5))
    assert not age.asked_with.protects


def respelled(form: dict, spelling: dict[str, str]) -> dict:
    """``form`` with its language headers written another way (``label::English (en)`` →
    ``spelling["en"]``, and likewise for ko)."""
    tags = {"label::English (en)": spelling["en"], "label::Korean (ko)": spelling["ko"]}
    return {
        sheet: [[tags.get(cell, cell) for cell in rows[0]], *rows[1:]]
        for sheet, rows in form.items()
    }


@pytest.mark.parametrize(
    "spelling",
    [
        {"en": "label:english", "ko": "label:korean"},
        {"en": "label:English", "ko": "label:한국어"},
        {"en": "label::english", "ko": "label::Korean"},
        {"en": "label:English (en)", "ko": "label:Korean (ko)"},
    ],
)
@no_database
def test_language_columns_as_other_tools_spell_them_import_the_same(app, spelling):
    """pyxform reads a single colon and a language named without its tag; so does the import."""
    form = respelled(SPEC_FORM, spelling)
    hint = {"en": "hint" + spelling["en"].removeprefix("label")}
    form["survey"] = [
        [*form["survey"][0], hint["en"]],
        *[[*row, None] for row in form["survey"][1:]],
    ]
    xform = convert(xlsform=io.BytesIO(workbook(form)), file_type=".xlsx", validate=False).xform
    assert "/data/cheated" in xform and "부정행위?" in xform
    with app.test_request_context():
        assert load_any_survey("habits.xlsx", workbook(form)) == load_any_survey(
            "habits.xlsx", workbook(SPEC_FORM)
        )


@no_database
def test_a_single_colon_elsewhere_is_not_a_language(app):
    form = {**SPEC_FORM, "survey": [[*SPEC_FORM["survey"][0], "jr:count"],
                                    [*SPEC_FORM["survey"][1], "3"], *SPEC_FORM["survey"][2:]]}  # fmt: skip
    with app.test_request_context():
        assert refusal(workbook(form)) == [
            "survey row 2, column jr:count: this app has no such column"
        ]


@no_database
def test_what_the_app_cannot_honour_is_refused_by_row_and_column(app):
    form = copy.deepcopy(SPEC_FORM)
    form["survey"][0] += [
        "relevant",
        "constraint",
        "guidance_hint::English (en)",
        "image",
        "required",
    ]
    form["survey"][1] += ["${asked} = 'often'", None, None, None, "yes"]
    form["survey"][2] += [None, ". > 0", "Think of this week", None, "no"]
    form["survey"][3] += [None, None, None, "pills.png", None]
    form["survey"] += [
        ["begin repeat", "page", "Page", "Page", None, None],
        ["end repeat", None, None, None, None, None],
        ["text", "comment", "Anything else?", "기타?", None, None],
        ["calculate", "total", None, None, None, None],
    ]
    form["survey"][0].append("choice_filter")
    form["survey"][2].extend([None] * (len(form["survey"][0]) - 1 - len(form["survey"][2])))
    form["survey"][2].append("country = ${country}")
    with app.test_request_context():
        problems = refusal(workbook(form))
    expected = [
        "survey row 3: a constraint is read only on a text row",
        "survey row 3, column guidance_hint::en",
        "survey row 3, column choice_filter",
        "survey row 4, column image",
        "survey row 7: repeats are not supported",
        "survey row 8: repeats are not supported",
        "survey row 10: type 'calculate' is not a question this app asks",
    ]
    for start in expected:
        assert any(problem.startswith(start) for problem in problems), (start, problems)
    # XLSForm's required (yes or no) is read: a question may be skipped unless it says yes.
    assert not any("column required" in problem for problem in problems)


@no_database
def test_a_legacy_xls_file_is_refused_with_what_to_do(app):
    with app.test_request_context():
        (problem,) = refusal(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 4000, "form.xls")
    assert ".xls" in problem and "save it as an Excel Workbook (.xlsx)" in problem


def hostile(kind: str) -> bytes:
    if kind == "not a zip":
        return b"PK\x03\x04 this is not a workbook" + b"x" * 10_000
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "survey"
    sheet.append(["type", "name", "label", "rr_procedure", "rr_epsilon"])
    if kind == "far stray cell":
        sheet.append(["select_one yes_no", "q", "Q?", "spinner", 1])
        sheet["XFD1048576"] = "x"
    else:  # 10,000 rows
        for index in range(10_000):
            sheet.append(["select_one yes_no", f"q{index}", "Q?", "spinner", 1])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


@no_database
def test_a_far_stray_cell_is_not_read(app):
    # Its declared size is 16,384 columns by 1,048,576 rows; only the cells there are are read
    # (bench/xlsform_reading.py times it).
    with app.test_request_context():
        spec = load_any_survey("form.xlsx", hostile("far stray cell"))
    assert [question.key for question in spec.questions] == ["q"]


@no_database
def test_too_many_rows_and_a_file_that_is_no_workbook_are_refused(app):
    with app.test_request_context():
        assert refusal(hostile("10,000 rows")) == [f"survey: more than {MAX_ROWS} rows"]
        assert refusal(hostile("not a zip")) == ["file: not an XLSForm workbook (.xlsx)"]


@no_database
def test_a_zip_bomb_is_refused_before_it_is_unpacked(app):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"<" + b" " * (60 * 1024 * 1024))
    with app.test_request_context():
        (problem,) = refusal(buffer.getvalue())
    assert "unpacks to more than 50 MB" in problem


def with_unknown_extension(raw: bytes) -> bytes:
    """The workbook with an extension openpyxl does not know in its first sheet (it warns)."""
    source, target = io.BytesIO(raw), io.BytesIO()
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for entry in old.infolist():
            data = old.read(entry.filename)
            if entry.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(
                    b"</worksheet>", b'<extLst><ext uri="{00000000-0000-0000-0000-00000000ABCD}">'
                    b"</ext></extLst></worksheet>",
                )  # fmt: skip
            new.writestr(entry, data)
    return target.getvalue()


def test_the_command_line_prints_no_library_warning(app, runner, tmp_path):
    with app.test_request_context():
        raw = with_unknown_extension(survey_xlsform(parse_survey(one_language(EVERYTHING))))
    path = tmp_path / "everything.xlsx"
    path.write_bytes(raw)
    # filterwarnings = error: a warning that escaped the reader would fail the command.
    result = runner.invoke(args=["import-survey", str(path)])
    assert result.exit_code == 0, result.output
    assert "Warning" not in result.output and str(tmp_path) not in result.output


@no_database
def test_an_experiment_round_trips_and_pyxform_converts_it(app):
    from tests.web.core.surveys.test_experiments import CHECK, EXPERIMENT

    data = copy.deepcopy(EXPERIMENT)
    data["questions"].append(CHECK)
    with app.test_request_context():
        spec = parse_survey(data)
        exported = survey_xlsform(spec)
        again = load_xlsform(exported)
        assert again == spec
        assert cells(survey_xlsform(again)) == cells(exported)
    sheets = cells(exported)
    assert ("rr_conditions" in sheets["settings"][0]) and "direct:1;spin:1;cross:1" in sheets[
        "settings"
    ][1]
    names = [row[1] for row in sheets["survey"][1:]]
    assert names[:3] == ["drugs_direct", "drugs_spin", "drugs_cross"] and "check_spin_spin" in names
    xform = convert(xlsform=io.BytesIO(exported), file_type=".xlsx", validate=False).xform
    assert "/data/drugs_spin" in xform and "/data/check_spin_spin" in xform
    assert "rr_" not in xform


@no_database
def test_an_experiments_rows_must_share_their_wording(app):
    from tests.web.core.surveys.test_experiments import EXPERIMENT

    with app.test_request_context():
        exported = survey_xlsform(parse_survey(copy.deepcopy(EXPERIMENT)))
    book = openpyxl.load_workbook(io.BytesIO(exported))
    book["survey"].cell(row=3, column=3).value = "Another wording"
    buffer = io.BytesIO()
    book.save(buffer)
    with app.test_request_context():
        problems = refusal(buffer.getvalue())
    assert any("survey row 3" in problem and "share its wording" in problem for problem in problems)


@no_database
def test_pages_logic_and_orders_round_trip_and_pyxform_converts_them(app):
    from tests.web.core.surveys.flow.test_walk import STUDY

    with app.test_request_context():
        spec = parse_survey(STUDY)
        exported = survey_xlsform(spec)
        again = load_xlsform(exported)
        assert again == spec
        assert cells(survey_xlsform(again)) == cells(exported)
    sheets = cells(exported)
    header = sheets["survey"][0]
    rows = [dict(zip(header, row, strict=True)) for row in sheets["survey"][1:]]
    assert [row["type"] for row in rows if "group" in row["type"]] == [
        "begin group",
        "end group",
    ] * 3
    sensitive = next(row for row in rows if row["name"] == "sensitive")
    assert sensitive["parameters"] == "randomize=true" and sensitive["appearance"] == "field-list"
    assert sensitive["relevant"] == "${student} = 'yes'"
    year = next(row for row in rows if row["name"] == "year")
    assert year["parameters"] == "randomize=true" and year["relevant"] == "${student} = 'yes'"
    assert ("year", "none", "None of these", "yes") in sheets["choices"]
    xform = convert(xlsform=io.BytesIO(exported), file_type=".xlsx", validate=False).xform
    # The rules as relevant on the group and the question, the options' order drawn by the form.
    assert '<bind nodeset="/data/sensitive" relevant=" /data/about/student  = \'yes\'"/>' in xform
    assert 'nodeset="/data/about/year" type="string" relevant=" /data/about/student ' in xform
    assert "randomize(instance('year')" in xform and "/data/sensitive/s1" in xform
    # The app's columns are left out, but for rr_fixed, which pyxform keeps as a property of its
    # choice (as it keeps every extra column of the choices sheet), and a form ignores.
    assert xform.count("rr_") == 2 and "<rr_fixed>yes</rr_fixed>" in xform


@no_database
@pytest.mark.parametrize(
    ("relevant", "rule"),
    [
        ("${student} = 'yes'", {"question": "student", "in": ["yes"]}),
        ("selected(${student}, 'yes')", {"question": "student", "in": ["yes"]}),
        ("${student} = 'yes' or ${student} = 'no'", {"question": "student", "in": ["yes", "no"]}),
        ("${ok} = '1'", {"question": "ok", "in": ["yes"]}),
        ("${age} >= 18 and (${student} = 'no' or ${ok} = '0')",
         {"all": [{"question": "age", "at_least": 18},
                  {"any": [{"question": "student", "in": ["no"]}, {"question": "ok", "in": ["no"]}]}]}),
        ("${age} <= 25", {"question": "age", "at_most": 25}),
    ],
)  # fmt: skip
def test_relevant_is_read_as_a_display_rule(app, relevant, rule):
    from web.core.surveys.xlsform.flow import rule_from_relevant

    with app.test_request_context():
        assert rule_from_relevant(relevant, {"ok"}) == rule


@no_database
@pytest.mark.parametrize(
    "relevant",
    [
        "${student} != 'maybe'",  # != reads as every other answer: 'maybe' is none of them
        "${age} > 18",
        "count(${x}) > 1",
        "${student} = 'yes' and",
        "once(${x})",
    ],
)
def test_a_relevant_this_app_cannot_read_is_refused_by_row(app, relevant):
    from tests.web.core.surveys.flow.test_walk import STUDY

    with app.test_request_context():
        spec = parse_survey(STUDY)
        sheets = cells(survey_xlsform(spec))
        column = sheets["survey"][0].index("relevant")
        row = next(i for i, cells_ in enumerate(sheets["survey"]) if cells_[1] == "year")
        sheets["survey"][row] = tuple(
            relevant if index == column else value
            for index, value in enumerate(sheets["survey"][row])
        )
        problems = refusal(
            workbook({name: [list(r) for r in rows] for name, rows in sheets.items()})
        )
    assert problems == [
        f"survey row {row + 1}, column relevant: relevant reads ${{question}} = 'answer', "
        "selected(${question}, 'answer'), ${question} >= number or <= number, joined with and, "
        "or and parentheses"
    ]


@no_database
def test_a_relevant_that_reads_a_randomized_row_is_refused_by_row(app):
    from tests.web.core.surveys.flow.test_walk import STUDY

    with app.test_request_context():
        sheets = cells(survey_xlsform(parse_survey(STUDY)))
        column = sheets["survey"][0].index("relevant")
        row = next(i for i, cells_ in enumerate(sheets["survey"]) if cells_[1] == "drugs")
        sheets["survey"][row] = tuple(
            "${s1} = '1'" if index == column else value
            for index, value in enumerate(sheets["survey"][row])
        )
        problems = refusal(
            workbook({name: [list(r) for r in rows] for name, rows in sheets.items()})
        )
    assert len(problems) == 1
    assert problems[0].startswith(f"survey row {row + 1}, column relevant: 's1' is randomized")
    assert "show_if" not in problems[0] and "[" not in problems[0]


@no_database
def test_a_hint_on_a_page_or_a_grids_row_is_refused_by_row(app):
    with app.test_request_context():
        spec = parse_survey(
            one_language(EVERYTHING)
            | {"pages": [{"id": "first", "questions": [q["id"] for q in EVERYTHING["questions"]]}]}
        )
        book = openpyxl.load_workbook(io.BytesIO(survey_xlsform(spec)))
    sheet = book["survey"]
    column = next(cell.column for cell in sheet[1] if str(cell.value).startswith("hint"))
    rows = {sheet.cell(row, 2).value: row for row in range(2, sheet.max_row + 1)}
    sheet.cell(rows["first"], column).value = "Take your time"  # the page's group row
    fair = next(name for name in rows if str(name).endswith("fair"))
    sheet.cell(rows[fair], column).value = "Think of the last exam"  # a grid's row
    raw = io.BytesIO()
    book.save(raw)
    with app.test_request_context():
        problems = refusal(raw.getvalue())
    for row in (rows["first"], rows[fair]):
        assert f"survey row {row}, column hint: a hint is shown under a question" in " ".join(
            problems
        ), problems
