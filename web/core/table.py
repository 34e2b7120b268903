"""A results document as a plain-text table for the terminal."""

from __future__ import annotations


def results_table(results: dict) -> str:
    """Render :func:`web.core.results.survey_results` as aligned text."""
    lines = [
        f"{results['title']} ({results['slug']}, {results['status']})",
        f"n = {results['n']}, total privacy cost epsilon = {results['epsilon_total']:g}",
        "",
    ]
    header = ("question", "n", "reported yes", "estimate", "95% interval", "est. count")
    rows = []
    for question in results["questions"]:
        label = f"{question['id']} (eps {question['epsilon']:g}, {question['procedure']})"
        if question["type"] == "multi":
            rows.append((label, "", "", "", "", ""))
            rows.extend(_row(f"  {option['id']}", option) for option in question["options"])
        else:
            rows.append(_row(label, question))
    widths = [max(len(str(row[column])) for row in [header, *rows]) for column in range(6)]
    for row in [header, *rows]:
        cells = [
            str(cell).ljust(widths[0]) if index == 0 else str(cell).rjust(widths[index])
            for index, cell in enumerate(row)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _row(label: str, numbers: dict) -> tuple:
    if numbers["n"] == 0:
        return (label, 0, "", "no responses", "", "")
    return (
        label,
        numbers["n"],
        f"{numbers['noisy_yes'] / numbers['n']:.1%}",
        f"{numbers['estimate']:.1%}",
        f"[{numbers['ci_low']:.1%}, {numbers['ci_high']:.1%}]",
        f"{numbers['estimated_count']:.1f}",
    )
