"""Question types: everything that depends on what kind of question a question is.

Every respondent answers a question with one or more spins. Each spin reports one bit and feeds
one *tally*: a yes/no question spins once and keeps its own tally, a multi-select question spins
once per option and keeps a tally per option. The rest of the app asks a question's type (the
``QUESTION_TYPES`` entry named by ``Question.kind``) rather than comparing names: how the survey
file's options are checked, which tallies a response feeds, what a submitted answer must look like
and what it stores, and what the page's script is told. A new type is a new class here.

A single-choice question is the exception to "one spin, one tally": its one spin (spinner, then
on dark a die) reports one option, and every response feeds every option's tally, adding one
reported "yes" to the option it reported. Its estimates come from all its tallies together
(generalized randomized response, :mod:`rr.choice`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, NamedTuple, TypeVar

import numpy as np
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

import rr
from rr.estimate import clopper_pearson
from web.core.surveys.designs import (
    NO_PARAMETERS,
    DesignParameters,
    default_design,
    design_named,
    find_design,
    known_designs,
    registered,
)
from web.core.surveys.designs.cheating_detection import cheating_model
from web.core.surveys.limits import MAX_OPTIONS

T = TypeVar("T")
# The tally of a cheating-detection question's second arm (its respondents, their reports of 1),
# named where other types name an option: no option id can be this (ids are letters, digits,
# _ and -).
ARM = "@arm"


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
    # Whether it is asked on a range (min, max, step, unit; web/core/surveys/scales.py) and its
    # estimate is a mean in the range's units.
    has_range: ClassVar[bool] = False
    # Its XLSForm type (web/core/surveys/xlsform.py): select_one or select_multiple, and the fixed list of
    # choices it uses, if any (else a list of its own options).
    # The procedures it may be asked with: the two spinners; a yes/no question also the designs
    # of web/core/surveys/designs.py.
    procedures: ClassVar[tuple[str, ...]] = tuple(
        design.name for design in registered() if design.every_type
    )
    xlsform_select: ClassVar[str] = "select_one"
    xlsform_list: ClassVar[str | None] = None

    def spin_count(self, option_count: int) -> int:
        """How many spins (each costing ε) a respondent makes for the question."""
        return 1

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

    def dark_words(self, procedure: str) -> str:
        """What the spinner's dark share does, in the respondent's words."""
        if _coin_on_dark(procedure):
            return _("light: your true answer; dark: a coin decides")
        return _("light: your true answer; dark: the opposite answer")

    def design(self, procedure: str, option_count: int, light: float) -> dict:
        """How the reports were made, for the codebook: what dark does, and how to recompute."""
        if _coin_on_dark(procedure):
            # Light (p) tells the truth; dark (1 − p) is a fair coin: forced yes or no, half each.
            design = {
                "design": "forced response",
                "p_truth": light,
                "p_forced_yes": (1 - light) / 2,
                "p_forced_no": (1 - light) / 2,
                "dark": "a fair coin decides (heads = yes)",
                "RRreg_model": "FR",
                "RRreg_p": [(1 - light) / 2, (1 - light) / 2],
                "rr_design": "forced-known",
            }
        else:
            design = {
                "design": "Warner's mirrored",
                "p": light,
                "dark": "the opposite answer",
                "RRreg_model": "Warner",
                "RRreg_p": light,
                "rr_design": "mirrored",
            }
        return {
            **design,
            "recompute": "rr.estimate_proportion(noisy_yes, n, epsilon, procedure) per column",
        }

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

    def template_values(self, reported: np.ndarray, option_keys: Sequence[str]) -> list:
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
        self, counts: Sequence[tuple[int, int]], parameters: DesignParameters
    ) -> dict:
        """What its results give besides each tally's figures (cheating detection's share of
        cheaters and its arms); the published (reported yes, n) of each tally."""
        return {}

    def tally_columns(self, reported: np.ndarray) -> list[tuple[np.ndarray | None, np.ndarray]]:
        """Per tally, from :meth:`simulate`'s columns: (each respondent's weight in its n, or
        None for one each; each respondent's reports of 1)."""
        return [(None, column) for column in reported.T]

    def answer_template(self, key: str, option_keys: Sequence[str]) -> str:
        """A %-format JSON fragment that writes a stored answer from :meth:`template_values`
        (the bulk simulation writes millions of rows with it)."""
        raise NotImplementedError


