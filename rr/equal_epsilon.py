"""Designs compared at one ε: each one-parameter family of designs has a member at any ε (found by
root search), and :func:`designs_at_epsilon` gives one of each, to compare their precision where
they protect alike (the lab's comparison, ``bench/designs_table.py``)."""

from __future__ import annotations

import math

from ._validate import check_epsilon
from .design import Design, crosswise, forced_response, spinner_coin, unrelated_question


def with_epsilon(family, epsilon) -> Design:
    """The member ``family(t)`` of a one-parameter family of designs whose ε is ``epsilon``,
    found by root search on t in (0, 1); the family's ε must grow from 0 (t → 0) without bound
    (t → 1), as a truth share's does.

    Raises
    ------
    ValueError
        If ε is not a finite number ≥ ``MIN_EPSILON``.
    """
    from scipy import optimize  # here, so that `import rr` does not load scipy

    epsilon = check_epsilon(epsilon)
    return family(
        optimize.brentq(lambda t: family(t).epsilon - epsilon, 1e-12, 1 - 1e-12, xtol=1e-15)
    )


def designs_at_epsilon(epsilon) -> dict[str, Design]:
    """One of each design, its free parameter set so that its ε is ``epsilon``: the symmetric
    spinner, forced response with a forced "yes" twice as likely as a forced "no", the unrelated
    question with q = 0.25, and the crosswise model (whose q is then e^ε/(1 + e^ε): at a given ε
    it is the spinner's mechanism, with no randomizer). For comparing their precision at equal ε.

    Raises
    ------
    ValueError
        If ε is not a finite number ≥ ``MIN_EPSILON``.
    """
    epsilon = check_epsilon(epsilon)
    return {
        "spinner_coin": spinner_coin(epsilon),
        "forced_response": with_epsilon(
            lambda t: forced_response(t, 2 * (1 - t) / 3, (1 - t) / 3), epsilon
        ),
        "unrelated_question": with_epsilon(lambda t: unrelated_question(t, 0.25), epsilon),
        "crosswise": crosswise(1 / (1 + math.exp(-epsilon))),
    }


__all__ = ["designs_at_epsilon", "with_epsilon"]
