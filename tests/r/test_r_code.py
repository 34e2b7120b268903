"""The R code the app hands researchers runs as given, with Debian's R and the current RRreg and rr
(``make r`` installs them): every call in the codebook on the responses CSV as downloaded, and the
guide's reanalysis (docs/analyse/r.md). Its numbers are the app's: RRuni's prevalence equals the estimate, its
standard error is the app's times sqrt(n / (n - 1)), rrreg's intercept is the logit of the
estimate, and rrreg's fit agrees with RRlog's."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import shutil
from collections.abc import Mapping
from pathlib import Path

import pytest

from tests import guide
from tests.r.session import session
from web.core.surveys.lookup import find_survey
from web.simulation import simulate_responses

RSCRIPT = shutil.which("Rscript")
N = 3000

# Every module of tests/r: R's tests skip where R is missing, unless make test requires it.
requires_r = pytest.mark.skipif(
    RSCRIPT is None and not os.environ.get("REQUIRE_R"),
    reason="R is not installed (make r installs it; make test requires it)",
)
pytestmark = requires_r

YEAR = {
    "id": "year",
    "type": "direct",
    "text": "Year?",
    "options": [{"id": name, "text": name} for name in ("first", "second", "third", "fourth")],
}
CROSSWISE = {"text": "Mother born in January to March?", "prevalence": 0.25}
# Every design and randomized type, with the guide's column names where it uses them.
SURVEY = {
    "slug": "campus-life",
    "title": "Campus life",
    "questions": [
        YEAR,
        {"id": "cheated", "type": "yesno", "text": "C?", "epsilon": 1.0},
        {"id": "skipped", "type": "yesno", "text": "S?", "procedure": "spinner", "epsilon": 1.0},
        {
            "id": "copied",
            "type": "yesno",
            "text": "Copied?",
            "procedure": "forced_response",
            "p_truth": 0.75,
            "p_forced_yes": 0.15,
            "p_forced_no": 0.1,
        },
        {
            "id": "drugs",
            "type": "yesno",
            "text": "Drugs?",
            "procedure": "unrelated_question",
            "p_truth": 0.7,
            "innocuous": {"text": "Born in January to March?", "prevalence": 0.25},
        },
        {
            "id": "partner",
            "type": "yesno",
            "text": "Partner?",
            "procedure": "crosswise",
            "innocuous": CROSSWISE,
        },
        {
            "id": "cards",
            "type": "yesno",
            "text": "Cards?",
            "procedure": "kuk",
            "theta_yes": 0.8,
            "theta_no": 0.3,
        },
        {
            "id": "lied",
            "type": "yesno",
            "text": "Lied?",
            "procedure": "cheating_detection",
            "arms": [
                {"p_truth": 0.6, "p_forced_yes": 0.3, "p_forced_no": 0.1},
                {"p_truth": 0.6, "p_forced_yes": 0.1, "p_forced_no": 0.3},
            ],
        },
        {
            "id": "copied_ecwm",
            "type": "yesno",
            "text": "Copied (extended crosswise)?",
            "procedure": "extended_crosswise",
            "arms": [
                {"innocuous": {"text": "Born in January to March?", "prevalence": 0.25}},
                {"innocuous": {"text": "Born in April to December?", "prevalence": 0.75}},
            ],
        },
        {
            "id": "voted",
            "type": "yesno",
            "text": "Voted for the ban?",
            "procedure": "stochastic_lie_detector",
            "arms": [{"p_no": 2 / 12}, {"p_no": 10 / 12}],
        },
        {
            "id": "substances",
            "type": "multi",
            "text": "Which?",
            "epsilon": 1.0,
            "options": [{"id": "alcohol", "text": "A"}, {"id": "tobacco", "text": "T"}],
        },
        {
            "id": "copied_work",
            "type": "choice",
            "text": "How often?",
            "procedure": "spinner",
            "epsilon": 1.5,
            "options": [{"id": name, "text": name} for name in ("never", "once", "more")],
        },
        {
            "id": "all_nighters",
            "type": "number",
            "text": "Nights?",
            "epsilon": 1.0,
            "min": 0,
            "max": 20,
            "step": 1,
        },
    ],
}


@pytest.fixture
def fielded(app, import_survey, make_researcher, tmp_path):
    """The survey with N simulated responses (the true share differs by year, so that the
    regressions have something to find); the researcher's client and the CSV's folder."""
    import_survey(SURVEY)
    shares = {"first": 0.2, "second": 0.3, "third": 0.4, "fourth": 0.5}
    with app.app_context():
        simulate_responses(find_survey("campus-life"), N, 0.3, seed=7, by=("year", shares))
    # Respondents who skipped every randomized question: empty cells that every call leaves out,
    # as the app's n does (five batches, so that they are published).
    for _ in range(25):
        body = {"answers": {"year": "first"}}
        assert (
            app.test_client().post("/api/surveys/campus-life/responses", json=body).status_code
            == 201
        )
    researcher = make_researcher("rita@example.org")
    csv_text = researcher.get("/surveys/campus-life/responses.csv").get_data(as_text=True)
    (tmp_path / "campus-life-responses.csv").write_text(csv_text, encoding="utf-8")
    return researcher, tmp_path


def run_r(code: str, folder: Path, environment: Mapping[str, str] | None = None) -> str:
    """Run ``code`` in ``folder`` as Rscript would, with ``environment`` added to R's variables;
    what it printed (it must succeed). The blocks share one R process (tests/r/session.py)."""
    succeeded, output, messages = session(RSCRIPT or "Rscript").run(
        code, Path(folder), environment or {}, timeout=600
    )
    assert succeeded, messages[-3000:]
    return output


SHOW = r"""
show <- function(label, value) {
  line <- function(kind, x) cat(label, kind, sprintf("%.15g", x), "\n", sep = "\t")
  if (inherits(value, "RRuni")) { line("pi", value$pi); line("se", value$piSE) }
  else if (inherits(value, "rrreg")) line("share", plogis(coef(value)))
  else line("value", value)
}
"""


def shown(output: str) -> dict[tuple[str, str], list[float]]:
    """What :data:`SHOW` printed: (label, kind) → numbers."""
    found = {}
    for line in output.splitlines():
        parts = line.rstrip("\t").split("\t")
        if len(parts) >= 3 and parts[1] in ("pi", "se", "share", "value"):
            found[parts[0], parts[1]] = [float(value) for value in parts[2:]]
    return found


def estimates(researcher) -> dict[tuple[str, str], dict]:
    """The app's published estimates, by (question, option or "")."""
    text = researcher.get("/surveys/campus-life/estimates.csv").get_data(as_text=True)
    return {(row["question"], row["option"]): row for row in csv.DictReader(io.StringIO(text))}


