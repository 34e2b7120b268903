"""The designs a yes/no question can be asked with, beyond the symmetric spinner.

Every design is a pair of report probabilities (:mod:`rr.design`); this module is where a survey
states one: the parameters a file, the builder and the database hold, their checks, the
:class:`rr.Design` they make, and what the respondent is told.

- ``forced_response``: ``p_truth``, ``p_forced_yes``, ``p_forced_no`` (sum 1, each forced share
  > 0). On the page: one wheel of three sectors (truth, "yes", "no").
- ``unrelated_question``: ``p_truth`` and an ``innocuous`` question with its known ``prevalence``.
  On the page: light → the true answer, dark → the true answer to the innocuous question.
- ``crosswise``: an ``innocuous`` question with known ``prevalence`` ≠ ½. The respondent reports
  only whether the two true answers are the same (report 1) or differ; no randomizer at all.

With ``"randomizer": "own"`` (forced response, unrelated question; crosswise always is), the page
draws nothing: it tells the respondent how to use their own die or coin and asks for the report
only, so the true answer is never typed into the page. The probabilities must then be multiples
of 1/6 (a die) or 1/2 (a coin).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from flask_babel import gettext as _

import rr
from web.core.surveys.limits import MAX_EPSILON, MAX_TEXT
from web.core.surveys.scales import Scale
from web.core.surveys.texts import Texts

DESIGNS = ("forced_response", "unrelated_question", "crosswise")
# Cheating detection: two forced-response arms, one drawn per respondent (rr.cheating).
CHEATING = "cheating_detection"
# The procedures whose ε is derived from stated parameters, not stated itself.
DERIVED = (*DESIGNS, CHEATING)
# Every procedure a yes/no question may name: the two spinners and the designs above.
YESNO_PROCEDURES = (*rr.PROCEDURES, *DERIVED)
ARM_FIELDS = ("p_truth", "p_forced_yes", "p_forced_no")
RANDOMIZERS = ("page", "own")
# The parameters each design states, as the file names them (``innocuous`` holds the prevalence).
PARAMETERS = {
    "forced_response": ("p_truth", "p_forced_yes", "p_forced_no"),
    "unrelated_question": ("p_truth", "innocuous"),
    "crosswise": ("innocuous",),
    CHEATING: ("arms",),
}
DESIGN_FIELDS = ("p_truth", "p_forced_yes", "p_forced_no", "innocuous", "randomizer", "arms")
# The faces of the respondent's own randomizer: a die's six or a coin's two.
OWN_FACES = (6, 2)
# The literature's models of each design (R's RRreg and rr), for the codebook.
R_MODELS = {
    "spinner_coin": ("FR", "forced-known"),
    "spinner": ("Warner", "mirrored"),
    "forced_response": ("FR", "forced-known"),
    "unrelated_question": ("UQTknown", "unrelated-known"),
    "crosswise": ("Crosswise", None),
    CHEATING: ("CDMsym", None),
}


@dataclass(frozen=True)
class DesignParameters:
    """A design's parameters as a survey states them (None where the design has no such one)."""

    p_truth: Any = None
    p_forced_yes: Any = None
    p_forced_no: Any = None
    innocuous_text: Texts = Texts()
    prevalence: Any = None
    randomizer: str = "page"
    # Cheating detection: two arms, each (p_truth, p_forced_yes, p_forced_no) as stated.
    arms: Any = None
    # A number question's range (web/core/surveys/scales.py): its estimates are read through it.
    scale: Scale | None = None

    def numbers(self) -> tuple:
        """What the reports depend on (frozen once a question has responses): not the wording."""
        numbers = (self.p_truth, self.p_forced_yes, self.p_forced_no, self.prevalence)
        scale = self.scale.numbers() if self.scale is not None else None
        return (*numbers, self.randomizer, self.arms, scale)

    # In the database: one JSON object, the innocuous question's text by language.

    def to_store(self) -> dict:
        stored = {
            name: getattr(self, name)
            for name in ("p_truth", "p_forced_yes", "p_forced_no", "prevalence")
            if getattr(self, name) is not None
        }
        if self.innocuous_text:
            stored["innocuous_text"] = dict(self.innocuous_text)
        if self.randomizer != "page":
            stored["randomizer"] = self.randomizer
        if self.arms is not None:
            stored["arms"] = [list(arm) for arm in self.arms]
        if self.scale is not None:
            stored["scale"] = self.scale.to_store()
        return stored

    @classmethod
    def stored(cls, data: dict | None) -> DesignParameters:
        data = data or {}
        return cls(
            data.get("p_truth"),
            data.get("p_forced_yes"),
            data.get("p_forced_no"),
            Texts(data.get("innocuous_text") or {}),
            data.get("prevalence"),
            data.get("randomizer", "page"),
            tuple(tuple(arm) for arm in data["arms"]) if data.get("arms") else None,
            Scale.stored(data["scale"]) if data.get("scale") else None,
        )

    def for_file(self, procedure: str, languages: list[str]) -> dict:
        """The fields a survey file writes beside ``procedure``."""
        data: dict[str, Any] = {}
        for name in PARAMETERS.get(procedure, ()):
            if name == "innocuous":
                data["innocuous"] = {
                    "text": self.innocuous_text.for_file(languages),
                    "prevalence": self.prevalence,
                }
            elif name == "arms":
                data["arms"] = [dict(zip(ARM_FIELDS, arm, strict=True)) for arm in self.arms or ()]
            else:
                data[name] = getattr(self, name)
        if procedure in ("forced_response", "unrelated_question") and self.randomizer != "page":
            data["randomizer"] = self.randomizer
        if self.scale is not None:
            data |= self.scale.for_file(languages)
        return data