class YesNo(QuestionType):
    """One true answer, yes or no, reported through one spin."""

    name = "yesno"
    procedures: ClassVar[tuple[str, ...]] = known_designs()
    xlsform_list: ClassVar[str | None] = "yes_no"
    label = _l("Yes / no")
    has_options = False
    answer_shape = "bit"
    respond_template = "respond/_yesno.html"

    def options_problem(self, count: int) -> str | None:
        return None if count == 0 else _("a 'yesno' question has no options")

    def spun(self, options: Sequence[T]) -> list[T | None]:
        return [None]

    def check_answer(self, value, key: str, option_keys: Sequence[str]) -> int:
        return _bit(value, f"question {key!r}")

    def bit(self, answer, option_key: str | None) -> int:
        return answer

    def answer_template(self, key: str, option_keys: Sequence[str]) -> str:
        return f"{json.dumps(key)}:%d"


class Cheating(QuestionType):
    """A yes/no question asked with cheating detection (:mod:`rr.cheating`): the page puts each
    respondent into one of two forced-response arms at random and sends the arm with the report,
    ``{"arm": 0|1, "reported": 0|1}``. It keeps two tallies: every respondent's reports (the
    question's own) and the second arm's (``ARM``); the first arm's are their difference. In a
    survey file it is a ``yesno`` question whose procedure is ``cheating_detection``."""

    name = YesNo.name
    xlsform_list = YesNo.xlsform_list
    label = YesNo.label
    has_options = False
    variant = "arms"
    procedures = tuple(design.name for design in registered() if design.yesno_variant == "arms")
    answer_shape = "arm"
    respond_template = "respond/_cheating.html"

    def options_problem(self, count: int) -> str | None:
        return QUESTION_TYPES[YesNo.name].options_problem(count)

    def spun(self, options: Sequence[T]) -> list:
        return [None, ARM]

    def items(self, key: str, option_keys: Sequence[str]) -> list[str]:
        return [f"{key}.reported", f"{key}.arm"]

    def page_items(self, key: str, option_keys: Sequence[str]) -> list[str]:
        return [key]

    def check_answer(self, value, key: str, option_keys: Sequence[str]) -> dict[str, int]:
        if not isinstance(value, dict) or set(value) != {"arm", "reported"}:
            raise AnswerError(
                f'question {key!r} must be {{"arm": 0 or 1, "reported": 0 or 1}}, got {value!r}'
            )
        return {
            "arm": _bit(value["arm"], f"the arm of question {key!r}"),
            "reported": _bit(value["reported"], f"the report of question {key!r}"),
        }

    def bit(self, answer, option_key: str | None) -> int:
        return answer["reported"] * (answer["arm"] if option_key == ARM else 1)

    def count(self, answer, option_key: str | None) -> tuple[int, int]:
        if option_key == ARM:
            return answer["arm"], answer["arm"] * answer["reported"]
        return 1, answer["reported"]

    def item_design(
        self,
        epsilon: float,
        procedure: str,
        option_count: int,
        design: DesignParameters = NO_PARAMETERS,
    ) -> rr.Design:
        raise ValueError(
            "a cheating-detection question has two arms and a share of cheaters: it has no single "
            "line to regress on"
        )

    def dark_words(self, procedure: str) -> str:
        return _("a random arm, then light: your true answer; the other sectors: a forced answer")

    def figures(
        self,
        counts: Sequence[tuple[int, int]],
        epsilon: float,
        procedure: str,
        parameters: DesignParameters = NO_PARAMETERS,
    ):
        """The honest-yes share π with its interval for the question's tally; none for the arm's
        (and none at all while an arm has no respondents)."""
        found = _cheating_estimate(counts, parameters)
        if found is None:
            return [None, None]
        pi = found.honest_yes
        return [
            Figures(
                pi.estimate, pi.std_error, pi.ci_low, pi.ci_high, pi.estimate * sum(found.arm_n)
            ),
            None,
        ]

    def extra_results(
        self, counts: Sequence[tuple[int, int]], parameters: DesignParameters
    ) -> dict:
        """The share of cheaters γ with its interval, and each arm's respondents and reports."""
        (yes, n), (arm_yes, arm_n) = counts
        arms = [{"n": n - arm_n, "noisy_yes": yes - arm_yes}, {"n": arm_n, "noisy_yes": arm_yes}]
        found = _cheating_estimate(counts, parameters)
        if found is None:
            return {"arms": arms}
        return {"cheating": found.cheating._asdict(), "arms": arms}

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
        """Columns (reported, arm): each respondent's truth drawn with ``true_proportion`` and
        cheating with ``cheating``, independently."""
        truth = rng.random(size) < np.ravel(np.broadcast_to(true_proportion, (size, 1)))
        cheaters = rng.random(size) < cheating
        reported, arm = cheating_model(parameters).perturb(truth, cheaters, rng)
        return np.stack([reported, arm], axis=1)

    def tally_columns(self, reported: np.ndarray) -> list[tuple[np.ndarray | None, np.ndarray]]:
        report, arm = reported[:, 0], reported[:, 1]
        return [(None, report), (arm, report * arm)]

    def template_values(self, reported: np.ndarray, option_keys: Sequence[str]) -> list:
        return [reported[:, 1], reported[:, 0]]

    def answer_template(self, key: str, option_keys: Sequence[str]) -> str:
        return f'{json.dumps(key)}:{{"arm":%d,"reported":%d}}'


