"""The error rr raises for an argument it refuses.

:class:`ParameterError` is a ``ValueError`` (code that catches ``ValueError`` keeps working) that
also says which argument was refused and why, in a word a caller can act on: an application maps
``parameter`` to its own field and ``reason`` to a message in its user's language, and never
repeats rr's checks.
"""

from __future__ import annotations

# Why an argument is refused. A caller may rely on these words.
NOT_A_NUMBER = "not_a_number"  # not a real (or whole) number
OUT_OF_RANGE = "out_of_range"  # a number outside the interval it must lie in
NOT_ONE = "not_one"  # shares that must add up to 1 do not
NO_INFORMATION = "no_information"  # reports as likely under either true answer
INFINITE_EPSILON = "infinite_epsilon"  # one report would give the true answer away
NOT_ALLOWED = "not_allowed"  # not one of the values allowed (a name, a method)
INVALID = "invalid"  # anything else; the message says what

REASONS = (
    NOT_A_NUMBER,
    OUT_OF_RANGE,
    NOT_ONE,
    NO_INFORMATION,
    INFINITE_EPSILON,
    NOT_ALLOWED,
    INVALID,
)


class ParameterError(ValueError):
    """An argument rr refuses.

    Parameters
    ----------
    parameter : str
        The argument's name as the function's signature spells it (``"p_truth"``,
        ``"epsilon"``); for a combination of arguments, the one the check names last.
    message : str
        What is wrong, in English, with the value given.
    reason : str
        One of :data:`REASONS`.
    value : object, optional
        The value refused.

    Examples
    --------
    >>> import rr
    >>> try:
    ...     rr.kuk(0.6, 1.0)
    ... except rr.ParameterError as error:
    ...     print(error.parameter, error.reason)
    theta_no out_of_range
    """

    def __init__(self, parameter: str, message: str, reason: str = INVALID, value=None):
        if reason not in REASONS:
            raise ValueError(f"reason must be one of {REASONS}, got {reason!r}")
        super().__init__(message)
        self.parameter = parameter
        self.reason = reason
        self.value = value

    def __reduce__(self):
        # Rebuilt from the constructor's own arguments: the default (``cls(*self.args)``) would call
        # it with the message alone, and a refusal raised in a worker process could not come back.
        return (type(self), (self.parameter, str(self), self.reason, self.value))

    def __repr__(self) -> str:
        return (
            f"ParameterError(parameter={self.parameter!r}, reason={self.reason!r}, {str(self)!r})"
        )
