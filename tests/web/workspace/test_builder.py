"""Building surveys in the browser: drafts, questions, frozen parameters, lifecycle, import."""

import io
import json
import re

import pytest

from tests.conftest import SAMPLE_SURVEY, VALID_ANSWERS
from web.core.infrastructure.extensions import db
from web.core.models import Survey

YESNO = {
    "text": "Did you?",
    "key": "did",
    "kind": "yesno",
    "epsilon": "1",
    "procedure": "spinner_coin",
    "options": "",
}
MULTI = {
    "text": "Which?",
    "key": "which",
    "kind": "multi",
    "epsilon": "0.5",
    "procedure": "spinner",
    "options": "Red\nGreen\n\nBlue\n",
}


def load(app, slug):
    with app.app_context():
        survey = db.session.scalar(db.select(Survey).filter_by(slug=slug))
        return {
            "status": survey.status,
            "revision": survey.revision,
            "owner": survey.owner_id,
            "epsilon_total": survey.epsilon_total,
            "questions": [
                (
                    q.key,
                    q.kind,
                    q.epsilon,
                    q.procedure,
                    q.text,
                    [(o.key, o.text) for o in q.options],
                )
                for q in survey.questions
            ],
        }


def test_new_survey_is_a_draft_owned_by_its_author(app, researcher, draft):
    state = load(app, draft)
    assert state["status"] == "draft" and state["owner"] is not None and state["questions"] == []


def test_slug_comes_from_the_title_and_stays_unique(app, researcher, draft):
    researcher.post("/surveys/new", data={"title": "Class survey!", "description": ""})
    researcher.post("/surveys/new", data={"title": "캠퍼스 설문", "description": ""})
    with app.app_context():
        slugs = sorted(db.session.scalars(db.select(Survey.slug)))
    assert "class-survey-2" in slugs
    assert any(slug.startswith("survey-") for slug in slugs)


def test_taken_slug_is_a_form_error(researcher, draft):
    html = researcher.post("/surveys/new", data={"title": "x", "slug": "class-survey"}).get_data(
        as_text=True
    )
    assert "This address is taken" in html


def test_questions_are_added_with_their_costs(app, researcher, draft):
    assert researcher.post(f"/surveys/{draft}/questions/new", data=YESNO).status_code == 302
    assert researcher.post(f"/surveys/{draft}/questions/new", data=MULTI).status_code == 302
    state = load(app, draft)
    assert state["questions"] == [
        ("did", "yesno", 1.0, "spinner_coin", "Did you?", []),
        (
            "which",
            "multi",
            0.5,
            "spinner",
            "Which?",
            [("red", "Red"), ("green", "Green"), ("blue", "Blue")],
        ),
    ]
    assert state["epsilon_total"] == pytest.approx(2.5)
    html = researcher.get(f"/surveys/{draft}/edit").get_data(as_text=True)
    assert "Total privacy cost of the survey: ε = 2.5" in html


def test_question_ids_default_to_the_next_free_number(app, researcher, draft):
    researcher.post(f"/surveys/{draft}/questions/new", data=dict(YESNO, key=""))
    researcher.post(f"/surveys/{draft}/questions/new", data=dict(YESNO, key=""))
    assert [q[0] for q in load(app, draft)["questions"]] == ["q1", "q2"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"epsilon": "0"}, "must be a number from 1e-06 to 10, got 0.0"),
        ({"epsilon": "10.5"}, "must be a number from 1e-06 to 10, got 10.5"),
        ({"epsilon": "abc"}, "Not a valid float value."),
        ({"epsilon": ""}, "Enter ε as a number."),
        (
            {"kind": "multi", "options": "  \n"},
            "a &#39;multi&#39; question needs a non-empty list of options",
        ),
        ({"key": "bad key"}, "&#39;bad key&#39; is not a valid id (1-64 letters, digits, _ or -)"),
        ({"text": ""}, "must be non-empty text"),
        ({"procedure": "coin"}, "Not a valid choice."),
    ],
)
def test_bad_questions_are_form_errors(app, researcher, draft, change, message):
    response = researcher.post(f"/surveys/{draft}/questions/new", data=dict(YESNO, **change))
    assert response.status_code == 200 and message in response.get_data(as_text=True)
    assert load(app, draft)["questions"] == []


def test_duplicate_question_id_is_refused(app, researcher, draft):
    researcher.post(f"/surveys/{draft}/questions/new", data=YESNO)
    html = researcher.post(f"/surveys/{draft}/questions/new", data=YESNO).get_data(as_text=True)
    assert "already has a question with id" in html and len(load(app, draft)["questions"]) == 1


