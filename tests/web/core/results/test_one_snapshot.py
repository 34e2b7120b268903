"""Every results document comes from one publication, while submissions publish beside the reads.

Submitters publish a batch every two responses while the results API is read over and over; each
document must hold one publication's counts (every tally's n equal to the survey's published n,
since every response answers every question), never a published n above what it says was
received, and the same figures wherever it shows the same publication.
"""

import json
import threading
import time

import pytest

from tests.conftest import SAMPLE_SURVEY
from tests.helpers import bearer
from web.core.infrastructure.extensions import db
from web.core.models import Survey
from web.core.surveys.answers import Checked

READS = 600
PUBLICATIONS = 50  # the reads go on until they have met this many
MAX_SUBMISSIONS = 40_000  # per submitter: a bound, in case reads are slow on a busy machine
SUBMITTERS = 3
DEADLINE = 600  # seconds


def import_batched(runner, tmp_path) -> str:
    spec = dict(SAMPLE_SURVEY, slug="snapshots", results_batch=2)
    path = tmp_path / "snapshots.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    assert runner.invoke(args=["import-survey", str(path)]).exit_code == 0
    return spec["slug"]


def tallies_of(document: dict) -> list[int]:
    """The n of every tally the document shows."""
    counts = []
    for question in document["questions"]:
        if "options" in question:
            counts += [option["n"] for option in question["options"]]
        else:
            counts.append(question["n"])
    return counts


@pytest.mark.long
def test_no_results_document_mixes_publications(app, runner, token, tmp_path):
    app.config["RESULTS_MIN_N"] = 1
    slug = import_batched(runner, tmp_path)
    service = app.extensions["submissions"]
    plan = service.plan(service.state(slug, fresh=True))
    checked = Checked({"cheated": 1, "substances": {"alcohol": 0, "tobacco": 1}}, plain={})
    stop = threading.Event()
    errors: list[Exception] = []

    def submit():
        try:
            for _ in range(MAX_SUBMISSIONS):
                if stop.is_set():
                    return
                assert service.record(plan, checked) is not None
        except Exception as error:  # reported by the test below
            errors.append(error)

    submitters = [threading.Thread(target=submit) for _ in range(SUBMITTERS)]
    for thread in submitters:
        thread.start()
    client = app.test_client()
    headers = bearer(token)
    seen: dict[int, list] = {}
    mixed, above_received, publications = [], [], set()
    deadline = time.monotonic() + DEADLINE
    try:
        reads = 0
        while (reads < READS or len(publications) < PUBLICATIONS) and not errors:
            assert time.monotonic() < deadline, (reads, len(publications))
            document = client.get(f"/api/surveys/{slug}/results", headers=headers).json
            reads += 1
            n, figures = document["n"], document["questions"]
            if n == 0:
                continue
            publications.add(n)
            if set(tallies_of(document)) != {n}:
                mixed.append((n, tallies_of(document)))
            if n > document["received"]:
                above_received.append((n, document["received"]))
            if seen.setdefault(n, figures) != figures:
                mixed.append((n, "two documents of one publication differ"))
    finally:
        stop.set()
        for thread in submitters:
            thread.join()
    assert errors == []
    assert mixed == [] and above_received == []
    with app.app_context():
        survey = db.session.scalar(db.select(Survey).filter_by(slug=slug))
        assert survey.published_count <= survey.response_count
