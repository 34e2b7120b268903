"""XLSForm's groups, ``relevant`` and ``randomize``: a survey's pages, display rules and drawn
orders (:mod:`web.core.surveys.flow.walk`) in a workbook.

- ``begin group`` … ``end group`` (appearance ``field-list``, or none) is a page: the group's
  ``name`` its id, its label its title, its ``relevant`` the page's ``show_if``, and
  ``randomize=true`` in its ``parameters`` draws its questions' order. Questions outside every
  group, in a form that has groups, make pages of their own (``page_1``, …). Nested groups,
  repeats and ``table-list`` groups are refused by row.
- ``relevant`` on a question is its ``show_if``, read from the expressions XLSForm writes:
  ``${q} = 'x'``, ``selected(${q}, 'x')``, ``${q} >= 18``, ``${q} <= 25``, joined with ``and``,
  ``or`` and parentheses. A yes/no question's answers are its choices ``1`` and ``0`` (the rule's
  ``yes`` and ``no``). Anything else is refused by row with what is supported; a rule that reads
  a randomized question is refused by the one validator, by row.
- ``randomize=true`` in a select's ``parameters`` shuffles its options; ``rr_fixed`` (``yes``) in
  the choices sheet keeps an option in place.
- ``rr_screen_out_if`` on a group's row is the page's ``screen_out_if``, written as a
  ``relevant``; the settings' ``rr_quotas`` holds the quotas, each ``id (limit): expression``,
  separated by ``;`` or new lines (``women (300): ${gender} = 'f'; young (200): ${age} <= 29``).

Nothing here touches the database.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from flask_babel import gettext as _

from web.core.surveys.flow.display import AnswerIn, Joined, Rule

TOKEN = re.compile(
    r"\s*(?:\$\{(?P<ref>[A-Za-z0-9_.-]+)\}|'(?P<single>[^']*)'|\"(?P<double>[^\"]*)\""
    r"|(?P<numeral>-?\d+(?:\.\d+)?)|(?P<op>>=|<=|!=|=|>|<|\(|\)|,)|(?P<word>[A-Za-z_][\w-]*))"
)
YES_NO = {"1": "yes", "0": "no", "yes": "yes", "no": "no"}
GROUP_APPEARANCES = ("", "field-list")
EMPTY: Mapping[str, str] = MappingProxyType({})
EMPTY_ANSWERS: Mapping[str, Sequence[str]] = MappingProxyType({})


class RelevantError(ValueError):
    """A ``relevant`` this app cannot read; the message says what it reads."""


def rule_from_relevant(
    text: str, yes_no: set[str], names: Mapping[str, str] = EMPTY,
    answers: Mapping[str, Sequence[str]] = EMPTY_ANSWERS,
) -> dict:  # fmt: skip
    """A ``relevant`` expression as a survey file's ``show_if``; ``yes_no`` are the ids of the
    yes/no questions (their ``1`` and ``0`` read as ``yes`` and ``no``), ``names`` the name a
    rule gives a row that is no question (a grid's row, ``<grid>.<row>``, by its row's name),
    ``answers`` each question's possible answers by the name a rule gives it (so that
    ``${q} != 'a'`` reads as every other answer). Raises :class:`RelevantError`."""
    tokens = _tokens(text)
    parser = _Parser(tokens, yes_no, names, answers)
    rule = parser.either()
    if parser.position != len(tokens):
        raise RelevantError(_unsupported())
    return rule


# Where a quota starts in ``rr_quotas``: its id and limit, then a colon.
QUOTA_HEAD = re.compile(r"(?:^|[;\n])\s*(?P<id>[A-Za-z][\w-]*)\s*\(\s*(?P<limit>\d+)\s*\)\s*:")


def quotas_from_cell(value: Any, read) -> list[dict]:
    """The settings' ``rr_quotas`` as a file's ``quotas``, each expression read by ``read`` (a
    ``relevant`` to a rule). Raises :class:`RelevantError`."""
    text = str(value)
    heads = list(QUOTA_HEAD.finditer(text))
    if not heads or text[: heads[0].start()].strip():
        raise RelevantError(_("write each quota as id (limit): expression, e.g. "
                              "women (300): ${gender} = 'f'; separate them with ;"))  # fmt: skip
    quotas = []
    for head, after in zip(heads, [*heads[1:], None], strict=True):
        expression = text[head.end() : after.start() if after else len(text)].strip().rstrip(";")
        rule = read(expression)
        quotas.append({"id": head["id"], **rule, "limit": int(head["limit"])})
    return quotas


def quotas_cell(quotas, yes_no: set[str], separator: str = "; ") -> str:
    """A survey's quotas as the settings' ``rr_quotas`` (read back by :func:`quotas_from_cell`)."""
    return separator.join(
        f"{quota.key} ({quota.limit}): {relevant_from_rule(quota.rule, yes_no)}" for quota in quotas
    )


def relevant_from_rule(rule: Rule, yes_no: set[str]) -> str:
    """A display rule as the ``relevant`` expression XLSForm writes (read back by
    :func:`rule_from_relevant` as the same rule)."""
    if isinstance(rule, Joined):
        joined = " and " if rule.joiner == "all" else " or "
        return joined.join(_grouped(inner, yes_no) for inner in rule.rules)
    # A grid's row, <grid>.<row> in a rule, is the row <grid>_<row> of its table-list.
    reference = f"${{{rule.question.replace('.', '_', 1)}}}"
    if isinstance(rule, AnswerIn):
        values = [_choice(value, rule.question in yes_no) for value in rule.values]
        return " or ".join(f"{reference} = '{value}'" for value in values)
    bounds = [f"{reference} >= {_plain(rule.low)}" if rule.low is not None else ""]
    bounds.append(f"{reference} <= {_plain(rule.high)}" if rule.high is not None else "")
    return " and ".join(bound for bound in bounds if bound)


def randomized(parameters: Any) -> bool:
    """Whether a row's ``parameters`` say ``randomize=true``."""
    found = dict(part.partition("=")[::2] for part in str(parameters or "").split() if "=" in part)
    return found.get("randomize", "").strip().lower() == "true"


