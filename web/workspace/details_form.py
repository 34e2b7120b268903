"""The edit page's forms of a survey's own details: filled from the survey, read back as the
editing functions take them (texts per language, fielding, panel, languages), and the texts each
place still lacks."""

from __future__ import annotations

import re
from datetime import UTC

from web.core.infrastructure.i18n import LANGUAGES
from web.core.models import Survey
from web.core.surveys.editing import missing_texts
from web.core.surveys.fielding import Fielding
from web.core.surveys.panel import ADDRESSES, Panel
from web.core.surveys.problems import Problem
from web.core.surveys.texts import language_name
from web.workspace.forms import FieldingForm, LanguagesForm
from web.workspace.quota_form import quotas_text
from web.workspace.translated_fields import form_texts, texts_data, translated_form


def details_form(survey: Survey):
    """The edit page's form, filled from the survey, with a column per language."""
    languages = survey.language_list
    data = {"results_batch": survey.results_batch, "slug": survey.slug}
    data |= {"series": survey.series, "wave": survey.wave}
    for name in ("title", "description", "consent", "thanks"):
        data |= texts_data(name, survey.texts(name), languages)
    for name in ("completion_code", "completion_url", "target_n"):
        data[name] = getattr(survey, name)
    panel = Panel.stored(survey.panel)
    if panel is not None:
        data |= {"panel_parameters": " ".join(map(str, panel.parameters))}
        data |= {f"panel_{name}": getattr(panel, name) for name in ADDRESSES}
    data["quotas"] = quotas_text(survey)
    for name in ("opens_at", "closes_at"):
        moment = getattr(survey, name)
        data[name] = moment.astimezone(UTC).replace(tzinfo=None) if moment else None
    return translated_form(FieldingForm, languages, data=data)


def panel_from_form(form) -> Panel | None:
    """The panel as typed: none where all its fields are empty."""
    names = (form.panel_parameters.data or "").split()
    addresses = [(form[f"panel_{name}"].data or "").strip() or None for name in ADDRESSES]
    return Panel(tuple(names), *addresses) if names or any(addresses) else None


def on_panel_fields(problem: Problem) -> Problem:
    """A panel's mistake on the field it is typed in (``panel.parameters[1]`` on the
    parameters')."""
    place = problem.place.split("[", 1)[0]
    fields = {f"panel.{name}": f"panel_{name}" for name in ("parameters", *ADDRESSES)}
    return Problem(fields.get(place, problem.place), problem.message)


def fielding_from_form(form, languages: list[str]) -> Fielding:
    """Consent, thank-you, completion and schedule as typed (times are UTC)."""

    def moment(field):
        return field.data.replace(tzinfo=UTC) if field.data else None

    return Fielding(
        consent=form_texts(form, "consent", languages),
        thanks=form_texts(form, "thanks", languages),
        completion_code=(form.completion_code.data or "").strip() or None,
        completion_url=(form.completion_url.data or "").strip() or None,
        opens_at=moment(form.opens_at),
        closes_at=moment(form.closes_at),
        target_n=form.target_n.data,
    )


def languages_form(survey: Survey) -> LanguagesForm:
    languages = survey.language_list
    data: dict = {"default": languages[0]}
    data |= {f"use_{code}": code in languages for code in LANGUAGES}
    return LanguagesForm(data=data)


def missing_by_place(survey: Survey) -> dict[str, list[str]]:
    """Texts lacking a language, by where they are (``title``, ``questions[0].text``, …)."""
    missing: dict[str, list[str]] = {}
    for place, language in missing_texts(survey):
        missing.setdefault(place.rsplit(".", 1)[0], []).append(language)
    return missing


def question_gaps(missing: dict[str, list[str]]) -> dict[int, list[str]]:
    """The languages each question (by position) lacks a text in, its options' included."""
    gaps: dict[int, list[str]] = {}
    for place, codes in missing.items():
        found = QUESTION_PLACE.match(place)
        if found:
            listed = gaps.setdefault(int(found[1]), [])
            listed += [language_name(code) for code in codes if language_name(code) not in listed]
    return gaps


QUESTION_PLACE = re.compile(r"\Aquestions\[(\d+)\]")
