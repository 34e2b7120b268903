"""What the respondent's page draws for a design and says of it: its wheel (or one per arm), the
respondent's own die, coin or cards, the page's part for the question, the descriptor its scripts
read, and the respondent's words for what decides a report."""

from __future__ import annotations

from typing import ClassVar, Protocol

from flask_babel import gettext as _

from web.core.surveys.designs.fields import DesignFields
from web.core.surveys.designs.own_draw import OwnDraw, dice_draw, own_faces
from web.core.surveys.designs.parameters import DesignParameters


class DrawnDesign(Protocol):
    """What the page's side reads of its design (a :class:`~.base.SurveyDesign`): named here
    rather than imported, since the design module imports this one."""

    name: ClassVar[str]
    fields: ClassVar[DesignFields]


class PageDraw:
    """The page's side of ``design``: a design's ``Page`` class, made once per design."""

    # Whether anything is drawn (a design with no randomizer has no light share to show).
    draws: ClassVar[bool] = True
    # Whether the page says how often the true answer is sent (not where none is ever sent).
    states_chance: ClassVar[bool] = True
    # Whether the page draws, keeps and shows something before the question is answered (an arm's
    # innocuous question, a list and its order: static/js/arm-draw.js).
    draws_first: ClassVar[bool] = False

    def __init__(self, design: DrawnDesign):
        self.design = design

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.design.name!r})"

    def own_randomizer(self, parameters: DesignParameters) -> bool:
        """Whether the page asks only for the report (the respondent draws, or nothing is drawn)."""
        return self.design.fields.own and parameters.randomizer == "own"

    def own_shares(self, parameters: DesignParameters) -> list[tuple[str, float]]:
        """The outcomes of the respondent's own draw and their shares (own randomizer only)."""
        return []

    def own_draw(self, parameters: DesignParameters) -> OwnDraw:
        """How the respondent draws with their own randomizer (own randomizer only): by default
        a die or a coin whose faces stand for :meth:`own_shares`' outcomes."""
        return dice_draw(self.own_shares(parameters))

    def own_problems(self, parameters: DesignParameters) -> list[tuple[str, str]]:
        """An own randomizer whose shares are not a die's or a coin's faces."""
        own = self.design.fields.own and self.own_randomizer(parameters)
        if own and own_faces(self.own_shares(parameters)) is None:
            return [
                (
                    "randomizer",
                    _(
                        "with the respondent's own die or coin, the probabilities must be "
                        "multiples of 1/6 or of 1/2"
                    ),
                )
            ]
        return []

    def sectors(self, parameters: DesignParameters) -> list[dict]:
        """The page's wheel: each sector's share and what it reports, from the top; empty where
        the page draws no wheel of the design's own."""
        return []

    def arm_sectors(self, parameters: DesignParameters) -> list[list[dict]]:
        """One wheel per arm, for a design with arms; empty for every other."""
        return []

    def template(self, question) -> str:
        """The respondent page's part for the question."""
        if self.own_randomizer(question.design):
            return "respond/_own.html"
        return "respond/_designed.html"

    @property
    def descriptor(self) -> dict:
        """What the page's scripts need of it (a spinner adds what its dark share does)."""
        return {"name": self.design.name}

    def respondent_words(self, question) -> str:
        """What decides the report, in the respondent's words."""
        raise NotImplementedError

    def unbounded_words(self) -> str:
        """What a design with no ε bound says in its place (the lie detector's)."""
        return _("no ε bound: what a “no” reveals is not limited")

    def unbounded_note(self) -> tuple[str, str, str]:
        """What the survey's privacy note says of a design with no ε bound: a title, what its
        answers give away, and a sentence for the summary (the lie detector's)."""
        return (
            _("One kind of question protects only a “yes”."),
            _(
                "Where a question says “no ε bound”, the wheel may tell you to say “yes” but "
                "never “no”: a “no” sent there is always your own answer, and the researcher can "
                "read it as one."
            ),
            _("On a question with no ε bound, a “no” is always your own."),
        )

    def report_words(self, parameters: DesignParameters) -> tuple[str, str]:
        """A report of 0 and of 1, in the respondent's words."""
        return _("No"), _("Yes")
