"""The checks of one question: its id, type and texts, its design and ε, its range and options.
The builder, the command line and every file go through :func:`question_problems`."""

from __future__ import annotations

from collections.abc import Callable

from flask_babel import gettext as _

from web.core.surveys.designs import (
    design_named,
    find_design,
    known_designs,
)
from web.core.surveys.field_checks import key_problems, number_or_value, texts_problems
from web.core.surveys.flow.conditions import (
    known_prevalence_problem,
)
from web.core.surveys.limits import (
    MAX_ANSWER_LENGTH,
    MAX_EPSILON,
    MAX_GRID_ROWS,
    MAX_TEXT,
    MIN_EPSILON,
    valid_epsilon,
)
from web.core.surveys.problems import Problem
from web.core.surveys.questions import QUESTION_TYPES, FixedFields, QuestionType
from web.core.surveys.scales import MAX_UNIT, SCALE_FIELDS, scale_problems
from web.core.surveys.specs import QuestionSpec
from web.core.surveys.texts import Texts

# The types asked on a range, as a file's problems name them.
RANGED = " or ".join(repr(kind.name) for kind in QUESTION_TYPES.values() if kind.has_range)
GRIDDED = " or ".join(repr(kind.name) for kind in QUESTION_TYPES.values() if kind.has_rows)
WRITTEN = " or ".join(repr(kind.name) for kind in QUESTION_TYPES.values() if kind.written)


def question_problems(
    spec: QuestionSpec,
    where: str = "question",
    languages: tuple[str, ...] = ("en",),
    complete: bool = True,
    in_series: bool = False,
) -> list[Problem]:
    """Every mistake in one question: id, type, wording (in each language), ε, procedure,
    options, and ε∞ (which only a wave of a series, ``in_series``, may have)."""
    problems = key_problems(spec.key, f"{where}.id")
    kind = QUESTION_TYPES.get(spec.kind) if isinstance(spec.kind, str) else None
    if kind is None:
        names = " or ".join(repr(name) for name in QUESTION_TYPES)
        problems.append(
            Problem(
                f"{where}.type",
                _("unknown type %(kind)r (use %(names)s)", kind=spec.kind, names=names),
            )
        )
    problems += texts_problems(spec.text, f"{where}.text", MAX_TEXT, languages, complete=complete)
    fixed = kind.fixed_fields() if kind is not None else FixedFields()
    problems += _fixed_problems(spec, fixed, where)
    if (
        "epsilon" not in fixed
        and _protects(spec.procedure)
        and not (_derived(spec.procedure) and spec.epsilon is None)
        and not valid_epsilon(spec.epsilon)
    ):
        problems.append(
            Problem(
                f"{where}.epsilon",
                _(
                    "must be a number from %(low)s to %(high)s, got %(value)r",
                    low=f"{MIN_EPSILON:g}",
                    high=f"{MAX_EPSILON:g}",
                    value=number_or_value(spec.epsilon),
                ),
            )
        )
    if "procedure" not in fixed:
        problems += _procedure_problems(spec, kind, where, languages, complete)
    if "epsilon_permanent" not in fixed:
        problems += _permanent_problems(spec, kind, where, in_series)
    problems += _scale_problems(spec, where, languages, complete)
    problems += _length_problems(spec, where)
    problems += _known_prevalence_problems(spec, kind, where)
    problems += _correct_problems(spec, kind, where)
    if any(spec.hint.values()) if isinstance(spec.hint, Texts) else spec.hint is not None:
        problems += texts_problems(
            spec.hint, f"{where}.hint", MAX_TEXT, languages, required=False, complete=complete
        )
    if not isinstance(spec.required, bool):
        problems.append(
            Problem(
                f"{where}.required", _("must be true or false, got %(value)r", value=spec.required)
            )
        )
    if kind is not None:
        wrong_count = kind.options_problem(len(spec.options))
        if wrong_count is not None:
            problems.append(Problem(f"{where}.options", wrong_count))
    problems += _listed_problems(
        spec.options, f"{where}.options", languages, complete,
        lambda key: _("duplicate option id %(id)r", id=key),
    )  # fmt: skip
    problems += _rows_problems(spec, kind, where, languages, complete)
    problems += _list_problems(spec, kind, where, languages, complete)
    return problems


