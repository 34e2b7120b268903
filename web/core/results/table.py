"""Results as a plain-text table for the terminal."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from web.core.results.bayes import BayesSettings, question_posteriors
from web.core.results.figures import ItemResult, SurveyResults
from web.core.results.list_experiments import ListResult
from web.core.surveys.designs import arms_design, design_named

HEADER = ("question", "n", "reported yes", "estimate", "95% interval", "est. count")


def results_table(results: SurveyResults) -> str:
    """Render a survey's results as aligned text: one row per question or option."""
    lines = [
        f"{results.title.default} ({results.slug}, {results.status})",
        f"{results.n} of {results.received} responses published (results move in batches of "
        f"{results.results_batch}), total privacy cost epsilon = {results.epsilon_total:g}"
        + (
            f" (leaving out {', '.join(results.unbounded)}: no epsilon bound)"
            if results.unbounded
            else ""
        ),
        "",
    ]
    if results.withheld:
        lines.append(
            f"Estimates are withheld until at least {results.min_n} responses are published."
        )
        return "\n".join(lines)
    rows = []
    for question in results.questions:
        if not question.visible:
            rows.append((f"{question.key}: withheld (fewer than {results.min_n})", *[""] * 5))
            continue
        epsilon = "no bound" if math.isinf(question.epsilon) else f"{question.epsilon:g}"
        label = f"{question.key} (eps {epsilon}, {question.procedure})"
        if question.has_options:
            rows.append((label, "", "", "", "", ""))
            rows.extend(_row(f"  {item.option}", item) for item in question.items)
        else:
            show = _shown(question)
            rows.append(_row(label, question.items[0], show))
            rows.extend(_extra_rows(question))
    widths = [max(len(str(row[column])) for row in [HEADER, *rows]) for column in range(6)]
    for row in [HEADER, *rows]:
        cells = [
            str(cell).ljust(widths[0]) if index == 0 else str(cell).rjust(widths[index])
            for index, cell in enumerate(row)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _share(value: float) -> str:
    return f"{value:.1%}"


LIST_HEADER = ("list", "n", "mean short", "mean long", "estimate", "95% interval", "ML",
               "design effect p", "all / none")  # fmt: skip


def list_table(lists: Sequence[ListResult]) -> str:
    """The list experiments as aligned text: each list's n and mean counts, the difference in
    means with its interval, the ML estimate, the test for design effects and the long list's
    answers that gave the sensitive item away (every item / none)."""
    rows: list[tuple] = []
    for found in lists:
        label = found.key if found.condition is None else f"{found.key} ({found.condition})"
        if found.estimate is None:
            rows.append((f"{label}: withheld", *[""] * 8))
            continue
        named = [("list A", found.by_list[0]), ("list B", found.by_list[1])] if found.double else []
        if found.double:
            estimate = found.estimate
            rows.append((f"{label} (double list)", found.n, "", "", _share(estimate.estimate),
                         f"{_share(estimate.ci_low)} to {_share(estimate.ci_high)}", "", "", ""))  # fmt: skip
        for name, single in named or [(label, found.by_list[0])]:
            short, long = single.by_arm
            effect = found.design_effects[found.by_list.index(single)]
            rows.append((
                f"  {name}" if named else name, short.n + long.n, f"{short.mean:.2f} ({short.n})",
                f"{long.mean:.2f} ({long.n})", _share(single.estimate),
                f"{_share(single.ci_low)} to {_share(single.ci_high)}", _share(single.ml.estimate),
                "" if effect is None else f"{effect.p_value:.3f}",
                f"{single.ceiling} / {single.floor}",
            ))  # fmt: skip
    title = (
        "List experiments (no epsilon bound): the long list's mean count less the short list's, "
        "with its HC3 standard error's Wald interval, and the maximum-likelihood estimate"
    )
    return "\n".join([title, *_aligned([LIST_HEADER, *rows])])


def _extra_rows(question) -> list[tuple]:
    """A design of two arms' second figure (cheating detection's cheaters, the lie detector's
    honest carriers) and each arm's counts, under its question's row (the estimate above is the
    asked share)."""
    rows: list[tuple] = []
    extra = question.extra
    if "arms" not in extra:
        return rows
    design = arms_design(design_named(question.procedure))
    share = extra.get(design.second_figure)
    if share is not None and "g2" in share:  # a model test, not a share
        test = f"G2 = {share['g2']:.3f}, p = {share['p_value']:.4f}"
        rows.append((f"  {design.second_words}", "", "", test, "", ""))
    elif share is not None:
        interval = f"[{share['ci_low']:.1%}, {share['ci_high']:.1%}]"
        rows.append((f"  {design.second_words}", "", "", f"{share['estimate']:.1%}", interval, ""))
    for number, arm in enumerate(extra.get("arms", ()), start=1):
        share = f"{arm['noisy_yes'] / arm['n']:.1%}" if arm["n"] else ""
        rows.append((f"  arm {number}", arm["n"], share, "", "", ""))
    return rows


def _units(value: float) -> str:
    return f"{value:.4g}"


def _shown(question) -> Callable[[float], str]:
    """How a figure of the question is written: a share as a percentage, a number question's mean
    (and its estimated total) in its units."""
    return _share if question.design.scale is None else _units


def _row(label: str, item: ItemResult, show: Callable[[float], str] = _share) -> tuple:
    if item.n == 0:
        return (label, 0, "", "no responses", "", "")
    if item.withheld:
        return (label, item.n, "", "withheld (a small group)", "", "")
    assert item.estimate is not None and item.ci_low is not None and item.ci_high is not None
    assert item.estimated_count is not None and item.shown_count is not None
    # A share's count within 0 and n, as the dashboard shows it; a number's total as estimated.
    count = f"{item.estimated_count:.0f}"
    if show is _share:
        count = f"{item.shown_count:.0f}" + (" (clipped)" if item.outside else "")
    return (
        label,
        item.n,
        f"{item.noisy_yes / item.n:.1%}",
        show(item.estimate),
        f"[{show(item.ci_low)}, {show(item.ci_high)}]",
        count,
    )


def posterior_table(results: SurveyResults, settings: BayesSettings) -> str:
    """Each item's posterior (:mod:`web.core.results.bayes`) as aligned text."""
    lines = [
        f"Bayesian estimates: prior Beta({settings.a:g}, {settings.b:g}) (Dirichlet for single "
        "choice), from the same published counts",
        "",
    ]
    rows = [("item", "posterior mean", "sd", "95% credible", "95% HDI", "P(> t)")]
    for question in results.questions:
        show = _shown(question)
        for item, figures in zip(
            question.items, question_posteriors(question, settings), strict=True
        ):
            label = question.key if item.option is None else f"{question.key}.{item.option}"
            if figures is None:
                rows.append((label, "—", "", "", "", ""))
                continue
            rows.append(
                (
                    label,
                    show(figures["posterior_mean"]),
                    f"{figures['posterior_sd']:.4g}",
                    f"[{show(figures['cri_low'])}, {show(figures['cri_high'])}]",
                    f"[{show(figures['hdi_low'])}, {show(figures['hdi_high'])}]",
                    f"{figures['prob_above']:.3f}" if "prob_above" in figures else "",
                )
            )
    return "\n".join(lines + _aligned(rows))


def grouped_table(results: SurveyResults, groups: dict, key: str) -> str:
    """Every randomized item's estimate per group of direct question ``key``, as aligned text."""
    lines = [
        f"{results.title.default}: estimates by {key} (groups below {results.min_n} withheld)",
        "",
    ]
    rows = [("item", "group", "n", "estimate", "95% interval")]
    for question in results.questions:
        entries = groups.get(question.key)
        if not entries:
            continue
        show = _shown(question)
        for index, item in enumerate(question.items):
            label = question.key if item.option is None else f"{question.key}.{item.option}"
            for group in entries:
                figure = group.items[index]
                if group.withheld or figure.estimate is None:
                    rows.append((label, group.option, f"< {results.min_n}", "withheld", ""))
                else:
                    interval = f"[{show(figure.ci_low)}, {show(figure.ci_high)}]"
                    rows.append((label, group.option, figure.n, show(figure.estimate), interval))
    return "\n".join(lines + _aligned(rows))


def joint_text(document: dict) -> str:
    """A joint table of true answers, with a pair's conditional and correlation, as text."""
    names = document["items"]
    lines = [f"True answers of {', '.join(names)}: n = {document['n']}", document["method"], ""]
    rows = [(*names, "estimate", "95% interval")]
    for cell in document["cells"]:
        interval = f"[{cell['ci_low']:.1%}, {cell['ci_high']:.1%}]"
        rows.append((*(str(cell[name]) for name in names), f"{cell['estimate']:.1%}", interval))
    lines += _aligned(rows)
    for entry in document.get("conditional", ()):
        ((given, value),) = entry["given"].items()
        low, high = entry["ci_low"], entry["ci_high"]
        interval = "" if low is None else f" [{low:.1%}, {high:.1%}]"
        lines.append(
            f"P({entry['of']} = 1 | {given} = {value}) = {entry['estimate']:.1%}{interval}"
        )
    if "correlation" in document:
        found = document["correlation"]
        lines.append(
            f"correlation (phi) = {found['estimate']:.3f} [{found['ci_low']:.3f}, {found['ci_high']:.3f}]"
        )
    return "\n".join(lines)


def regression_text(fit: dict) -> str:
    """A regression's coefficients and predictions as aligned text."""
    if fit.get("model") == "list":
        return _list_regression_text(fit)
    lines = [
        f"{fit['item']} on {', '.join(fit['on'])}: n = {fit['n']}, converged: {fit['converged']}",
        f"reference: {', '.join(f'{k}={v}' for k, v in fit['reference'].items())}",
        "",
    ]
    linear = fit.get("model") == "linear"
    lines[0] += " (linear: least squares, sandwich errors)" if linear else " (logistic)"
    rows = [("term", "estimate", "std. error", "95% interval", "" if linear else "odds ratio")]
    for c in fit["coefficients"]:
        interval = f"[{c['ci_low']:.3f}, {c['ci_high']:.3f}]"
        odds = "" if linear else f"{c['odds_ratio']:.3f}"
        rows.append((c["term"], f"{c['estimate']:.3f}", f"{c['std_error']:.3f}", interval, odds))
    rows.append(("", "", "", "", ""))
    at = ", ".join(f"{key} = {value:.2f}" for key, value in fit.get("at", {}).items())
    heading = f"predicted (at {at})" if at else "predicted"
    rows.append((heading, "mean" if linear else "prevalence", "n", "95% interval", ""))
    show = _units if linear else _share
    for p in fit["predicted"]:
        group = ", ".join(f"{k}={v}" for k, v in p["group"].items())
        interval = f"[{show(p['ci_low'])}, {show(p['ci_high'])}]"
        rows.append((group, show(p["estimate"]), p["n"], interval, ""))
    return "\n".join(lines + _aligned(rows))


def _list_regression_text(fit: dict) -> str:
    """A list experiment's ML model: the sensitive item's coefficients, each list's control
    items', and the prevalence predicted per group (no interval: the model gives none)."""
    lines = [
        f"{fit['item']} on {', '.join(fit['on'])}: n = {fit['n']}, log-likelihood "
        f"{fit['log_likelihood']:.3f} ({fit['method']})",
        f"reference: {', '.join(f'{k}={v}' for k, v in fit['reference'].items())}",
    ]
    if fit["at_boundary"]:
        lines.append("at the boundary: the fit ran off to the edge, its coefficients mean nothing")
    lines.append("")
    rows = [("term", "log odds", "std. error", "95% interval", "odds ratio")]
    double = "control_coefficients_b" in fit
    for heading, key in (
        ("holds the sensitive item", "coefficients"),
        ("control items" + (", list A" if double else ""), "control_coefficients"),
        *((("control items, list B", "control_coefficients_b"),) if double else ()),
    ):
        rows.append((heading, "", "", "", ""))
        for c in fit[key]:
            interval = f"[{c['ci_low']:.3f}, {c['ci_high']:.3f}]"
            rows.append((f"  {c['term']}", f"{c['estimate']:.3f}", f"{c['std_error']:.3f}",
                         interval, f"{c['odds_ratio']:.3f}"))  # fmt: skip
    rows.append(("", "", "", "", ""))
    at = ", ".join(f"{key} = {value:.2f}" for key, value in fit.get("at", {}).items())
    rows.append((f"predicted (at {at})" if at else "predicted", "prevalence", "n", "", ""))
    for p in fit["predicted"]:
        group = ", ".join(f"{k}={v}" for k, v in p["group"].items())
        rows.append((group, _share(p["estimate"]), p["n"], "", ""))
    return "\n".join(lines + _aligned(rows))


def _aligned(rows) -> list[str]:
    widths = [max(len(str(row[column])) for row in rows) for column in range(len(rows[0]))]
    return [
        "  ".join(
            str(cell).ljust(widths[0]) if index == 0 else str(cell).rjust(widths[index])
            for index, cell in enumerate(row)
        ).rstrip()
        for row in rows
    ]
