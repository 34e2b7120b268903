"""Quotas and screen-outs: the file's checks, the page's configuration, a full quota refused with
409 and stored nothing (however many submissions arrive at once), a screen-out counted once and
nothing else of the respondent kept, and the counts published in batches."""

from __future__ import annotations

import copy
import json
import threading

import pytest

from tests.conftest import stored_bits, stored_count
from tests.helpers import api_get, submit_answers
from web.core.infrastructure.extensions import db
from web.core.models import FieldworkCount
from web.core.surveys.lookup import find_survey
from web.core.surveys.problems import SurveyFileError
from web.core.surveys.quota_edit import set_quotas
from web.core.surveys.surveyfile import load_survey

PANEL = {
    "parameters": ["PROLIFIC_PID"],
    "complete_url": "https://app.prolific.com/submissions/complete?cc=DONE",
    "screen_out_url": "https://app.prolific.com/submissions/complete?cc=SCREEN&p={PROLIFIC_PID}",
    "quota_full_url": "https://app.prolific.com/submissions/complete?cc=FULL",
}
QUOTA_STUDY = {
    "slug": "quota-study",
    "title": "Exams",
    "panel": PANEL,
    "pages": [
        {"id": "about", "questions": ["gender", "age"],
         "screen_out_if": {"question": "age", "at_most": 17}},
        {"id": "exam", "questions": ["cheated"]},
    ],
    "quotas": [
        {"id": "women", "question": "gender", "in": ["f"], "limit": 2},
        {"id": "men", "question": "gender", "in": ["m"], "limit": 300},
    ],
    "questions": [
        {"id": "gender", "type": "direct", "text": "Gender", "required": True,
         "options": [{"id": "f", "text": "Woman"}, {"id": "m", "text": "Man"},
                     {"id": "o", "text": "Other"}]},
        {"id": "age", "type": "number", "procedure": "direct", "text": "Age", "min": 10,
         "max": 99, "step": 1, "required": True},
        {"id": "cheated", "type": "yesno", "text": "Cheated?", "epsilon": 1,
         "procedure": "spinner_coin"},
    ],
}  # fmt: skip


def answers(gender: str, age: int = 30, cheated: int = 1) -> dict:
    return {"answers": {"gender": gender, "age": age, "cheated": cheated}}


def send(app, slug: str, body: dict, **headers):
    """One respondent's submission, from a browser of its own (no cookie of another's)."""
    with app.test_client() as client:
        return client.post(f"/api/surveys/{slug}/responses", json=body, headers=headers)


def test_quotas_and_screen_outs_are_read_and_written_back():
    spec = load_survey(json.dumps(QUOTA_STUDY))
    assert [quota.key for quota in spec.quotas] == ["women", "men"]
    assert spec.pages[0].screen_out_if.to_dict() == {"question": "age", "at_most": 17}
    written = spec.to_dict()
    assert written["quotas"] == QUOTA_STUDY["quotas"] and written["panel"] == PANEL
    assert load_survey(spec.to_json()) == spec


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda data: data["quotas"][0].update(question="cheated", **{"in": ["yes"]}),
         r"quotas\[0\].question: 'cheated' is randomized: its report is noise"),
        (lambda data: data["quotas"][0].update(limit=0),
         r"quotas\[0\].limit: must be a whole number of completes from 1"),
        (lambda data: data["quotas"][1].update(id="women"),
         r"quotas\[1\].id: duplicate quota id 'women'"),
        (lambda data: data["quotas"][0].update(**{"in": ["x"]}),
         r"quotas\[0\].in: 'x' is not an answer of 'gender'"),
        (lambda data: data.update(quotas=[]), "quotas: must be a non-empty list"),
        (lambda data: data["pages"][1].update(screen_out_if={"question": "cheated", "in": ["no"]}),
         r"pages\[1\].screen_out_if.question: 'cheated' is randomized"),
        (lambda data: data["pages"][0].update(screen_out_if={"question": "nope", "in": ["no"]}),
         r"pages\[0\].screen_out_if.question: 'nope' is not a question asked directly"),
        (lambda data: data["panel"].update(quota_full_url="http://x.org/full"),
         "panel.quota_full_url: must be an https address"),
        (lambda data: data["panel"].update(screen_out_url="https://x.org/?e={EMAIL}"),
         r"panel.screen_out_url: fills in only the panel's parameters, not \{EMAIL\}"),
    ],
)  # fmt: skip
def test_a_wrong_quota_or_screen_out_is_refused_by_place(change, message):
    data = copy.deepcopy(QUOTA_STUDY)
    change(data)
    with pytest.raises(SurveyFileError, match=message):
        load_survey(json.dumps(data))


