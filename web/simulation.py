"""Simulated respondents, written in bulk: the command line's ``simulate-responses``, the demo,
the benches and the tests fill a survey with them. Each respondent's answers are drawn, reported
through the question's own procedure and stored as the submission path stores them (random keys,
running tallies and cells), then published as one batch if they make one."""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np

from web.core.infrastructure.driver_sql import many_rows
from web.core.infrastructure.extensions import db
from web.core.models import Survey
from web.core.models.publication import publish_in_session
from web.core.results.cells import cell_key, direct_questions
from web.core.surveys.flow.conditions import question_id
from web.core.surveys.flow.walk import Flow, survey_flow
from web.core.surveys.questions import Tallied
from web.respondent.plan import Plan
from web.respondent.storing import TALLY_TABLES, Counts
from web.respondent.submissions import submissions

BULK_CHUNK = 20_000
CELLS_PER_STATEMENT = 500  # SQLite takes at most 32,766 parameters in one statement


def simulate_responses(
    survey: Survey,
    n: int,
    true_proportion: float,
    seed=None,
    by: tuple[str, dict[str, float]] | None = None,
    cheating: float = 0.0,
    values: Sequence[float] | None = None,
    assign: Sequence[float] | None = None,
) -> None:
    """Insert ``n`` responses reported through each question's procedure (its type's
    ``simulate``) from true answers drawn with share ``true_proportion``, in chunks, with one
    tally update at the end; they are published as one batch if they make one
    (:func:`web.core.models.publication.publish_if_due`).

    With ``by = (direct question, {option: share})`` the respondents' answers to that question are
    spread evenly over the listed options, and every randomized item is true with the share of the
    respondent's group; other direct questions are answered evenly over their options. A share
    ``cheating`` of respondents to a cheating-detection question says no whatever they are told.

    A number question's respondents each hold a value drawn from ``values`` (inside its range),
    spun through the value wheel; without ``values``, the true proportion (or the group's share)
    is the place of their mean in the range. An item with a known prevalence is true with that
    share whatever else is asked.

    In an experiment each respondent is put in a condition at random, by the declared shares or
    by ``assign`` (a share per condition: a page that assigns badly), and answers that
    condition's questions."""
    rng = np.random.default_rng(seed)
    # n responses at once make a batch of their own if n reaches the survey's batch size: they are
    # stored published, and publish_if_due below has only earlier pending rows to move (and the
    # running counts, these included, to copy to the published ones).
    published = n >= survey.results_batch
    conditions = survey.condition_list
    if not conditions:
        groups = [(survey.questions, n)]
    else:
        weights = np.array(assign if assign is not None else [c.share for c in conditions], float)
        sizes = rng.multinomial(n, weights / weights.sum())
        groups = [
            ([q for q in survey.questions if q.condition in (None, condition.id)], int(size))
            for condition, size in zip(conditions, sizes, strict=True)
        ]
    for questions, size in groups:
        if size:
            _simulate_rows(
                survey, questions, size, published, true_proportion, rng, by, cheating, values
            )
    publish_in_session(survey.id)
    db.session.commit()
    if db.engine.dialect.name == "sqlite":
        # A bulk insert leaves the whole batch in the WAL; fold it into the database now so that
        # later reads need not search a large log.
        with db.engine.connect() as checkpoint:
            checkpoint.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")