def _list_problems(
    spec: QuestionSpec, kind: QuestionType | None, where: str, languages, complete: bool
) -> list[Problem]:
    """A list experiment's control items (each a valid id, unique, with its text) and its
    sensitive item (which a ``list`` question states, and a yes/no question asked as a list
    takes from its own text); neither on any other question."""
    design = find_design(spec.procedure)
    listed = design is not None and "controls" in design.fields.parameters
    stated = [name for name, given in (("controls", spec.design.controls is not None),
                                       ("sensitive", bool(spec.design.sensitive_text)),
                                       ("controls_b", spec.design.controls_b is not None)) if given]  # fmt: skip
    if not listed:
        return [Problem(f"{where}.{name}", _("only a list experiment has %(name)r", name=name))
                for name in stated]  # fmt: skip
    problems = [
        problem
        for name in ("controls", "controls_b")
        for problem in _listed_problems(getattr(spec.design, name) or (), f"{where}.{name}",
                                        languages, complete,
                                        lambda key: _("duplicate item id %(id)r", id=key))
    ]  # fmt: skip
    states_sensitive = kind is not None and kind.states_sensitive
    if states_sensitive:
        problems += texts_problems(spec.design.sensitive_text, f"{where}.sensitive.text",
                                   MAX_TEXT, languages, complete=complete)  # fmt: skip
    elif "sensitive" in stated:
        problems.append(Problem(f"{where}.sensitive", _(
            "a yes/no question asked as a list adds its own text as the sensitive item: remove "
            "'sensitive'")))  # fmt: skip
    return problems


def _listed_problems(
    listed, where: str, languages, complete: bool, duplicate: Callable[[str], str]
) -> list[Problem]:
    """Options or a grid's rows: each a valid id, unique among them, with its text."""
    problems = []
    seen: set[str] = set()
    for index, item in enumerate(listed):
        place = f"{where}[{index}]"
        problems += key_problems(item.key, f"{place}.id")
        problems += texts_problems(item.text, f"{place}.text", MAX_TEXT, languages,
                                   complete=complete)  # fmt: skip
        if not isinstance(item.key, str):
            continue
        if item.key in seen:
            problems.append(Problem(f"{place}.id", duplicate(item.key)))
        seen.add(item.key)
    return problems


def _rows_problems(
    spec: QuestionSpec, kind: QuestionType | None, where: str, languages, complete: bool
) -> list[Problem]:
    """A grid's rows (1 to the limit, each answered on the shared options), and none on any
    other type."""
    rows = spec.design.rows
    if kind is None or not kind.has_rows:
        if rows is None:
            return []
        return [Problem(f"{where}.rows", _("only a %(kinds)s question has %(name)r",
                                           kinds=GRIDDED, name="rows"))]  # fmt: skip
    if not rows or len(rows) > MAX_GRID_ROWS:
        return [Problem(f"{where}.rows", _("a %(kind)r question needs 1 to %(limit)d rows, got "
                                           "%(count)d", kind=kind.name, limit=MAX_GRID_ROWS,
                                           count=len(rows or ())))]  # fmt: skip
    return _listed_problems(rows, f"{where}.rows", languages, complete,
                            lambda key: _("duplicate row id %(id)r", id=key))  # fmt: skip


def _known_prevalence_problems(
    spec: QuestionSpec, kind: QuestionType | None, where: str
) -> list[Problem]:
    """A known prevalence is a share, on a yes/no question asked with one line per condition."""
    problem = known_prevalence_problem(spec.known_prevalence)
    if problem is not None:
        return [Problem(f"{where}.known_prevalence", problem)]
    one_share = kind is not None and not kind.has_options and not kind.has_range
    if spec.known_prevalence is not None and (not one_share or spec.condition is None):
        return [
            Problem(
                f"{where}.known_prevalence",
                _("only a yes/no question asked by condition ('asked') has a known prevalence"),
            )
        ]
    return []


def _protects(procedure) -> bool:
    """Whether ``procedure`` gives an ε (not a design that asks directly; its own check says
    what it takes instead)."""
    design = find_design(procedure)
    return design is None or design.protects


def _correct_problems(spec: QuestionSpec, kind: QuestionType | None, where: str) -> list[Problem]:
    """A comprehension check's right answer is one of a direct question's options."""
    if spec.correct is None:
        return []
    # One of the options, chosen and sent as given: nothing may protect it.
    if kind is None or not kind.has_options or _protects(spec.procedure):
        return [Problem(f"{where}.correct", _("only a direct question is a comprehension check"))]
    if spec.correct not in [option.key for option in spec.options]:
        return [
            Problem(
                f"{where}.correct",
                _("must be one of the question's option ids, got %(value)r", value=spec.correct),
            )
        ]
    return []


def _derived(procedure) -> bool:
    """Whether ``procedure`` names a design whose ε comes from its parameters."""
    design = find_design(procedure)
    return design is not None and design.derived