def test_the_page_knows_each_quota_and_where_it_is_decided(client, import_survey):
    slug = import_survey(QUOTA_STUDY)
    page = client.get(f"/s/{slug}").get_data(as_text=True)
    config = json.loads(page.split('id="survey-config">')[1].split("</script>")[0])
    assert config["quotas"][0] == {"id": "women", "rule": {"question": "gender", "in": ["f"]},
                                   "decidedAt": "about"}  # fmt: skip
    assert config["flow"]["pages"][0]["screenOutIf"] == {"question": "age", "at_most": 17}
    assert config["panel"]["quotaFullUrl"] == PANEL["quota_full_url"]
    assert 'id="ended"' in page
    assert "the panel learns only that, never an answer" in page  # the privacy note says so


def test_a_full_quota_refuses_with_409_and_stores_nothing(app, client, import_survey):
    slug = import_survey(QUOTA_STUDY)
    assert client.get(f"/api/surveys/{slug}/quotas/full").get_json() == {"full": []}
    for _ in range(2):
        assert send(app, slug, answers("f")).status_code == 201
    refused = send(app, slug, answers("f", cheated=0))
    assert refused.status_code == 409
    body = refused.get_json()
    assert body["quota"] == "women" and body["redirect"] == PANEL["quota_full_url"]
    assert "respondents like you" in body["error"]
    assert client.get(f"/api/surveys/{slug}/quotas/full").get_json() == {"full": ["women"]}
    # Another quota still takes its respondents.
    assert send(app, slug, answers("m")).status_code == 201
    with app.app_context():
        assert stored_count() == 3
        assert sorted(bits["gender"] for bits in stored_bits()) == ["f", "f", "m"]


def test_a_raised_limit_holds_at_once_for_pages_already_loaded(app, import_survey):
    slug = import_survey(QUOTA_STUDY)
    for _ in range(2):
        assert send(app, slug, answers("f")).status_code == 201
    assert send(app, slug, answers("f")).status_code == 409
    with app.app_context():
        survey = find_survey(slug)
        revision = survey.revision
        set_quotas(survey, [{**QUOTA_STUDY["quotas"][0], "limit": 3}, QUOTA_STUDY["quotas"][1]])
        db.session.commit()
        assert find_survey(slug).revision == revision  # a page already loaded still submits
    assert send(app, slug, answers("f")).status_code == 201
    assert send(app, slug, answers("f")).status_code == 409


