"""The respondent's own draw: a die or a coin thrown where nobody sees it, in place of the page's
wheel, and the words that tell the respondent what each face means."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from flask_babel import gettext as _

# The faces of the respondent's own randomizer: a die's six or a coin's two.
OWN_FACES = (2, 6)


@dataclass(frozen=True)
class OwnStep:
    """One line of how the respondent draws with their own randomizer: a label (faces, a deck)
    and what it means, in the respondent's words; ``innocuous`` when the innocuous question's
    wording follows."""

    label: str
    text: str
    innocuous: bool = False


@dataclass(frozen=True)
class OwnDraw:
    """How the respondent draws for themselves: what to do first (followed by the innocuous
    question's wording where ``innocuous``), one line per outcome, and what to do then (each in
    the respondent's words)."""

    before: str
    steps: tuple[OwnStep, ...] = ()
    after: str = ""
    innocuous: bool = False


def dice_draw(shares: list[tuple[str, float]]) -> OwnDraw:
    """How the respondent draws with a die or a coin whose faces stand for these outcomes
    (``truth``, ``yes``, ``no``, ``innocuous``) in their shares, which the design's checks have
    made multiples of 1/2 or 1/6."""
    faces = own_faces(shares)
    assert faces is not None, "checked when the question was made"
    count, outcomes = faces
    words = {
        "truth": _("answer the question above truthfully"),
        "yes": _("answer “yes”, whatever the truth"),
        "no": _("answer “no”, whatever the truth"),
        "innocuous": _("answer this everyday question instead:"),
    }
    steps = []
    for first, last, outcome in face_ranges(outcomes):
        if count == 2:
            label = _("Heads") if first == 1 else _("Tails")
        else:
            label = str(first) if first == last else f"{first}–{last}"
        steps.append(OwnStep(label, words[outcome], innocuous=outcome == "innocuous"))
    before = (
        _("Roll a die where nobody can see it.")
        if count == 6
        else _("Toss a coin where nobody can see it.")
    )
    return OwnDraw(before, tuple(steps))


def own_faces(shares: list[tuple[str, float]]) -> tuple[int, list[str]] | None:
    """A coin's or a die's faces for outcomes with these shares: (faces, outcome per face); None
    when the shares are not multiples of 1/2 or 1/6."""
    for faces in OWN_FACES:
        counts = [Fraction(share).limit_denominator(faces) * faces for _, share in shares]
        exact = all(
            count.denominator == 1 and abs(float(count) / faces - share) < 1e-9
            for count, (_, share) in zip(counts, shares, strict=True)
        )
        if exact and sum(counts) == faces:
            return faces, [
                outcome
                for count, (outcome, _) in zip(counts, shares, strict=True)
                for _ in range(int(count))
            ]
    return None


def face_ranges(faces: list[str]) -> list[tuple[int, int, str]]:
    """Consecutive faces with the same outcome, numbered from 1: [(first, last, outcome)]."""
    ranges: list[tuple[int, int, str]] = []
    for number, outcome in enumerate(faces, start=1):
        if ranges and ranges[-1][2] == outcome:
            ranges[-1] = (ranges[-1][0], number, outcome)
        else:
            ranges.append((number, number, outcome))
    return ranges
