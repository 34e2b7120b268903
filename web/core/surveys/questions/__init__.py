"""Question types: everything that depends on what kind of question a question is.

Every respondent answers a question with one or more spins. Each spin reports one bit and feeds
one *tally*: a yes/no question spins once and keeps its own tally, a multi-select question spins
once per option and keeps a tally per option. The rest of the app asks a question's type (the
``QUESTION_TYPES`` entry named by ``Question.kind``) rather than comparing names: how the survey
file's options are checked, which tallies a response feeds, what a submitted answer must look like
and what it stores, and what the page's script is told. A type is one module of this package,
registered with :func:`~web.core.surveys.questions.base.register`; a new type is a new module.

A single-choice question is the exception to "one spin, one tally": its one spin (spinner, then
on dark a die) reports one option, and every response feeds every option's tally, adding one
reported "yes" to the option it reported. Its estimates come from all its tallies together
(generalized randomized response, :mod:`rr.choice`).
"""

from __future__ import annotations

import importlib
import pkgutil

from web.core.surveys.questions.base import (
    ARM,
    QUESTION_TYPES,
    VARIANTS,
    AnswerError,
    Figures,
    FixedFields,
    QuestionType,
    Tallied,
    question_type,
)

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")

# The builder lists the types in this order.
_listed = sorted(QUESTION_TYPES.values(), key=lambda kind: kind.listed)
QUESTION_TYPES.clear()
QUESTION_TYPES.update((kind.name, kind) for kind in _listed)

__all__ = [
    "ARM",
    "QUESTION_TYPES",
    "VARIANTS",
    "AnswerError",
    "Figures",
    "FixedFields",
    "QuestionType",
    "Tallied",
    "question_type",
]