def test_parameters_change_freely_before_any_response(app, researcher, draft):
    researcher.post(f"/surveys/{draft}/questions/new", data=MULTI)
    before = load(app, draft)["revision"]
    researcher.post(
        f"/surveys/{draft}/questions/which", data=dict(MULTI, epsilon="2", options="Red\nGreen")
    )
    state = load(app, draft)
    assert state["questions"][0][2] == 2.0 and len(state["questions"][0][5]) == 2
    assert state["revision"] == before + 1


def test_rewording_keeps_the_revision(app, researcher, draft):
    researcher.post(f"/surveys/{draft}/questions/new", data=MULTI)
    before = load(app, draft)["revision"]
    researcher.post(
        f"/surveys/{draft}/questions/which",
        data=dict(MULTI, text="Which ones?", options="Rot\nGrün\nBlau"),
    )
    state = load(app, draft)
    assert state["questions"][0][4] == "Which ones?"
    assert state["questions"][0][5] == [("red", "Rot"), ("green", "Grün"), ("blue", "Blau")]
    assert state["revision"] == before


@pytest.fixture
def answered(app, researcher, draft, client):
    """The draft with one yes/no and one multi question, opened and answered once."""
    researcher.post(f"/surveys/{draft}/questions/new", data=YESNO)
    researcher.post(f"/surveys/{draft}/questions/new", data=MULTI)
    researcher.post(f"/surveys/{draft}/status", data={"status": "open"})
    body = {"answers": {"did": 1, "which": {"red": 0, "green": 1, "blue": 0}}}
    assert client.post(f"/api/surveys/{draft}/responses", json=body).status_code == 201
    return draft


@pytest.mark.parametrize(
    "change",
    [
        {"epsilon": "2"},
        {"procedure": "spinner_coin"},
        {"options": "Red\nGreen"},
        {"options": "Red\nGreen\nBlue\nPink"},
        {"kind": "yesno"},
    ],
)
def test_privacy_parameters_freeze_once_answered(app, researcher, answered, change):
    before = load(app, answered)
    html = researcher.post(
        f"/surveys/{answered}/questions/which", data=dict(MULTI, **change)
    ).get_data(as_text=True)
    assert "frozen" in html
    assert load(app, answered) == before


def test_frozen_question_can_still_be_reworded(app, researcher, answered):
    response = researcher.post(
        f"/surveys/{answered}/questions/which",
        data=dict(MULTI, text="Which colours?", options="Crimson\nGreen\nBlue"),
    )
    assert response.status_code == 302
    question = load(app, answered)["questions"][1]
    assert (
        question[4] == "Which colours?"
        and question[5][0] == ("red", "Crimson")
        and question[2] == 0.5
    )


def test_frozen_question_page_disables_its_parameters(researcher, answered):
    html = researcher.get(f"/surveys/{answered}/questions/did").get_data(as_text=True)
    assert "its ε, procedure, type and options are frozen" in html
    assert (
        'id="epsilon"' in html
        and "disabled"
        in html.split('id="epsilon"')[1].split(">")[0]
        + html.split('id="epsilon"')[0].rsplit("<", 1)[1]
    )


def test_answered_question_cannot_be_deleted_but_a_new_one_can(app, researcher, answered):
    researcher.post(f"/surveys/{answered}/questions/did/delete")
    assert [q[0] for q in load(app, answered)["questions"]] == ["did", "which"]
    researcher.post(f"/surveys/{answered}/questions/new", data=dict(YESNO, key="again"))
    researcher.post(f"/surveys/{answered}/questions/again/delete")
    assert [q[0] for q in load(app, answered)["questions"]] == ["did", "which"]


def test_stale_page_cannot_submit_under_old_parameters(app, researcher, answered):
    page = app.test_client()
    revision = load(app, answered)["revision"]
    researcher.post(f"/surveys/{answered}/questions/new", data=dict(YESNO, key="extra"))
    body = {"answers": {"did": 1, "which": {"red": 0, "green": 1, "blue": 0}}}
    stale = page.post(
        f"/api/surveys/{answered}/responses",
        json=body,
        headers={"X-Survey-Revision": str(revision)},
    )
    assert stale.status_code == 409 and "Reload the page" in stale.json["error"]
    body["answers"]["extra"] = 0
    stale = page.post(
        f"/api/surveys/{answered}/responses",
        json=body,
        headers={"X-Survey-Revision": str(revision)},
    )
    assert stale.status_code == 409 and "Reload the page" in stale.json["error"]
    fresh = page.post(
        f"/api/surveys/{answered}/responses",
        json=body,
        headers={"X-Survey-Revision": str(load(app, answered)["revision"])},
    )
    assert fresh.status_code == 201