NO_PARAMETERS = DesignParameters()


def binary_design(procedure: str, epsilon: float, parameters: DesignParameters) -> rr.Design:
    """The :class:`rr.Design` a yes/no question reports through; assumes checked parameters."""
    if procedure == "spinner_coin":
        return rr.spinner_coin(epsilon)
    if procedure == "spinner":
        return rr.spinner(epsilon)
    if procedure == "forced_response":
        return rr.forced_response(
            parameters.p_truth, parameters.p_forced_yes, parameters.p_forced_no
        )
    if procedure == "unrelated_question":
        return rr.unrelated_question(parameters.p_truth, parameters.prevalence)
    return rr.crosswise(parameters.prevalence)


def cheating_model(parameters: DesignParameters) -> rr.CheatingDetection:
    """The two arms of a cheating-detection question; assumes checked parameters."""
    return rr.cheating_detection(parameters.arms)


def derived_epsilon(procedure: str, parameters: DesignParameters) -> float:
    """ε of a design whose parameters state it: one report's, the larger arm's for cheating
    detection; assumes checked parameters."""
    if procedure == CHEATING:
        return cheating_model(parameters).epsilon
    return binary_design(procedure, 0.0, parameters).epsilon


def uses_own_randomizer(procedure: str, parameters: DesignParameters) -> bool:
    """Whether the respondent draws with their own die or coin (crosswise needs none)."""
    return procedure == "crosswise" or (procedure in DESIGNS and parameters.randomizer == "own")


def design_problems(procedure, epsilon, parameters: DesignParameters) -> list[tuple[str, str]]:
    """Mistakes in a design's parameters, each as (field, message); none for the spinners.

    A parameter out of range, forced shares that do not add up, a design that gives no information
    or has infinite ε, an ε above the app's limit, a stated ε that is not the derived one, and an
    own randomizer whose probabilities are not a die's or a coin's faces."""
    if procedure == CHEATING:
        return _cheating_problems(epsilon, parameters)
    if procedure not in DESIGNS:
        return []
    problems = []
    for name in PARAMETERS[procedure]:
        field = "innocuous.prevalence" if name == "innocuous" else name
        value = parameters.prevalence if name == "innocuous" else getattr(parameters, name)
        if not _probability(value):
            problems.append((field, _("must be a number from 0 to 1, got %(value)r", value=value)))
    if procedure in PARAMETERS and "innocuous" in PARAMETERS[procedure]:
        if not parameters.innocuous_text:
            problems.append(("innocuous.text", _("the innocuous question needs its text")))
        elif any(len(text) > MAX_TEXT for text in parameters.innocuous_text.values()):
            problems.append(("innocuous.text", _("at most %(limit)d characters", limit=MAX_TEXT)))
    if parameters.randomizer not in RANDOMIZERS:
        problems.append(
            (
                "randomizer",
                _("must be 'page' or 'own', got %(value)r", value=parameters.randomizer),
            )
        )
    if problems:
        return problems
    refusal = _refusal(procedure, parameters)
    if refusal is not None:
        return [("procedure", refusal)]
    design = binary_design(procedure, 1.0, parameters)
    problems = _epsilon_problems(design.epsilon, epsilon)
    if problems:
        return problems
    own = uses_own_randomizer(procedure, parameters) and procedure != "crosswise"
    if own and own_faces(procedure, parameters) is None:
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