class Number(YesNo):
    """A quantity in a range (``min``, ``max``, ``step``), reported with one spin (:mod:`rr.mean`):
    the page turns the value into a value wheel whose yes share is (x − min)/(max − min), spins
    it, and sends its outcome through the spinner like a yes/no answer. The researcher learns the
    mean, never a value; the question costs ε."""

    name = "number"
    xlsform_list = None
    xlsform_select = "range"
    label = _l("Number (one spin)")
    answer_shape = "number"
    respond_template = "respond/_number.html"
    procedures = QuestionType.procedures  # the spinners only: a design reports one bit of yes/no
    has_range = True

    def options_problem(self, count: int) -> str | None:
        return None if count == 0 else _("a 'number' question has no options")

    def figures(
        self,
        counts: Sequence[tuple[int, int]],
        epsilon: float,
        procedure: str,
        parameters: DesignParameters = NO_PARAMETERS,
    ):
        """The mean in the question's units with its interval, and the estimated total (mean·n)."""
        assert parameters.scale is not None, "a number question has its range"
        mean = parameters.scale.mean(epsilon, procedure)
        found = [None if n == 0 else mean.estimate(yes, n) for yes, n in counts]
        return [
            None
            if estimate is None
            else Figures(
                estimate.estimate,
                estimate.std_error,
                estimate.ci_low,
                estimate.ci_high,
                estimate.estimate * estimate.n,
            )  # fmt: skip
            for estimate in found
        ]

    def dark_words(self, procedure: str) -> str:
        if _coin_on_dark(procedure):
            return _("a value wheel sized to your number; light: its answer; dark: a coin decides")
        return _("a value wheel sized to your number; light: its answer; dark: the opposite")

    def design(self, procedure: str, option_count: int, light: float) -> dict:
        dark = "a fair coin" if _coin_on_dark(procedure) else "the opposite of the value wheel"
        return {
            "design": "one-bit mean (Ding, Kulkarni & Yekhanin 2017)",
            "value_wheel": "yes with share (x - min)/(max - min) of the respondent's value x",
            "p": light,
            "dark": dark,
            "column": "the reported bit",
            "recompute": "mean = min + (max - min) * (noisy_share - a) / b, with the question's "
            "noise_offset a and noise_slope b; rr.bounded_mean(min, max, epsilon, "
            "procedure).estimate(noisy_yes, n)",
        }


class Multi(QuestionType):
    """Any number of true options; each option is a yes/no question spun on its own."""

    name = "multi"
    xlsform_select = "select_multiple"
    label = _l("Multi-select")
    has_options = True
    answer_shape = "bits"
    respond_template = "respond/_multi.html"

    def spin_count(self, option_count: int) -> int:
        return option_count

    def items(self, key: str, option_keys: Sequence[str]) -> list[str]:
        return [f"{key}.{option}" for option in option_keys]

    def options_problem(self, count: int) -> str | None:
        if count == 0:
            return _("a 'multi' question needs a non-empty list of options")
        if count > MAX_OPTIONS:
            return _("at most %(limit)d options, got %(count)d", limit=MAX_OPTIONS, count=count)
        return None

    def spun(self, options: Sequence[T]) -> list[T | None]:
        return list(options)

    def check_answer(self, value, key: str, option_keys: Sequence[str]) -> dict[str, int]:
        if not isinstance(value, dict):
            raise AnswerError(f"question {key!r} must be an object of options, each 0 or 1")
        unknown = sorted(set(value) - set(option_keys))
        if unknown:
            raise AnswerError(f"question {key!r} has no option {unknown[0]!r}")
        bits = {}
        for option in option_keys:
            if option not in value:
                raise AnswerError(f"option {option!r} of question {key!r} is missing")
            bits[option] = _bit(value[option], f"option {option!r} of question {key!r}")
        return bits

    def bit(self, answer, option_key: str | None) -> int:
        return answer[option_key]

    def answer_template(self, key: str, option_keys: Sequence[str]) -> str:
        inner = ",".join(f"{json.dumps(option)}:%d" for option in option_keys)
        return f"{json.dumps(key)}:{{{inner}}}"


