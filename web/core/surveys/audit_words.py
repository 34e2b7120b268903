"""An edit said in the audit log as a researcher would say it: "the question 'exam': its text and
its options", not which form was saved. English, as every event's detail is (the log shows it
beside the translated verb)."""

from __future__ import annotations

from typing import Any

# A question's fields in the survey file, in words; any other field is part of its design.
FIELD_WORDS = {
    "text": "its text",
    "hint": "its help text",
    "type": "its type",
    "options": "its options",
    "rows": "its rows",
    "epsilon": "its ε",
    "epsilon_permanent": "its ε over the waves",
    "procedure": "its design",
    "required": "whether it must be answered",
    "show_if": "who is asked it",
    "shuffle_options": "its options' order",
    "known_prevalence": "its known share",
    "correct": "its right answer",
    "asked": "how each condition asks it",
    "unit": "its unit",
    "max_length": "its longest answer",
}
DESIGN = "its design"


def question_changes(key: str, before: dict[str, Any] | None, after: dict[str, Any] | None) -> str:
    """``the question 'exam': its text and its options`` from its file entries before and after
    (None: added or deleted)."""
    if before is None:
        return f"added the question '{key}'"
    if after is None:
        return f"deleted the question '{key}'"
    changed = []
    for field in sorted(set(before) | set(after), key=_order):
        if before.get(field) != after.get(field):
            words = FIELD_WORDS.get(field, DESIGN)
            if words not in changed:
                changed.append(words)
    return f"the question '{key}': {_listed(changed) or 'nothing'}"


def question_entry(file: dict[str, Any], key: str) -> dict[str, Any] | None:
    """The entry of question ``key`` in a survey file's dict, or None."""
    return next((entry for entry in file.get("questions", ()) if entry.get("id") == key), None)


def _order(field: str) -> int:
    known = list(FIELD_WORDS)
    return known.index(field) if field in known else len(known)


def _listed(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
