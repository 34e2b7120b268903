"""Privacy accounting: what a question and a whole survey cost.

ε is the privacy loss of one spin. A yes/no question is one spin and costs ε. A multi-select
question spins once for each of its k options, and k ε-DP releases about one person compose to
k·ε-DP, so it costs k·ε. A survey releases all its questions about the same person, and costs the
sum of their costs (sequential composition; Dwork & Roth 2014, Theorem 3.14).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from ._validate import check_count, check_epsilon


def question_epsilon(epsilon, spins: int = 1) -> float:
    """Privacy cost of one question: ``spins``·ε (1 spin for yes/no, k for k options).

    Raises
    ------
    ValueError
        If ε is not finite and > 0, or spins is not a whole number ≥ 1.
    """
    return check_count(spins, "spins", minimum=1) * check_epsilon(epsilon)


def survey_epsilon(question_costs: Iterable[float]) -> float:
    """Privacy cost of a survey: the sum of its questions' costs (0 for no question).

    Summed with :func:`math.fsum`, so ten questions at ε = 0.1 cost exactly 1.0.

    Raises
    ------
    ValueError
        If a cost is not a finite number > 0.
    """
    return math.fsum(check_epsilon(cost) for cost in question_costs)


def bound(epsilon: float) -> float | None:
    """ε as a bound on what a report reveals, or None where a design has none (ε infinite: the
    stochastic lie detector, a list experiment), as a document writes it."""
    return None if math.isinf(epsilon) else epsilon


__all__ = ["bound", "question_epsilon", "survey_epsilon"]
