"""The submission writer: groups, the guarded claim, failures and the writer's own connection."""

import json
import threading
import time

import pytest

from tests.conftest import SAMPLE_SURVEY, no_database, stored_bits, stored_count
from web.core.infrastructure.driver_sql import many_rows
from web.core.infrastructure.extensions import db
from web.core.models import Option, Question, Survey
from web.respondent import storing
from web.respondent.writer import GroupCommit

BITS = {"cheated": 1, "substances": {"alcohol": 0, "tobacco": 1}}


def service_of(app):
    return app.extensions["submissions"]


def plan_of(app, slug):
    service = service_of(app)
    return service.plan(service.state(slug, fresh=True))


def counts(app):
    with app.app_context():
        rows = stored_count()
        surveys = dict(db.session.execute(db.select(Survey.slug, Survey.response_count)).all())
        questions = {q.key: (q.n, q.noisy_yes) for q in db.session.scalars(db.select(Question))}
        options = {o.key: (o.n, o.noisy_yes) for o in db.session.scalars(db.select(Option))}
    return rows, surveys, questions, options


def engine_of(app):
    with app.app_context():
        return db.engine


class HeldFirstGroup:
    """Wraps a writer so that its first group waits until ``others`` more submissions queue."""

    def __init__(self, writer: GroupCommit, others: int):
        self.groups: list[int] = []
        self._writer, self._others = writer, others
        self._write = writer._write

    def __call__(self, group):
        self.groups.append(len(group))
        if len(self.groups) == 1:
            deadline = time.monotonic() + 10
            while self._writer.queued < self._others and time.monotonic() < deadline:
                time.sleep(0.005)
        return self._write(group)


def stored_flags(results):
    """Whether each submission was stored (a receipt), refused (None), or failed (an error)."""
    return [result if isinstance(result, Exception) else result is not None for result in results]


def submit_all(writer, plans_and_bits):
    results = [None] * len(plans_and_bits)

    def submit(index, plan, bits, *submission_id):
        try:
            results[index] = writer.submit(plan, bits, *submission_id)
        except Exception as error:  # the test inspects what each submitter was told
            results[index] = error

    threads = [
        threading.Thread(target=submit, args=(index, *pair))
        for index, pair in enumerate(plans_and_bits)
    ]
    threads[0].start()
    # The others queue behind the first write, unless it is already done (nothing held it).
    while not writer.busy and threads[0].is_alive():
        time.sleep(0.001)
    for thread in threads[1:]:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_submissions_queued_behind_a_write_are_stored_as_one_group(app, survey, monkeypatch):
    writer = service_of(app).writer
    held = HeldFirstGroup(writer, others=24)
    monkeypatch.setattr(writer, "_write", held)
    plan = plan_of(app, survey)
    results = submit_all(writer, [(plan, BITS)] * 25)
    assert stored_flags(results) == [True] * 25
    assert held.groups == [1, 24]
    rows, surveys, questions, options = counts(app)
    assert rows == 25 and surveys[survey] == 25
    assert questions["cheated"] == (25, 25) and options == {"alcohol": (25, 0), "tobacco": (25, 25)}


def test_a_group_larger_than_one_insert_is_stored_whole(app, survey, monkeypatch):
    monkeypatch.setattr(storing, "ROWS_PER_INSERT", 7)
    writer = service_of(app).writer
    held = HeldFirstGroup(writer, others=30)
    monkeypatch.setattr(writer, "_write", held)
    plan = plan_of(app, survey)
    mixed = [
        {"cheated": index % 2, "substances": {"alcohol": int(index % 3 == 0), "tobacco": 0}}
        for index in range(31)
    ]
    results = submit_all(writer, [(plan, bits) for bits in mixed])
    assert stored_flags(results) == [True] * 31 and held.groups == [1, 30]
    with app.app_context():
        stored = sorted(json.dumps(bits, sort_keys=True) for bits in stored_bits())
    assert stored == sorted(json.dumps(bits, sort_keys=True) for bits in mixed)
    rows, _, questions, options = counts(app)
    assert rows == 31 and questions["cheated"] == (31, 15) and options["alcohol"] == (31, 11)


