"""The guide's scripted study (docs/run/api.md) runs as given against the live app: its curl block with the shell,
its R block with Debian's R and httr2. Each imports a survey file, opens it, reads the list and the
downloads, and closes it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from tests import guide
from tests.conftest import SAMPLE_SURVEY
from tests.r.test_r_code import RSCRIPT, run_r
from web.core.surveys.lookup import find_survey

STUDY = {**SAMPLE_SURVEY, "slug": "study"}


def section() -> str:
    return guide.section("run/api.md", "Scripting a study")


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "study.json").write_text(json.dumps(STUDY), encoding="utf-8")
    return tmp_path


def run_curl_block(base: str, token: str, folder) -> subprocess.CompletedProcess:
    """The guide's curl block, run with bash against ``base`` with ``token``."""
    block = guide.blocks(section(), "sh")[0]
    environment = dict(os.environ, BASE=base, TOKEN=token)
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", block],
        cwd=folder, env=environment, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


@pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")
def test_the_guides_curl_study_runs(app, live_server, write_token, folder):
    run = run_curl_block(live_server, write_token, folder)
    assert run.returncode == 0, run.stderr
    assert '"slug":"study"' in run.stdout.replace(" ", "")
    assert (folder / "study-responses.csv").read_text().startswith("cheated,substances.alcohol")
    assert json.loads((folder / "study-codebook.json").read_text())["questions"]
    with app.app_context():
        assert find_survey("study").status == "closed"


@pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")
def test_the_curl_block_refuses_a_read_only_token(app, live_server, folder, token):
    run = run_curl_block(live_server, token, folder)
    assert run.returncode != 0 and "403" in run.stderr
    with app.app_context():
        assert find_survey("study") is None


@pytest.mark.skipif(RSCRIPT is None and not os.environ.get("REQUIRE_R"), reason="needs R")
def test_the_guides_r_study_runs(app, live_server, write_token, folder):
    block = guide.blocks(section(), "r")[0]
    assert "library(httr2)" in block
    check = 'cat("columns", names(responses), "\\n"); cat("status", closed$status, "\\n")\n'
    environment = {"RR_BASE": live_server, "RR_TOKEN": write_token}
    output = run_r(block + check, folder, environment)
    assert "columns cheated substances.alcohol substances.tobacco" in output
    assert "status closed" in output
    with app.app_context():
        assert find_survey("study").status == "closed"
