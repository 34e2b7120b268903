"""The joint distribution of several items' true answers from counts of reported patterns: EM
(with SQUAREM), the Gibbs sampler, the bootstrap, and the summaries of a pair."""

import numpy as np
import pytest

import rr
from rr.joint import (
    _Split,
    bootstrap_tables,
    choice_matrix,
    joint_em,
    joint_gibbs,
    margin_table,
    pair_summary,
    report_matrix,
)

COIN = rr.spinner_coin(1.0)
FORCED = rr.forced_response(0.75, 0.15, 0.1)


def matrix(design):
    return report_matrix(design.yes_given_yes, design.yes_given_no)


def reported_counts(truths, designs, rng, extra=None):
    """Counts of reported patterns, shape (2, …, 2[, levels])."""
    reports = [design.perturb(truth, rng) for truth, design in zip(truths, designs, strict=True)]
    columns = [*reports, *([extra[0]] if extra else [])]
    shape = (2,) * len(reports) + ((extra[1],) if extra else ())
    counts = np.zeros(shape)
    np.add.at(counts, tuple(columns), 1)
    return counts


def correlated(n, rng):
    a = rng.random(n) < 0.3
    b = np.where(a, rng.random(n) < 0.7, rng.random(n) < 0.1)
    return a, b


def test_em_recovers_a_correlated_truth_that_the_margins_miss():
    rng = np.random.default_rng(11)
    a, b = correlated(40_000, rng)
    counts = reported_counts([a, b], [COIN, FORCED], rng)
    fit = joint_em(counts, [matrix(COIN), matrix(FORCED)])
    assert fit.converged
    both = float(np.mean(a & b))
    spread = bootstrap_tables(counts, [matrix(COIN), matrix(FORCED)], 200, seed=1)[:, 1, 1].std()
    assert abs(fit.table[1, 1] - both) < 3 * spread
    margins = fit.table.sum(axis=1)[1] * fit.table.sum(axis=0)[1]
    assert abs(margins - both) > 10 * spread  # independence would be far off
    summary = pair_summary(fit.table)
    assert summary.conditional == pytest.approx(0.7, abs=4 * spread / 0.3)
    assert summary.correlation > 0.4


def test_em_and_gibbs_agree_within_monte_carlo_error():
    rng = np.random.default_rng(5)
    a, b = correlated(5_000, rng)
    counts = reported_counts([a, b], [COIN, COIN], rng)
    operators = [matrix(COIN), matrix(COIN)]
    fit = joint_em(counts, operators)
    draws = joint_gibbs(counts, operators, prior=0.5, draws=3000, seed=2)
    assert np.allclose(draws.sum(axis=(1, 2)), 1)
    mean, sd = draws.mean(axis=0), draws.std(axis=0)
    # The posterior mean and the MLE differ by the prior's pull, a fraction of a posterior SD.
    assert np.all(np.abs(mean - fit.table) < 0.5 * sd)
    assert np.all(
        np.abs(sd - bootstrap_tables(counts, operators, 300, seed=3).std(axis=0)) < 0.3 * sd
    )


@pytest.mark.parametrize("per_respondent", [False, True])
def test_the_split_of_reports_among_true_patterns_is_the_multinomial_one_either_way(
    per_respondent,
):
    # 12 reported patterns over 60 true ones (blocks of 7, the last padded), a fifth of M's
    # entries impossible: each way of drawing must give every true pattern the mean and
    # variance of the sum of multinomials, and nobody to a pattern with no chance.
    rng = np.random.default_rng(11)
    chances = rng.random((12, 60)) ** 3 * (rng.random((12, 60)) > 0.2)
    reported = rng.integers(1, 4, 12)
    table = rng.dirichlet(np.ones(60))
    split = _Split(chances, reported)
    assert split.per_respondent  # 24 respondents: the cheaper way for 720 cells of M
    split.per_respondent = per_respondent
    trials = 6_000
    draws = np.array([split.true_counts(table, rng) for _ in range(trials)])
    assert np.all(draws.sum(axis=1) == reported.sum())
    share = chances * table
    share /= share.sum(axis=1, keepdims=True)
    mean = (reported[:, None] * share).sum(axis=0)
    variance = (reported[:, None] * share * (1 - share)).sum(axis=0)
    assert np.all(draws[:, mean == 0] == 0)
    live = mean > 0
    # Each cell's mean within 4.5 standard errors (60 cells: a miss by chance has odds of about
    # 1 in 2,500), and the summed variance within 5% (its standard error is about 1%).
    error = np.abs(draws.mean(axis=0) - mean)[live] / np.sqrt(variance[live] / trials)
    assert error.max() < 4.5
    assert draws.var(axis=0)[live].sum() == pytest.approx(variance[live].sum(), rel=0.05)