class OneOption(QuestionType):
    """What the two types whose answer is one option id share: k ≥ 2 options, a tally per option
    fed by every response (yes for the option answered), and a bulk answer written as that id."""

    has_options = True

    def options_problem(self, count: int) -> str | None:
        if count < 2:
            return _(
                "a %(kind)r question needs at least 2 options, got %(count)d",
                kind=self.name,
                count=count,
            )
        if count > MAX_OPTIONS:
            return _("at most %(limit)d options, got %(count)d", limit=MAX_OPTIONS, count=count)
        return None

    def spun(self, options: Sequence[T]) -> list[T | None]:
        return list(options)

    def bit(self, answer, option_key: str | None) -> int:
        return int(answer == option_key)

    def template_values(self, reported: np.ndarray, option_keys: Sequence[str]) -> list:
        quoted = np.array([json.dumps(option) for option in option_keys], dtype=object)
        return [quoted[reported.argmax(axis=1)]]

    def answer_template(self, key: str, option_keys: Sequence[str]) -> str:
        return f"{json.dumps(key)}:%s"


class Choice(OneOption):
    """One true option among k, reported through one spin and, on dark, a die (generalized
    randomized response): the question costs ε, not k·ε."""

    name = "choice"
    label = _l("Single choice")
    answer_shape = "option"
    respond_template = "respond/_choice.html"
    sums_to_one = True

    def light_fraction(self, epsilon: float, procedure: str, option_count: int) -> float:
        return rr.choice_light_fraction(epsilon, option_count, procedure)

    def truth_probability(self, epsilon: float, option_count: int) -> float:
        return rr.choice_probabilities(epsilon, option_count).truth

    def item_design(
        self,
        epsilon: float,
        procedure: str,
        option_count: int,
        design: DesignParameters = NO_PARAMETERS,
    ) -> rr.Design:
        """One option's tally: reported with a + b if it is the true option, a if not, with
        a = 1/(e^ε + k − 1) and b = (e^ε − 1)/(e^ε + k − 1) (both procedures). Its privacy loss
        is the question's ε (the whole report, one option among k)."""
        offset, slope = rr.mechanism.noise_line(epsilon, option_count)
        return rr.Design(
            "choice", offset, slope, epsilon, (("epsilon", epsilon), ("k", option_count))
        )

    def noise_line(self, epsilon: float, option_count: int) -> tuple[float, float]:
        return rr.mechanism.noise_line(epsilon, option_count)

    def dark_words(self, procedure: str) -> str:
        if _coin_on_dark(procedure):
            return _("light: your true answer; dark: a die picks any option")
        return _("light: your true answer; dark: a die picks one of the other options")

    def design(self, procedure: str, option_count: int, light: float) -> dict:
        die = (
            f"a fair {option_count}-sided die over all options"
            if _coin_on_dark(procedure)
            else f"a fair {option_count - 1}-sided die over the other options"
        )
        return {
            "k": option_count,
            "light_share_q": light,
            "dark": die,
            "column": "the reported option id",
            "recompute": "rr.estimate_choice([reports of each option], epsilon, procedure)",
        }

    def check_answer(self, value, key: str, option_keys: Sequence[str]) -> str:
        if not isinstance(value, str) or value not in option_keys:
            raise AnswerError(
                f"question {key!r} must be the id of one of its options, got {value!r}"
            )
        return value

    def figures(
        self,
        counts: Sequence[tuple[int, int]],
        epsilon: float,
        procedure: str,
        parameters: DesignParameters = NO_PARAMETERS,
    ):
        n = counts[0][1] if counts else 0
        if n == 0:
            return [None] * len(counts)
        result = rr.estimate_choice([yes for yes, _ in counts], epsilon, procedure)
        return [
            Figures(*(float(column[index]) for column in result[:5]))
            for index in range(len(counts))
        ]

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
        """One-hot reports; the first option is true with ``true_proportion``, the others share
        the rest evenly."""
        first = rng.random(size) < np.ravel(np.broadcast_to(true_proportion, (size, 1)))
        truth = np.where(first, 0, rng.integers(1, option_count, size=size))
        reported = rr.perturb_choice(truth, epsilon, option_count, procedure, rng=rng)
        return np.eye(option_count, dtype=np.uint8)[reported]


