"""Exports: reported responses and estimates as CSV, and a codebook to recompute every estimate."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Sequence

from sqlalchemy import func

import rr
from web.core.infrastructure.extensions import db
from web.core.infrastructure.formula_guard import csv_row
from web.core.models import Response, Survey, unbounded_questions
from web.core.results.bayes import FIELDS as BAYES_FIELDS
from web.core.results.bayes import BayesSettings, question_posteriors
from web.core.results.experiment_code import experiment_entry
from web.core.results.figures import (
    SurveyResults,
    published_results,
    significant,
)
from web.core.results.list_experiments import ListResult
from web.core.surveys.designs.r_code import CHANGE_FUNCTION, INSTALL, READ_CSV
from web.core.surveys.flow.conditions import condition_markers, response_condition
from web.core.surveys.flow.pages import stored_pages
from web.core.surveys.flow.walk import OPTION_ORDER, PAGE_ORDER, Flow, survey_flow
from web.core.surveys.series import page_light, permanent_report
from web.core.surveys.texts import Texts

SHARE_FIELDS = ("estimate", "std_error", "ci_low", "ci_high")
ESTIMATE_COLUMNS = (
    "question",
    "option",
    "type",
    "procedure",
    "epsilon",
    "light_fraction",
    "n",
    "noisy_yes",
    "reported_yes_share",
    "estimate",
    "std_error",
    "ci_low",
    "ci_high",
    "estimated_count",
    "estimated_count_raw",
)


def response_columns(survey: Survey) -> list[tuple[str, str, str | None]]:
    """(header, question key, part) of each column: a yes/no question's bit, each option's bit
    of a multi-select question, the reported option id of a single-choice question, each row of
    a grid (its part the row)."""
    return [
        (question.type.column(item), question.key, part or None)
        for question in survey.questions
        for item in question.type.items_of(question)
        for _key, _dot, part in (item.partition("."),)
    ]


def responses_csv(survey: Survey, min_n: int) -> Iterator[str]:
    """CSV of the published snapshot's reported bits, one row per response, in random order so
    that the order says nothing about who answered when; no rows below ``min_n`` published
    responses. A question skipped, or added after a response, leaves its cell empty. An experiment's responses
    start with their ``condition``, and leave the other conditions' columns empty."""
    columns = response_columns(survey)
    markers = condition_markers(survey.questions)
    orders = order_columns(survey_flow(survey))
    header = [name for name, _key, _part in columns]
    header += [name for name, _ in orders]
    yield _line(["condition", *header] if markers else header)
    buffer = []
    for answers in shuffled_answers(survey, min_n):
        cells = [answer_cell(answers, key, part) for _name, key, part in columns]
        cells += [" ".join(answers.get(stored) or ()) for _, stored in orders]
        if markers:
            cells.insert(0, response_condition(answers, markers) or "")
        buffer.append(_line(cells))
        if len(buffer) == 5000:
            yield "".join(buffer)
            buffer = []
    yield "".join(buffer)


def shuffled_answers(survey: Survey, min_n: int) -> Iterator[dict]:
    """Each published response's stored answers in random order (so that the order says nothing
    about who answered when); none below ``min_n`` published responses."""
    if survey.published_count < max(min_n, 1):
        return
    rows = db.session.execute(
        db.select(Response.bits)
        .where(Response.survey_id == survey.id)
        .order_by(func.random())
        .execution_options(yield_per=5000)
    )
    for (bits,) in rows:
        yield json.loads(bits)


def order_columns(flow: Flow) -> list[tuple[str, str]]:
    """(CSV column, stored key) of each order drawn per respondent: ``order_<page>`` for a
    randomized page, ``options_<question>`` for shuffled options; each cell the ids as shown,
    separated by spaces, or empty where the page or question was not shown."""
    pages = [
        (f"order_{page.key}", f"{PAGE_ORDER}{page.key}") for page in flow.pages if page.randomize
    ]
    return pages + [
        (f"options_{each.question}", f"{OPTION_ORDER}{each.question}") for each in flow.shuffled
    ]


def text_columns(languages) -> list[str]:
    """The wording columns of the estimates CSV: the question's and the option's, per language."""
    return [f"text_{code}" for code in languages] + [f"option_text_{code}" for code in languages]