def _cheating_problems(epsilon, parameters: DesignParameters) -> list[tuple[str, str]]:
    """Mistakes in cheating detection's arms (see :func:`design_problems`)."""
    arms = parameters.arms
    if (
        not isinstance(arms, (list, tuple))
        or len(arms) != 2
        or not all(isinstance(arm, (list, tuple)) and len(arm) == 3 for arm in arms)
    ):
        return [("arms", _("needs two arms, each with p_truth, p_forced_yes and p_forced_no"))]
    problems = []
    for index, arm in enumerate(arms):
        for name, value in zip(ARM_FIELDS, arm, strict=True):
            if not _probability(value):
                problems.append(
                    (
                        f"arms[{index}].{name}",
                        _("must be a number from 0 to 1, got %(value)r", value=value),
                    )
                )
    if parameters.randomizer != "page":
        problems.append(("randomizer", _("cheating detection's arms are drawn by the page")))
    if problems:
        return problems
    for index, arm in enumerate(arms):
        refusal = _refusal("forced_response", DesignParameters(*arm))
        if refusal is not None:
            problems.append((f"arms[{index}]", refusal))
    if problems:
        return problems
    try:
        model = cheating_model(parameters)
    except ValueError:
        return [
            (
                "arms",
                _(
                    "the two arms must differ: with t1·f2 = t2·f1 an honest “no” and a cheater "
                    "cannot be told apart"
                ),
            )
        ]
    return _epsilon_problems(model.epsilon, epsilon)


def _epsilon_problems(derived: float, stated) -> list[tuple[str, str]]:
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


def _refusal(procedure: str, parameters: DesignParameters) -> str | None:
    """Why parameters in range still make no design (as :mod:`rr.design` refuses them), in the
    viewer's language; assumes probabilities in [0, 1]."""
    if procedure == "forced_response":
        total = parameters.p_truth + parameters.p_forced_yes + parameters.p_forced_no
        if abs(total - 1) > rr.design.TOLERANCE:
            return _("p_truth + p_forced_yes + p_forced_no must be 1, got %(total)g", total=total)
        if min(parameters.p_forced_yes, parameters.p_forced_no) == 0:
            return _(
                "each forced share must be above 0: otherwise one report can come from only one "
                "true answer (infinite epsilon)"
            )
        if parameters.p_truth == 0:
            return _("p_truth must be above 0: otherwise the reports say nothing")
    elif procedure == "unrelated_question":
        if parameters.p_truth == 1:
            return _("p_truth must be below 1: at 1 every report is the true answer")
        if parameters.p_truth == 0:
            return _("p_truth must be above 0: otherwise the reports say nothing")
    if parameters.prevalence is not None and parameters.prevalence in (0, 1):
        return _("the innocuous prevalence must be strictly between 0 and 1")
    if procedure == "crosswise" and parameters.prevalence == 0.5:
        return _(
            "a prevalence of 0.5 gives no information: 'the same' is then as likely under "
            "either true answer"
        )
    return None


def _probability(value) -> bool:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and 0 <= value <= 1
    )


