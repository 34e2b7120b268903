"""Every randomized tally reports through a design object (its question type's ``item_design``):
estimates, the noise line, group differences and regressions all take it, and a spinner or
spinner-coin survey gives the numbers it gave before designs were objects."""

import math

import numpy as np
import pytest

import rr
from tests.conftest import no_database
from web.core.surveys.questions import QUESTION_TYPES

# Nothing here reads or writes the database: it runs once, on SQLite.
pytestmark = no_database


CASES = [
    ("yesno", "spinner_coin", 0),
    ("yesno", "spinner", 0),
    ("multi", "spinner", 3),
    ("choice", "spinner_coin", 4),
    ("choice", "spinner", 5),
]


@pytest.mark.parametrize(("kind", "procedure", "options"), CASES)
@pytest.mark.parametrize("epsilon", [0.3, 1.0, 2.5])
def test_the_item_design_keeps_the_numbers_of_epsilon_and_procedure(
    kind, procedure, options, epsilon
):
    question_type = QUESTION_TYPES[kind]
    design = question_type.item_design(epsilon, procedure, options)
    k = options if question_type.sums_to_one else 2
    # The mission's line: a = 1/(e^ε + k − 1), b = (e^ε − 1)/(e^ε + k − 1); for k = 2,
    # a = 1/(1 + e^ε) and b = tanh(ε/2), whichever spinner.
    e = math.exp(epsilon)
    assert design.offset == pytest.approx(1 / (e + k - 1), rel=1e-12)
    assert design.slope == pytest.approx((e - 1) / (e + k - 1), rel=1e-12)
    if k == 2:
        assert design.slope == pytest.approx(math.tanh(epsilon / 2), rel=1e-12)
    assert (design.offset, design.slope) == rr.mechanism.noise_line(epsilon, k)
    assert (design.offset, design.slope) == question_type.noise_line(epsilon, options)
    assert design.epsilon == epsilon
    assert design.difference(40, 120, 25, 110) == rr.difference(
        40, 120, 25, 110, epsilon, procedure, k=k
    )
    cells = np.array([[1.0, 0.0], [1.0, 1.0]])
    n = [30_000, 25_000]
    # The counts two groups give at true shares 0.3 and 0.45, large enough to fit at small ε.
    yes = [
        round(size * (design.offset + design.slope * share))
        for size, share in zip(n, (0.3, 0.45), strict=True)
    ]
    terms = ["(Intercept)", "g"]
    mine = design.regression(cells, n, yes, terms=terms)
    theirs = rr.rr_logistic_regression(cells, n, yes, epsilon, procedure, k=k, terms=terms)
    assert mine.coefficients == theirs.coefficients


@pytest.mark.parametrize("procedure", ["spinner_coin", "spinner"])
def test_yes_no_figures_are_the_reference_numbers(procedure):
    figures = QUESTION_TYPES["yesno"].figures([(7, 30), (0, 0), (30, 30)], 1.2, procedure)
    # π̂ = (7/30 − 1/(1 + e^1.2)) / tanh(0.6), its standard error √(p̂(1 − p̂)/n) / tanh(0.6),
    # the interval clipped at 0 below; computed once by hand and fixed here.
    assert figures[0][:4] == pytest.approx(
        (0.003459860963555635, 0.1437860274736376, 0.0, 0.35631963646651105), rel=1e-12
    )
    assert figures[2][0] == pytest.approx((1 - 1 / (1 + math.exp(1.2))) / math.tanh(0.6))
    expected = rr.estimate_proportion(7, 30, 1.2, procedure)
    assert figures[0] == (
        expected.estimate,
        expected.std_error,
        expected.ci_low,
        expected.ci_high,
        expected.estimated_count,
    )
    assert figures[1] is None


def test_a_direct_question_has_no_design():
    with pytest.raises(ValueError, match="asked plainly"):
        QUESTION_TYPES["direct"].item_design(0.0, "direct", 3)