def test_every_codebook_call_runs_and_gives_the_apps_estimate(fielded):
    researcher, folder = fielded
    book = json.loads(researcher.get("/surveys/campus-life/codebook.json").get_data(as_text=True))
    calls = [
        (f"{entry['id']}:{index}", call)
        for entry in book["questions"]
        for index, call in enumerate(entry.get("R", []))
    ]
    assert {label.split(":")[0] for label, _ in calls} == {
        question["id"] for question in SURVEY["questions"] if question["type"] != "direct"
    }
    script = "\n".join(
        [book["R"]["read"], SHOW, *(f'show("{label}", {call})' for label, call in calls)]
    )
    found = shown(run_r(script, folder))
    app = estimates(researcher)
    checked = 0
    for entry in book["questions"]:
        key = entry["id"]
        options = [option["id"] for option in entry.get("options", [])] or [""]
        for label, call in calls:
            if not label.startswith(f"{key}:"):
                continue
            if call.startswith("RRreg::RRuni"):
                pi, se = found[label, "pi"], found[label, "se"]
                columns = options if entry["type"] == "choice" else [_option(call, key)]
                if 'model = "FR"' in call:  # the shares of 0 and of 1
                    pi, se = pi[1:], se[1:]
                # RRreg's standard errors divide by n − 1 where the app's divide by n, but for
                # the lie detector's, whose closed form the app takes from RRreg as it is.
                correction = lambda n: math.sqrt(n / (n - 1))  # noqa: E731
                if entry["procedure"] == "cheating_detection":
                    pi, se = pi[:1], se[:1]  # the honest yes share; γ and β follow
                    columns = [""]
                if entry["procedure"] == "stochastic_lie_detector":
                    pi, se = pi[:1], se[:1]  # the carriers' share; t follows
                    columns, correction = [""], lambda n: 1.0  # noqa: E731
                for option, value, error in zip(columns, pi, se, strict=True):
                    row = app[key, option]
                    n = int(row["n"])
                    assert value == pytest.approx(float(row["estimate"]), abs=2e-5), label
                    ratio = error / float(row["std_error"])
                    assert ratio == pytest.approx(correction(n), rel=2e-3), label
                    checked += 1
            elif call.startswith("rr::rrreg"):
                row = app[key, _option(call, key)]
                assert found[label, "share"][0] == pytest.approx(float(row["estimate"]), abs=1e-4)
                checked += 1
            else:  # a number question's mean, or the extended crosswise model's π (glm)
                value = found[label, "value"][0]
                assert value == pytest.approx(float(app[key, ""]["estimate"]), abs=1e-4)
                checked += 1
    assert checked == len(calls) + 2  # the choice question's call gives its three options