def test_one_group_serves_two_surveys_and_only_the_open_one_stores(
    app, survey, runner, tmp_path, monkeypatch
):
    path = tmp_path / "other.json"
    path.write_text(json.dumps(dict(SAMPLE_SURVEY, slug="other")), encoding="utf-8")
    assert runner.invoke(args=["import-survey", str(path)]).exit_code == 0
    plans = {slug: plan_of(app, slug) for slug in (survey, "other")}
    with app.app_context():
        db.session.execute(db.update(Survey).where(Survey.slug == "other").values(status="closed"))
        db.session.commit()
    writer = service_of(app).writer
    held = HeldFirstGroup(writer, others=6)
    monkeypatch.setattr(writer, "_write", held)
    work = [(plans[survey], BITS)] + [(plans[slug], BITS) for slug in (survey, "other") * 3]
    results = submit_all(writer, work)
    assert held.groups == [1, 6]
    assert stored_flags(results) == [True] + [True, False] * 3
    rows, surveys, questions, _ = counts(app)
    assert rows == 4 and surveys == {survey: 4, "other": 0}
    # Each survey has its own "cheated" question; only the open one's counts moved.
    with app.app_context():
        tallies = dict(
            db.session.execute(
                db.select(Survey.slug, Question.n)
                .join(Question.survey)
                .where(Question.key == "cheated")
            ).all()
        )
    assert tallies == {survey: 4, "other": 0}


def test_a_failed_group_tells_every_submitter_and_rolls_back_its_claims(app, survey, monkeypatch):
    writer = service_of(app).writer
    plan = plan_of(app, survey)
    assert writer.submit(plan, BITS) is not None
    # Rows written into a table that is not there, step by step (SQLite) or in one statement.
    broken = dict(
        storing.statements(engine_of(app)),
        insert_rows="INSERT INTO nowhere {rows}",
        group=storing.statements(engine_of(app))["group"]
        .replace('INSERT INTO "pending_response"', "INSERT INTO nowhere")
        .replace("INSERT INTO pending_response", "INSERT INTO nowhere"),
    )
    failing = GroupCommit(engine_of(app), sql=broken)
    held = HeldFirstGroup(failing, others=5)
    monkeypatch.setattr(failing, "_write", held)
    results = submit_all(failing, [(plan, BITS)] * 6)
    assert held.groups == [1, 5]
    assert all(isinstance(result, Exception) for result in results)
    assert not failing.connected  # a connection in an unknown state is not kept
    failing.close()
    assert counts(app)[:2] == (1, {survey: 1})  # the failed groups' claims were rolled back too
    assert writer.submit(plan, BITS) is not None
    assert counts(app)[:2] == (2, {survey: 2})


def test_disposing_the_engine_closes_the_writers_connection_and_it_reopens(app, survey):
    writer = service_of(app).writer
    plan = plan_of(app, survey)
    assert writer.submit(plan, BITS) is not None
    assert writer.connected
    engine_of(app).dispose()
    assert not writer.connected
    assert writer.submit(plan, BITS) is not None
    assert counts(app)[0] == 2


def test_each_app_has_its_own_submission_service(app, app_like, survey):
    other = app_like()
    assert other.extensions["submissions"] is not app.extensions["submissions"]
    assert other.extensions["submissions"].state(survey).id == service_of(app).state(survey).id


@pytest.mark.parametrize("count", [1, 3, 8])
@no_database
def test_many_rows_statement_has_one_placeholder_group_per_row(count):
    sql = many_rows("INSERT INTO t (a, b) VALUES {rows}", "?", 2, count)
    assert sql == "INSERT INTO t (a, b) VALUES " + ", ".join(["(?, ?)"] * count)
