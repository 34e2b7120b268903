"""Analysis by group a paper could print: a randomized item regressed on direct questions, and the
difference between two groups. Both read only the published counts per cell, and refuse groups
below the minimum n, as every other output does."""

from __future__ import annotations

from collections import defaultdict

import rr
from rr.difference import Difference
from web.core.models import Option, Question, Survey
from web.core.results.by_group import GroupingError, direct_question, published_cells
from web.core.results.by_position import PositionError, position_difference, position_grouping
from web.core.results.cells import direct_questions
from web.core.results.figures import difference_entry, significant
from web.core.results.published import published_answers
from web.core.surveys.designs import arms_design
from web.core.surveys.questions import ARM, Tallied


def randomized_item(survey: Survey, item: str) -> tuple[Question, Option | None]:
    """The tally ``item`` names: a yes/no question's key, or ``question.option``."""
    key, _, option_key = item.partition(".")
    question = next((q for q in survey.questions if q.key == key), None)
    if question is None or question in direct_questions(survey.questions):
        raise GroupingError(f"{item!r} is not a randomized question of the survey")
    spun = question.type.spun(question.options)
    if not question.type.has_options:
        if option_key:
            raise GroupingError(f"question {key!r} has no options: use item={key}")
        return question, None
    option = next((o for o in spun if o is not None and o.key == option_key), None)
    if option is None:
        raise GroupingError(
            f"name one option of {key!r}, e.g. item={key}.{question.options[0].key}"
        )
    return question, option


def cell_totals(
    survey: Survey, question: Question, option: Option | str | None, on: list[str]
) -> dict:
    """(answers to ``on``) → [n, reported yes] of the item, respondents who skipped any left out."""
    totals: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    for answers, n, yes in published_cells(survey).get(Tallied.of(question, option).key, []):
        levels = tuple(answers.get(key) for key in on)
        if None not in levels:
            totals[levels][0] += n
            totals[levels][1] += yes
    return totals


def number_covariates(survey: Survey) -> dict[str, Question]:
    """The numbers asked directly, by key: a regression takes each as a covariate with a slope
    per unit (its values are stored as given)."""
    return {q.key: q for q in survey.questions if q.type.has_range and not q.type.estimated}


def response_totals(
    survey: Survey, question: Question, option: Option | None, on: list[str], numbers: list[str]
) -> dict:
    """(answers to ``on``, then values of ``numbers``) → [n, reported yes] of the item, read from
    the published responses (no tally keeps a number's values); respondents who left any out,
    or the item, are left out."""
    totals: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    option_key = None if option is None else option.key
    for answers in published_answers(survey):
        answer = answers.get(question.key)
        values = tuple(answers.get(key) for key in numbers)
        levels = tuple(answers.get(key) for key in on)
        if answer is None or None in levels or not all(is_number(v) for v in values):
            continue
        n, yes = question.type.count(answer, option_key)
        totals[levels + values][0] += n
        totals[levels + values][1] += yes
    return totals


