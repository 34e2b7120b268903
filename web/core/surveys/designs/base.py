"""What every design a question can be asked with answers, and the registry that names them.

A design is one class in one module of this package, registered with :func:`register`; the rest
of the app asks :func:`design_named` for the question's design and calls its methods, never
compares its name. An unknown name is refused with the list of known ones: there is no default
design anywhere.

``question`` arguments below are anything with a question's ``type`` (its
:class:`~web.core.surveys.questions.QuestionType`), ``epsilon``, ``options`` and ``design``
(its :class:`DesignParameters`): a stored question or a survey file's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from rr.errors import INFINITE_EPSILON, NO_INFORMATION, NOT_ONE, OUT_OF_RANGE
from web.core.surveys.designs.fields import DesignFields
from web.core.surveys.designs.page_draw import PageDraw
from web.core.surveys.designs.parameters import (
    NO_PARAMETERS,
    DesignParameters,
)
from web.core.surveys.designs.r_code import RModels
from web.core.surveys.limits import MAX_EPSILON
from web.core.surveys.planned import sample_sizes

# rr's refusals of a design's parameters (:class:`rr.ParameterError`), in the viewer's language.
REFUSALS: dict[str, Any] = {
    OUT_OF_RANGE: _l("must be strictly between 0 and 1, got %(value)r"),
    NOT_ONE: _l("the shares must add up to 1, got %(value)g"),
    NO_INFORMATION: _l(
        "these parameters give no information: a report is as likely under either true answer"
    ),
    INFINITE_EPSILON: _l(
        "these parameters give infinite epsilon: one report would give the true answer away"
    ),
}


def refusal_words(error: rr.ParameterError, words: dict[str, Any]) -> str:
    """rr's refusal ``error`` in the viewer's language: the design's ``words`` for its reason, or
    the general ones, or (for a reason no design expects) rr's own message."""
    text = words.get(error.reason) or REFUSALS.get(error.reason)
    if text is None:
        return _("not accepted: %(reason)s", reason=str(error))
    return str(text) % {"value": error.value}


_REGISTRY: dict[str, SurveyDesign] = {}
# How the codebook says to recompute a design's estimate from a column of reports.
LINE_RECOMPUTE = (
    "rr.Design(offset=noise_offset, slope=noise_slope).estimate(noisy_yes, n), or "
    "rr.<design>(parameters).estimate(noisy_yes, n)"
)


class UnknownDesign(ValueError):
    """A design name no module of this package registers; the message lists the known ones."""

    def __init__(self, name):
        self.name = name
        super().__init__(f"unknown design {name!r} (known: {', '.join(known_designs())})")


def register(cls: type[SurveyDesign]) -> type[SurveyDesign]:
    """Class decorator: make ``cls`` the design called ``cls.name``."""
    if cls.name in _REGISTRY:
        raise ValueError(f"two designs are called {cls.name!r}")
    _REGISTRY[cls.name] = cls()
    return cls


def design_named(name) -> SurveyDesign:
    """The registered design called ``name``; :class:`UnknownDesign` for any other."""
    found = find_design(name)
    if found is None:
        raise UnknownDesign(name)
    return found


def find_design(name) -> SurveyDesign | None:
    """The design called ``name``, or None: for checks that report an unknown name themselves."""
    return _REGISTRY.get(name) if isinstance(name, str) else None


def known_designs() -> tuple[str, ...]:
    """Every registered design's name, in the order researchers see them."""
    return tuple(design.name for design in registered())


def registered() -> tuple[SurveyDesign, ...]:
    """Every registered design, in the order researchers see them (``listed``, then name)."""
    return tuple(sorted(_REGISTRY.values(), key=lambda design: (design.listed, design.name)))