def test_independent_items_give_the_product_of_the_one_item_estimates():
    rng = np.random.default_rng(8)
    n = 60_000
    truths = [rng.random(n) < share for share in (0.2, 0.35, 0.5)]
    designs = [COIN, FORCED, rr.spinner(2.0)]
    counts = reported_counts(truths, designs, rng)
    fit = joint_em(counts, [matrix(design) for design in designs])
    singles = [
        design.estimate(int(counts.sum(axis=tuple(j for j in range(3) if j != i))[1]), n).estimate
        for i, design in enumerate(designs)
    ]
    for i, single in enumerate(singles):
        assert margin_table(fit.table, (i,))[1] == pytest.approx(single, abs=2e-3)
    product = np.einsum("i,j->ij", *[np.array([1 - s, s]) for s in singles[:2]])
    assert np.allclose(margin_table(fit.table, (0, 1)), product, atol=0.01)


def test_a_direct_question_and_a_single_choice_question_join_the_table():
    rng = np.random.default_rng(4)
    n = 30_000
    group = rng.integers(0, 3, n)
    yes = rng.random(n) < np.array([0.1, 0.3, 0.6])[group]
    option = rng.choice(4, n, p=[0.4, 0.3, 0.2, 0.1])
    reported_yes = COIN.perturb(yes, rng)
    reported_option = rr.perturb_choice(option, 1.5, 4, rng=rng)
    counts = np.zeros((2, 4, 3))
    np.add.at(counts, (reported_yes, reported_option, group), 1)
    fit = joint_em(counts, [matrix(COIN), choice_matrix(1.5, 4), np.eye(3)])
    by_group = margin_table(fit.table, (0, 2))
    shares = by_group[1] / by_group.sum(axis=0)
    assert shares == pytest.approx([0.1, 0.3, 0.6], abs=0.04)
    assert margin_table(fit.table, (1,)) == pytest.approx([0.4, 0.3, 0.2, 0.1], abs=0.03)
    assert margin_table(fit.table, (2,)) == pytest.approx(np.bincount(group) / n, abs=1e-9)


@pytest.mark.parametrize(
    ("counts", "matrices", "message"),
    [
        (np.zeros((2, 2)), [np.eye(2), np.eye(2)], "no respondents"),
        (np.ones((2, 2)), [np.eye(2)], "one axis per item"),
        (np.ones((2, 3)), [np.eye(2), np.eye(2)], "3 x 3"),
        (np.ones((2, 2)), [np.eye(2), np.array([[0.5, 0.5], [0.6, 0.5]])], "columns summing"),
        (-np.ones((2, 2)), [np.eye(2), np.eye(2)], "whole numbers"),
        (np.ones((2,) * 17), [np.eye(2)] * 17, "at most 65536 cells"),
    ],
)
def test_bad_tables_are_refused(counts, matrices, message):
    with pytest.raises(ValueError, match=message):
        joint_em(counts, matrices)


def test_gibbs_refuses_a_table_too_large_for_it():
    with pytest.raises(ValueError, match="1024 cells"):
        joint_gibbs(np.ones((2,) * 11), [np.eye(2)] * 11, draws=1)
