"""R's haven reads the SPSS and Stata files as downloaded: the CSV's rows and variables, the
wording as each variable's label, an option's code with its text as a value label."""

from __future__ import annotations

import csv
import io

import pytest

from tests.r.test_r_code import requires_r, run_r
from tests.web.core.results.test_labelled_files import STUDY

pytestmark = requires_r

READ = r"""
library(haven)
d <- read_{kind}("{file}")
cat("n", nrow(d), "\n", sep = "\t")
cat("names", names(d), "\n", sep = "\t")
cat("label", attr(d$cheated, "label"), "\n", sep = "\t")
cat("grid", attr(d$views_fair, "label"), "\n", sep = "\t")
labels <- attr(d$v_1st_year, "labels")
cat("codes", paste(unname(labels), names(labels), sep = "="), "\n", sep = "\t")
cat("yes", sum(d$cheated, na.rm = TRUE), "\n", sep = "\t")
cat("first", sum(as.numeric(d$v_1st_year) == 1, na.rm = TRUE), "\n", sep = "\t")
"""


def printed(output: str) -> dict[str, list[str]]:
    return {line.split("\t")[0]: line.rstrip("\t").split("\t")[1:] for line in output.splitlines()}


@pytest.mark.parametrize("kind", ["sav", "dta"])
def test_haven_reads_the_files_as_the_app_wrote_them(
    app, runner, import_survey, make_researcher, tmp_path, kind
):
    slug = import_survey(STUDY)
    assert (
        runner.invoke(args=["simulate-responses", slug, "--n", "80", "--seed", "3"]).exit_code == 0
    )
    app.config["RESULTS_MIN_N"] = 10
    researcher = make_researcher("rita@example.org")
    (tmp_path / f"responses.{kind}").write_bytes(
        researcher.get(f"/surveys/{slug}/responses.{kind}").data
    )
    rows = list(
        csv.DictReader(
            io.StringIO(researcher.get(f"/surveys/{slug}/responses.csv").get_data(as_text=True))
        )
    )
    found = printed(
        run_r(READ.replace("{kind}", kind).replace("{file}", f"responses.{kind}"), tmp_path)
    )
    assert found["n"] == ["80"]
    assert found["names"] == ["cheated", "drugs_alcohol", "drugs_tobacco", "v_1st_year", "comment",
                              "views_fair", "views_clear"]  # fmt: skip
    assert found["label"] == ["[report: spinner_coin, eps 1] Cheated?"]
    assert found["grid"] == ["How far do you agree? [The exam was fair]"]
    assert {"1=first: First", "2=later: Later"} <= set(found["codes"])
    assert found["yes"] == [str(sum(int(row["cheated"]) for row in rows))]
    assert found["first"] == [str(sum(row["1st-year"] == "first" for row in rows))]


WHY = r"""
library(haven)
d <- read_{kind}("{file}"{user_na})
year <- d$year
if ("{kind}" == "dta") {
  cat("reasons", sum(is_tagged_na(year, "a")), sum(is_tagged_na(year, "c")),
      sum(is_tagged_na(d$cheated, "b")), "\n", sep = "\t")
} else {
  cat("reasons", sum(year == -1, na.rm = TRUE), sum(year == -3, na.rm = TRUE),
      sum(d$cheated == -2, na.rm = TRUE), "\n", sep = "\t")
  cat("missing", sum(is.na(zap_missing(year))), "\n", sep = "\t")
}
"""


@pytest.mark.parametrize("kind", ["sav", "dta"])
def test_haven_reads_why_a_cell_is_empty(app, import_survey, make_researcher, tmp_path, kind):
    from tests.helpers import submit_answers
    from tests.web.core.results.test_labelled_files import FLOW
    from tests.web.core.results.test_labelled_files import WHY as ANSWERS

    slug = import_survey(FLOW)
    app.config["RESULTS_MIN_N"] = 1
    for answers in ANSWERS:
        assert submit_answers(app.test_client(), slug, {"answers": answers}).status_code == 201
    researcher = make_researcher("rita@example.org")
    (tmp_path / f"responses.{kind}").write_bytes(
        researcher.get(f"/surveys/{slug}/responses.{kind}").data
    )
    script = (WHY.replace("{kind}", kind).replace("{file}", f"responses.{kind}")
              .replace("{user_na}", ", user_na = TRUE" if kind == "sav" else ""))  # fmt: skip
    found = printed(run_r(script, tmp_path))
    # One not shown, one "prefer not to say", one skipped.
    assert found["reasons"] == ["1", "1", "1"]
    if kind == "sav":
        assert found["missing"] == ["2"]  # user-missing: NA once zapped
