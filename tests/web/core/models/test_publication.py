"""Published numbers cannot single out a respondent: every output shows the published snapshot,
which moves only in batches, and nothing below the minimum n.

Every output is read after every submission: the dashboard and projector panels, the results API,
both CSVs, the codebook and the command line."""

from __future__ import annotations

import csv
import io
import json
import random
import re

import pytest
from scipy.stats import spearmanr
from sqlalchemy import text

from tests.conftest import VALID_ANSWERS
from tests.helpers import bearer, submit_answers
from web.core.infrastructure.extensions import db
from web.core.models.publication import response_keys
from web.core.surveys.lookup import find_survey
from web.respondent import writer

BATCH = 5  # the default
MIN_N = 10  # the test app's RESULTS_MIN_N


def outputs(researcher, client, runner, token, slug) -> dict:
    """What every output shows of the survey."""
    api = client.get(f"/api/surveys/{slug}/results", headers=bearer(token)).json
    return {
        "dashboard": researcher.get(f"/surveys/{slug}/panel").get_data(as_text=True),
        "projector": researcher.get(f"/surveys/{slug}/present/panel").get_data(as_text=True),
        "api": api,
        "estimates": researcher.get(f"/surveys/{slug}/estimates.csv").get_data(as_text=True),
        "responses": researcher.get(f"/surveys/{slug}/responses.csv").get_data(as_text=True),
        "codebook": json.loads(
            researcher.get(f"/surveys/{slug}/codebook.json").get_data(as_text=True)
        ),
        "cli": runner.invoke(args=["results", slug]).output,
    }


def published_part(shown: dict) -> dict:
    """The outputs less the survey's running total of responses (which may be shown: it says
    that someone answered, not what) and the row order of the responses CSV (random)."""
    total = re.compile(r'id="(response|live)-count"[^>]*>\d+<')
    lines = shown["responses"].splitlines()
    return {
        "dashboard": total.sub("", shown["dashboard"]),
        "projector": total.sub("", shown["projector"]),
        "api": {key: value for key, value in shown["api"].items() if key != "received"},
        "estimates": shown["estimates"],
        "responses": [lines[0], *sorted(lines[1:])],
        "codebook": shown["codebook"],
        "cli": re.sub(r" of \d+ responses published", "", shown["cli"]),
    }


def submit(app, slug, answers=VALID_ANSWERS):
    """One submission from a browser of its own."""
    response = submit_answers(app.test_client(), slug, answers)
    assert response.status_code == 201, response.json


def test_no_output_moves_between_publications(app, researcher, client, runner, token, survey):
    before = published_part(outputs(researcher, client, runner, token, survey))
    for count in range(1, 4 * BATCH + 3):
        submit(app, survey, alternate(count))
        shown = outputs(researcher, client, runner, token, survey)
        now = published_part(shown)
        if count % BATCH == 0:
            assert now != before, count
            assert shown["api"]["n"] == count
        else:
            assert now == before, count
            assert shown["api"]["n"] == count - count % BATCH
        assert shown["api"]["received"] == count
        before = now


def alternate(count: int) -> dict:
    """Answers that differ from one submission to the next, so that any leak would show."""
    bit = count % 2
    return {"answers": {"cheated": bit, "substances": {"alcohol": 1 - bit, "tobacco": bit}}}


def close(researcher, slug):
    response = researcher.post(f"/surveys/{slug}/status", data={"status": "closed"})
    assert response.status_code == 302


def reopen(researcher, slug):
    response = researcher.post(f"/surveys/{slug}/status", data={"status": "open"})
    assert response.status_code == 302


def rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.mark.parametrize("count", [1, MIN_N - 1, MIN_N])
def test_the_minimum_n_holds_on_every_output(app, researcher, client, runner, token, survey, count):
    for index in range(count):
        submit(app, survey, alternate(index))
    close(researcher, survey)  # publishes every response: exactly `count` are published
    shown = outputs(researcher, client, runner, token, survey)
    api = shown["api"]
    assert (api["n"], api["received"]) == (count, count)
    visible = count >= MIN_N
    assert api["withheld"] is not visible
    for question in api["questions"]:
        assert question["withheld"] is not visible
        figures = question.get("options", [question])
        for figure in figures:
            assert ("n" in figure) is visible and ("estimate" in figure) is visible
    assert len(rows(shown["estimates"])) == (3 if visible else 0)
    assert len(rows(shown["responses"])) == (count if visible else 0)
    for question in shown["codebook"]["questions"]:
        assert question["withheld"] is not visible and ("n" in question) is visible
    assert ("cheated (eps" in shown["cli"]) is visible
    assert ("withheld until at least 10" in shown["cli"]) is not visible
    for page in ("dashboard", "projector"):
        assert ("<svg" in shown[page]) is visible
    assert ('class="number estimate"' in shown["dashboard"]) is visible