def test_sixteen_submissions_into_the_last_place_store_one(app, import_survey):
    data = copy.deepcopy(QUOTA_STUDY)
    data["quotas"][0]["limit"] = 1
    slug = import_survey(data)
    start = threading.Barrier(16)
    statuses: list[int] = []

    def one():
        with app.test_client() as client:
            start.wait(timeout=30)
            statuses.append(submit_answers(client, slug, answers("f")).status_code)

    threads = [threading.Thread(target=one) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert sorted(statuses) == [201] + [409] * 15
    with app.app_context():
        assert stored_count() == 1 and find_survey(slug).response_count == 1
        count = db.session.scalar(
            db.select(FieldworkCount.count).where(FieldworkCount.key == "women")
        )
        assert count == 1


SCREEN_OUT = {"Idempotency-Key": "k" * 32}


def test_a_screen_out_is_counted_once_and_nothing_else_is_kept(app, client, import_survey):
    slug = import_survey(QUOTA_STUDY)
    url = f"/api/surveys/{slug}/screen-outs"
    first = client.post(url, json={"page": "about"}, headers=SCREEN_OUT)
    assert first.status_code == 201
    assert first.get_json() == {"counted": True, "redirect": PANEL["screen_out_url"]}
    again = client.post(url, json={"page": "about"}, headers=SCREEN_OUT)
    assert again.status_code == 200 and again.get_json()["counted"] is False
    # The key that screened out can never send a response after.
    assert send(app, slug, answers("f"), **SCREEN_OUT).status_code == 409
    with app.app_context():
        assert stored_count() == 0
        rows = db.session.execute(db.select(FieldworkCount.kind, FieldworkCount.key,
                                            FieldworkCount.count)).all()  # fmt: skip
        assert [tuple(row) for row in rows] == [("screen_out", "about", 1)]


@pytest.mark.parametrize(
    ("body", "headers", "status"),
    [
        ({"page": "exam"}, SCREEN_OUT, 400),  # a page that screens nobody out
        ({"page": "about", "age": 12}, SCREEN_OUT, 400),  # nothing but the page
        ({"page": "about"}, {}, 400),  # no key
        (["about"], SCREEN_OUT, 400),
    ],
)
def test_a_wrong_screen_out_is_refused_and_counts_nothing(app, client, import_survey, body,
                                                          headers, status):  # fmt: skip
    slug = import_survey(QUOTA_STUDY)
    reply = client.post(f"/api/surveys/{slug}/screen-outs", json=body, headers=headers)
    assert reply.status_code == status and "error" in reply.get_json()
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(FieldworkCount)) == 0


def test_the_counts_are_published_in_batches(app, client, import_survey, token):
    slug = import_survey(QUOTA_STUDY)
    app.config["RESULTS_MIN_N"] = 2
    with app.app_context():
        find_survey(slug).results_batch = 2
        db.session.commit()
    for index in range(3):
        key = {"Idempotency-Key": f"{index}" * 32}
        client.post(f"/api/surveys/{slug}/screen-outs", json={"page": "about"}, headers=key)
    send(app, slug, answers("f"))
    reply = api_get(client, token, f"surveys/{slug}/fieldwork")
    counts = reply.get_json()
    assert reply.status_code == 200, counts
    assert counts["screen_outs"] == [{"page": "about", "words": "age ≤ 17", "count": 2}]
    women, men = counts["quotas"]
    assert (women["count"], women["limit"], women["full"]) == (None, 2, False)  # 1 < min n
    assert men["count"] is None and men["words"] == "gender = m"


def test_the_dashboard_and_the_command_line_show_the_counts(app, runner, import_survey,
                                                           researcher):  # fmt: skip
    slug = import_survey(QUOTA_STUDY)
    app.config["RESULTS_MIN_N"] = 1
    with app.app_context():
        find_survey(slug).results_batch = 1
        db.session.commit()
    for _ in range(2):
        send(app, slug, answers("f"))
    send(app, slug, answers("m"))
    page = researcher.get(f"/surveys/{slug}").get_data(as_text=True)
    women = page.split('data-quota="women"')[1].split("</tr>")[0]
    men = page.split('data-quota="men"')[1].split("</tr>")[0]
    assert "gender = f" in women and "Full" in women
    assert "at least 1" in men and "300" in men
    assert 'data-page="about"' in page and "age ≤ 17" in page
    printed = runner.invoke(args=["fieldwork", slug]).output
    assert "quota women (gender = f): full of 2" in printed
    assert "quota men (gender = m): ≥ 1 of 300" in printed
    assert "screened out at about (age ≤ 17): < 1" in printed  # none yet
    assert json.loads(runner.invoke(args=["fieldwork", slug, "--json"]).output)["batch"] == 1