def _simulate_rows(
    survey: Survey, questions, n: int, published: bool, true_proportion, rng, by, cheating, values
) -> None:
    """Write ``n`` simulated responses to ``questions`` (all of the survey's, or one condition's)
    with their tallies and cells, uncommitted."""
    all_keys = _bulk_keys(n)
    spins = _spins(questions)
    template = _bits_template(questions)
    totals = {spin: [0, 0] for spin in spins}
    tallies_of: dict[int, list] = {question.id: [] for question in questions}
    for spin, question in spins.items():
        tallies_of[question.id].append(spin)
    direct = direct_questions(questions)
    cells = CellCounter(direct)
    sql = submissions().statements
    connection = db.session.connection()
    flow = survey_flow(survey)
    # A survey with display logic or drawn orders: each response as its page would send it, counted
    # as the submission path counts it (a hidden question adds to no tally and no cell).
    followed = None if flow.simple else _FlowFollower(survey, questions, flow, rng)
    for start in range(0, n, BULK_CHUNK):
        size = min(BULK_CHUNK, n - start)
        answers, shares = _direct_answers(direct, size, true_proportion, by, rng)
        cell = cells.cell_index(answers)
        columns: list[list] = []
        for question in questions:
            kind, options = question.type, [option.key for option in question.options]
            if question.key in answers:
                reported = np.eye(len(options), dtype=np.uint8)[answers[question.key]]
            else:
                truth = shares
                if question.known_prevalence is not None:
                    truth = question.known_prevalence
                elif values and question.type.mean_of(question) is not None:
                    truth = _value_shares(question, size, values, rng)
                reported = kind.simulate(
                    size, truth, question.epsilon, question.procedure, len(options), rng,
                    question.design, cheating,
                )  # fmt: skip
            columns_of_tallies = kind.tally_columns(reported)
            for spin, (weights, column) in zip(
                tallies_of[question.id], columns_of_tallies, strict=True
            ):
                totals[spin][0] += size if weights is None else int(weights.sum())
                totals[spin][1] += int(column.sum())
                if question not in direct:
                    cells.add(spin, cell, column, weights)
            columns.extend(
                column.tolist()
                for column in kind.template_values(reported, options, question.design)
            )
        rows = [template % tuple(row) for row in zip(*columns, strict=True)]
        if followed is not None:
            rows = followed.chunk(rows)
        keys = all_keys[start : start + size].tolist()
        connection.exec_driver_sql(
            sql["insert_published" if published else "insert"],
            [(key, survey.id, row) for key, row in zip(keys, rows, strict=True)],
        )
    counted: CellCounter | _CountedCells = cells
    if followed is not None:
        totals, counted = followed.totals, followed.cells
    connection.exec_driver_sql(sql["count"], (n, survey.id))
    for table in TALLY_TABLES:
        counts = [(n, yes, item) for (name, item), (n, yes) in totals.items() if name == table]
        if counts:
            connection.exec_driver_sql(sql[table], counts)
    entries = [
        value
        for (kind, item), cell, count, yes in counted.entries()
        for value in (survey.id, kind, item, cell, count, yes)
    ]
    for start in range(0, len(entries), 6 * CELLS_PER_STATEMENT):
        chunk = tuple(entries[start : start + 6 * CELLS_PER_STATEMENT])
        statement = many_rows(sql["cells"], sql["mark"], 6, len(chunk) // 6)
        connection.exec_driver_sql(statement, chunk)


class _FlowFollower:
    """Simulated responses made to follow a survey's flow: a question its display logic hides from
    a respondent stored as null, the orders the page would draw added, and the tallies and cells
    counted from the responses as stored (:class:`web.respondent.storing.Counts`)."""

    def __init__(self, survey: Survey, questions, flow: Flow, rng):
        self.flow, self.rng = flow, rng
        self.plain = [question for question in questions if not question.asked_with.protects]
        self.asked = [question.question_id for question in questions]
        spins = [Tallied.of(question, option) for question, option in survey.spins()]
        mine = {question.key for question in questions}
        direct = tuple(question.key for question in direct_questions(questions))
        self.plan = Plan(survey.id, survey.revision, (),
                         tuple(spin for spin in spins if spin.question_key in mine), direct)  # fmt: skip
        self.totals: dict[tuple[str, int], list[int]] = {spin.key: [0, 0] for spin in spins}
        self.cells = _CountedCells()

    def chunk(self, rows: list[str]) -> list[str]:
        answers = [self.respond(json.loads(row)) for row in rows]
        counts = Counts(self.plan, answers)
        for row, (n, yes, arm_n, arm_yes) in counts.questions.items():
            self._add(("question", row), n, yes)
            self._add(("arm", row), arm_n, arm_yes)
        for row, (n, yes) in counts.options.items():
            self._add(("option", row), n, yes)
        self.cells.add(counts.cells)
        return [json.dumps(response, separators=(",", ":")) for response in answers]

    def _add(self, spin, n: int, yes: int) -> None:
        if spin in self.totals:
            self.totals[spin][0] += n
            self.totals[spin][1] += yes

    def respond(self, response: dict) -> dict:
        """One response as its page would send it."""
        plain = {
            name: value
            for question in self.plain
            if response.get(question.key) is not None
            for name, value in question.type.plain_values(
                question.question_id, response[question.key]
            ).items()
        }
        shown = self.flow.shown(plain)
        for key in list(response):
            if question_id(key) not in shown.questions:
                response[key] = None
        for key, drawn in self.flow.expected_orders(shown, self.asked).items():
            response[drawn.prefix + key] = drawn.draw(self.rng)
        return response


class _CountedCells:
    """The cells of responses counted by the submission path, in the form the bulk writer writes."""

    def __init__(self):
        self.counts: dict[tuple, list[int]] = {}

    def add(self, cells: dict) -> None:
        for key, (n, yes) in cells.items():
            counts = self.counts.setdefault(key, [0, 0])
            counts[0] += n
            counts[1] += yes

    def entries(self):
        for (kind, item, cell), (n, yes) in self.counts.items():
            yield (kind, item), cell, n, yes


def _value_shares(question, size: int, values: Sequence[float], rng) -> np.ndarray:
    """Value-wheel shares of a number question's respondents, each value drawn from ``values``
    (a column, as a group's shares are)."""
    return question.type.mean_of(question).share(rng.choice(np.asarray(values, dtype=float), size))[
        :, None
    ]


def _direct_answers(direct, size: int, true_proportion: float, by, rng):
    """Each direct question's simulated answers (option indices) and each respondent's true share
    of every randomized item (a column, or the one share without ``by``)."""
    answers = {}
    shares: float | np.ndarray = true_proportion
    for question in direct:
        keys = [option.key for option in question.options]
        if by is not None and question.key == by[0]:
            listed = list(by[1])
            picked = rng.integers(0, len(listed), size=size)
            answers[question.key] = np.array([keys.index(option) for option in listed])[picked]
            shares = np.array([by[1][option] for option in listed])[picked][:, None]
        else:
            answers[question.key] = rng.integers(0, len(keys), size=size)
    return answers, shares


class CellCounter:
    """Counts per cell of direct answers of the rows the bulk simulation stores."""

    def __init__(self, direct):
        self.direct = direct
        self.sizes = [len(question.options) for question in direct]
        self.counts: dict[tuple[str, int], tuple[np.ndarray, np.ndarray]] = {}

    def cell_index(self, answers: dict) -> np.ndarray | None:
        """Each row's cell as one number (mixed radix over the direct questions)."""
        if not self.direct:
            return None
        index = np.zeros(len(next(iter(answers.values()))), dtype=np.int64)
        for question, size in zip(self.direct, self.sizes, strict=True):
            index = index * size + answers[question.key]
        return index

    def add(self, spin, cell: np.ndarray | None, column: np.ndarray, weights=None) -> None:
        """Count one tally's rows per cell: each row once (or its weight: an arm's rows only)
        and its reports of 1."""
        if cell is None:
            return
        total = int(np.prod(self.sizes))
        n, yes = self.counts.setdefault(
            spin, (np.zeros(total, np.int64), np.zeros(total, np.int64))
        )
        n += np.bincount(cell, weights=weights, minlength=total).astype(np.int64)
        yes += np.bincount(cell, weights=column, minlength=total).astype(np.int64)

    def entries(self):
        """(tally, cell JSON, n, yes) for every cell with responses."""
        for spin, (n, yes) in self.counts.items():
            for index in np.flatnonzero(n):
                yield spin, self.cell_json(int(index)), int(n[index]), int(yes[index])

    def cell_json(self, index: int) -> str:
        """The cell numbered ``index`` in the format publication writes (``cell_key``)."""
        chosen = {}
        for question, size in zip(reversed(self.direct), reversed(self.sizes), strict=True):
            index, place = divmod(index, size)
            chosen[question.key] = question.options[place].key
        return cell_key(chosen, [question.key for question in self.direct])


def _bulk_keys(n: int) -> np.ndarray:
    """``n`` distinct random response keys, in ascending order.

    They come from fresh entropy whatever the seed. Inserting them in ascending order fills the
    table's B-tree one neighbourhood at a time (in random order, a million rows took 3.5 times as
    long); that gives away nothing, since simulated rows are drawn independently of one another
    and their order means nothing.
    """
    rng = np.random.default_rng()
    keys = np.unique(rng.integers(1, 2**63, size=n, dtype=np.int64))
    while keys.size < n:
        extra = rng.integers(1, 2**63, size=n - keys.size, dtype=np.int64)
        keys = np.unique(np.concatenate([keys, extra]))
    return keys


def _spins(questions) -> dict:
    """Every spin of a response in order: (tally table, row id) → the question it belongs to."""
    return {
        Tallied.of(question, option).key: question
        for question in questions
        for option in question.type.spun(question.options)
    }


def _bits_template(questions) -> str:
    """A %-format string that writes one response's bits as the JSON record_response stores."""
    parts = [
        question.type.answer_template(question.key, [option.key for option in question.options])
        for question in questions
    ]
    return "{" + ",".join(parts) + "}"