@pytest.mark.parametrize(
    ("start", "target", "allowed"),
    [
        ("draft", "open", True),
        ("draft", "closed", False),
        ("open", "closed", True),
        ("closed", "open", True),
        ("open", "draft", False),
        ("closed", "draft", False),
    ],
)
def test_lifecycle(app, researcher, draft, start, target, allowed):
    researcher.post(f"/surveys/{draft}/questions/new", data=YESNO)
    with app.app_context():
        db.session.scalar(db.select(Survey).filter_by(slug=draft)).status = start
        db.session.commit()
    researcher.post(f"/surveys/{draft}/status", data={"status": target})
    assert load(app, draft)["status"] == (target if allowed else start)


def test_an_empty_survey_cannot_open(app, researcher, draft):
    response = researcher.post(
        f"/surveys/{draft}/status", data={"status": "open"}, follow_redirects=True
    )
    assert "Add at least one question before opening the survey." in response.get_data(as_text=True)
    assert load(app, draft)["status"] == "draft"


def upload(researcher, raw: bytes):
    return researcher.post(
        "/surveys/import",
        data={"file": (io.BytesIO(raw), "survey.json")},
        content_type="multipart/form-data",
    )


def test_import_a_file_as_a_draft(app, researcher):
    response = upload(researcher, json.dumps(SAMPLE_SURVEY).encode())
    assert response.headers["Location"] == "/surveys/campus-life-test/edit"
    state = load(app, "campus-life-test")
    assert (
        state["status"] == "draft" and state["owner"] is not None and len(state["questions"]) == 2
    )


def test_import_lists_every_mistake(app, researcher):
    bad = dict(
        SAMPLE_SURVEY, slug="Bad Slug", questions=[dict(SAMPLE_SURVEY["questions"][0], epsilon=0)]
    )
    html = upload(researcher, json.dumps(bad).encode()).get_data(as_text=True)
    assert "slug: &#39;Bad Slug&#39; is not a valid slug" in html and "questions[0].epsilon" in html
    html = upload(researcher, b"\xff\xfe").get_data(as_text=True)
    assert "not UTF-8" in html
    with app.app_context():
        assert db.session.scalar(db.select(Survey)) is None


def test_import_refuses_a_taken_slug(researcher, survey):
    html = upload(researcher, json.dumps(SAMPLE_SURVEY).encode()).get_data(as_text=True)
    assert "is taken" in html


def test_export_then_import_round_trips(researcher, survey, app):
    exported = researcher.get(f"/surveys/{survey}/survey.json")
    assert exported.headers["Content-Disposition"] == f'attachment; filename="{survey}.json"'
    data = json.loads(exported.get_data(as_text=True))
    assert data == {**SAMPLE_SURVEY, "languages": ["en"], "results_batch": 5}
    data["slug"] = "copy"
    assert upload(researcher, json.dumps(data).encode()).status_code == 302
    assert load(app, "copy")["questions"] == load(app, survey)["questions"]


def test_submissions_follow_the_survey_built_in_the_browser(client, researcher, answered):
    assert client.post(f"/api/surveys/{answered}/responses", json=VALID_ANSWERS).status_code == 400


def test_a_survey_without_a_description_is_fine(app, researcher):
    assert (
        researcher.post("/surveys/new", data={"title": "Bare", "slug": "bare"}).status_code == 302
    )
    assert researcher.post("/surveys/bare/edit", data={"title": "Bare again"}).status_code == 302
    with app.app_context():
        assert db.session.scalar(db.select(Survey).filter_by(slug="bare")).description == ""


def test_a_slug_ending_in_a_newline_is_refused_everywhere(app, researcher, runner, tmp_path):
    made = researcher.post("/surveys/new", data={"title": "T", "slug": "nl-import\n"})
    assert made.status_code == 200 and "Use 1–64 lowercase letters" in made.get_data(as_text=True)
    data = dict(SAMPLE_SURVEY, slug="nl-import\n")
    upload = {"file": (io.BytesIO(json.dumps(data).encode()), "survey.json")}
    uploaded = researcher.post("/surveys/import", data=upload, content_type="multipart/form-data")
    assert uploaded.status_code == 200 and "is not a valid slug" in uploaded.get_data(as_text=True)
    path = tmp_path / "nl.json"
    path.write_text(json.dumps(data))
    assert runner.invoke(args=["import-survey", str(path)]).exit_code == 1
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Survey)) == 0


