"""The double list experiment (Droitcour et al. 1991; Glynn 2013): two lists of control items, A
and B, and every respondent answers both. Half are drawn into arm ``a`` (the sensitive item added
to list A, list B plain), half into arm ``b`` (added to B, A plain), so each list is a list
experiment of its own whose short-list group is the other arm, and the two estimates are averaged:

    π̂ = ½[(Ā_a − Ā_b) + (B̄_b − B̄_a)] = ½[mean(A − B | a) − mean(A − B | b)],

with each respondent's difference A − B. The two arms are independent, so its standard error is
½√(s_a²/(n_a − 1) + s_b²/(n_b − 1)) (s² each arm's variance of A − B with n − 1: the HC3 form of
``list::ictreg``'s difference in means, as :class:`rr.ListExperiment` gives each list's). Each
list's own estimate, maximum-likelihood fit and answers given away are
:meth:`rr.ListExperiment.estimate` on its two arms; :meth:`DoubleList.regression` fits Imai's
(2011) model with covariates to both lists at once.

Like a single list, a double list has no ε bound: a count of every item of the list holding the
sensitive item, or of none, gives the answer away.

References
----------
Droitcour, J., Caspar, R. A., Hubbard, M. L., Parsley, T. L., Visscher, W., & Ezzati, T. M.
(1991). The item count technique as a method of indirect questioning. In Measurement Errors in
Surveys (pp. 185-210). Wiley.
Glynn, A. N. (2013). What can we learn with statistical truth serum? Public Opinion Quarterly
77, 159-172.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import NamedTuple

import numpy as np

from ._validate import check_count, check_probability
from .errors import ParameterError
from .list_experiment import ListEstimate, list_experiment
from .list_regression import ListRegression, checked_covariates, fit_lists


class DoubleListEstimate(NamedTuple):
    """The mean of the two lists' differences with its standard error and Wald interval, and
    each list's own estimate (A, then B)."""

    estimate: float
    std_error: float
    ci_low: float
    ci_high: float
    by_list: tuple[ListEstimate, ListEstimate]
    confidence: float

    def __repr__(self) -> str:
        return (
            f"DoubleListEstimate(estimate={self.estimate:.4f} (SE {self.std_error:.4f}) "
            f"[{self.ci_low:.4f}, {self.ci_high:.4f}] at {self.confidence:.0%}, "
            f"lists={self.by_list[0].estimate:.4f} and {self.by_list[1].estimate:.4f})"
        )


@dataclass(frozen=True)
class DoubleList:
    """Lists A and B of ``controls_a`` and ``controls_b`` control items."""

    controls_a: int
    controls_b: int

    def __repr__(self) -> str:
        return f"DoubleList(controls_a={self.controls_a}, controls_b={self.controls_b})"

    @property
    def epsilon(self) -> float:
        """No bound: a count of every item, or of none, reveals the answer."""
        return math.inf

    def estimate(self, arms, counts_a, counts_b, confidence: float = 0.95) -> DoubleListEstimate:
        """The share holding the sensitive item from each respondent's arm (``"a"`` or ``"b"``:
        which list held it) and counts of lists A and B.

        Raises
        ------
        ValueError
            If the lengths differ, an arm is neither, a count is outside its list (0…J, or
            0…J + 1 in the list holding the sensitive item), an arm has fewer than two
            respondents, or the confidence is outside (0, 1).
        """
        confidence = check_probability(confidence, "confidence", closed=False)
        arm, a, b = self._checked(arms, counts_a, counts_b)
        first = arm == 0
        if first.sum() < 2 or (~first).sum() < 2:
            raise ParameterError("arms", "arms: each arm needs at least two respondents")
        spreads = [
            (float(np.mean(a[group] - b[group])), float(np.var(a[group] - b[group], ddof=1)),
             int(group.sum()))
            for group in (first, ~first)
        ]  # fmt: skip
        (mean_a, var_a, n_a), (mean_b, var_b, n_b) = spreads
        estimate = (mean_a - mean_b) / 2
        std_error = math.sqrt(var_a / (n_a - 1) + var_b / (n_b - 1)) / 2
        z = -NormalDist().inv_cdf((1 - confidence) / 2)
        lists = (
            list_experiment(self.controls_a).estimate(
                _frequencies(a[~first], self.controls_a + 1),
                _frequencies(a[first], self.controls_a + 2),
                confidence,
            ),
            list_experiment(self.controls_b).estimate(
                _frequencies(b[first], self.controls_b + 1),
                _frequencies(b[~first], self.controls_b + 2),
                confidence,
            ),
        )
        return DoubleListEstimate(
            estimate, std_error, estimate - z * std_error, estimate + z * std_error, lists,
            confidence,
        )  # fmt: skip

    def regression(self, arms, counts_a, counts_b, covariates, names=None) -> ListRegression:
        """Imai's (2011) ML model on both lists at once (:mod:`rr.list_regression`): who holds
        the sensitive item by each respondent's covariates (``covariates``: one row each, the
        constant column included), from their arm and counts of lists A and B. The sensitive
        item's coefficients are shared by the lists; ``control`` is list A's control items',
        ``control_b`` list B's.

        Raises
        ------
        ValueError
            As :meth:`estimate` for the arms and counts, and if the covariates are not one row
            per respondent of finite numbers, of full rank, with a name per column.
        """
        arm, a, b = self._checked(arms, counts_a, counts_b)
        first = arm == 0
        if first.sum() < 2 or (~first).sum() < 2:
            raise ParameterError("arms", "arms: each arm needs at least two respondents")
        x, names = checked_covariates(covariates, len(arm), names)
        lists = [
            (self.controls_a, a.astype(float), first),
            (self.controls_b, b.astype(float), ~first),
        ]
        return fit_lists(lists, x, names)

    def _checked(self, arms, counts_a, counts_b) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The arms as 0 (a) and 1 (b), and both lists' counts, checked."""
        if not len(arms) == len(counts_a) == len(counts_b):
            raise ParameterError("arms", "arms: need one arm and two counts per respondent")
        if any(arm not in ("a", "b") for arm in arms):
            raise ParameterError("arms", "arms: each arm must be 'a' or 'b'")
        arm = np.array([arm == "b" for arm in arms], dtype=int)
        lists = []
        for values, top, name, held in (
            (counts_a, self.controls_a, "counts_a", 0),
            (counts_b, self.controls_b, "counts_b", 1),
        ):
            counts = np.array([check_count(value, name, minimum=0) for value in values], dtype=int)
            if np.any(counts > top + (arm == held)):
                raise ParameterError(
                    name, f"{name}: a count is above {top} (or {top + 1} where the list holds "
                    "the sensitive item)",
                )  # fmt: skip
            lists.append(counts)
        return arm, lists[0], lists[1]


def double_list(controls_a, controls_b) -> DoubleList:
    """A double list experiment with ``controls_a`` and ``controls_b`` control items.

    Raises
    ------
    ValueError
        If either is not a whole number from 1 to 20.
    """
    checked = [list_experiment(value).controls for value in (controls_a, controls_b)]
    return DoubleList(*checked)


def _frequencies(counts: np.ndarray, length: int) -> np.ndarray:
    """How many gave each count 0…length − 1. Assumes checked counts."""
    return np.bincount(counts, minlength=length)