def test_quotas_and_screen_outs_travel_through_xlsform_and_pyxform_converts_the_export(app):
    import io

    import openpyxl
    from pyxform.xls2xform import convert

    from web.core.surveys.xlsform.read import load_xlsform
    from web.core.surveys.xlsform.write import survey_xlsform

    spec = load_survey(json.dumps(QUOTA_STUDY))
    with app.test_request_context():
        exported = survey_xlsform(spec)
        assert load_xlsform(exported) == spec
    book = openpyxl.load_workbook(io.BytesIO(exported))
    settings = list(book["settings"].iter_rows(values_only=True))
    row = dict(zip(settings[0], settings[1], strict=True))
    assert row["rr_quotas"] == "women (2): ${gender} = 'f'; men (300): ${gender} = 'm'"
    assert row["rr_panel_screen_out_url"] == PANEL["screen_out_url"]
    survey = list(book["survey"].iter_rows(values_only=True))
    group = dict(zip(survey[0], survey[1], strict=True))
    assert group["type"] == "begin group" and group["rr_screen_out_if"] == "${age} <= 17"
    convert(xlsform=io.BytesIO(exported), file_type=".xlsx", validate=False)


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        ("women: ${gender} = 'f'", "write each quota as id \\(limit\\): expression"),
        ("women (2): ${gender} ~ 'f'", "settings, column rr_quotas"),
        # Said as the workbook is written: the settings' column, no survey file's path.
        ("women (2): ${cheated} = '1'", r"settings, column rr_quotas: 'cheated' is randomized"),
    ],
)
def test_a_wrong_quotas_setting_is_refused_with_the_reason(app, cell, message):
    import io

    import openpyxl

    from web.core.surveys.xlsform.read import load_xlsform
    from web.core.surveys.xlsform.write import survey_xlsform

    with app.test_request_context():
        book = openpyxl.load_workbook(
            io.BytesIO(survey_xlsform(load_survey(json.dumps(QUOTA_STUDY))))
        )
        sheet = book["settings"]
        column = [cell.value for cell in sheet[1]].index("rr_quotas") + 1
        sheet.cell(row=2, column=column, value=cell)
        changed = io.BytesIO()
        book.save(changed)
        with pytest.raises(SurveyFileError, match=message):
            load_xlsform(changed.getvalue())


def test_the_builder_sets_quotas_and_addresses_refusing_a_wrong_line_beside_its_field(
    app, researcher, import_survey
):
    data = copy.deepcopy(QUOTA_STUDY)
    del data["quotas"]
    slug = import_survey(data)
    details = {"title": "Exams", "results_batch": "5", "panel_parameters": "PROLIFIC_PID",
               "panel_complete_url": PANEL["complete_url"]}  # fmt: skip
    page = researcher.get(f"/surveys/{slug}/edit").get_data(as_text=True)
    assert 'name="quotas"' in page and 'name="panel_quota_full_url"' in page
    assert "gender: f, m, o" in page and "age: a number" in page  # what a quota may read
    wrong = details | {"quotas": "women (2): ${gender} = 'f'\nmen (3): ${cheated} = '1'"}
    html = researcher.post(f"/surveys/{slug}/edit", data=wrong).get_data(as_text=True)
    assert 'id="quotas-errors"' in html and "Quota 2: &#39;cheated&#39; is randomized" in html
    right = details | {
        "quotas": "women (2): ${gender} = 'f'\nyoung (5): ${age} <= 29",
        "panel_quota_full_url": PANEL["quota_full_url"],
    }
    assert researcher.post(f"/surveys/{slug}/edit", data=right).status_code == 302
    with app.app_context():
        survey = find_survey(slug)
        assert survey.quotas == [
            {"id": "women", "question": "gender", "in": ["f"], "limit": 2},
            {"id": "young", "question": "age", "at_most": 29, "limit": 5},
        ]
        assert survey.panel["quota_full_url"] == PANEL["quota_full_url"]
    page = researcher.get(f"/surveys/{slug}/edit").get_data(as_text=True)
    assert "women (2): ${gender} = &#39;f&#39;\nyoung (5): ${age} &lt;= 29" in page
    assert (
        researcher.post(f"/surveys/{slug}/edit", data=details | {"quotas": ""}).status_code == 302
    )
    with app.app_context():
        assert find_survey(slug).quotas is None


