"""rr's modules form no import circle: each builds only on modules below it."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2] / "rr"


def imports_of(path: pathlib.Path) -> set[str]:
    """The rr modules a module imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rr."):
            found.add(node.module.split(".")[1])
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every module that can reach itself, with one path back."""
    found = []
    for start in graph:
        stack = [(start, [start])]
        seen = set()
        while stack:
            node, path = stack.pop()
            for following in graph[node]:
                if following == start:
                    found.append([*path, start])
                    stack.clear()
                    break
                if following not in seen:
                    seen.add(following)
                    stack.append((following, [*path, following]))
    return found


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})[0] == ["a", "b", "c", "a"]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_rr_imports_itself_round_a_circle():
    modules = {path.stem: path for path in ROOT.glob("*.py") if path.stem != "__init__"}
    graph = {name: imports_of(path) & set(modules) for name, path in modules.items()}
    assert circles(graph) == []