class Direct(OneOption):
    """One answer among listed options (year of study, group), asked plainly and stored as given,
    or null when the respondent prefers not to say. Not randomized: no ε protects it; the minimum
    n and the batches guard it. Its tallies count the respondents choosing each option, and let
    every randomized answer be estimated by group."""

    name = "direct"
    label = _l("Direct (not randomized)")
    answer_shape = "direct"
    respond_template = "respond/_direct.html"
    randomized = False

    def spin_count(self, option_count: int) -> int:
        return 0

    def light_fraction(self, epsilon: float, procedure: str, option_count: int) -> float:
        return 1.0  # every answer is sent as given

    def truth_probability(self, epsilon: float, option_count: int) -> float:
        return 1.0

    def noise_line(self, epsilon: float, option_count: int) -> tuple[float, float]:
        return 0.0, 1.0

    def item_design(
        self,
        epsilon: float,
        procedure: str,
        option_count: int,
        design: DesignParameters = NO_PARAMETERS,
    ) -> rr.Design:
        raise ValueError("a direct question is asked plainly: it has no randomized design")

    def check_answer(self, value, key: str, option_keys: Sequence[str]) -> str | None:
        if value is not None and (not isinstance(value, str) or value not in option_keys):
            raise AnswerError(
                f"question {key!r} must be the id of one of its options or null, got {value!r}"
            )
        return value

    def figures(
        self,
        counts: Sequence[tuple[int, int]],
        epsilon: float,
        procedure: str,
        parameters: DesignParameters = NO_PARAMETERS,
    ):
        """Plain shares of the respondents (skipping counted in n) with exact binomial intervals."""
        figures: list[Figures | None] = []
        for chosen, n in counts:
            if n == 0:
                figures.append(None)
                continue
            low, high = clopper_pearson(np.array([chosen]), np.array([n]), 0.95)
            share = chosen / n
            spread = float(np.sqrt(share * (1 - share) / n))
            figures.append(Figures(share, spread, float(low[0]), float(high[0]), float(chosen)))
        return figures

    def simulate(
        self,
        size: int,
        true_proportion: float | np.ndarray,
        epsilon: float,
        procedure: str,
        option_count: int,
        rng,
        parameters: DesignParameters = NO_PARAMETERS,
        cheating: float = 0.0,
    ) -> np.ndarray:
        """Answers spread evenly over the options."""
        return np.eye(option_count, dtype=np.uint8)[rng.integers(0, option_count, size=size)]

    def dark_words(self, procedure: str) -> str:
        return _("answered directly: sent exactly as you choose")

    def design(self, procedure: str, option_count: int, light: float) -> dict:
        return {
            "randomized": False,
            "column": "the chosen option id, empty when the respondent preferred not to say",
            "note": "asked directly: not protected by epsilon; guarded by the minimum n and the batches only",
        }


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
        """What a response's stored answers add to this tally: (respondents, reports of 1)."""
        return self.type.count(answers[self.question_key], self.option_key)


QUESTION_TYPES: dict[str, QuestionType] = {
    kind.name: kind for kind in (YesNo(), Number(), Multi(), Choice(), Direct())
}
# Yes/no questions whose design reports more than one bit, by the design's ``yesno_variant``.
VARIANTS: dict[str, QuestionType] = {kind.variant: kind for kind in (Cheating(),)}


def question_type(kind: str, procedure: str | None = None) -> QuestionType:
    """The type a question behaves as: its kind's, but a yes/no question whose design reports
    more than one bit behaves as that design's variant (cheating detection's :class:`Cheating`
    reports an arm with its bit)."""
    design = find_design(procedure) if kind == YesNo.name else None
    if design is not None and design.yesno_variant is not None:
        return VARIANTS[design.yesno_variant]
    return QUESTION_TYPES[kind]


def _cheating_estimate(counts: Sequence[tuple[int, int]], parameters: DesignParameters):
    """π and γ from (all reports of 1, respondents) and the second arm's; None while an arm has
    no respondents."""
    (yes, n), (arm_yes, arm_n) = counts
    if arm_n == 0 or n - arm_n == 0:
        return None
    return cheating_model(parameters).estimate([yes - arm_yes, arm_yes], [n - arm_n, arm_n])


def _coin_on_dark(procedure: str) -> bool:
    """Whether the spinner ``procedure`` lets a coin decide on dark (else dark reports the
    opposite)."""
    return design_named(procedure).coin_on_dark


def _fields(estimate) -> tuple[float, ...]:
    return tuple(getattr(estimate, name) for name in Figures._fields)


def _bit(value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 1):
        raise AnswerError(f"{where} must be 0 or 1, got {value!r}")
    return value