@pytest.mark.parametrize(
    ("lines", "keys"),
    [
        (
            "Sleeping pills without a prescription\nAlcohol",
            ["sleeping_pills_without_a_prescription", "alcohol"],
        ),
        ("Red\nred\nRED!", ["red", "red_2", "red_3"]),
        ("처방전 없이\n수면제", ["opt1", "opt2"]),  # no Latin letters: numbered
        ("Éclair café\nconstructor\n__proto__", ["eclair_cafe", "constructor_2", "proto"]),
    ],
)
def test_option_ids_come_from_their_text(app, researcher, draft, lines, keys):
    researcher.post(f"/surveys/{draft}/questions/new", data=dict(MULTI, options=lines))
    assert [key for key, _text in load(app, draft)["questions"][0][5]] == keys


def test_option_ids_can_be_typed_and_are_checked_like_a_file(app, researcher, draft):
    typed = dict(MULTI, options="Red\nGreen\nBlue", option_ids="r\n\nb")
    assert researcher.post(f"/surveys/{draft}/questions/new", data=typed).status_code == 302
    assert load(app, draft)["questions"][0][5] == [("r", "Red"), ("green", "Green"), ("b", "Blue")]
    page = researcher.get(f"/surveys/{draft}/questions/which").get_data(as_text=True)
    assert re.search(r'<textarea[^>]*id="option_ids"[^>]*>\s*r\ngreen\nb</textarea>', page)

    for ids, message in [("r\nr\nb", "duplicate option id"), ("r\nno spaces\nb", "not a valid id")]:
        html = researcher.post(
            f"/surveys/{draft}/questions/which", data=dict(typed, option_ids=ids)
        ).get_data(as_text=True)
        assert re.search(rf'id="option_ids-errors"[^>]*>\s*<li>Option 2: [^<]*{message}', html)
    assert load(app, draft)["questions"][0][5] == [("r", "Red"), ("green", "Green"), ("b", "Blue")]


def test_option_ids_freeze_with_the_options(app, researcher, answered):
    html = researcher.post(
        f"/surveys/{answered}/questions/which", data=dict(MULTI, option_ids="crimson\ngreen\nblue")
    ).get_data(as_text=True)
    assert "frozen" in html
    assert [key for key, _ in load(app, answered)["questions"][1][5]] == ["red", "green", "blue"]


def question_order(app, slug):
    return [question[0] for question in load(app, slug)["questions"]]


def test_questions_move_up_and_down_and_the_revision_moves(app, researcher, answered):
    researcher.post(f"/surveys/{answered}/questions/new", data=dict(YESNO, key="third"))
    before = load(app, answered)["revision"]
    response = researcher.post(
        f"/surveys/{answered}/questions/third/move", data={"direction": "up"}
    )
    assert response.headers["Location"] == f"/surveys/{answered}/edit#move-third-up"
    assert question_order(app, answered) == ["did", "third", "which"]
    assert load(app, answered)["revision"] == before + 1
    researcher.post(f"/surveys/{answered}/questions/did/move", data={"direction": "up"})
    assert question_order(app, answered) == ["did", "third", "which"]  # already first
    assert load(app, answered)["revision"] == before + 1  # nothing moved, nothing changed

    researcher.post(f"/surveys/{answered}/questions/order", data={"order": "which,did,third"})
    assert question_order(app, answered) == ["which", "did", "third"]
    # Responses are kept by question id: the earlier answer still counts for its question.
    with app.app_context():
        survey = db.session.scalar(db.select(Survey).filter_by(slug=answered))
        assert [question.response_count for question in survey.questions] == [1, 1, 0]
        assert [question.position for question in survey.questions] == [0, 1, 2]


@pytest.mark.parametrize(
    "post",
    [
        ("questions/did/move", {"direction": "sideways"}),
        ("questions/nope/move", {"direction": "up"}),
        ("questions/order", {"order": "which,did,did"}),
        ("questions/order", {"order": "which"}),
        ("questions/order", {"order": ""}),
    ],
)
def test_a_bad_order_is_refused_and_changes_nothing(app, researcher, answered, post):
    before = load(app, answered)
    response = researcher.post(f"/surveys/{answered}/{post[0]}", data=post[1])
    assert response.status_code == 400
    assert load(app, answered) == before


def test_the_owner_previews_any_survey_and_the_public_sees_no_draft(app, researcher, draft, client):
    researcher.post(f"/surveys/{draft}/questions/new", data=YESNO)
    page = researcher.get(f"/surveys/{draft}/preview")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert 'id="preview-banner"' in html and '"preview": true' in html
    # The owner who follows the respondents' link to a draft is sent to the preview.
    assert researcher.get(f"/s/{draft}").headers["Location"] == f"/surveys/{draft}/preview"
    assert client.get(f"/s/{draft}").status_code == 404
    assert client.get(f"/surveys/{draft}/preview").status_code == 302  # to the login page