class SurveyDesign:
    """A way of turning a true answer into a report, as a survey states and shows it.

    Each design also states ``literature``: its name in the literature with the paper that
    introduced it (lazily translated), what a methods section calls it, beside each estimate
    (``tests/web/core/surveys/designs/test_designs.py`` holds every registered design to it)."""

    name: ClassVar[str]
    # Where it comes in the lists researchers see (the builder's, the error messages').
    listed: ClassVar[int] = 100
    label: ClassVar[object]  # a lazily translated name for the builder's list of procedures
    # What it states in a survey file, an XLSForm and the builder (none: the spinners).
    fields: ClassVar[DesignFields] = DesignFields()
    # What the respondent's page draws and says of it (designs/page_draw.py), made once: ``page``.
    Page: ClassVar[type[PageDraw]] = PageDraw
    # Whether a new question starts with it (exactly one design says so).
    default: ClassVar[bool] = False
    # Whether its ε comes from its parameters (every design but the spinners, whose ε is stated).
    derived: ClassVar[bool] = True
    # Whether every randomized question type may use it (the spinners) or a yes/no question only.
    every_type: ClassVar[bool] = False
    # Whether a question asked with it may keep a permanent report over a series' waves (the
    # symmetric channels only: the composite of two is one more, rr.permanent_response).
    keeps_permanent: ClassVar[bool] = False
    # Whether anything protects the answer (ε); not where it is asked directly.
    protects: ClassVar[bool] = True
    # The variant of a question type it makes, where a type asked with it reports otherwise
    # (:data:`web.core.surveys.questions.VARIANTS`): cheating detection's arm with each bit, a
    # number asked directly; None where every type reports as it does.
    variant: ClassVar[str | None] = None
    # The paper that introduced it, as a methods section's references list it (None: asked
    # directly).
    reference: ClassVar[str | None] = None
    # Its own words for rr's refusals (by :data:`rr.errors.REASONS`) where the general ones of
    # :data:`REFUSALS` would say less; ``%(value)`` in them is the value refused.
    refusals: ClassVar[dict[str, Any]] = {}

    @cached_property
    def page(self) -> PageDraw:
        """Its page part: the wheel, the respondent's own draw, the page's part and words."""
        return self.Page(self)

    # --- the numbers ---------------------------------------------------------------------------

    def rr_design(self, epsilon: float, parameters: DesignParameters) -> rr.Design:
        """The :class:`rr.Design` one report goes through; assumes checked parameters."""
        raise NotImplementedError

    def epsilon_of(self, epsilon: float | None, parameters: DesignParameters) -> float:
        """ε of one report: derived from the parameters, or the stated one for the spinners."""
        return self.rr_design(0.0, parameters).epsilon

    def problems(self, epsilon, parameters: DesignParameters) -> list[tuple[str, str]]:
        """Mistakes in its parameters, each as (field, message), in the viewer's language: shares
        out of range (:meth:`share_problems`), then shares in range that still make no design
        (:meth:`refusal`), then an ε above the limit or unlike a stated one, then an own
        randomizer the shares do not fit (its page's ``own_problems``)."""
        problems = self.fields.problems(parameters)
        if problems:
            return problems
        refusal = self.refusal(parameters)
        if refusal is not None:
            return [refusal]
        derived = epsilon_problems(self.epsilon_of(None, parameters), epsilon)
        return derived or self.page.own_problems(parameters)

    def refusal(self, parameters: DesignParameters) -> tuple[str, str] | None:
        """Why shares in range still make no design, as (field, message): rr's own check
        (:class:`rr.ParameterError`) in the viewer's language, on the share's field where one
        share is out of its range, else on the design's; assumes every share in [0, 1]."""
        try:
            self.rr_design(0.0, parameters)
        except rr.ParameterError as error:
            own_field = error.reason == OUT_OF_RANGE and error.parameter in self.fields.shares
            return (error.parameter if own_field else "procedure"), refusal_words(
                error, self.refusals
            )
        return None

    def light_fraction(self, question) -> float:
        """The share of the wheel that tells the truth (0 where none does)."""
        return question.design.share("p_truth") or 0.0

    def truth_probability(self, question) -> float:
        """How often the report is the true answer, at the least likely of the two."""
        design = self.rr_design(question.epsilon, question.design)
        return min(design.yes_given_yes, 1 - design.yes_given_no)

    def noise_line(self, question) -> tuple[float, float]:
        """Offset and slope of E[reported share] = a + b·π for each of the question's tallies."""
        design = self.rr_design(question.epsilon, question.design)
        return design.offset, design.slope

    # --- the researcher's pages, the codebook and R --------------------------------------------

    def researcher_words(self, parameters: DesignParameters, light: float) -> str:
        """How the reports were made, with its shares, for the researcher's pages."""
        raise NotImplementedError

    def codebook(self, question) -> dict:
        """The design in the literature's words, with R's matching models."""
        raise NotImplementedError

    def plan(self, numbers: dict, n: int) -> dict:
        """What the builder previews: ε, the report probabilities, the margin of error for ``n``
        respondents and the sample sizes for three margins.

        Raises
        ------
        ValueError
            Naming every mistake in ``numbers`` (shares by name, ``arms``).
        """
        parameters = self.fields.planned(numbers)
        design = design_of_plan(self, numbers)
        return {
            "procedure": self.name,
            **{name: numbers[name] for name in self.fields.share_names()},
            "epsilon": design.epsilon,
            "n": n,
            "yes_given_yes": design.yes_given_yes,
            "yes_given_no": design.yes_given_no,
            "margin_of_error": design.margin_of_error(n),
            "sample_size": sample_sizes(design.sample_size),
            "sectors": self.page.sectors(parameters),
        }

    # Its row in the classroom lab's comparison of designs at one ε (None: it has none).
    lab: ClassVar[LabRow | None] = None


