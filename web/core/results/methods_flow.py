"""The methods paragraph's account of how the questionnaire was fielded: who was asked what
(display rules), the orders drawn, which items could be skipped and each item's n, screen-outs,
quotas and panel recruitment. In the reader's language; symbols as :mod:`.methods` writes them."""

from __future__ import annotations

from flask_babel import gettext as _

from web.core.infrastructure.i18n import shown
from web.core.models import Survey
from web.core.results.figures import survey_results
from web.core.surveys.flow.pages import stored_pages
from web.core.surveys.flow.quotas import stored_quotas
from web.core.surveys.flow.walk import survey_flow
from web.core.surveys.panel import Panel


def fielding_paragraphs(survey: Survey, min_n: int) -> list[str]:
    """The paragraphs on the questionnaire's flow and fieldwork; none for a plain survey."""
    paragraphs = [
        paragraph
        for paragraph in (_flow(survey), _items(survey, min_n), _fieldwork(survey))
        if paragraph
    ]
    return paragraphs


def _wording(survey: Survey, key: str) -> str:
    question = next((q for q in survey.questions if q.question_id == key), None)
    return f"“{shown(question.texts).text}”" if question is not None else key


def _flow(survey: Survey) -> str:
    """Display rules and drawn orders."""
    flow = survey_flow(survey)
    sentences = []
    asked = []
    for page in flow.pages:
        for key in page.questions:
            words = flow.shown_if_words(key)
            if words:
                asked.append(_("%(question)s only of respondents with %(rule)s",
                               question=_wording(survey, key), rule=words))  # fmt: skip
    if asked:
        sentences.append(_("Questions were shown by the answers given directly: %(list)s.",
                           list="; ".join(asked)))  # fmt: skip
    drawn = [str(page.key) for page in flow.pages if page.randomize]
    if drawn:
        sentences.append(_("The order of the questions on page(s) %(pages)s was drawn at random "
                           "for each respondent and recorded with the response.",
                           pages=", ".join(drawn)))  # fmt: skip
    shuffled = [_wording(survey, item.question) for item in flow.shuffled]
    if shuffled:
        sentences.append(_("The order of the options of %(questions)s was drawn at random for "
                           "each respondent (options marked fixed kept their place).",
                           questions=", ".join(shuffled)))  # fmt: skip
    return " ".join(sentences)


def _items(survey: Survey, min_n: int) -> str:
    """Which items could be skipped, and each randomized item's n."""
    results = survey_results(survey, min_n)
    required = [q for q in survey.questions if q.required]
    sentences = [
        _("Every question could be skipped except %(questions)s.",
          questions=", ".join(dict.fromkeys(_wording(survey, q.question_id) for q in required)))
        if required
        else _("Every question could be skipped.")
    ]  # fmt: skip
    counts = [
        _("%(question)s n = %(n)s", question=_wording(survey, question.key.split("@")[0])
          + (f" ({question.condition})" if question.condition else ""), n=f"{question.n:,}")
        for question in results.questions
        if question.visible
    ]  # fmt: skip
    if counts:
        sentences.append(_("Respondents per item: %(counts)s.", counts="; ".join(counts)))
    return " ".join(sentences)


def _fieldwork(survey: Survey) -> str:
    """Screen-outs, quotas and a panel's recruitment."""
    sentences = []
    screens = [
        _("after page %(page)s, those with %(rule)s", page=page.key, rule=page.screen_out_if.words())
        for page in stored_pages(survey.pages)
        if page.screen_out_if is not None
    ]  # fmt: skip
    if screens:
        sentences.append(_("Respondents were screened out %(list)s; nothing of theirs was stored.",
                           list="; ".join(screens)))  # fmt: skip
    quotas = [
        _("%(quota)s (%(rule)s): %(limit)s", quota=quota.key, rule=quota.rule.words(),
          limit=f"{quota.limit:,}")
        for quota in stored_quotas(survey.quotas)
    ]  # fmt: skip
    if quotas:
        sentences.append(_("Completes were limited by quotas, a response past a full quota being "
                           "turned away: %(list)s.", list="; ".join(quotas)))  # fmt: skip
    if Panel.stored(survey.panel) is not None:
        sentences.append(_("Respondents were recruited through an online panel; the panel's id "
                           "for each respondent stayed on their device and was never stored with "
                           "the answers."))  # fmt: skip
    return " ".join(sentences)