def listed(researcher, archived=False):
    html = researcher.get("/surveys" + ("?archived=1" if archived else "")).get_data(as_text=True)
    return re.findall(r'<tr data-slug="([^"]+)"', html)


def test_a_survey_is_archived_out_of_the_list_and_restored(app, researcher, answered):
    assert (
        researcher.post(f"/surveys/{answered}/archive", data={"archived": "1"}).status_code == 302
    )
    assert load(app, answered)["status"] == "open"  # refused: close it first
    assert answered in listed(researcher)

    researcher.post(f"/surveys/{answered}/status", data={"status": "closed"})
    response = researcher.post(f"/surveys/{answered}/archive", data={"archived": "1"})
    assert response.headers["Location"] == "/surveys"
    assert answered not in listed(researcher) and listed(researcher, archived=True) == [answered]
    assert "Archived surveys (1)" in researcher.get("/surveys").get_data(as_text=True)
    dashboard = researcher.get(f"/surveys/{answered}").get_data(as_text=True)
    assert 'id="archived-notice"' in dashboard and ">Restore<" in dashboard
    # Archived is not deleted: its results and downloads stay.
    assert researcher.get(f"/surveys/{answered}/responses.csv").status_code == 200

    researcher.post(f"/surveys/{answered}/archive", data={"archived": "0"})
    assert answered in listed(researcher) and listed(researcher, archived=True) == []


def test_a_direct_question_and_a_yes_no_question_asked_directly_are_added(app, researcher, draft):
    # The hidden fields still hold their values, as a browser sends them.
    direct = dict(YESNO, text="Year?", key="year", kind="direct", options="First\nSecond\n")
    plain = dict(YESNO, key="plain", procedure="direct")
    for data in (direct, plain):
        response = researcher.post(f"/surveys/{draft}/questions/new", data=data)
        page = response.get_data(as_text=True)
        assert response.status_code == 302, re.findall(r"error[^>]*>\s*([^<]*[a-z][^<]*)<", page)
    state = load(app, draft)
    assert state["questions"] == [
        ("year", "direct", 0.0, "direct", "Year?", [("first", "First"), ("second", "Second")]),
        ("plain", "yesno", 0.0, "direct", "Did you?", []),
    ]
    # Neither has a cost: no ε protects either, and the page says so.
    assert state["epsilon_total"] == 0.0


def test_the_builder_makes_a_question_required_and_optional_again_even_once_answered(
    app, researcher, answered
):
    """Required is no privacy parameter: it changes after responses too, with a new revision so
    that a page loaded before the change cannot send what the survey no longer takes."""
    page = researcher.get(f"/surveys/{answered}/questions/did").get_data(as_text=True)
    assert 'name="required"' in page and "Required: respondents cannot skip it" in page

    def required() -> bool:
        with app.app_context():
            survey = db.session.scalar(db.select(Survey).filter_by(slug=answered))
            return survey.questions[0].required

    before = load(app, answered)["revision"]
    response = researcher.post(f"/surveys/{answered}/questions/did", data=YESNO | {"required": "y"})
    assert response.status_code == 302 and required()
    assert load(app, answered)["revision"] == before + 1
    exported = json.loads(researcher.get(f"/surveys/{answered}/survey.json").get_data(as_text=True))
    assert exported["questions"][0]["required"] is True
    assert "required" not in exported["questions"][1]
    researcher.post(f"/surveys/{answered}/questions/did", data=YESNO)
    assert not required()


def test_an_open_question_is_built_with_its_length_and_edited(app, researcher, draft):
    # The hidden fields still hold their values, as a browser sends them.
    words = dict(YESNO, text="Anything else?", key="comment", kind="text", max_length="120")
    response = researcher.post(f"/surveys/{draft}/questions/new", data=words)
    assert response.status_code == 302
    assert load(app, draft)["questions"] == [
        ("comment", "text", 0.0, "direct", "Anything else?", [])
    ]
    form = researcher.get(f"/surveys/{draft}/questions/comment").get_data(as_text=True)
    assert re.search(r'id="max_length"[^>]*value="120"', form)
    too_long = researcher.post(
        f"/surveys/{draft}/questions/comment", data=dict(words, max_length="9000")
    )
    page = too_long.get_data(as_text=True)
    assert too_long.status_code == 200 and "from 1 to 5000, got 9000" in page
    with app.app_context():
        survey = db.session.scalar(db.select(Survey).filter_by(slug=draft))
        assert survey.questions[0].design.max_length == 120
        assert survey.epsilon_total == 0.0