def _texts(question, item, languages) -> list[str]:
    options = item.option_text or Texts()
    return [question.text.get(code, "") for code in languages] + [
        options.get(code, "") for code in languages
    ]


def estimates_csv(
    results: SurveyResults, settings: BayesSettings | None = None, lists: Sequence[ListResult] = ()
) -> str:
    """CSV of the published estimates, one row per tally: a yes/no question, or one option, with
    their wording in every language of the survey; then a row per list experiment (``lists``: its
    difference in means; no ε, no reports). A question whose figures are withheld (below the
    minimum n) has no rows; a direct answer chosen by fewer than the minimum n has its row with
    no count or figures. With ``settings``, each row also has its posterior (Bayesian columns
    last: a reader of the plain file finds its columns where they were)."""
    languages = results.languages
    bayes = [] if settings is None else list(BAYES_FIELDS)
    if settings is not None and settings.threshold is not None:
        bayes.append("prob_above")
    lines = [_line([*ESTIMATE_COLUMNS, *text_columns(languages), *bayes])]
    for question in results.questions:
        if not question.visible:
            continue
        posteriors = (
            question_posteriors(question, settings) if settings else [None] * len(question.items)
        )
        for item, posterior in zip(question.items, posteriors, strict=True):
            lines.append(
                _line(
                    [
                        question.key,
                        item.option or "",
                        question.kind,
                        question.procedure,
                        question.epsilon,
                        significant(question.light_fraction),
                        item.n,
                        "" if item.withheld else item.noisy_yes,
                        significant(item.reported_share),
                        *(significant(getattr(item, name)) for name in SHARE_FIELDS),
                        *(significant(count) for count in _counts(question, item)),
                        *_texts(question, item, languages),
                        *((posterior or {}).get(name, "") for name in bayes),
                    ]
                )
            )
    for found in lists:
        if found.estimate is None:
            continue  # withheld, or a list with fewer than two respondents
        shares = found.estimate
        lines.append(_line([
            found.key, "", found.kind, found.procedure, "", "", found.n, "", "",
            *(significant(getattr(shares, name)) for name in SHARE_FIELDS),
            significant(shares.estimate * found.n), significant(shares.estimate * found.n),
            *(found.text.get(code, "") for code in languages), *([""] * len(languages)),
            *([""] * len(bayes)),
        ]))  # fmt: skip
    return "".join(lines)


def _counts(question, item) -> tuple[float | None, float | None]:
    """An item's estimated count as every output shows it (within 0 and n; a number question's
    total as estimated), and as estimated."""
    shown = item.estimated_count if question.design.scale is not None else item.shown_count
    return shown, item.estimated_count


GROUP_COLUMNS = (
    "question",
    "option",
    "by",
    "group",
    "n",
    "estimate",
    "std_error",
    "ci_low",
    "ci_high",
)


def grouped_estimates_csv(results: SurveyResults, groups: dict, by: str) -> str:
    """CSV of every randomized item's estimate per group of direct question ``by``; a group below
    the minimum n has its row with no figures (and no n, which would say how few)."""
    lines = [_line(GROUP_COLUMNS)]
    for question in results.questions:
        for index, item in enumerate(question.items):
            for group in groups.get(question.key, []):
                figure = group.items[index]
                if group.withheld or figure.estimate is None:
                    lines.append(
                        _line(
                            [question.key, item.option or "", by, group.option, "", "", "", "", ""]
                        )
                    )
                    continue
                values = [significant(getattr(figure, name)) for name in SHARE_FIELDS]
                lines.append(
                    _line([question.key, item.option or "", by, group.option, figure.n, *values])
                )
    return "".join(lines)


TREND_COLUMNS = (
    "series", "item", "measure", "group", "wave", "n", "estimate", "ci_low", "ci_high",
    "change_from_wave", "change", "change_ci_low", "change_ci_high",
)  # fmt: skip


def trend_csv(trend) -> str:
    """CSV of a series' trend (:class:`web.core.results.trend.SeriesTrend`): one row per item,
    group and wave, with the change from the previous wave that shows the item; a wave below the
    minimum n has its row with no figures."""
    return "".join(
        [
            _line(TREND_COLUMNS),
            *(_line(row[name] for name in TREND_COLUMNS) for row in trend.rows()),
        ]
    )


