"""rr's extended crosswise model against R: π̂, its standard error and the model test's G² and p
are ``glm``'s fit of the model (binomial, identity link, the arms' offsets) and its residual
deviance (its iterations run to convergence), to 1e-9, on arms of equal and of unequal size,
with the innocuous shares q and 1 − q and two others."""

from __future__ import annotations

import pytest

from rr.extended_crosswise import extended_crosswise
from tests.r.test_r_code import requires_r, run_r

pytestmark = requires_r

CASES = [
    ((0.25, 0.75), (320, 200), (500, 500)),
    ((0.2, 0.7), (320, 200), (400, 500)),
    ((0.15, 0.85), (410, 95), (600, 480)),
]
CODE = r"""
cases <- list({cases})
for (case in cases) {{
  q <- case$q; y <- case$y; n <- case$n; a <- 2 * q - 1
  fit <- glm(cbind(y, n - y) ~ 0 + a + offset(1 - q), family = binomial(link = "identity"),
             control = glm.control(epsilon = 1e-15, maxit = 100))
  g2 <- deviance(fit)
  cat(sprintf("%.17g", c(coef(fit), sqrt(vcov(fit)), g2, pchisq(g2, 1, lower.tail = FALSE))),
      "\n")
}}
"""


def r_case(prevalences, same, n) -> str:
    vector = lambda values: f"c({', '.join(map(str, values))})"  # noqa: E731
    return f"list(q = {vector(prevalences)}, y = {vector(same)}, n = {vector(n)})"


def test_the_extended_crosswise_model_is_glm_s_fit(tmp_path):
    output = run_r(CODE.format(cases=", ".join(r_case(*case) for case in CASES)), tmp_path)
    rows = [[float(value) for value in line.split()] for line in output.strip().splitlines()]
    assert len(rows) == len(CASES)
    for (prevalences, same, n), (pi, std_error, g2, p_value) in zip(CASES, rows, strict=True):
        found = extended_crosswise(prevalences).estimate(same, n)
        assert found.estimate == pytest.approx(pi, abs=1e-9)
        assert found.std_error == pytest.approx(std_error, abs=1e-9)
        assert found.model_test.g2 == pytest.approx(g2, abs=1e-8)
        assert found.model_test.p_value == pytest.approx(p_value, abs=1e-9)
