"""The builder's words for a questionnaire's flow: each question's page, to whom it is shown and
whether its options' order is drawn (the builder does not edit them yet: a survey file does)."""

from __future__ import annotations

from flask_babel import gettext as _

from web.core.infrastructure.i18n import shown
from web.core.surveys.flow.pages import stored_pages
from web.core.surveys.flow.walk import survey_flow


def flow_notes(survey) -> dict[str, list[str]]:
    """Notes per question id: its page (and whether its order is drawn), its display rule in
    words, its shuffled options; none for a survey of one page with no logic."""
    flow = survey_flow(survey)
    if flow.simple:
        return {}
    notes: dict[str, list[str]] = {}
    for page in stored_pages(survey.pages):
        title = shown(page.title).text if page.title else page.key
        words = _("page “%(page)s”", page=title)
        if page.randomize:
            words += " " + _("(its order drawn)")
        for name in page.questions:
            notes.setdefault(name, []).append(words)
    shuffled = {each.question for each in flow.shuffled}
    for flow_page in flow.pages:
        for name in flow_page.questions:
            rule = flow.shown_if_words(name)
            if rule:
                notes.setdefault(name, []).append(_("shown if %(rule)s", rule=rule))
            if name in shuffled:
                notes.setdefault(name, []).append(_("options in a drawn order"))
    return notes