def test_closing_publishes_the_rest_and_reopening_goes_on_in_batches(
    app, researcher, client, runner, token, survey
):
    def published():
        return outputs(researcher, client, runner, token, survey)["api"]["n"]

    for index in range(7):
        submit(app, survey, alternate(index))
    assert published() == 5
    close(researcher, survey)
    assert published() == 7
    reopen(researcher, survey)
    for index in range(4):
        submit(app, survey, alternate(index))
    assert published() == 7
    submit(app, survey)
    assert published() == 12


def test_the_batch_size_is_the_surveys_own(app, researcher, survey):
    page = researcher.get(f"/surveys/{survey}/edit").get_data(as_text=True)
    assert 'name="results_batch"' in page and 'value="5"' in page
    refused = researcher.post(f"/surveys/{survey}/edit", data={"title": "T", "results_batch": "1"})
    assert refused.status_code == 200 and "between 2 and 1000" in refused.get_data(as_text=True)
    saved = researcher.post(f"/surveys/{survey}/edit", data={"title": "T", "results_batch": "2"})
    assert saved.status_code == 302
    submit(app, survey)
    submit(app, survey)
    with app.app_context():
        assert find_survey(survey).published_count == 2


ORDER_QUESTIONS = 8  # 2^8 answer patterns: each of 200 submissions is told apart by its bits
SUBMISSIONS = 200
ORDER_BATCH = 20  # 10 batches of 20: the order inside each must say nothing


@pytest.fixture
def patterned(runner, tmp_path):
    spec = {
        "slug": "order",
        "title": "Order",
        "description": "",
        "results_batch": ORDER_BATCH,
        "questions": [
            {"id": f"q{i}", "type": "yesno", "text": "?", "epsilon": 1.0, "procedure": "spinner"}
            for i in range(ORDER_QUESTIONS)
        ],
    }
    path = tmp_path / "order.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    assert runner.invoke(args=["import-survey", str(path)]).exit_code == 0
    return spec["slug"]


def pattern(index: int) -> dict:
    return {f"q{i}": (index >> i) & 1 for i in range(ORDER_QUESTIONS)}


def submission_index(bits: str) -> int:
    answers = json.loads(bits)
    return sum(answers[f"q{i}"] << i for i in range(ORDER_QUESTIONS))


def within_batches(submitted: list[int]) -> tuple[list[int], list[int]]:
    """Each response's place among its batch's responses: in the order submitted, and in the
    order given (the batch is known from the submission's index)."""
    seen: dict[int, int] = {}
    submitted_rank, given_rank = [], []
    for index in submitted:
        batch = index // ORDER_BATCH
        submitted_rank.append(index % ORDER_BATCH)
        given_rank.append(seen.setdefault(batch, 0))
        seen[batch] += 1
    return submitted_rank, given_rank


def test_storage_orders_responses_no_finer_than_their_batch(app, patterned, monkeypatch):
    # Keys drawn from a seeded generator instead of the system's, so that the test gives the same
    # answer every run (a random permutation of 200 passes |rho| = 0.2 about once in 200 runs).
    keys = random.Random(20261123)
    monkeypatch.setattr(
        writer, "response_keys", lambda count: [keys.getrandbits(63) or 1 for _ in range(count)]
    )
    for index in range(SUBMISSIONS):
        submit(app, patterned, {"answers": pattern(index)})
    with app.app_context():
        plain = db.session.execute(text("SELECT * FROM response")).mappings().all()
        by_key = db.session.execute(text("SELECT bits FROM response ORDER BY id")).all()
        pending = db.session.execute(text("SELECT * FROM pending_response")).all()
    assert len(plain) == SUBMISSIONS and pending == []  # every batch published and moved
    # By key, the order is random through and through.
    submitted = [submission_index(row.bits) for row in by_key]
    assert sorted(submitted) == list(range(SUBMISSIONS))
    assert abs(spearmanr(range(SUBMISSIONS), submitted).statistic) < 0.2
    # As stored (PostgreSQL's heap keeps the order of writing; SQLite's, the key's), the
    # order may say which batch a response was published in, which the snapshots say anyway, and
    # nothing finer: inside each batch, the place of a response is unrelated to when it came.
    stored = [submission_index(row["bits"]) for row in plain]
    correlation = spearmanr(*within_batches(stored)).statistic
    assert abs(correlation) < 0.2, correlation


def test_a_groups_keys_are_drawn_at_once_and_span_the_whole_range():
    keys = response_keys(1000)
    assert len(set(keys)) == 1000
    assert all(1 <= key < 2**63 for key in keys)
    # Each of 63 bits is set in about half the keys: none is stuck (with 1,000 keys, a bit set in
    # fewer than 400 or more than 600 has a chance below 1e-9).
    assert all(400 < sum(key >> bit & 1 for key in keys) < 600 for bit in range(63))
    assert response_keys(0) == []
