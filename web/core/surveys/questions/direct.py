"""A direct question: asked plainly, stored as given, guarded by the minimum n only."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from flask_babel import lazy_gettext as _l

from rr.estimate import clopper_pearson
from web.core.surveys.designs import NO_PARAMETERS, DesignParameters
from web.core.surveys.questions.base import AnswerError, Figures, register
from web.core.surveys.questions.one_option import OneOption
from web.core.surveys.questions.plain import AskedPlainly


@register
class Direct(AskedPlainly, OneOption):
    """One answer among listed options (year of study, group), asked plainly and stored as given,
    or null when the respondent prefers not to say. Not randomized: no ε protects it; the minimum
    n and the batches guard it. Its tallies count the respondents choosing each option, and let
    every randomized answer be estimated by group."""

    name = "direct"
    listed = 50
    label = _l("Direct (not randomized)")
    answer_shape = "direct"
    respond_template = "respond/_direct.html"
    splits_groups = True
    interval_words = _l("exact (Clopper–Pearson) on the share choosing each option")

    def check_answer(self, value, key: str, option_keys: Sequence[str]) -> str | None:
        if value is not None and (not isinstance(value, str) or value not in option_keys):
            raise AnswerError(
                f"question {key!r} must be the id of one of its options or null, got {value!r}"
            )
        return value

    def figures(
        self,
        counts: Sequence[tuple[int, int]],
        epsilon: float,
        procedure: str,
        parameters: DesignParameters = NO_PARAMETERS,
    ):
        """Plain shares of the respondents (skipping counted in n) with exact binomial intervals."""
        figures: list[Figures | None] = []
        for chosen, n in counts:
            if n == 0:
                figures.append(None)
                continue
            low, high = clopper_pearson(np.array([chosen]), np.array([n]), 0.95)
            share = chosen / n
            spread = float(np.sqrt(share * (1 - share) / n))
            figures.append(Figures(share, spread, float(low[0]), float(high[0]), float(chosen)))
        return figures

    def simulate(
        self,
        size: int,
        true_proportion: float | np.ndarray,
        epsilon: float,
        procedure: str,
        option_count: int,
        rng,
        parameters: DesignParameters = NO_PARAMETERS,
        cheating: float = 0.0,
    ) -> np.ndarray:
        """Answers spread evenly over the options."""
        return np.eye(option_count, dtype=np.uint8)[rng.integers(0, option_count, size=size)]

    def codebook(self, spinner, question) -> dict:
        return {
            "randomized": False,
            "column": "the chosen option id, empty when the respondent preferred not to say",
            "note": "asked directly: not protected by epsilon; guarded by the minimum n and the batches only",
        }