def _procedure_problems(
    spec: QuestionSpec, kind: QuestionType | None, where: str, languages, complete: bool
) -> list[Problem]:
    """The procedure and, for a design, its parameters: the spinners fit every randomized type,
    the designs (forced response, unrelated question, crosswise) a yes/no question."""
    allowed = known_designs() if kind is None else kind.procedures
    if spec.procedure not in allowed:
        return [
            Problem(
                f"{where}.procedure",
                _(
                    "unknown procedure %(procedure)r (use %(names)s)",
                    procedure=spec.procedure,
                    names=", ".join(repr(name) for name in allowed),
                ),
            )
        ]
    design = design_named(spec.procedure)
    if not design.derived:
        stated = [name for name, _value in spec.design.shares]
        stated += ["arms"] if spec.design.arms is not None else []
        return [
            Problem(
                f"{where}.{'innocuous' if name == 'prevalence' else name}",
                _(
                    "only a design's question has %(name)r",
                    name="innocuous" if name == "prevalence" else name,
                ),
            )
            for name in stated
        ]
    problems = [
        Problem(f"{where}.{field}", message)
        for field, message in design.problems(spec.epsilon, spec.design)
    ]
    if spec.design.innocuous_text:
        problems += texts_problems(
            spec.design.innocuous_text, f"{where}.innocuous.text", MAX_TEXT, languages,
            complete=complete,
        )  # fmt: skip
    for index, text in enumerate(spec.design.arm_texts or ()):
        if text:  # an arm with no text at all is the design's own refusal
            problems += texts_problems(
                text, f"{where}.arms[{index}].innocuous.text", MAX_TEXT, languages,
                complete=complete,
            )  # fmt: skip
    return problems


def _permanent_problems(
    spec: QuestionSpec, kind: QuestionType | None, where: str, in_series: bool
) -> list[Problem]:
    """ε∞: above ε, on a type and design that keep a permanent report (a yes/no, multi-select or
    single-choice question asked with a spinner), in a survey that is a wave of a series."""
    bound = spec.epsilon_permanent
    if bound is None:
        return []
    place = f"{where}.epsilon_permanent"
    if not valid_epsilon(bound):
        return [
            Problem(
                place,
                _("must be a number from %(low)s to %(high)s, got %(value)r",
                  low=f"{MIN_EPSILON:g}", high=f"{MAX_EPSILON:g}", value=number_or_value(bound)),
            )
        ]  # fmt: skip
    design = find_design(spec.procedure)
    if kind is None or not kind.permanent_layer or design is None or not design.keeps_permanent:
        return [Problem(place, _("only a yes/no, multi-select or single-choice question asked "
                                 "with a spinner keeps a permanent report"))]  # fmt: skip
    problems = []
    if spec.epsilon is not None and valid_epsilon(spec.epsilon) and not spec.epsilon < bound:
        problems.append(
            Problem(
                place,
                _("must be above ε (one wave's), got %(bound)s with ε = %(epsilon)s",
                  bound=f"{bound:g}", epsilon=f"{spec.epsilon:g}"),
            )
        )  # fmt: skip
    if not in_series:
        problems.append(Problem(place, _("a permanent report needs the survey's series and wave")))
    return problems


def _scale_problems(spec: QuestionSpec, where: str, languages, complete: bool) -> list[Problem]:
    """A number question's range (required), and no range on any other type."""
    scale = spec.design.scale
    kind = QUESTION_TYPES.get(spec.kind) if isinstance(spec.kind, str) else None
    if kind is None or not kind.has_range:
        if scale is None:
            return []
        return [
            Problem(
                f"{where}.{name}",
                _("only a %(kinds)s question has %(name)r", kinds=RANGED, name=name),
            )
            for name, value in zip(SCALE_FIELDS, (*scale.numbers(), scale.unit), strict=True)
            if value not in (None, Texts())
        ]
    if scale is None:
        return [
            Problem(f"{where}.min", _("a %(kind)r question needs its min and max", kind=kind.name))
        ]
    problems = [Problem(f"{where}.{field}", message) for field, message in scale_problems(scale)]
    if scale.unit:
        problems += texts_problems(scale.unit, f"{where}.unit", MAX_UNIT, languages,
                                   complete=complete)  # fmt: skip
    return problems


def _length_problems(spec: QuestionSpec, where: str) -> list[Problem]:
    """An open answer's ``max_length`` (a whole number up to the limit), and none on any other
    type."""
    length = spec.design.max_length
    kind = QUESTION_TYPES.get(spec.kind) if isinstance(spec.kind, str) else None
    if kind is None or not kind.written:
        if length is None:
            return []
        return [Problem(f"{where}.max_length", _("only a %(kinds)s question has %(name)r",
                                                 kinds=WRITTEN, name="max_length"))]  # fmt: skip
    if (
        isinstance(length, bool)
        or not isinstance(length, int)
        or not 1 <= length <= MAX_ANSWER_LENGTH
    ):
        return [Problem(f"{where}.max_length", _(
            "must be a whole number of characters from 1 to %(limit)d, got %(value)r",
            limit=MAX_ANSWER_LENGTH, value=length))]  # fmt: skip
    return []


def _fixed_problems(spec: QuestionSpec, fixed: FixedFields, where: str) -> list[Problem]:
    """What the question's type fixes (a direct question is asked plainly) stated otherwise: an
    ε or a procedure would promise a protection it has not (a null one is as wrong: the question
    is then asked with nothing the app knows)."""
    return [
        Problem(
            f"{where}.{name}",
            _("a %(kind)r question is not randomized: remove %(name)r", kind=spec.kind, name=name),
        )
        for name, value in fixed.items()
        if getattr(spec, name) != value
    ]
