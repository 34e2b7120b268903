"""Results as a plain-text table for the terminal."""

from __future__ import annotations

from web.core.results import ItemResult, SurveyResults

HEADER = ("question", "n", "reported yes", "estimate", "95% interval", "est. count")


def results_table(results: SurveyResults) -> str:
    """Render a survey's results as aligned text: one row per question or option."""
    lines = [
        f"{results.title} ({results.slug}, {results.status})",
        f"{results.n} of {results.received} responses published (results move in batches of "
        f"{results.results_batch}), total privacy cost epsilon = {results.epsilon_total:g}",
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
        label = f"{question.key} (eps {question.epsilon:g}, {question.procedure})"
        if question.has_options:
            rows.append((label, "", "", "", "", ""))
            rows.extend(_row(f"  {item.option}", item) for item in question.items)
        else:
            rows.append(_row(label, question.items[0]))
    widths = [max(len(str(row[column])) for row in [HEADER, *rows]) for column in range(6)]
    for row in [HEADER, *rows]:
        cells = [
            str(cell).ljust(widths[0]) if index == 0 else str(cell).rjust(widths[index])
            for index, cell in enumerate(row)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _row(label: str, item: ItemResult) -> tuple:
    if item.n == 0:
        return (label, 0, "", "no responses", "", "")
    return (
        label,
        item.n,
        f"{item.noisy_yes / item.n:.1%}",
        f"{item.estimate:.1%}",
        f"[{item.ci_low:.1%}, {item.ci_high:.1%}]",
        f"{item.estimated_count:.0f}",
    )