def is_number(value) -> bool:
    """Whether a stored answer is a number (a bool is not, though Python counts it one)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def regression(
    survey: Survey, item: str, on: list[str], min_n: int, reference: dict[str, str] | None = None
) -> dict:
    """The item regressed on the direct questions and numbers asked directly ``on``: a direct
    question dummy-coded against a reference level (``reference[key]``, else its first option
    with respondents), a number with a slope per unit; with predicted prevalence per group (at
    the numbers' means); GroupingError when it cannot be estimated or a group is below the
    minimum n."""
    reference = reference or {}
    unknown = sorted(set(reference) - set(on))
    if unknown:
        raise GroupingError(f"the reference names {unknown[0]!r}, which the model is not on")
    question, option = randomized_item(survey, item)
    covariates = number_covariates(survey)
    numbers = [key for key in on if key in covariates]
    factors = [key for key in on if key not in covariates]
    if not on or len(set(on)) != len(on):
        raise GroupingError(
            "on must name one or more different direct questions or numbers asked directly"
        )
    groupings = [direct_question(survey, key) for key in factors]
    if numbers and option == ARM:
        raise GroupingError(f"no regression for {item!r} on a number")
    totals = (
        response_totals(survey, question, option, factors, numbers)
        if numbers
        else cell_totals(survey, question, option, factors)
    )
    levels = factor_levels(groupings, totals, reference, min_n)
    if sum(n for n, _ in totals.values()) < max(min_n, 1):
        raise GroupingError(f"the regression has fewer than {min_n} respondents")
    terms = ["(intercept)"] + [
        f"{g.key}={level}"
        for g, present in zip(groupings, levels, strict=True)
        for level in present[1:]
    ] + numbers  # fmt: skip
    # Predictions in the options' order, as the page and the API list groups everywhere else.
    order = [{o.key: index for index, o in enumerate(g.options)} for g in groupings]
    cells = sorted(
        (cell for cell in totals if all(cell[p] in order[p] for p in range(len(factors)))),
        key=lambda cell: (
            [order[p][cell[p]] for p in range(len(factors))] + list(cell[len(factors) :])
        ),
    )

    def row(cell) -> list[float]:
        dummies = [
            float(cell[p] == level) for p, present in enumerate(levels) for level in present[1:]
        ]
        return [1.0, *dummies, *(float(value) for value in cell[len(factors) :])]

    design = [row(cell) for cell in cells]
    fit = _fit(
        question, item, design, [totals[c][0] for c in cells], [totals[c][1] for c in cells], terms
    )
    linear = isinstance(fit, rr.LinearResult)
    means = _means(cells, totals, len(factors), numbers)
    groups: dict[tuple, int] = defaultdict(int)
    for cell in cells:
        groups[cell[: len(factors)]] += totals[cell][0]
    return {
        "item": item,
        "on": on,
        "reference": {g.key: present[0] for g, present in zip(groupings, levels, strict=True)},
        "design": question.asked_with.codebook(question),
        # A number's mean is regressed by least squares (sandwich errors); a share by logistic
        # regression through the design's line.
        "model": "linear" if linear else "logistic",
        "n": fit.n,
        "converged": True if linear else fit.converged,
        "coefficients": [
            {
                "term": c.term,
                "estimate": significant(c.estimate),
                "std_error": significant(c.std_error),
                "ci_low": significant(c.ci_low),
                "ci_high": significant(c.ci_high),
                **({} if linear else {"odds_ratio": significant(c.odds_ratio)}),
            }
            for c in fit.coefficients
        ],
        # Each group's prediction, at the numbers' means over the model's respondents.
        "at": {key: significant(value) for key, value in means.items()},
        "predicted": [
            {
                "group": dict(zip(factors, group, strict=True)),
                "n": n,
                **_prediction(fit.predict(row(group + tuple(means.values())))),
            }
            for group, n in groups.items()
            if n >= max(min_n, 1)
        ],
    }


def factor_levels(groupings, totals: dict, reference: dict, min_n: int) -> list[list[str]]:
    """Each direct question's levels with respondents, its reference first; GroupingError where
    a group is below the minimum n or a question has fewer than two groups."""
    levels = []
    for position, grouping in enumerate(groupings):
        sizes = {
            o.key: sum(n for cell, (n, _) in totals.items() if cell[position] == o.key)
            for o in grouping.options
        }
        present = [key for key, size in sizes.items() if size > 0]
        small = [key for key in present if sizes[key] < max(min_n, 1)]
        if small:
            raise GroupingError(
                f"group {grouping.key}={small[0]} has fewer than {min_n} respondents"
            )
        if len(present) < 2:
            raise GroupingError(f"{grouping.key!r} needs respondents in at least two groups")
        chosen = reference.get(grouping.key, present[0])
        if chosen not in present:
            raise GroupingError(
                f"the reference {grouping.key}={chosen} is not a group with respondents"
            )
        levels.append([chosen] + [key for key in present if key != chosen])
    return levels


def _means(cells, totals: dict, start: int, numbers: list[str]) -> dict[str, float]:
    """Each number's mean over the respondents of the cells (its value at ``start`` onwards)."""
    n = sum(totals[cell][0] for cell in cells)
    return {
        key: sum(float(cell[start + index]) * totals[cell][0] for cell in cells) / n
        for index, key in enumerate(numbers)
    }


def _fit(question: Question, item: str, design, n, yes, terms):
    """The regression of the item on the cells: linear for a number question's mean, logistic
    through the design's line for a share; GroupingError when it cannot be fitted."""
    mean = question.type.mean_of(question)
    try:
        if mean is not None:
            return mean.regression(design, n, yes, terms=terms)
        return question.type.line_of(question).regression(design, n, yes, terms=terms)
    except rr.RegressionError as error:
        raise GroupingError(str(error)) from None
    except ValueError as error:
        raise GroupingError(f"no regression for {item!r}: {error}") from None


def _arms_difference(question: Question, counts, second_arms) -> Difference:
    """The difference of two groups' asked shares under a design of two arms, from each group's
    (reports of 1, respondents) and its second arm's [respondents, reports of 1]."""
    model = arms_design(question.asked_with).arm_model(question.design)
    groups = []
    for (yes, n), (arm_n, arm_yes) in zip(counts, second_arms, strict=True):
        if arm_n < 2 or n - arm_n < 2:
            raise GroupingError("each group needs at least two respondents in each arm")
        groups.append(([yes - arm_yes, arm_yes], [n - arm_n, arm_n]))
    return model.difference(groups[0], groups[1])


def item_difference(
    question: Question, first: tuple[int, int], second: tuple[int, int], arms=None
) -> Difference:
    """The first set of respondents' true share (or mean) less the second's, from each one's
    (reports of 1, respondents) of the item, with its MOVER interval: a share through the
    question's design line, a number's mean through its range; a design of two arms' asked
    share from each set's second arm too (``arms``: [respondents, reports of 1] of each)."""
    if arms is not None:
        return _arms_difference(question, [first, second], arms)
    mean = question.type.mean_of(question)
    if mean is not None:
        return mean.difference(*first, *second)
    return question.type.line_of(question).difference(*first, *second)


def _prediction(prediction: rr.regression.Prediction) -> dict:
    return {name: significant(value) for name, value in prediction._asdict().items()}


def group_difference(
    survey: Survey, item: str, by: str, first: str, second: str, min_n: int
) -> dict:
    """π(first) − π(second) of the item between two groups of direct question ``by`` (or two
    positions of a randomized page, ``position:<page>``)."""
    question, option = randomized_item(survey, item)
    try:
        positions = position_grouping(survey, by)
        if positions is not None:
            return position_difference(survey, question, option, positions, first, second, min_n)
    except PositionError as error:
        raise GroupingError(str(error)) from None
    grouping = direct_question(survey, by)
    totals = cell_totals(survey, question, option, [by])
    arms = (
        cell_totals(survey, question, ARM, [by])
        if ARM in question.type.spun(question.options)
        else None
    )
    counts = []
    for group in (first, second):
        if group not in {o.key for o in grouping.options}:
            raise GroupingError(f"{by!r} has no option {group!r}")
        n, yes = totals.get((group,), [0, 0])
        if n < max(min_n, 1):
            raise GroupingError(f"group {by}={group} has fewer than {min_n} respondents")
        counts.append((yes, n))
    result = item_difference(
        question,
        counts[0],
        counts[1],
        None if arms is None else [arms.get((g,), [0, 0]) for g in (first, second)],
    )
    return difference_entry(item, by, [first, second], counts, result)
