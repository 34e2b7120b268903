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

from typing import Any, ClassVar

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from rr.errors import INFINITE_EPSILON, NO_INFORMATION, NOT_ONE, OUT_OF_RANGE
from web.core.surveys.designs.fields import DesignFields
from web.core.surveys.designs.own_draw import OwnDraw, dice_draw, own_faces
from web.core.surveys.designs.parameters import (
    NO_PARAMETERS,
    DesignParameters,
)
from web.core.surveys.designs.r_code import RModels
from web.core.surveys.limits import MAX_EPSILON

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
    """A way of turning a true answer into a report, as a survey states and shows it."""

    name: ClassVar[str]
    # Where it comes in the lists researchers see (the builder's, the error messages').
    listed: ClassVar[int] = 100
    label: ClassVar[object]  # a lazily translated name for the builder's list of procedures
    # What it states in a survey file, an XLSForm and the builder (none: the spinners).
    fields: ClassVar[DesignFields] = DesignFields()
    # Whether a new question starts with it (exactly one design says so).
    default: ClassVar[bool] = False
    # Whether its ε comes from its parameters (every design but the spinners, whose ε is stated).
    derived: ClassVar[bool] = True
    # Whether every randomized question type may use it (the spinners) or a yes/no question only.
    every_type: ClassVar[bool] = False
    # Whether a question asked with it may keep a permanent report over a series' waves (the
    # symmetric channels only: the composite of two is one more, rr.permanent_response).
    keeps_permanent: ClassVar[bool] = False
    # Whether anything is drawn (a design with no randomizer has no light share to show).
    draws: ClassVar[bool] = True
    # Whether anything protects the answer (ε); not where it is asked directly.
    protects: ClassVar[bool] = True
    # Whether the page says how often the true answer is sent (not where none is ever sent).
    states_chance: ClassVar[bool] = True
    # The variant of a yes/no question it makes, when its reports carry more than one bit
    # (:data:`web.core.surveys.questions.VARIANTS`); None for one bit.
    yesno_variant: ClassVar[str | None] = None
    # Its own words for rr's refusals (by :data:`rr.errors.REASONS`) where the general ones of
    # :data:`REFUSALS` would say less; ``%(value)`` in them is the value refused.
    refusals: ClassVar[dict[str, Any]] = {}

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
        randomizer the shares do not fit (:meth:`own_problems`)."""
        problems = self.fields.problems(parameters)
        if problems:
            return problems
        refusal = self.refusal(parameters)
        if refusal is not None:
            return [refusal]
        derived = epsilon_problems(self.epsilon_of(None, parameters), epsilon)
        return derived or self.own_problems(parameters)

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

    def arm_model(self, parameters: DesignParameters) -> rr.CheatingDetection:
        """The model of a design whose respondents are put into arms, with a share of cheaters
        (:class:`rr.CheatingDetection`); a design of one line has none."""
        raise ValueError(f"{self.name} puts every respondent in one arm: it has no arm model")

    def cost(self, question) -> float:
        """The question's privacy cost: ε per spin (:func:`rr.question_epsilon`); 0 where
        nothing protects the answer."""
        if not self.protects:
            return 0.0
        return rr.question_epsilon(
            question.epsilon, question.type.spin_count(len(question.options))
        )

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

    # --- the respondent's page -----------------------------------------------------------------

    def own_randomizer(self, parameters: DesignParameters) -> bool:
        """Whether the page asks only for the report (the respondent draws, or nothing is drawn)."""
        return self.fields.own and parameters.randomizer == "own"

    def own_shares(self, parameters: DesignParameters) -> list[tuple[str, float]]:
        """The outcomes of the respondent's own draw and their shares (own randomizer only)."""
        return []

    def own_draw(self, parameters: DesignParameters) -> OwnDraw:
        """How the respondent draws with their own randomizer (own randomizer only): by default
        a die or a coin whose faces stand for :meth:`own_shares`' outcomes."""
        return dice_draw(self.own_shares(parameters))

    def sectors(self, parameters: DesignParameters) -> list[dict]:
        """The page's wheel: each sector's share and what it reports, from the top; empty where
        the page draws no wheel of the design's own."""
        return []

    def arm_sectors(self, parameters: DesignParameters) -> list[list[dict]]:
        """One wheel per arm, for a design with arms; empty for every other."""
        return []

    def respond_template(self, question) -> str:
        """The respondent page's part for the question."""
        if self.own_randomizer(question.design):
            return "respond/_own.html"
        return "respond/_designed.html"

    def respondent_words(self, question) -> str:
        """What decides the report, in the respondent's words."""
        raise NotImplementedError

    def report_words(self, parameters: DesignParameters) -> tuple[str, str]:
        """A report of 0 and of 1, in the respondent's words."""
        return _("No"), _("Yes")

    # --- the researcher's pages, the codebook and R --------------------------------------------

    def researcher_words(self, parameters: DesignParameters, light: float) -> str:
        """How the reports were made, with its shares, for the researcher's pages."""
        raise NotImplementedError

    def codebook(self, question) -> dict:
        """The design in the literature's words, with R's matching models."""
        raise NotImplementedError

    def line_codebook(self, question, models: RModels, **notes) -> dict:
        """The codebook entry of a design with one line: its report probabilities, R's models
        and the calls that run them on each of its columns, ``notes`` (what a column holds), who
        draws, and how to recompute the estimate."""
        design = self.rr_design(question.epsilon, question.design)
        return {
            "design": self.name,
            "p_report_1_given_yes": design.yes_given_yes,
            "p_report_1_given_no": design.yes_given_no,
            **models.entry(question.type.items_of(question)),
            **notes,
            "randomizer": "respondent's own" if self.own_randomizer(question.design) else "page",
            "recompute": LINE_RECOMPUTE,
        }

    @property
    def descriptor(self) -> dict:
        """What the page's scripts need of it (a spinner adds what its dark share does)."""
        return {"name": self.name}

    def plan(self, numbers: dict, n: int) -> dict:
        """What the builder previews: ε, the report probabilities, the margin of error for ``n``
        respondents and the sample sizes for three margins.

        Raises
        ------
        ValueError
            Naming every mistake in ``numbers`` (shares by name, ``arms``).
        """
        parameters = self.fields.planned(numbers)
        design = self.planned_design(numbers)
        return {
            "procedure": self.name,
            **{name: numbers[name] for name in self.fields.share_names()},
            "epsilon": design.epsilon,
            "n": n,
            "yes_given_yes": design.yes_given_yes,
            "yes_given_no": design.yes_given_no,
            "margin_of_error": design.margin_of_error(n),
            "sample_size": {f"{m:g}": design.sample_size(m) for m in (0.1, 0.05, 0.03)},
            "sectors": self.sectors(parameters),
        }

    def planned_design(self, numbers: dict, epsilon: float = 0.0) -> rr.Design:
        """The :class:`rr.Design` a plan's ``numbers`` state (a spinner's, its ``epsilon``).

        Raises
        ------
        ValueError
            Naming every mistake in ``numbers``, or when the design has no single line (cheating
            detection).
        """
        parameters = self.fields.planned(numbers)
        problems = self.problems(None, parameters)
        if problems:
            raise ValueError("; ".join(f"{field}: {message}" for field, message in problems))
        return self.rr_design(epsilon, parameters)

    # --- the classroom lab -------------------------------------------------------------------

    # Its row in the lab's comparison of designs at one ε (None: it has no row).
    lab_title: ClassVar[object] = None

    def at_epsilon(self, epsilon: float) -> rr.Design:
        """One of its kind whose ε is ``epsilon``, for the lab's comparison (designs with a
        ``lab_title``): by default rr's member of it (:func:`rr.designs_at_epsilon`)."""
        return rr.designs_at_epsilon(epsilon)[self.name]

    # --- shared checks, for the designs' own ``problems`` --------------------------------------

    def own_problems(self, parameters: DesignParameters) -> list[tuple[str, str]]:
        """An own randomizer whose shares are not a die's or a coin's faces."""
        own = self.fields.own and self.own_randomizer(parameters)
        if own and own_faces(self.own_shares(parameters)) is None:
            return [
                (
                    "randomizer",
                    _(
                        "with the respondent's own die or coin, the probabilities must be "
                        "multiples of 1/6 or of 1/2"
                    ),
                )
            ]
        return []


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
    "epsilon_problems",
    "find_design",
    "known_designs",
    "register",
    "registered",
]