def test_the_builder_keeps_a_pages_screen_out_and_sets_one(app, researcher, import_survey):
    slug = import_survey(QUOTA_STUDY)
    page = researcher.get(f"/surveys/{slug}/edit").get_data(as_text=True)
    assert 'name="screen-gender"' in page
    assert 'name="screen-at-most-gender" value="17"' in page
    pages = {"start-cheated": "1", "screen-gender": "@kept", "show-cheated": ""}
    assert researcher.post(f"/surveys/{slug}/pages", data=pages).status_code == 302
    with app.app_context():
        assert find_survey(slug).pages[0]["screen_out_if"] == {"question": "age", "at_most": 17}
    changed = pages | {"screen-gender": "gender", "screen-answers-gender": "o"}
    assert researcher.post(f"/surveys/{slug}/pages", data=changed).status_code == 302
    with app.app_context():
        assert find_survey(slug).pages[0]["screen_out_if"] == {"question": "gender", "in": ["o"]}
    randomized = pages | {"screen-cheated": "cheated", "screen-answers-cheated": "yes"}
    researcher.post(f"/surveys/{slug}/pages", data=randomized)
    with app.app_context():
        assert "screen_out_if" not in find_survey(slug).pages[1]  # refused: nothing changed


def test_writers_with_connections_of_their_own_never_overfill_a_quota(app, import_survey):
    """Four writers, as four server processes (or hosts) have, 16 submissions at once into the
    last two places: the database's row lock decides, whichever commits first."""
    from tests.web.respondent.test_writer import engine_of, plan_of
    from web.respondent.writer import GroupCommit, QuotaFull, Receipt

    data = copy.deepcopy(QUOTA_STUDY)
    data["quotas"][0]["limit"] = 2
    slug = import_survey(data)
    plan = plan_of(app, slug)
    with app.app_context():
        checked = load_checked(app, slug, answers("f"))
    writers = [GroupCommit(engine_of(app)) for _ in range(4)]
    start = threading.Barrier(16)
    results: list = []

    def one(writer):
        start.wait(timeout=30)
        results.append(writer.submit(plan, checked.bits, None, checked.quotas))

    threads = [threading.Thread(target=one, args=(writers[i % 4],)) for i in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    for writer in writers:
        writer.close()
    assert sum(isinstance(result, Receipt) for result in results) == 2
    assert results.count(QuotaFull("women")) == 14
    with app.app_context():
        assert stored_count() == 2 and find_survey(slug).response_count == 2


def load_checked(app, slug: str, body: dict):
    """A submission's body checked against the survey's plan, as the submission path stores it."""
    from tests.web.respondent.test_writer import plan_of
    from web.core.surveys.answers import check_answers

    plan = plan_of(app, slug)
    return check_answers(body, plan.shapes, plan.conditions, plan.flow, plan.quotas)


def test_a_counted_quotas_condition_stays_and_a_new_condition_moves_the_revision(
    app, import_survey
):
    from web.core.surveys.editing import EditError

    slug = import_survey(QUOTA_STUDY)
    assert send(app, slug, answers("f")).status_code == 201
    women, men = QUOTA_STUDY["quotas"]
    with app.app_context():
        survey = find_survey(slug)
        revision = survey.revision
        with pytest.raises(EditError, match="'women' has counted completes: its condition stays"):
            set_quotas(survey, [{**women, "in": ["f", "o"]}, men])
        db.session.rollback()
        survey = find_survey(slug)
        # A quota with no complete yet may change: the page decides it, so the revision moves.
        set_quotas(survey, [women, {**men, "in": ["m", "o"]}])
        db.session.commit()
        survey = find_survey(slug)
        assert survey.revision == revision + 1
        assert survey.quotas[1]["in"] == ["m", "o"]
        set_quotas(survey, None)
        db.session.commit()
        assert find_survey(slug).quotas is None


def test_the_dashboard_names_a_screening_page_by_its_title(import_survey, researcher):
    data = copy.deepcopy(QUOTA_STUDY)
    data["pages"][0]["title"] = "About you"
    slug = import_survey(data)
    row = researcher.get(f"/surveys/{slug}").get_data(as_text=True).split('data-page="about"')[1]
    assert row.split("</tr>")[0].count("About you") == 1 and "<code>about</code>" not in row


def test_a_question_a_quota_or_a_screen_out_reads_is_not_deleted(app, researcher, import_survey):
    slug = import_survey(QUOTA_STUDY)
    for key, reader in (("gender", "the quota 'women', the quota 'men'"),
                        ("age", "a rule of the page 'about'")):  # fmt: skip
        page = researcher.post(f"/surveys/{slug}/questions/{key}/delete", follow_redirects=True)
        said = page.get_data(as_text=True)
        assert f"&#39;{key}&#39; cannot be deleted while a rule reads it: " in said
        assert reader.replace("'", "&#39;") in said and "survey file" not in said
    with app.app_context():
        assert [q.key for q in find_survey(slug).questions] == ["gender", "age", "cheated"]


def test_a_respondent_turned_away_by_a_full_quota_is_counted_once(
    app, client, runner, import_survey, researcher, token
):
    slug = import_survey(QUOTA_STUDY)
    app.config["RESULTS_MIN_N"] = 1
    with app.app_context():
        find_survey(slug).results_batch = 1
        db.session.commit()
    url = f"/api/surveys/{slug}/turned-away"
    # Nobody is turned away from a quota with places left.
    early = client.post(url, json={"quota": "women"}, headers=SCREEN_OUT)
    assert early.status_code == 400 and "a full quota" in early.get_json()["error"]
    for _ in range(2):
        send(app, slug, answers("f"))
    first = client.post(url, json={"quota": "women"}, headers=SCREEN_OUT)
    assert first.status_code == 201
    assert first.get_json() == {"counted": True, "redirect": PANEL["quota_full_url"]}
    again = client.post(url, json={"quota": "women"}, headers=SCREEN_OUT)
    assert again.status_code == 200 and again.get_json()["counted"] is False
    # Turned away after a refused response: the same key, counted once.
    key = {"Idempotency-Key": "t" * 32}
    assert send(app, slug, answers("f"), **key).status_code == 409
    assert client.post(url, json={"quota": "women"}, headers=key).status_code == 201
    # The key can never send a response after, even were the limit raised.
    assert send(app, slug, answers("m"), **key).status_code == 409
    for bad in ({"quota": "men"}, {"quota": "women", "gender": "f"}, {"page": "about"}):
        assert client.post(url, json=bad, headers={"Idempotency-Key": "u" * 32}).status_code == 400
    women = api_get(client, token, f"surveys/{slug}/fieldwork").get_json()["quotas"][0]
    assert (women["count"], women["full"], women["turned_away"]) == (2, True, 2)
    row = researcher.get(f"/surveys/{slug}").get_data(as_text=True)
    row = row.split('data-quota="women"')[1].split("</tr>")[0]
    assert row.rstrip().endswith("<td>at least 2</td>")
    printed = runner.invoke(args=["fieldwork", slug]).output
    assert "quota women (gender = f): full of 2; turned away once full: ≥ 2" in printed
