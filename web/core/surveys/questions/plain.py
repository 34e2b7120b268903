"""What the types asked plainly share: nothing drawn, no ε, the answer stored as given."""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext as _

import rr
from web.core.surveys.designs import ASKED_PLAINLY, NO_PARAMETERS, DesignParameters
from web.core.surveys.questions.base import FixedFields, QuestionType, T


class AskedPlainly(QuestionType):
    """A type whose every question is asked plainly: not randomized, so no ε protects it and the
    minimum n and the batches alone guard its answers; nothing is drawn or kept on the device."""

    randomized = False

    def spin_count(self, option_count: int) -> int:
        return 0

    def fixed_fields(self) -> FixedFields:
        """Asked plainly, always: no ε, no procedure of its own, no permanent report."""
        return {
            "epsilon": ASKED_PLAINLY.epsilon_of(None, NO_PARAMETERS),
            "procedure": ASKED_PLAINLY.name,
            "epsilon_permanent": None,
        }

    def light_fraction(self, epsilon: float, procedure: str, option_count: int) -> float:
        return 1.0  # every answer is sent as given

    def truth_probability(self, epsilon: float, option_count: int) -> float:
        return 1.0

    def noise_line(self, epsilon: float, option_count: int) -> tuple[float, float]:
        return 0.0, 1.0

    def item_design(
        self,
        epsilon: float,
        procedure: str,
        option_count: int,
        design: DesignParameters = NO_PARAMETERS,
    ) -> rr.Design:
        raise ValueError(f"a {self.name!r} question is asked plainly: it has no randomized design")

    def page_items(self, key: str, option_keys: Sequence[str]) -> list[str]:
        return []  # nothing is drawn or remembered: the answer is sent as given

    def dark_words(self, spinner) -> str:
        return _("answered directly: sent exactly as you choose")


class ReadAsGiven(AskedPlainly):
    """A type asked plainly whose answers feed no tally: its results are read from the published
    responses as given (an open answer's words, a number asked directly), not estimated."""

    estimated = False

    def spun(self, options: Sequence[T]) -> list[T | None]:
        return []

    def figures(
        self,
        counts: Sequence[tuple[int, int]],
        epsilon: float,
        procedure: str,
        parameters: DesignParameters = NO_PARAMETERS,
    ):
        return []  # web/core/results/open_answers.py and plain_numbers.py read them

    def tally_columns(self, reported) -> list:
        return []
