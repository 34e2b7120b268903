"""Privacy cost of questions and surveys."""

import pytest

import rr


def test_yes_no_question_costs_epsilon():
    assert rr.question_epsilon(1.5) == 1.5


def test_multi_select_costs_one_epsilon_per_option():
    assert rr.question_epsilon(1.5, spins=4) == 6.0


def test_survey_costs_the_sum_of_its_questions():
    costs = [rr.question_epsilon(1.0), rr.question_epsilon(1.5, spins=2)]
    assert rr.survey_epsilon(costs) == 4.0


def test_survey_sum_is_exact_for_decimal_epsilons():
    assert rr.survey_epsilon([0.1] * 10) == 1.0


def test_empty_survey_costs_nothing():
    assert rr.survey_epsilon([]) == 0.0


@pytest.mark.parametrize("spins", [0, -1, 1.5, True])
def test_bad_spin_count_is_refused(spins):
    with pytest.raises(ValueError, match="spins"):
        rr.question_epsilon(1.0, spins=spins)


def test_bad_cost_in_a_survey_is_refused():
    with pytest.raises(ValueError, match="-1"):
        rr.survey_epsilon([1.0, -1.0])