def test_the_builder_shuffles_options_and_keeps_some_in_place(app, researcher, draft):
    data = dict(MULTI, kind="direct", key="year", options="First\nSecond\nNone of these\n")
    data |= {"shuffle_options": "y", "fixed_options": "none_of_these"}
    assert researcher.post(f"/surveys/{draft}/questions/new", data=data).status_code == 302
    with app.app_context():
        survey = db.session.scalar(db.select(Survey).filter_by(slug=draft))
        (question,) = survey.questions
        assert question.shuffle_options
        assert [(option.key, option.fixed) for option in question.options] == [
            ("first", False), ("second", False), ("none_of_these", True),
        ]  # fmt: skip
        revision = survey.revision
    form = researcher.get(f"/surveys/{draft}/questions/year").get_data(as_text=True)
    assert re.search(r'<input[^>]*checked id="shuffle_options"', form)
    assert "none_of_these</textarea>" in form
    # Off again: nothing keeps its place, and a page loaded before must not send an order.
    off = {key: value for key, value in data.items() if key != "shuffle_options"}
    assert researcher.post(f"/surveys/{draft}/questions/year", data=off).status_code == 302
    with app.app_context():
        survey = db.session.scalar(db.select(Survey).filter_by(slug=draft))
        assert not survey.questions[0].shuffle_options
        assert not any(option.fixed for option in survey.questions[0].options)
        assert survey.revision > revision
    bad = dict(data, fixed_options="nothing")
    page = researcher.post(f"/surveys/{draft}/questions/year", data=bad).get_data(as_text=True)
    assert (
        "&#39;nothing&#39; is not one of the options&#39; ids (first, second, none_of_these)"
        in page
    )


def test_the_builder_shows_a_question_to_some_respondents_only(app, researcher, draft):
    year = dict(MULTI, kind="direct", key="year", options="First\nLater\n")
    assert researcher.post(f"/surveys/{draft}/questions/new", data=year).status_code == 302
    assert researcher.post(f"/surveys/{draft}/questions/new", data=YESNO).status_code == 302
    form = researcher.get(f"/surveys/{draft}/questions/new").get_data(as_text=True)
    assert '<option value="year">year: Which?</option>' in form
    assert 'value="did"' not in form  # randomized: no rule may read it
    assert "year: first, later" in form
    shown = dict(YESNO, key="again", show_if_question="year", show_if_answers="first")
    assert researcher.post(f"/surveys/{draft}/questions/new", data=shown).status_code == 302
    with app.app_context():
        survey = db.session.scalar(db.select(Survey).filter_by(slug=draft))
        assert survey.questions[2].display_rule == {"question": "year", "in": ["first"]}
        revision = survey.revision
    form = researcher.get(f"/surveys/{draft}/questions/again").get_data(as_text=True)
    assert '<option selected value="year">' in form and 'value="first"' in form
    for change, message in [
        ({"show_if_question": "did", "show_if_answers": "yes"}, "&#39;did&#39; is randomized"),
        ({"show_if_answers": "second"}, "&#39;second&#39; is not an answer of &#39;year&#39;"),
        ({"show_if_answers": ""}, "must be a non-empty list"),
    ]:
        response = researcher.post(f"/surveys/{draft}/questions/again", data=shown | change)
        assert response.status_code == 200 and message in response.get_data(as_text=True)
    everyone = dict(shown, show_if_question="")
    assert researcher.post(f"/surveys/{draft}/questions/again", data=everyone).status_code == 302
    with app.app_context():
        survey = db.session.scalar(db.select(Survey).filter_by(slug=draft))
        assert survey.questions[2].display_rule is None and survey.revision > revision


def test_the_builder_puts_questions_on_pages_and_draws_a_page_s_order(app, researcher, draft):
    for key in ("a", "b", "c"):
        data = dict(YESNO, key=key, procedure="direct" if key == "a" else "spinner_coin")
        assert researcher.post(f"/surveys/{draft}/questions/new", data=data).status_code == 302
    page = researcher.get(f"/surveys/{draft}/edit").get_data(as_text=True)
    assert 'name="start-b"' in page and 'name="title-a-en"' in page
    cut = {"start-b": "1", "title-b-en": "Sensitive", "randomize-b": "1"}
    assert researcher.post(f"/surveys/{draft}/pages", data=cut).status_code == 302
    with app.app_context():
        survey = db.session.scalar(db.select(Survey).filter_by(slug=draft))
        assert [(p["questions"], p.get("randomize", False)) for p in survey.pages] == [
            (["a"], False), (["b", "c"], True),
        ]  # fmt: skip
        assert survey.pages[1]["title"] == {"en": "Sensitive"}
        revision = survey.revision
    page = researcher.get(f"/surveys/{draft}/edit").get_data(as_text=True)
    assert 'value="Sensitive"' in page and re.search(r'name="randomize-b" value="1" checked', page)
    # A new question goes on the last page; one page again is no pages at all.
    assert (
        researcher.post(f"/surveys/{draft}/questions/new", data=dict(YESNO, key="d")).status_code
        == 302
    )
    assert researcher.post(f"/surveys/{draft}/pages", data={}).status_code == 302
    with app.app_context():
        survey = db.session.scalar(db.select(Survey).filter_by(slug=draft))
        assert survey.pages is None and survey.revision > revision


