"""Checks shared by the public functions of :mod:`rr`.

Every public function validates its arguments here and raises a
:class:`~rr.errors.ParameterError` (a ``ValueError``) that names the argument, says why, and shows
the bad value; the private helpers in the other modules assume their input has passed these
checks.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .errors import NOT_A_NUMBER, NOT_ALLOWED, OUT_OF_RANGE, ParameterError

# What each spinner's dark share reports: a fair coin's toss (a die's over k options), or the
# opposite of the true answer (another option). The one thing the two procedures differ in.
DARK_REPORTS = {"spinner": "opposite", "spinner_coin": "coin"}
PROCEDURES = tuple(DARK_REPORTS)

# Below this ε the spinner is almost all dark: even a survey of everyone on Earth (8·10⁹ people)
# would give an estimate with a standard error above 10, i.e. no information, while the numbers
# themselves (slopes near 1e-300, counts beyond 1e300) stop being representable.
MIN_EPSILON = 1e-6


def _real(value, name: str) -> float:
    """Return a real number (not a bool) as a float."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ParameterError(
            name, f"{name} must be a real number, got {value!r}", NOT_A_NUMBER, value
        )
    return float(value)


def check_positive(value, name: str) -> float:
    """Return a finite number > 0 as a float."""
    number = _real(value, name)
    if not math.isfinite(number) or number <= 0:
        raise ParameterError(
            name, f"{name} must be finite and > 0, got {value!r}", OUT_OF_RANGE, value
        )
    return number


def check_epsilon(epsilon, name: str = "epsilon") -> float:
    """Return ε as a float, or raise if it is not a finite number ≥ :data:`MIN_EPSILON`."""
    number = check_positive(epsilon, name)
    if number < MIN_EPSILON:
        raise ParameterError(
            name, f"{name} must be >= {MIN_EPSILON:g}, got {epsilon!r}", OUT_OF_RANGE, epsilon
        )
    return number


def check_one_of(value, name: str, allowed: tuple[str, ...]) -> str:
    """Return ``value``, or raise if it is not one of the names ``allowed``."""
    if value not in allowed:
        raise ParameterError(
            name, f"{name} must be one of {allowed}, got {value!r}", NOT_ALLOWED, value
        )
    return value


def check_procedure(procedure) -> str:
    """Return the procedure name, or raise if it is not one of :data:`PROCEDURES`."""
    return check_one_of(procedure, "procedure", PROCEDURES)


def check_probability(value, name: str, *, closed: bool) -> float:
    """Return a probability as a float: in [0, 1] if ``closed``, else in (0, 1)."""
    number = _real(value, name)
    inside = 0 <= number <= 1 if closed else 0 < number < 1
    if not inside:
        interval = "[0, 1]" if closed else "(0, 1)"
        raise ParameterError(
            name, f"{name} must lie in {interval}, got {value!r}", OUT_OF_RANGE, value
        )
    return number


def check_count(value, name: str, *, minimum: int) -> int:
    """Return a whole number ≥ ``minimum`` as an int."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ParameterError(
            name, f"{name} must be a whole number, got {value!r}", NOT_A_NUMBER, value
        )
    if value < minimum:
        raise ParameterError(
            name, f"{name} must be >= {minimum}, got {value!r}", OUT_OF_RANGE, value
        )
    return int(value)


def as_int_array(values, name: str) -> np.ndarray:
    """Return ``values`` as an int64 array, or raise if any element is not a whole number."""
    array = np.asarray(values)
    if array.dtype == bool or not (
        np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)
    ):
        raise ParameterError(name, f"{name} must hold whole numbers, got {values!r}", NOT_A_NUMBER)
    if np.issubdtype(array.dtype, np.floating) and (
        not np.all(np.isfinite(array)) or np.any(array != np.round(array))
    ):
        raise ParameterError(name, f"{name} must hold whole numbers, got {values!r}", NOT_A_NUMBER)
    return array.astype(np.int64)


# A plan that needs more respondents than this is one no survey can carry out.
MAX_SAMPLE_SIZE = 10**18


def planned_size(numerator: float, denominator: float, parameter: str, value) -> int:
    """⌈numerator / denominator⌉, at least 1: a planner's normal-approximation n. Refuses, naming
    ``parameter`` (the effect, margin or change whose square is the denominator), where that n is
    not finite or past :data:`MAX_SAMPLE_SIZE`: an effect too small for any survey, including one
    whose square underflowed to 0. Assumes a finite numerator ≥ 0."""
    needed = numerator / denominator if denominator > 0 else math.inf
    if not math.isfinite(needed) or needed > MAX_SAMPLE_SIZE:
        raise ParameterError(
            parameter,
            f"{parameter} {value!r} is too small for any survey: it would need more than "
            f"{MAX_SAMPLE_SIZE:.0e} respondents",
            OUT_OF_RANGE,
            value,
        )
    return max(1, math.ceil(needed))


def check_plannable(n: int, parameter: str, value) -> int:
    """``n`` where a planner's search reached it; refuses past :data:`MAX_SAMPLE_SIZE` as
    :func:`planned_size` does."""
    if n > MAX_SAMPLE_SIZE:
        planned_size(1.0, 0.0, parameter, value)
    return n
