"""The R session that runs the tests' R code (tests/r/session.py): each block runs as it would in
an Rscript of its own, and what one block leaves behind never reaches the next."""

from __future__ import annotations

import pytest

from tests.r.test_r_code import requires_r, run_r

pytestmark = requires_r


def test_a_block_prints_what_rscript_prints_and_runs_in_its_folder(tmp_path):
    (tmp_path / "data.csv").write_text("a\n1\n2\n", encoding="utf-8")
    output = run_r('x <- read.csv("data.csv")\nsum(x$a)\ninvisible(5)\ncat("done\\n")', tmp_path)
    assert output == "[1] 3\ndone\n"


def test_a_failing_block_fails_its_test_with_rs_message(tmp_path):
    with pytest.raises(AssertionError, match="no_such_function"):
        run_r('cat("before\\n")\nno_such_function()', tmp_path)
    assert run_r('cat("after\\n")', tmp_path) == "after\n"


def test_a_block_finds_nothing_an_earlier_block_attached_or_set(tmp_path):
    run_r(
        'library(list)\noptions(digits = 3)\nleft <<- 1\nSys.setenv(LEFT = "x", HOME = "/x")\n'
        'pdf("plot.pdf"); plot(1)',
        tmp_path,
    )
    assert (tmp_path / "plot.pdf").stat().st_size > 0  # its device was closed, the file written
    output = run_r(
        'cat(exists("ict.test"), getOption("digits"), exists("left"), "\\n")\n'
        'cat(length(dev.list()), Sys.getenv("LEFT", "unset"), Sys.getenv("HOME") != "/x", "\\n")',
        tmp_path,
    )
    # The namespace stays loaded, but a block must attach it itself, as in a new process.
    assert output == "FALSE 7 FALSE \n0 unset TRUE \n"
    assert "TRUE" in run_r('cat(exists("ict.test", envir = asNamespace("list")))', tmp_path)


def test_a_blocks_variables_are_set_for_it_alone(tmp_path):
    assert run_r('cat(Sys.getenv("RR_TOKEN"))', tmp_path, {"RR_TOKEN": "abc"}) == "abc"
    assert run_r('cat(Sys.getenv("RR_TOKEN", "unset"))', tmp_path) == "unset"