def test_a_page_order_that_would_hide_what_a_rule_reads_is_refused(app, researcher, draft):
    year = dict(MULTI, kind="direct", key="year", options="First\nLater\n")
    assert researcher.post(f"/surveys/{draft}/questions/new", data=year).status_code == 302
    shown = dict(YESNO, key="again", procedure="direct", show_if_question="year",
                 show_if_answers="first")  # fmt: skip
    assert researcher.post(f"/surveys/{draft}/questions/new", data=shown).status_code == 302
    # Both on one page whose order is drawn: "year" might come after the rule that reads it.
    response = researcher.post(
        f"/surveys/{draft}/pages", data={"randomize-year": "1"}, follow_redirects=True
    )
    assert "&#39;year&#39; is not a question asked directly before this one" in response.get_data(
        as_text=True
    )
    with app.app_context():
        assert db.session.scalar(db.select(Survey).filter_by(slug=draft)).pages is None


def test_the_builder_shows_a_page_to_some_respondents_only(app, researcher, draft):
    year = dict(MULTI, kind="direct", key="year", options="First\nLater\n")
    for data in (year, dict(YESNO, key="s1"), dict(YESNO, key="s2")):
        assert researcher.post(f"/surveys/{draft}/questions/new", data=data).status_code == 302
    cut = {"start-s1": "1", "show-s1": "year", "answers-s1": "later"}
    assert researcher.post(f"/surveys/{draft}/pages", data=cut).status_code == 302
    with app.app_context():
        survey = db.session.scalar(db.select(Survey).filter_by(slug=draft))
        assert survey.pages[1]["show_if"] == {"question": "year", "in": ["later"]}
    page = researcher.get(f"/surveys/{draft}/edit").get_data(as_text=True)
    assert '<option value="year" data-rule-reads="answers" selected>' in page
    assert 'value="later"' in page
    # Saved again without touching it, the rule stays; a wrong answer is refused by its page.
    again = {"start-s1": "1", "show-s1": "year", "answers-s1": "later"}
    assert researcher.post(f"/surveys/{draft}/pages", data=again).status_code == 302
    wrong = dict(again, **{"answers-s1": "third"})
    response = researcher.post(f"/surveys/{draft}/pages", data=wrong, follow_redirects=True)
    assert "&#39;third&#39; is not an answer of &#39;year&#39;" in response.get_data(as_text=True)
    with app.app_context():
        survey = db.session.scalar(db.select(Survey).filter_by(slug=draft))
        assert survey.pages[1]["show_if"] == {"question": "year", "in": ["later"]}


