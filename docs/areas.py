"""The picture of the app's areas and the imports between them, drawn from the code.

    python docs/areas.py           # print it
    python docs/areas.py --write   # put it in docs/architecture.md, between its two markers

The picture is a Mermaid flowchart: each area a box in its layer, each arrow an area importing
another, labelled with how many modules' imports it stands for. grimp (import-linter's own graph)
reads the imports, so the picture shows what the code does; the contracts in pyproject.toml say
what it may do. ``tests/web/test_architecture.py`` draws it again and compares, so the picture in
the document cannot drift from the code.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCUMENT = ROOT / "docs" / "architecture.md"
START = "<!-- the areas, drawn by docs/areas.py: do not edit by hand -->"
END = "<!-- end of the areas -->"

# Top to bottom, as the layers contract in pyproject.toml orders them.
LAYERS = (
    ("areas", ("web.workspace", "web.classroom", "web.api", "web.cli", "web.simulation")),
    ("the respondent", ("web.respondent",)),
    ("the site", ("web.site",)),
    ("results", ("web.core.results", "web.core.startup")),
    ("rows and rules", ("web.core.models", "web.core.surveys")),
    ("infrastructure", ("web.core.infrastructure",)),
    ("statistics", ("rr",)),
)
AREAS = tuple(area for _layer, areas in LAYERS for area in areas)


def area_of(module: str) -> str | None:
    """The area a module belongs to (the longest area name it starts with), or None."""
    for area in sorted(AREAS, key=len, reverse=True):
        if module == area or module.startswith(area + "."):
            return area
    return None


def area_imports() -> Counter[tuple[str, str]]:
    """(importing area, imported area) → how many of the first's modules import the second
    (each module counted once per area it imports)."""
    import grimp

    graph = grimp.build_graph("web", "rr")
    counts: Counter[tuple[str, str]] = Counter()
    for module in graph.modules:
        importer = area_of(module)
        if importer is None:
            continue
        imported = {area_of(name) for name in graph.find_modules_directly_imported_by(module)}
        for area in imported - {importer, None}:
            counts[importer, area] += 1
    return counts


def picture() -> str:
    """The Mermaid flowchart of the areas and their imports."""
    node = {area: area.replace(".", "_") for area in AREAS}
    lines = ["```mermaid", "flowchart TB"]
    for index, (layer, areas) in enumerate(LAYERS):
        lines.append(f'  subgraph layer{index}["{layer}"]')
        lines += [f'    {node[area]}["{area}"]' for area in areas]
        lines.append("  end")
    for (importer, imported), count in sorted(area_imports().items()):
        lines.append(f"  {node[importer]} -->|{count}| {node[imported]}")
    lines.append("```")
    return "\n".join(lines)


def document_with(text: str, drawn: str) -> str:
    """``text`` with the part between the markers replaced by ``drawn``."""
    before, rest = text.split(START, 1)
    _old, after = rest.split(END, 1)
    return f"{before}{START}\n{drawn}\n{END}{after}"


def drawn_in_document() -> str:
    """The picture as the document has it now."""
    return DOCUMENT.read_text(encoding="utf-8").split(START, 1)[1].split(END, 1)[0].strip()


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    if sys.argv[1:] == ["--write"]:
        text = DOCUMENT.read_text(encoding="utf-8")
        DOCUMENT.write_text(document_with(text, picture()), encoding="utf-8")
    else:
        print(picture())