def design_of_plan(design: SurveyDesign, numbers: dict, epsilon: float = 0.0) -> rr.Design:
    """The :class:`rr.Design` a plan's ``numbers`` state for ``design`` (a spinner's, at its
    ``epsilon``).

    Raises
    ------
    ValueError
        Naming every mistake in ``numbers``, or when the design has no single line (cheating
        detection).
    """
    parameters = design.fields.planned(numbers)
    problems = design.problems(None, parameters)
    if problems:
        raise ValueError("; ".join(f"{field}: {message}" for field, message in problems))
    return design.rr_design(epsilon, parameters)


def line_codebook(design: SurveyDesign, question, models: RModels, **notes) -> dict:
    """The codebook entry of a design with one line: its report probabilities, R's models
    and the calls that run them on each of its columns, ``notes`` (what a column holds), who
    draws, and how to recompute the estimate."""
    line = design.rr_design(question.epsilon, question.design)
    return {
        "design": design.name,
        "p_report_1_given_yes": line.yes_given_yes,
        "p_report_1_given_no": line.yes_given_no,
        **models.entry(question.type.items_of(question)),
        **notes,
        "randomizer": "respondent's own" if design.page.own_randomizer(question.design) else "page",
        "recompute": LINE_RECOMPUTE,
    }


@dataclass(frozen=True)
class LabRow:
    """A design's row in the lab's comparison of designs at one ε: its title, and one of its kind
    at a given ε (by default rr's member of it, :func:`rr.designs_at_epsilon`)."""

    title: object  # lazily translated
    at_epsilon: Callable[[float], rr.Design] | None = None

    def design(self, name: str, epsilon: float) -> rr.Design:
        """The design called ``name`` whose ε is ``epsilon``."""
        if self.at_epsilon is not None:
            return self.at_epsilon(epsilon)
        return rr.designs_at_epsilon(epsilon)[name]


def epsilon_problems(derived: float, stated) -> list[tuple[str, str]]:
    """A derived ε above the app's limit, or a stated one that is not the derived one."""
    if derived > MAX_EPSILON:
        return [
            (
                "procedure",
                _(
                    "these parameters give epsilon %(epsilon).3g, above the limit of %(limit)g: "
                    "a report would give the true answer away almost surely",
                    epsilon=derived,
                    limit=MAX_EPSILON,
                ),
            )
        ]
    if stated is not None and not (
        isinstance(stated, (int, float))
        and not isinstance(stated, bool)
        and abs(stated - derived) <= rr.design.TOLERANCE * max(abs(derived), 1e-300)
    ):
        return [
            (
                "epsilon",
                _(
                    "epsilon is %(derived)r for this design's parameters, but %(stated)r "
                    "was stated",
                    derived=derived,
                    stated=stated,
                ),
            )
        ]
    return []


def share_words(value) -> str:
    """A share as the researcher's pages print it."""
    return f"{value:.3g}"


__all__ = [
    "NO_PARAMETERS",
    "SurveyDesign",
    "UnknownDesign",
    "design_named",
    "LabRow",
    "epsilon_problems",
    "line_codebook",
    "find_design",
    "known_designs",
    "register",
    "registered",
]