def test_the_builder_takes_a_rule_of_several_conditions_written_out(app, researcher, draft):
    year = dict(MULTI, kind="direct", key="year", options="First\nLater\n")
    student = dict(YESNO, key="student", procedure="direct")
    for data in (year, student, dict(YESNO, key="s1")):
        assert researcher.post(f"/surveys/{draft}/questions/new", data=data).status_code == 302
    written = "${student} = 'yes' and (${year} = 'first' or ${year} = 'later')"
    shown = dict(YESNO, key="again", procedure="direct", show_if_written=written)
    assert researcher.post(f"/surveys/{draft}/questions/new", data=shown).status_code == 302
    rule = {"all": [{"question": "student", "in": ["yes"]},
                    {"question": "year", "in": ["first", "later"]}]}  # fmt: skip
    with app.app_context():
        survey = db.session.scalar(db.select(Survey).filter_by(slug=draft))
        assert survey.questions[3].display_rule == rule
    form = researcher.get(f"/surveys/{draft}/questions/again").get_data(as_text=True)
    assert (
        "${student} = &#39;yes&#39; and (${year} = &#39;first&#39; or ${year} = &#39;later&#39;)"
        in form
    )
    assert '<option selected value="@written">' in form  # the list names the written rule
    for text, message in [
        ("${s1} = 'yes'", "&#39;s1&#39; is randomized"),
        ("${student} ~ 'yes'", "relevant reads ${question} = &#39;answer&#39;"),
    ]:
        response = researcher.post(
            f"/surveys/{draft}/questions/again", data=dict(shown, show_if_written=text)
        )
        assert response.status_code == 200 and message in response.get_data(as_text=True)
    # A page's rule and its screen-out, written out too.
    cut = {"start-s1": "1", "written-s1": "${student} = 'yes' or ${year} = 'first'",
           "screen-written-year": "${student} = 'no' and ${year} = 'later'"}  # fmt: skip
    assert researcher.post(f"/surveys/{draft}/pages", data=cut).status_code == 302
    with app.app_context():
        pages = db.session.scalar(db.select(Survey).filter_by(slug=draft)).pages
        assert pages[1]["show_if"] == {"any": [{"question": "student", "in": ["yes"]},
                                               {"question": "year", "in": ["first"]}]}  # fmt: skip
        assert pages[0]["screen_out_if"]["all"][1] == {"question": "year", "in": ["later"]}
    page = researcher.get(f"/surveys/{draft}/edit").get_data(as_text=True)
    assert (
        'name="written-s1" value="${student} = &#39;yes&#39; or ${year} = &#39;first&#39;"' in page
    )
    # Emptied, the written rule goes: everyone is shown the question.
    cleared = dict(shown, show_if_written="", show_if_question="@written")
    assert researcher.post(f"/surveys/{draft}/questions/again", data=cleared).status_code == 302
    with app.app_context():
        survey = db.session.scalar(db.select(Survey).filter_by(slug=draft))
        assert survey.questions[3].display_rule is None


def test_a_comprehension_checks_right_answer_is_set_kept_and_checked(app, researcher, draft):
    check = dict(YESNO, text="Who decides?", key="check", kind="direct",
                 options="The spinner\nMe\n", option_ids="spinner\nme")  # fmt: skip
    wrong = researcher.post(f"/surveys/{draft}/questions/new", data=check | {"correct": "coin"})
    said = wrong.get_data(as_text=True)
    assert wrong.status_code == 200 and "must be one of the question&#39;s option ids" in said
    assert said.index("must be one of") > said.index('id="correct"')  # beside its field
    assert researcher.post(f"/surveys/{draft}/questions/new",
                           data=check | {"correct": "spinner"}).status_code == 302  # fmt: skip

    def right() -> str | None:
        with app.app_context():
            return db.session.scalar(db.select(Survey).filter_by(slug=draft)).questions[0].correct

    assert right() == "spinner"
    page = researcher.get(f"/surveys/{draft}/questions/check").get_data(as_text=True)
    assert (
        'id="correct" maxlength="64" name="correct" spellcheck="false" type="text" value="spinner"'
        in page
    )
    # Editing its wording keeps it; an empty field makes it a plain direct question again.
    researcher.post(
        f"/surveys/{draft}/questions/check", data=check | {"text": "Who?", "correct": "spinner"}
    )
    assert right() == "spinner"
    exported = json.loads(researcher.get(f"/surveys/{draft}/survey.json").get_data(as_text=True))
    assert exported["questions"][0]["correct"] == "spinner"
    researcher.post(f"/surveys/{draft}/questions/check", data=check | {"correct": ""})
    assert right() is None


def test_a_questions_help_text_is_set_in_the_builder_and_shown_under_it(
    app, client, researcher, draft
):
    helped = dict(YESNO, hint="  Any exam this year, online ones too  ")
    assert researcher.post(f"/surveys/{draft}/questions/new", data=helped).status_code == 302
    exported = json.loads(researcher.get(f"/surveys/{draft}/survey.json").get_data(as_text=True))
    assert exported["questions"][0]["hint"] == "Any exam this year, online ones too"
    form = researcher.get(f"/surveys/{draft}/questions/did").get_data(as_text=True)
    assert "Any exam this year, online ones too</textarea>" in form
    researcher.post(f"/surveys/{draft}/status", data={"status": "open"})
    page = client.get(f"/s/{draft}").get_data(as_text=True)
    section = page.split('data-question="did"')[1].split("</section>")[0]
    assert 'aria-describedby="q1-hint"' in section
    assert (
        '<p class="question-hint" id="q1-hint"><span>Any exam this year, online ones too</span>'
        in section
    )
    # Emptied, it is gone: from the file and from the page.
    researcher.post(f"/surveys/{draft}/questions/did", data=YESNO | {"hint": ""})
    exported = json.loads(researcher.get(f"/surveys/{draft}/survey.json").get_data(as_text=True))
    assert "hint" not in exported["questions"][0]