def own_faces(procedure: str, parameters: DesignParameters) -> tuple[int, list[str]] | None:
    """A die's or a coin's faces for each outcome: (faces, outcome per face), with outcomes
    ``truth``, ``yes``, ``no`` (forced response) or ``truth``, ``innocuous`` (unrelated question);
    None when the probabilities are not multiples of 1/6 or 1/2."""
    if procedure == "forced_response":
        shares = [
            ("truth", parameters.p_truth),
            ("yes", parameters.p_forced_yes),
            ("no", parameters.p_forced_no),
        ]
    else:
        shares = [("truth", parameters.p_truth), ("innocuous", 1 - parameters.p_truth)]
    for faces in sorted(OWN_FACES):
        counts = [Fraction(share).limit_denominator(faces) * faces for _, share in shares]
        exact = all(
            count.denominator == 1 and abs(float(count) / faces - share) < 1e-9
            for count, (_, share) in zip(counts, shares, strict=True)
        )
        if exact and sum(counts) == faces:
            return faces, [
                outcome
                for count, (outcome, _) in zip(counts, shares, strict=True)
                for _ in range(int(count))
            ]
    return None


def face_ranges(faces: list[str]) -> list[tuple[int, int, str]]:
    """Consecutive faces with the same outcome, numbered from 1: [(first, last, outcome)]."""
    ranges: list[tuple[int, int, str]] = []
    for number, outcome in enumerate(faces, start=1):
        if ranges and ranges[-1][2] == outcome:
            ranges[-1] = (ranges[-1][0], number, outcome)
        else:
            ranges.append((number, number, outcome))
    return ranges


def procedure_words(procedure: str, parameters: DesignParameters, light: float) -> str:
    """How a question's reports were made, in the researcher's words with its shares."""

    def share(value) -> str:
        return f"{value:.3g}"

    if procedure == "spinner_coin":
        return _("Spinner and coin, p = %(p)s", p=share(light))
    if procedure == "spinner":
        return _("Spinner only, p = %(p)s", p=share(light))
    own = _(" (the respondent's own die or coin)") if parameters.randomizer == "own" else ""
    if procedure == "forced_response":
        return _(
            "Forced response: truth %(truth)s, forced yes %(yes)s, forced no %(no)s",
            truth=share(parameters.p_truth), yes=share(parameters.p_forced_yes),
            no=share(parameters.p_forced_no),
        ) + own  # fmt: skip
    if procedure == "unrelated_question":
        return _(
            "Unrelated question: truth %(truth)s, innocuous yes %(q)s",
            truth=share(parameters.p_truth), q=share(parameters.prevalence),
        ) + own  # fmt: skip
    if procedure == CHEATING:
        first, second = parameters.arms
        return _(
            "Cheating detection: arms (truth, forced yes, forced no) %(first)s and %(second)s",
            first=" / ".join(share(value) for value in first),
            second=" / ".join(share(value) for value in second),
        )
    return _("Crosswise: innocuous yes %(q)s", q=share(parameters.prevalence))


PLAN_PARAMETERS = ("p_truth", "p_forced_yes", "p_forced_no", "prevalence")


def arms_from_text(text: str) -> list[tuple] | None:
    """Cheating detection's arms written ``t,f_yes,f_no;t,f_yes,f_no`` (a spreadsheet cell, a
    query), each share a number or, where it is not one, the text as written; None when the text
    is not of that form."""
    arms = []
    for arm in text.split(";"):
        shares: list[float | str] = []
        for share in arm.split(","):
            try:
                shares.append(float(share))
            except ValueError:
                shares.append(share.strip())
        if len(shares) != len(ARM_FIELDS):
            return None
        arms.append(tuple(shares))
    return arms