def _option(call: str, key: str) -> str:
    """The option a call's column names (``key.option``), or "" for the question's own."""
    column = re.search(r'd\[\["([^"]+)"\]\]|`([^`]+)`', call)
    assert column is not None, call
    name = column.group(1) or column.group(2)
    return "" if name == key else name.removeprefix(f"{key}.")


def guide_r_code() -> str:
    """The R blocks of the guide's page on reanalysing an export."""
    found = guide.blocks(guide.page("analyse/r.md"), "r")
    assert len(found) >= 2
    return "\n".join(found)


@pytest.mark.long
def test_the_guides_r_code_runs_and_rrreg_agrees_with_rrlog(fielded):
    _, folder = fielded
    code = guide_r_code()
    assert code.count("rr::rrreg(") >= 3 and "start = rep(0, 4)" in code
    checks = r"""
cat("rrreg", sprintf("%.10g", coef(fit)), "\n", sep = "\t")
cat("RRlog", sprintf("%.10g", coef(fit2)), "\n", sep = "\t")
"""
    output = run_r(code + checks, folder)
    lines = {line.split("\t")[0]: line.split("\t")[1:] for line in output.splitlines()}
    rrreg = [float(value) for value in lines["rrreg"] if value.strip()]
    rrlog = [float(value) for value in lines["RRlog"] if value.strip()]
    assert len(rrreg) == len(rrlog) == 4
    assert rrreg == pytest.approx(rrlog, abs=1e-4)


def test_the_codebooks_rr_change_is_the_apps_change_between_waves(tmp_path):
    import rr
    from web.core.surveys.designs.r_code import CHANGE_FUNCTION

    cases = [
        (rr.spinner_coin(1.0), (120, 400, 95, 380)),
        (rr.forced_response(0.75, 0.15, 0.1), (30, 60, 41, 70)),
        (rr.spinner(2.0), (0, 50, 7, 50)),
    ]
    calls = [
        f"cat(sprintf('%.15g', rr_change({a}, {b}, {c}, {d}, a = {design.offset!r}, "
        f"b = {design.slope!r})), '\\n')"
        for design, (a, b, c, d) in cases
    ]
    output = run_r("\n".join([CHANGE_FUNCTION, *calls]), tmp_path)
    for (design, (yes_from, n_from, yes_to, n_to)), line in zip(
        cases, output.strip().splitlines(), strict=True
    ):
        change, low, high = (float(value) for value in line.split())
        expected = design.difference(yes_to, n_to, yes_from, n_from)
        assert change == pytest.approx(expected.estimate, abs=1e-9)
        assert low == pytest.approx(expected.ci_low, abs=1e-9)
        assert high == pytest.approx(expected.ci_high, abs=1e-9)
