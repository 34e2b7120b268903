"""Words a reader meets, as a survey methodologist would write them: a number typed is "sent as
you type it", the survey's languages are listed as languages, and Korean particles never follow an
English id."""

from __future__ import annotations

import copy
import re

from babel.messages.pofile import read_po

from tests.conftest import FIELDED_SURVEY
from tests.servers import ROOT
from tests.web.core.surveys.questions.test_plain_numbers import AGES

PO = ROOT / "translations/ko/LC_MESSAGES/messages.po"


def test_a_number_asked_directly_is_sent_as_typed(client, import_survey):
    slug = import_survey(AGES)
    page = client.get(f"/s/{slug}").get_data(as_text=True)
    age = page.split('data-question="age"')[1].split("</section>")[0]
    assert "sent exactly as you type it" in age and "as you choose" not in age


def test_the_dashboard_lists_a_surveys_languages_in_korean_as_languages(import_survey, researcher):
    slug = import_survey(copy.deepcopy(FIELDED_SURVEY))
    page = researcher.get(f"/surveys/{slug}", headers={"Accept-Language": "ko"}).get_data(
        as_text=True
    )
    summary = page.split('id="fielding-summary"')[1].split("</ul>")[0]
    assert "이 설문의 언어: English, 한국어." in summary and "로 쓰였습니다" not in summary


# Placeholders that hold an id or a name as written (a condition's "spin", a slug, an email).
IDS = "condition|versus|slug|others|key|ids|email|question|label|names|title"


def test_no_korean_particle_follows_an_id_bare():
    """An id may be English ("spin"): "spin는" reads wrong whatever comes; a particle after one is
    written for both endings, 은(는), or the sentence names what it is ("spin 조건은")."""
    with PO.open("rb") as handle:
        catalog = read_po(handle)
    bare = re.compile(rf"%\(({IDS})\)s(는|은|가|이|를|을|로)(?![(\w])")
    found = [message.string for message in catalog if message.id and bare.search(message.string)]
    assert found == []


def test_a_number_asked_directly_is_not_called_a_spin_in_the_builder(import_survey, researcher):
    slug = import_survey(AGES)
    page = researcher.get(f"/surveys/{slug}/edit").get_data(as_text=True)
    age = page.split("<span>How old are you?</span>")[1].split("</tr>")[0]
    assert "Number, asked directly" in age and "one spin" not in age
