"""rr's test for design effects against R's ``list::ict.test`` (9.2.6): on ``list``'s own
``race`` data to 1e-12, and on frequency tables drawn to exercise every branch of the test. Where
a family keeps one to three inequalities both compute in closed form (1e-9); with four, ``list``
takes w₀ from ``pmvnorm``'s numerical integration (its error bound, 1e-3); with five or more,
both simulate the weights (R 250,000 draws, rr 20,000 with a fixed seed: 0.02)."""

from __future__ import annotations

import numpy as np
import pytest

from rr.design_effect import design_effect_test
from tests.r.test_r_code import requires_r, run_r

pytestmark = requires_r

RACE = r"""
suppressMessages(library(list))
data(race)
cat(sprintf("%.17g", ict.test(race$y, race$treat, J = 3)$p), "\n")
cat(tabulate(race$y[race$treat == 0] + 1, nbins = 4), "\n")
cat(tabulate(race$y[race$treat == 1] + 1, nbins = 5), "\n")
"""


def test_the_design_effect_test_gives_list_s_p_value_on_its_race_data(tmp_path):
    p, control, treatment = run_r(RACE, tmp_path).strip().splitlines()
    found = design_effect_test(
        [int(value) for value in control.split()], [int(value) for value in treatment.split()]
    )
    assert found.p_value == pytest.approx(float(p), abs=1e-12)
    assert found.families[0].tested == 1  # Welch's t-test: one inequality left


def tables(seed: int = 17, count: int = 40):
    """Frequency tables with J = 2 to 6, some with a design effect (the long list's counts
    pushed down), each arm 150 to 600 respondents."""
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(count):
        controls = int(rng.integers(2, 7))
        psi, delta = rng.uniform(0.2, 0.8), rng.uniform(0.05, 0.4)
        n_c, n_t = (int(value) for value in rng.integers(150, 600, size=2))
        short = rng.binomial(controls, psi, size=n_c)
        long = rng.binomial(controls, psi, size=n_t) + (rng.random(n_t) < delta)
        if rng.random() < 0.5:  # a design effect: some in the long list drop one control item
            long = np.maximum(long - (rng.random(n_t) < 0.3), 0)
        found.append(
            (np.bincount(short, minlength=controls + 1), np.bincount(long, minlength=controls + 2))
        )
    return found


def test_every_branch_gives_list_s_p_value(tmp_path):
    drawn = tables()
    lines = ["suppressMessages(library(list))", "set.seed(1)"]
    for control, treatment in drawn:
        y = f"c(rep(0:{len(control) - 1}, c({','.join(map(str, control))})), "
        y += f"rep(0:{len(treatment) - 1}, c({','.join(map(str, treatment))})))"
        treat = f"rep(0:1, c({control.sum()}, {treatment.sum()}))"
        lines.append(
            f'cat(sprintf("%.17g", ict.test({y}, {treat}, J = {len(control) - 1})$p), "\\n")'
        )
    printed = [float(line) for line in run_r("\n".join(lines), tmp_path).split()]
    branches = set()
    for (control, treatment), p in zip(drawn, printed, strict=True):
        found = design_effect_test(control, treatment)
        most = max(family.tested for family in found.families)
        branches.add(min(most, 5))
        tolerance = 1e-9 if most <= 3 else 1e-3 if most == 4 else 0.02
        assert found.p_value == pytest.approx(p, abs=tolerance), (control, treatment, most)
    assert branches == {0, 1, 2, 3, 4, 5}, branches