def _grouped(rule: Rule, yes_no: set[str]) -> str:
    written = relevant_from_rule(rule, yes_no)
    several = isinstance(rule, Joined) or (isinstance(rule, AnswerIn) and len(rule.values) > 1)
    return f"({written})" if several else written


def _choice(value: str, yes_no: bool) -> str:
    return {"yes": "1", "no": "0"}.get(value, value) if yes_no else value


def _plain(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _unsupported() -> str:
    return _(
        "relevant reads ${question} = 'answer', selected(${question}, 'answer'), "
        "${question} >= number or <= number, joined with and, or and parentheses"
    )


def _tokens(text: str) -> list[tuple[str, str]]:
    tokens, position = [], 0
    text = str(text)
    while position < len(text.rstrip()):
        match = TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise RelevantError(_unsupported())
        kind = next(name for name in ("ref", "single", "double", "numeral", "op", "word")
                    if match.group(name) is not None)  # fmt: skip
        tokens.append(("string" if kind in ("single", "double") else kind, match.group(kind)))
        position = match.end()
    return tokens


class _Parser:
    """Recursive descent over the tokens: either := both ('or' both)*; both := one ('and' one)*;
    one := '(' either ')' | selected(${q}, 'x') | ${q} op literal."""

    def __init__(self, tokens: list[tuple[str, str]], yes_no: set[str], names: Mapping[str, str],
                 answers: Mapping[str, Sequence[str]]):  # fmt: skip
        self.tokens, self.position, self.yes_no, self.names = tokens, 0, yes_no, names
        self.answers = answers

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.position] if self.position < len(self.tokens) else ("", "")

    def take(self, kind: str, value: str | None = None) -> str:
        found = self.peek()
        if found[0] != kind or (value is not None and found[1].lower() != value):
            raise RelevantError(_unsupported())
        self.position += 1
        return found[1]

    def either(self) -> dict:
        rules = [self.both()]
        while self.peek() == ("word", "or"):
            self.position += 1
            rules.append(self.both())
        if len(rules) == 1:
            return rules[0]
        merged = _flat(rules, "any")
        return merged[0] if len(merged) == 1 else {"any": merged}

    def both(self) -> dict:
        rules = [self.one()]
        while self.peek() == ("word", "and"):
            self.position += 1
            rules.append(self.one())
        return rules[0] if len(rules) == 1 else {"all": _flat(rules, "all")}

    def one(self) -> dict:
        kind, value = self.peek()
        if (kind, value) == ("op", "("):
            self.position += 1
            rule = self.either()
            self.take("op", ")")
            return rule
        if kind == "word" and value == "selected":
            self.position += 1
            self.take("op", "(")
            question = self.reference()
            self.take("op", ",")
            answer = self.take("string")
            self.take("op", ")")
            return self.answer_in(question, answer)
        question = self.reference()
        operator = self.take("op")
        kind, literal = self.peek()
        self.position += 1
        if operator == "=" and kind == "string":
            return self.answer_in(question, literal)
        if operator == "!=" and kind == "string":
            return self.answer_not(question, literal)
        if kind == "numeral" and operator in ("=", ">=", "<="):
            number = float(literal)
            number = int(number) if number.is_integer() else number
            low = number if operator in ("=", ">=") else None
            high = number if operator in ("=", "<=") else None
            return (
                {"question": question}
                | ({"at_least": low} if low is not None else {})
                | ({"at_most": high} if high is not None else {})
            )
        raise RelevantError(_unsupported())

    def reference(self) -> str:
        """A ``${name}``, as a rule names it."""
        name = self.take("ref")
        return self.names.get(name, name)

    def answer_not(self, question: str, answer: str) -> dict:
        """``${q} != 'a'``: every other answer of ``q`` (its answers must be known)."""
        if question in self.yes_no:
            answer, others = YES_NO.get(answer, answer), ["yes", "no"]
        else:
            others = list(self.answers.get(question, ()))
        if answer not in others:
            raise RelevantError(_unsupported())
        return {"question": question, "in": [other for other in others if other != answer]}

    def answer_in(self, question: str, answer: str) -> dict:
        if question in self.yes_no:
            answer = YES_NO.get(answer, answer)
        return {"question": question, "in": [answer]}


def _flat(rules: list[dict], joined: str) -> list[dict]:
    """``a and (b and c)`` as one list; and the same answer question's ``in`` values merged
    under ``or`` (``${q} = 'a' or ${q} = 'b'``)."""
    flat: list[dict] = []
    for rule in rules:
        flat += rule[joined] if set(rule) == {joined} else [rule]
    if joined != "any":
        return flat
    merged: list[dict] = []
    for rule in flat:
        same = next(
            (kept for kept in merged if "in" in rule and "in" in kept
             and kept["question"] == rule["question"]),
            None,
        )  # fmt: skip
        if same is None:
            merged.append(dict(rule))
        else:
            same["in"] = [*same["in"], *rule["in"]]
    return merged