def codebook(survey: Survey, results: SurveyResults) -> dict:
    """Everything needed to recompute each estimate with rr from the responses CSV, with the
    published snapshot's counts (withheld below the minimum n)."""
    languages, flow = survey.language_list, survey_flow(survey)
    estimated = {entry.key: entry for entry in results.questions}
    return {
        "survey": {
            "slug": survey.slug,
            "languages": languages,
            "title": survey.texts("title").for_file(languages),
            "description": survey.texts("description").for_file(languages),
            **({"series": survey.series, "wave": survey.wave} if survey.series else {}),
        },
        "published": {
            "n": results.n,
            "results_batch": results.results_batch,
            "min_n": results.min_n,
            "withheld": results.withheld,
            "note": "Every export holds the published snapshot: it moves only once results_batch "
            "new responses are in, and shows no counts or rows below min_n responses.",
        },
        "epsilon_total": survey.epsilon_total,
        "epsilon_unbounded": [question.key for question in unbounded_questions(survey)],
        "missing": "An empty cell of the responses CSV is a question the respondent skipped "
        "(decided before any spin; every question may be skipped unless it is required), or one "
        "the response was not asked (not shown to it by the survey's display logic, another "
        "condition of an experiment, or a question added later). Each item's n counts only "
        "the responses that answered it; the R calls read "
        "empty cells as NA and leave them out.",
        "R": {
            "install": INSTALL,
            "read": READ_CSV.format(slug=survey.slug),
            "note": "Each question's R calls run as written on d read this way. RRuni gives the "
            "prevalence (pi; with model FR, pi lists the shares of 0 and of 1: the prevalence is "
            "pi[2]); its standard errors divide by n - 1 where the app's maximum-likelihood "
            "ones divide by n (a ratio of sqrt(n / (n - 1)): 1.00017 at n = 3,000). rrreg's "
            "intercept is the logit of the prevalence: put the direct questions after ~ to "
            "regress, with start = rep(0, number of coefficients) (from random starting values "
            "rr may stop with 'missing value where TRUE/FALSE needed'). RRreg's CDMsym fit "
            "prints a harmless 'non-conformable arguments' message; rr's print() of an unrelated-known "
            "fit stops with 'object param not found' after the table: read coef(fit) and fit$se.",
        },
        "privacy": "ε is per spin. A yes/no question costs ε, a multi-select question k·ε for k "
        "options (one spin each), a single-choice question ε (one spin, then on dark a die), and "
        "a number question ε (one spin of a value wheel, then the spinner), and "
        "the survey the sum over its questions (sequential composition).",
        "estimator": "pi_hat = (noisy_share - a) / b, for both procedures. Yes/no and each "
        "multi-select option: a = 1/(1 + e^epsilon), b = tanh(epsilon/2). Each option of a "
        "single-choice question with k options: a = 1/(e^epsilon + k - 1), "
        "b = (e^epsilon - 1)/(e^epsilon + k - 1). 95% interval: Clopper-Pearson on the noisy "
        "share, mapped through the same line and clipped to [0, 1]. A number question's mean: "
        "min + (max - min) * pi_hat, its interval mapped the same way (clipped to [min, max]).",
        **({"trend": _trend_entry(survey)} if survey.series else {}),
        **({"experiment": experiment_entry(survey)} if survey.condition_list else {}),
        **({} if flow.simple else {"flow": _flow_entry(survey, flow, languages)}),
        "questions": [
            {
                **_question_entry(question, languages),
                **_published_counts(estimated.get(question.key)),
            }
            for question in survey.questions
        ],
    }


def codebook_text(survey: Survey) -> str:
    """The survey's codebook of its published results, as the JSON file researchers download."""
    return json.dumps(codebook(survey, published_results(survey)), ensure_ascii=False, indent=2)


