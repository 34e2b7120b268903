"""No number a researcher reads comes from responses not yet published: one more response, below
a batch, changes no researcher page, download, API route or command, except the fieldwork counts
documented as such (a survey's responses received: HTML marked ``data-fieldwork``, the results'
``received``). Watching a count move one by one would tell each respondent's skips and
condition, which publishing in batches exists to hide."""

from __future__ import annotations

import json
import re

from tests.conftest import SAMPLE_SURVEY
from tests.helpers import bearer

SURVEY = {
    **SAMPLE_SURVEY,
    "slug": "batches",
    "results_batch": 5,
    "questions": [
        *SAMPLE_SURVEY["questions"],
        {
            "id": "year",
            "type": "direct",
            "text": "Year?",
            "options": [{"id": "first", "text": "First"}, {"id": "later", "text": "Later"}],
        },
    ],
}
FULL = {"cheated": 1, "substances": {"alcohol": 0, "tobacco": 1}, "year": "first"}
# The response that is not published yet: it skips a question.
SKIPPING = {"substances": {"alcohol": 1, "tobacco": 1}, "year": "later"}

PAGES = [
    "/surveys",
    "/surveys/{slug}",
    "/surveys/{slug}/panel",
    "/surveys/{slug}/edit",
    "/surveys/{slug}/questions/cheated",
    "/surveys/{slug}/questions/substances",
    "/surveys/{slug}/groups?by=year",
    "/surveys/{slug}/joint?items=cheated,substances.alcohol",
    "/surveys/{slug}/present",
    "/surveys/{slug}/present/panel",
    "/surveys/{slug}/estimates.csv",
    "/surveys/{slug}/estimates.csv?by=year",
    "/surveys/{slug}/codebook.json",
    "/surveys/{slug}/survey.json",
    "/surveys/{slug}/devices",
    "/surveys/{slug}/synthetic",
]
API = [
    "/api/surveys",
    "/api/surveys/{slug}",
    "/api/surveys/{slug}/results",
    "/api/surveys/{slug}/results?method=bayes",
    "/api/surveys/{slug}/fieldwork",
    "/api/surveys/{slug}/audit",
    "/api/surveys/{slug}/codebook.json",
    "/api/surveys/{slug}/methods",
    "/api/surveys/{slug}/joint?items=cheated,substances.alcohol",
    "/api/surveys/{slug}/difference?item=cheated&by=year&groups=first,later",
    "/api/surveys/{slug}/regression?item=cheated&on=year",
    "/api/surveys/{slug}/synthetic",
]
COMMANDS = [
    ["results", "{slug}"],
    ["results", "{slug}", "--by", "year"],
    ["fieldwork", "{slug}"],
    ["audit", "{slug}"],
    ["methods", "{slug}"],
    ["joint", "{slug}", "cheated,substances.alcohol"],
    ["regress", "{slug}", "cheated", "--on", "year"],
    ["export-survey", "{slug}"],
]
# What differs from one reading to the next whatever the responses: a form's token, a script's nonce.
# Reading the responses is itself an event of the audit log (which holds researchers' actions, never
# a response's): those events are left out.
VOLATILE = [
    re.compile(r'(name="csrf_token"[^>]*value=")[^"]+'),
    re.compile(r'(nonce=")[^"]+'),
    re.compile(r"(<[^>]*data-fieldwork[^>]*>)[^<]*"),
    re.compile(r"(\d+ of )\d+(?= responses published)"),  # flask results' fieldwork count
    re.compile(r'(<section class="card audit").*?</section>', re.DOTALL),
    re.compile(r"^().*\tdownloaded .*\n", re.MULTILINE),
]


def _masked(text: str) -> str:
    for pattern in VOLATILE:
        text = pattern.sub(r"\1", text)
    return text


def _json_masked(text: str) -> str:
    try:
        document = json.loads(text)
    except ValueError:
        return _masked(text)
    if isinstance(document, dict):
        document.pop("received", None)
        if "events" in document:
            document["events"] = [e for e in document["events"] if e["action"] != "exported"]
    return json.dumps(document, sort_keys=True)


def _readings(researcher, client, runner, token) -> dict[str, str]:
    slug = SURVEY["slug"]
    read = {}
    for path in PAGES:
        answer = researcher.get(path.format(slug=slug))
        assert answer.status_code == 200, (path, answer.status_code)
        read[path] = _masked(answer.get_data(as_text=True))
    for path in API:
        answer = client.get(path.format(slug=slug), headers=bearer(token))
        assert answer.status_code == 200, (path, answer.status_code, answer.get_data(as_text=True))
        read[path] = _json_masked(answer.get_data(as_text=True))
    for command in COMMANDS:
        done = runner.invoke(args=[part.format(slug=slug) for part in command])
        assert done.exit_code == 0, (command, done.output)
        read[" ".join(command)] = _masked(done.output)
    # The responses file's rows come in a random order each time: compared as a set of rows.
    rows = researcher.get(f"/surveys/{slug}/responses.csv").get_data(as_text=True).splitlines()
    read["responses.csv"] = "\n".join(sorted(rows))
    return read


def test_one_more_response_below_a_batch_moves_no_number_a_researcher_reads(
    app, client, runner, import_survey, researcher, token
):
    slug = import_survey(SURVEY)
    runner.invoke(args=["share", slug, "rita@example.org", "--role", "owner"])
    for index in range(20):
        answers = {**FULL, "year": ("first", "later")[index % 2], "cheated": index // 2 % 2}
        posted = app.test_client().post(f"/api/surveys/{slug}/responses", json={"answers": answers})
        assert posted.status_code == 201
    before = _readings(researcher, client, runner, token)
    assert before == _readings(researcher, client, runner, token)  # nothing moves by itself
    posted = app.test_client().post(f"/api/surveys/{slug}/responses", json={"answers": SKIPPING})
    assert posted.status_code == 201
    after = _readings(researcher, client, runner, token)
    moved = sorted(key for key in before if before[key] != after[key])
    assert moved == [], {key: _first_difference(before[key], after[key]) for key in moved}


def _first_difference(first: str, second: str) -> str:
    index = next(
        (at for at, (a, b) in enumerate(zip(first, second, strict=False)) if a != b),
        min(len(first), len(second)),
    )
    return (
        f"…{first[max(0, index - 80) : index + 40]!r} → {second[max(0, index - 80) : index + 40]!r}"
    )
