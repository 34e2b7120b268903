"""Bayesian estimates beside the published ones: each item's posterior from the same published
counts (:mod:`rr.bayes`), always inside [0, 1] (a number question's inside its range).

- a yes/no item, a multi-select option, a design's item, a number question: the posterior of π
  through the item's line with a Beta(a, b) prior (a number's mean is min + (max − min)·π);
- a single-choice question: the Dirichlet posterior of its k shares (Gibbs sampling with a fixed
  seed, so a version of the results always gives the same figures), with Dirichlet(a, …, a);
- a direct question's option: the Beta(a + chosen, b + n − chosen) posterior of its plain share;
- cheating detection: the joint posterior of π (honest yes) and γ (cheaters) with a uniform prior
  on their simplex, whatever the Beta prior asked (:func:`rr.arm_posteriors.cheating_posterior`); π's
  figures stand on the item, γ's beside the question's ``cheating``; likewise the stochastic lie
  detector's π and t (``honesty``), with a uniform prior on their square, and the extended
  crosswise model's π, with a uniform prior over both arms (:mod:`rr.arm_posteriors`).

Nothing here reads a response: the posterior is post-processing of the published snapshot and
costs no ε.
"""

from __future__ import annotations

from typing import NamedTuple

import rr
from web.core.results.figures import QuestionResult, SurveyResults, significant
from web.core.surveys.designs import arms_design, design_named

FIELDS = ("posterior_mean", "posterior_sd", "cri_low", "cri_high", "hdi_low", "hdi_high")
CHOICE_DRAWS = 4000


class BayesSettings(NamedTuple):
    """The prior (Beta(a, b), or Dirichlet(a, …, a) for single choice) and an optional threshold t
    for P(π > t) (in a number question's units for its mean)."""

    a: float = 1.0
    b: float = 1.0
    threshold: float | None = None


class BayesError(ValueError):
    """Settings the estimates cannot take; the message says why."""


def bayes_settings(prior: str | None, threshold: str | None) -> BayesSettings:
    """``prior=a,b`` and ``threshold=t`` as written in a query; BayesError naming what is wrong."""
    a, b = 1.0, 1.0
    if prior:
        parts = prior.split(",")
        try:
            a, b = (float(part) for part in parts)
        except ValueError:
            raise BayesError(f"prior must be two numbers a,b, got {prior!r}") from None
        if not (0 < a <= 1e6 and 0 < b <= 1e6):
            raise BayesError(f"prior must be two numbers above 0 (at most 1e6), got {prior!r}")
    t = None
    if threshold:
        try:
            t = float(threshold)
        except ValueError:
            raise BayesError(f"threshold must be a number, got {threshold!r}") from None
        if t != t or t in (float("inf"), float("-inf")):
            raise BayesError(f"threshold must be a finite number, got {threshold!r}")
    return BayesSettings(a, b, t)


def question_posteriors(question: QuestionResult, settings: BayesSettings) -> list[dict | None]:
    """Each item's posterior figures (None for an item with no responses or withheld, and for a
    design of two arms the app computes no posterior of); a cheating-detection question's item
    has π's."""
    return _posteriors(question, settings)[0]


def _posteriors(question: QuestionResult, settings: BayesSettings):
    """Each item's posterior figures, and the second figure's for a design of two arms (else
    None): its joint posterior is computed once for both."""
    if not question.visible:
        return [None] * len(question.items), None
    if "arms" in question.extra:
        found = _arms_posterior(question)
        if found is None:
            return [None], None
        second = None if found[1] is None else _marginal_figures(found[1])
        return [_marginal_figures(found[0])], second
    return _item_posteriors(question, settings), None


def _item_posteriors(question: QuestionResult, settings: BayesSettings) -> list[dict | None]:
    """The posteriors of a question of one line (assumes it visible)."""
    if question.sums_to_one:
        return _choice(question, settings)
    scale = question.design.scale
    # Each tally's line: its design's (asking directly's is the identity, λ₁ = 1 and λ₀ = 0).
    line = design_named(question.procedure).rr_design(question.epsilon, question.design)
    offset, slope = line.offset, line.slope
    low, width = (scale.low, scale.high - scale.low) if scale is not None else (0.0, 1.0)
    figures: list[dict | None] = []
    for item in question.items:
        if item.n == 0 or item.withheld:
            figures.append(None)
            continue
        found = rr.posterior(item.noisy_yes, item.n, offset, slope, (settings.a, settings.b))
        cri, hdi = found.interval(), found.hdi()
        values = dict(
            zip(
                FIELDS,
                (low + width * found.mean, width * found.sd,
                 low + width * cri[0], low + width * cri[1],
                 low + width * hdi[0], low + width * hdi[1]),
                strict=True,
            )
        )  # fmt: skip
        if settings.threshold is not None:
            share = (settings.threshold - low) / width
            values["prob_above"] = (
                1.0 if share < 0 else 0.0 if share > 1 else found.prob_above(share)
            )
        figures.append({name: significant(value) for name, value in values.items()})
    return figures


def _arms_posterior(question: QuestionResult):
    """The posterior of the asked share and of the design's second figure from the published
    arms, or None while an arm has fewer than two respondents."""
    arms = question.extra["arms"]
    if any(arm["n"] < 2 for arm in arms):
        return None
    return arms_design(design_named(question.procedure)).posterior(
        question.design, [arm["noisy_yes"] for arm in arms], [arm["n"] for arm in arms]
    )


def _marginal_figures(marginal) -> dict:
    """A gridded marginal's figures under the API's names (no P(> t): the grid is too coarse
    for the far tail)."""
    values = dict(zip(FIELDS, marginal, strict=True))
    return {name: significant(value) for name, value in values.items()}


def _choice(question: QuestionResult, settings: BayesSettings) -> list[dict | None]:
    """A single-choice question's shares, from its options' reported counts."""
    counts = [item.noisy_yes for item in question.items]
    if not sum(counts):
        return [None] * len(counts)
    found = rr.choice_posterior(counts, question.epsilon, settings.a, draws=CHOICE_DRAWS, seed=0)
    cri, hdi = found.interval(), found.hdi()
    columns = (found.mean, found.sd, cri[0], cri[1], hdi[0], hdi[1])
    figures: list[dict | None] = []
    for index in range(len(counts)):
        values = {name: float(column[index]) for name, column in zip(FIELDS, columns, strict=True)}
        if settings.threshold is not None:
            values["prob_above"] = float((found.draws[:, index] > settings.threshold).mean())
        figures.append({name: significant(value) for name, value in values.items()})
    return figures


def with_posteriors(document: dict, results: SurveyResults, settings: BayesSettings) -> dict:
    """The results document with each item's posterior figures beside its published ones."""
    questions = []
    for entry, question in zip(document["questions"], results.questions, strict=True):
        entry = dict(entry)
        posteriors, second = _posteriors(question, settings)
        if "options" in entry:
            entry["options"] = [
                {**option, **(figures or {})}
                for option, figures in zip(entry["options"], posteriors, strict=True)
            ]
        elif posteriors and posteriors[0]:
            entry |= posteriors[0]
        if second is not None:
            name = arms_design(design_named(question.procedure)).second_figure
            if isinstance(entry.get(name), dict):
                entry[name] = {**entry[name], **second}
        questions.append(entry)
    return {
        **document,
        "method": "bayes",
        "prior": [settings.a, settings.b],
        **({"threshold": settings.threshold} if settings.threshold is not None else {}),
        "questions": questions,
    }
