"""The consent written from the survey's real settings: what it says of the questions answered
directly follows whether they must be answered; a question that must be is marked so."""

from __future__ import annotations

import copy

import pytest

from tests.conftest import FIELDED_SURVEY

DIRECT = {"id": "year", "type": "direct", "text": "Year?",
          "options": [{"id": "first", "text": "First"}, {"id": "later", "text": "Later"}]}  # fmt: skip
AGE = {"id": "age", "type": "number", "procedure": "direct", "text": "Age?", "min": 16, "max": 99}


def _bilingual(question: dict) -> dict:
    def both(text):
        return {"en": text, "ko": f"{text} (ko)"}

    return question | {
        "text": both(question["text"]),
        **({"options": [o | {"text": both(o["text"])} for o in question["options"]]}
           if "options" in question else {}),
    }  # fmt: skip


@pytest.mark.parametrize(
    ("required", "says"),
    [
        ((False, False), "You may leave any of them out."),
        ((True, True), "Each of them must be answered to take part."),
        ((True, False), "Those marked “needs an answer” must be answered"),
    ],
)
def test_the_consent_says_what_the_direct_questions_really_ask(
    client, import_survey, required, says
):
    data = copy.deepcopy(FIELDED_SURVEY)
    data["questions"] += [
        _bilingual(DIRECT | ({"required": True} if required[0] else {})),
        _bilingual(AGE | ({"required": True} if required[1] else {})),
    ]
    page = client.get(f"/s/{import_survey(data)}").get_data(as_text=True)
    note = page.split('id="consent-direct-note"')[1].split("</p>")[0]
    assert says in note and ("you may leave it out" not in note)
    assert page.count('class="required-mark"') == sum(required)
