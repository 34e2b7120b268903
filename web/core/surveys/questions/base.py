"""What every question type answers, the registry that names them, and the tally a
response feeds."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, NamedTuple, TypedDict, TypeVar

import numpy as np
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from web.core.surveys.designs import (
    NO_PARAMETERS,
    DesignParameters,
    default_design,
    design_named,
    find_design,
    registered,
)

T = TypeVar("T")
Q = TypeVar("Q", bound="QuestionType")
# The tally of a cheating-detection question's second arm (its respondents, their reports of 1),
# named where other types name an option: no option id can be this (ids are letters, digits,
# _ and -).
ARM = "@arm"


class FixedFields(TypedDict, total=False):
    """How a question of a type is asked, where the type fixes it (:meth:`QuestionType.fixed_fields`)."""

    epsilon: float | None
    procedure: str
    epsilon_permanent: float | None


class AnswerError(ValueError):
    """A submission that does not fit the survey; the message names the problem."""


class Figures(NamedTuple):
    """One tally's estimate, standard error, interval and estimated count."""

    estimate: float
    std_error: float
    ci_low: float
    ci_high: float
    estimated_count: float


class QuestionType:
    """What a type of question does; subclasses fill in each step."""

    name: ClassVar[str]
    # Its place in the builder's list of types.
    listed: ClassVar[int] = 0
    # A type's behaviour when its design makes it report otherwise (the design's ``variant``:
    # a yes/no question's arms, a number asked directly); None for a type of its own.
    variant: ClassVar[str | None] = None
    label: ClassVar[object]  # a lazily translated name for the builder
    has_options: ClassVar[bool]
    # What the page's script reports for the question: one bit, a bit per option, or one option.
    answer_shape: ClassVar[str]
    # The respondent page's part that asks for the true answer and holds the spinners.
    respond_template: ClassVar[str]
    # Whether the estimates of its options add up to 100% (one true option per respondent).
    sums_to_one: ClassVar[bool] = False
    # Whether answers go through a spinner (and cost ε); a direct question's are sent as given.
    randomized: ClassVar[bool] = True
    # Whether its answers split the respondents into groups, by which every randomized answer is
    # estimated (a direct question of options).
    splits_groups: ClassVar[bool] = False
    # Whether its answer is text the respondent writes, at most ``max_length`` characters.
    written: ClassVar[bool] = False
    # Whether its results are estimates from tallies; else its answers are read from the
    # published responses as given (an open answer's words, a number asked directly).
    estimated: ClassVar[bool] = True
    # Whether it asks several rows on its shared options (a grid's ``rows``), each answered on
    # its own.
    has_rows: ClassVar[bool] = False
    # Whether the respondent's page heads the question with its text (not where the text is an
    # item of a list: a yes/no question asked as a list experiment).
    heads_its_text: ClassVar[bool] = True
    # Whether it states a list experiment's sensitive item apart from its text (a ``list``
    # question; a yes/no question asked as a list adds its own text).
    states_sensitive: ClassVar[bool] = False
    # Whether a display rule reads its plain answer as a number (``at_least``, ``at_most``).
    numeric_answer: ClassVar[bool] = False
    # Whether it is asked on a range (min, max, step, unit; web/core/surveys/scales.py) and its
    # estimate is a mean in the range's units.
    has_range: ClassVar[bool] = False
    # Whether its answer may be kept as a permanent report over a series' waves (one value among
    # a few: yes/no, each option of a multi-select, one option among k); a number draws afresh.
    permanent_layer: ClassVar[bool] = False
    # The procedures it may be asked with: the two spinners; a yes/no question also the designs
    # of web/core/surveys/designs/.
    procedures: ClassVar[tuple[str, ...]] = tuple(
        design.name for design in registered() if design.every_type
    )
    # Its XLSForm type (web/core/surveys/xlsform/): select_one or select_multiple, and the fixed
    # list of choices it uses, if any (else a list of its own options).
    xlsform_select: ClassVar[str] = "select_one"
    xlsform_list: ClassVar[str | None] = None
    # How each estimate's 95% interval is made, in words, beside the estimate.
    interval_words: ClassVar[object] = _l(
        "exact (Clopper–Pearson) on the reported share, carried through the design's line and "
        "clipped to 0–100%"
    )

    def design_words(self, design) -> object:
        """The design its reports come from, in the literature's words (``design`` a
        :class:`~web.core.surveys.designs.SurveyDesign`)."""
        return design.literature

    def interval_words_of(self, design) -> object:
        """How its intervals are made under ``design``, in words: the type's own but where the
        design makes them itself (a design of two arms)."""
        return self.interval_words

    def procedure_for(self, chosen: str) -> str:
        """The procedure a question of this type is asked with when ``chosen`` is picked (the
        builder's field): ``chosen``, but the one way a type asked one way only is asked (a
        list)."""
        return self.procedures[0] if len(self.procedures) == 1 else chosen

    def plain_answers(self, option_keys: Sequence[str]) -> tuple[str, ...]:
        """What a display rule's ``in`` may name of a question of this type asked plainly: its
        option ids (:mod:`web.core.surveys.flow.display`)."""
        return tuple(option_keys)

    def plain_value(self, answer):
        """A stored answer asked plainly, as a display rule reads it."""
        return answer

    def plain_values(self, key: str, answer) -> dict:
        """What display rules read of a stored answer asked plainly, by the name a rule gives
        it (:meth:`rule_names`)."""
        return {key: self.plain_value(answer)}

    def rule_names(self, key: str, parameters: DesignParameters) -> tuple[str, ...]:
        """The names a display rule reads a question of this type by: its id."""
        return (key,)

    def spin_count(self, option_count: int) -> int:
        """How many spins (each costing ε) a respondent makes for the question."""
        return 1

    def fixed_fields(self) -> FixedFields:
        """How a question of this type is asked, where the type fixes it: the fields a survey file
        or the builder leaves out (and may not state otherwise), with their values. None here: a
        file states its ε, procedure and design."""
        return {}

    def permanent_values(self, option_count: int) -> int:
        """How many values each permanent report stands among: 2 (a yes/no answer, or one
        option of a multi-select), the option count for one option among k."""
        return 2

    def permanent_labels(self, option_keys: Sequence[str]) -> list[str] | None:
        """What the values of a permanent report are, in order, where they are options (one
        option among k); None for 0 and 1. A kept report is reused only under the same labels."""
        return None

    def light_fraction(self, epsilon: float, procedure: str, option_count: int) -> float:
        return rr.light_fraction(epsilon, procedure)

    def truth_probability(self, epsilon: float, option_count: int) -> float:
        """How often the reported answer is the true one."""
        return rr.truth_probability(epsilon)

    def item_design(
        self,
        epsilon: float,
        procedure: str,
        option_count: int,
        design: DesignParameters = NO_PARAMETERS,
    ) -> rr.Design:
        """The binary design each of its tallies reports through: P(report 1 | true) and
        P(report 1 | not true) as an :class:`rr.Design`, whose line every estimate, group
        difference and regression of the tally uses (``rr.design``). A yes/no question may be
        asked with a design of :mod:`web.core.surveys.designs` (``design`` its parameters)."""
        return design_named(procedure).rr_design(epsilon, design)

    def noise_line(self, epsilon: float, option_count: int) -> tuple[float, float]:
        """Offset and slope of E[reported share] = a + b·π for each tally."""
        # Both spinners report on the same line at a given ε.
        design = self.item_design(epsilon, default_design().name, option_count)
        return design.offset, design.slope

    def dark_words(self, spinner) -> str:
        """What the spinner's dark share does, in the respondent's words."""
        if spinner.dark == "coin":
            return _("light: your true answer; dark: a coin decides")
        return _("light: your true answer; dark: the opposite answer")

    def codebook(self, spinner, question) -> dict:
        """How the reports were made, for the codebook: the spinner's line, R's models and their
        calls on each column, and how to recompute."""
        light = spinner.light_fraction(question)
        return {
            **spinner.line_entry(light),
            **spinner.r_models(light).entry(self.items_of(question)),
            "recompute": "rr.estimate_proportion(noisy_yes, n, epsilon, procedure) per column",
        }

    def cost(self, question) -> float:
        """``question``'s privacy cost: ε per spin (:func:`rr.question_epsilon`); 0 where its
        design protects nothing, and infinite where its design has no ε bound (the lie
        detector's: a survey's total leaves it out and says so)."""
        if not question.asked_with.protects:
            return 0.0
        if math.isinf(question.epsilon):
            return math.inf
        return rr.question_epsilon(question.epsilon, self.spin_count(len(question.options)))

    def items_of(self, question) -> list[str]:
        """What a response reports for ``question`` (a stored question or a file's), spin by
        spin: :meth:`items` of its key and option ids."""
        return self.items(question.key, [option.key for option in question.options])

    def line_of(self, question) -> rr.Design:
        """The binary design each of ``question``'s tallies reports through
        (:meth:`item_design` with its ε, procedure, option count and design's parameters)."""
        return self.item_design(
            question.epsilon, question.procedure, len(question.options), question.design
        )

    def mean_of(self, question) -> rr.BoundedMean | None:
        """A question on a range's one-bit mean, read through its range; None for other types."""
        return None

    def column(self, item: str) -> str:
        """The responses export's column of one of :meth:`items_of`: the item itself
        (``key`` or ``key.option``)."""
        return item

    def items(self, key: str, option_keys: Sequence[str]) -> list[str]:
        """What a response reports, one item per spin: each drawn with its own spinner on the
        page and a column of the responses export (``key`` or ``key.option``)."""
        return [key]

    def figures(
        self,
        counts: Sequence[tuple[int, int]],
        epsilon: float,
        procedure: str,
        parameters: DesignParameters = NO_PARAMETERS,
    ):
        """Each tally's :class:`Figures` from its (reported yes, n), or None where n is 0."""
        design = self.item_design(epsilon, procedure, len(counts), parameters)
        return [None if n == 0 else Figures(*_fields(design.estimate(yes, n))) for yes, n in counts]

    def simulate(
        self,
        size: int,
        true_proportion: float | np.ndarray,
        epsilon: float,
        procedure: str,
        option_count: int,
        rng: np.random.Generator,
        parameters: DesignParameters = NO_PARAMETERS,
        cheating: float = 0.0,
    ) -> np.ndarray:
        """Reported bits of ``size`` simulated respondents, one column per tally; each true
        answer is yes (or, with options, each option true) with ``true_proportion``. A share
        ``cheating`` of respondents says no whatever they are told (cheating detection's)."""
        spins = len(self.spun([None] * option_count))
        truth = rng.random((size, spins)) < true_proportion
        if design_named(procedure).every_type:  # a spinner: the mechanism's own draw
            return rr.perturb(truth, epsilon, procedure, rng=rng)
        return self.item_design(epsilon, procedure, option_count, parameters).perturb(truth, rng)

    def template_values(
        self,
        reported: np.ndarray,
        option_keys: Sequence[str],
        parameters: DesignParameters = NO_PARAMETERS,
    ) -> list:
        """The columns :meth:`answer_template`'s fields are filled from, per respondent."""
        return list(reported.T)

    def options_problem(self, count: int) -> str | None:
        """Why a question of this type cannot have ``count`` options, or None."""
        raise NotImplementedError

    def spun(self, options: Sequence[T]) -> list[T | None]:
        """The tallies a response feeds, in order: an option, or None for the question's own."""
        raise NotImplementedError

    def check_answer(self, value, key: str, option_keys: Sequence[str]):
        """The reported bits of one question as stored, or raise :class:`AnswerError`."""
        raise NotImplementedError

    def check_limits(self, answer, key: str, parameters: DesignParameters) -> None:
        """Raise :class:`AnswerError` where a checked answer passes its question's own limits
        (an open answer's length, a number's range); none here."""

    def check_complete(self, answer, key: str, parameters: DesignParameters) -> None:
        """Raise :class:`AnswerError` where a required question's answer leaves part of it
        unanswered (a grid's row); a single answer is whole."""

    def bit(self, answer, option_key: str | None) -> int:
        """The bit a stored answer reports for one of the tallies :meth:`spun` names."""
        raise NotImplementedError

    def count(self, answer, option_key: str | None) -> tuple[int, int]:
        """What a stored answer adds to one tally: (respondents, reports of 1). Every response
        counts once in every tally, except where a type says otherwise (an arm's tally)."""
        return 1, self.bit(answer, option_key)

    def page_items(self, key: str, option_keys: Sequence[str]) -> list[str]:
        """The items the respondent page draws and remembers: its :meth:`items`, but for a type
        whose one report spans several columns."""
        return self.items(key, option_keys)

    def extra_results(
        self, counts: Sequence[tuple[int, int]], procedure: str, parameters: DesignParameters
    ) -> dict:
        """What its results give besides each tally's figures (a design of two arms' second
        figure and its arms); the published (reported yes, n) of each tally."""
        return {}

    def tally_columns(self, reported: np.ndarray) -> list[tuple[np.ndarray | None, np.ndarray]]:
        """Per tally, from :meth:`simulate`'s columns: (each respondent's weight in its n, or
        None for one each; each respondent's reports of 1)."""
        return [(None, column) for column in reported.T]

    def answer_template(self, key: str, option_keys: Sequence[str]) -> str:
        """A %-format JSON fragment that writes a stored answer from :meth:`template_values`
        (the bulk simulation writes millions of rows with it)."""
        raise NotImplementedError