def _trend_entry(survey: Survey) -> dict:
    """How to compute the change between two waves of the series in R, as the app does."""
    return {
        "series": survey.series,
        "method": "Change = later wave's estimate - earlier wave's (independent samples), with "
        "Newcombe's MOVER interval on each wave's exact Clopper-Pearson limits mapped through "
        "the item's line (noise_offset a, noise_slope b): the same for every wave of a series, "
        "whose items keep their design and epsilon.",
        "R": CHANGE_FUNCTION,
        "example": "rr_change(yes_from = 120, n_from = 400, yes_to = 95, n_to = 380, "
        "a = q$noise_offset, b = q$noise_slope)  # q: this codebook's entry for the item; "
        "yes and n from each wave's estimates CSV (noisy_yes, n). A number question's change "
        "in its units: multiply by (max - min).",
    }


def _flow_entry(survey: Survey, flow: Flow, languages: list[str]) -> dict:
    """The pages, display rules and drawn orders, and how the responses CSV records them."""
    return {
        "pages": [page.to_dict(languages) for page in stored_pages(survey.pages)],
        "order_columns": [name for name, _ in order_columns(flow)],
        "note": "Questions are asked page by page in the order listed. A question or page with "
        "show_if is shown only to respondents whose answers to questions asked directly meet "
        "it (never a randomized answer); a question not shown has an empty cell and is not "
        "counted in its n. order_<page> holds the order a randomized page's questions were "
        "shown in, options_<question> the order of a question's shuffled options (ids "
        "separated by spaces; fixed options keep their place); both are drawn at random per "
        "respondent, and an item's position can be read from them to check order effects.",
        "R": 'pos <- sapply(strsplit(d$order_<page>, " "), match, x = "<question id>")  '
        "# an item's position on a randomized page (NA where the page was not shown)",
    }


def _published_counts(result) -> dict:
    """A question's published n per tally (itself, or each option), or that it is withheld; none
    for an open question, which is listed, not estimated."""
    if result is None:
        return {}
    if not result.visible:
        return {"withheld": True}
    return {"withheld": False, "n": [item.n for item in result.items]}


def _question_entry(question, languages: list[str]) -> dict:
    offset, slope = question.asked_with.noise_line(question)
    entry = {
        "id": question.key,
        "text": question.texts.for_file(languages),
        "type": question.kind,
        "epsilon": rr.bound(question.epsilon),
        "epsilon_total": rr.bound(question.type.cost(question)),
        **_permanent_entry(question),
        "procedure": question.procedure,
        "required": question.required,
        "light_fraction": question.asked_with.light_fraction(question),
        "truth_probability": question.asked_with.truth_probability(question),
        "noise_offset": offset,
        "noise_slope": slope,
        "columns": [question.type.column(item) for item in question.type.items_of(question)],
        **question.asked_with.codebook(question),
    }
    if question.design.scale is not None:
        entry |= question.design.scale.for_file(languages)
    if question.display_rule is not None:
        entry["show_if"] = question.display_rule
    if question.shuffle_options:
        entry["shuffle_options"] = True
    if question.type.has_options:
        entry["options"] = [
            {"id": option.key, "text": option.texts.for_file(languages)}
            | ({"fixed": True} if option.fixed else {})
            for option in question.options
        ]
    return entry


def _permanent_entry(question) -> dict:
    """A question's permanent randomized response: its bound over all waves and both layers."""
    layers = permanent_report(question)
    if layers is None:
        return {}
    return {
        "epsilon_permanent": layers.epsilon_permanent,
        "permanent": {
            "keep": layers.keep,
            "wave_light": page_light(question),
            "values": layers.k,
            "note": "A permanent report per possible value is drawn once per series on the "
            "respondent's device (the value itself with probability keep); each wave reports "
            "the one for the true value, spun again with light share wave_light. One wave's "
            "report is generalized randomized response at epsilon, so every estimate uses the "
            "line above; all waves together reveal at most epsilon_permanent per distinct answer.",
        },
    }


def answer_cell(answers: dict, key: str, part: str | None):
    """One column's value in a response's stored answers: the question's answer, or one part of
    it (a multi-select's option, a grid's row); None where it has none."""
    value = answers.get(key)
    if part is not None:
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _line(values) -> str:
    """One CSV line; a text that a spreadsheet would take for a formula is made inert."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(
        csv_row("" if value is None else value for value in values)
    )
    return buffer.getvalue()