def plan_of_design(procedure: str, numbers: dict, n: int) -> dict:
    """What the builder previews for a design: its ε, report probabilities, the margin of error
    for ``n`` respondents and the sample sizes for three margins.

    Raises
    ------
    ValueError
        Naming every mistake in the parameters (``numbers`` by the names of PLAN_PARAMETERS).
    """
    parameters = DesignParameters(
        numbers.get("p_truth"), numbers.get("p_forced_yes"), numbers.get("p_forced_no"),
        Texts.one("en", "innocuous"), numbers.get("prevalence"), arms=numbers.get("arms"),
    )  # fmt: skip
    problems = design_problems(procedure, None, parameters)
    if problems:
        raise ValueError("; ".join(f"{field}: {message}" for field, message in problems))
    if procedure == CHEATING:
        model = cheating_model(parameters)
        return {
            "procedure": procedure,
            "arms": [dict(zip(ARM_FIELDS, arm, strict=True)) for arm in parameters.arms],
            "epsilon": model.epsilon,
            "n": n,
            # The half-width for π at ½ with no cheaters (a planning figure, normal interval).
            "margin_of_error": model.margin_of_error(max(n, 2)),
        }
    design = binary_design(procedure, 0.0, parameters)
    return {
        "procedure": procedure,
        **{name: numbers[name] for name in PARAMETERS_BY_NUMBER[procedure]},
        "epsilon": design.epsilon,
        "n": n,
        "yes_given_yes": design.yes_given_yes,
        "yes_given_no": design.yes_given_no,
        "margin_of_error": design.margin_of_error(n),
        "sample_size": {f"{m:g}": design.sample_size(m) for m in (0.1, 0.05, 0.03)},
    }


PARAMETERS_BY_NUMBER = {
    procedure: tuple("prevalence" if name == "innocuous" else name for name in names)
    for procedure, names in PARAMETERS.items()
}


def forced_sectors(p_truth: float, p_forced_yes: float, p_forced_no: float) -> list[dict]:
    """A forced-response wheel for the page: truth, then "yes", then "no", clockwise."""
    return [
        {"share": p_truth, "reports": "truth"},
        {"share": p_forced_yes, "reports": "yes"},
        {"share": p_forced_no, "reports": "no"},
    ]


def cheating_codebook(parameters: DesignParameters) -> dict:
    """Cheating detection in the literature's words, with RRreg's symmetric model: its ``p`` is
    (forced yes, forced no) of the first arm then the second, and its group is the arm + 1."""
    model = cheating_model(parameters)
    return {
        "design": CHEATING,
        "arms": [dict(zip(ARM_FIELDS, arm, strict=True)) for arm in parameters.arms],
        "p_report_1_given_yes": [arm.yes_given_yes for arm in model.arms],
        "p_report_1_given_no": [arm.yes_given_no for arm in model.arms],
        "cheaters": "say no whatever they are told",
        "column_meaning": "<id>.reported: the report (0/1); <id>.arm: its arm (0/1, drawn half "
        "and half by the page)",
        "RRreg_model": "CDMsym",
        "RRreg_p": [value for arm in parameters.arms for value in (arm[1], arm[2])],
        "RRreg_group": "<id>.arm + 1",
        "randomizer": "page",
        "recompute": "rr.cheating_detection(arms).estimate([yes in arm 0, yes in arm 1], "
        "[n in arm 0, n in arm 1])",
    }


def codebook(procedure: str, design: rr.Design, parameters: DesignParameters) -> dict:
    """The design in the literature's words, with the matching models of R's RRreg and rr."""
    rrreg, rr_model = R_MODELS[procedure]
    entry: dict[str, Any] = {
        "design": procedure,
        "p_report_1_given_yes": design.yes_given_yes,
        "p_report_1_given_no": design.yes_given_no,
        "RRreg_model": rrreg,
    }
    if procedure == "forced_response":
        entry["RRreg_p"] = [parameters.p_forced_no, parameters.p_forced_yes]
    elif procedure == "unrelated_question":
        entry["RRreg_p"] = [parameters.p_truth, parameters.prevalence]
    elif procedure == "crosswise":
        entry["RRreg_p"] = parameters.prevalence
        entry["column"] = "1 = both answers the same (both yes or both no), 0 = different"
    if rr_model is not None:
        entry["rr_design"] = rr_model
    entry["randomizer"] = (
        "respondent's own" if uses_own_randomizer(procedure, parameters) else "page"
    )
    return entry


__all__ = [
    "DESIGNS",
    "DESIGN_FIELDS",
    "NO_PARAMETERS",
    "DesignParameters",
    "YESNO_PROCEDURES",
    "binary_design",
    "codebook",
    "design_problems",
    "face_ranges",
    "own_faces",
    "uses_own_randomizer",
]