@dataclass(frozen=True)
class Tallied:
    """One tally a response feeds: its table and row, and where its bit stands in the answers."""

    table: str  # "question" or "option"
    row_id: int
    question_key: str
    option_key: str | None
    type: QuestionType

    @classmethod
    def of(cls, question, option) -> Tallied:
        """The tally of a question's spin: its own (``option`` None), one option's, or the second
        arm's of a cheating-detection question (``ARM``)."""
        if option is None:
            return cls("question", question.id, question.key, None, question.type)
        if option == ARM:
            return cls("arm", question.id, question.key, ARM, question.type)
        return cls("option", option.id, question.key, option.key, question.type)

    @property
    def key(self) -> tuple[str, int]:
        """Its table and row, which name it in counts and in the counts per cell."""
        return self.table, self.row_id

    def count(self, answers: dict) -> tuple[int, int]:
        """What a response's stored answers add to this tally: (respondents, reports of 1);
        nothing from a respondent who skipped it (null) or of an experiment's other condition,
        whose answers lack it."""
        answer = answers.get(self.question_key)
        if answer is None:  # skipped, or asked in another condition
            return 0, 0
        return self.type.count(answer, self.option_key)


QUESTION_TYPES: dict[str, QuestionType] = {}
# Types that report otherwise under a design, by the design's ``variant``.
VARIANTS: dict[str, QuestionType] = {}


def register(cls: type[Q]) -> type[Q]:
    """Class decorator: make the question type ``cls`` known by its name (or, for a yes/no
    question's variant, by the variant its design names)."""
    kind = cls()
    if kind.variant is None:
        QUESTION_TYPES[kind.name] = kind
    else:
        VARIANTS[kind.variant] = kind
    return cls


def question_type(kind: str, procedure: str | None = None) -> QuestionType:
    """The type a question behaves as: its kind's, but under a design with a variant of its kind,
    that variant (a design of two arms' :class:`Arms` reports an arm with its bit; a number
    asked directly sends its value)."""
    design = find_design(procedure) if procedure is not None else None
    variant = None if design is None else VARIANTS.get(design.variant or "")
    if variant is not None and variant.name == kind:
        return variant
    return QUESTION_TYPES[kind]


def _fields(estimate) -> tuple[float, ...]:
    return tuple(getattr(estimate, name) for name in Figures._fields)


def _bit(value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 1):
        raise AnswerError(f"{where} must be 0 or 1, got {value!r}")
    return value
