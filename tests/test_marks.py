"""Every module of tests/browser marks its tests ``browser``: the workers' queues put those tests
on two workers (tests/conftest.py), and ``-m "not browser"`` leaves chromium out by it. A module
without the mark had its tests dealt to any worker, each of which then started a chromium of its
own."""

from __future__ import annotations

import ast
import pathlib

BROWSER_TESTS = pathlib.Path(__file__).resolve().parent / "browser"


def marks_browser(module: ast.Module) -> bool:
    """Whether the module's ``pytestmark`` names ``pytest.mark.browser``."""
    for node in module.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "pytestmark" for target in node.targets
        ):
            return any(
                isinstance(part, ast.Attribute) and part.attr == "browser"
                for part in ast.walk(node.value)
            )
    return False


def test_every_browser_module_is_marked():
    modules = sorted(BROWSER_TESTS.glob("test_*.py"))
    assert len(modules) > 30
    unmarked = [
        path.name for path in modules if not marks_browser(ast.parse(path.read_text("utf-8")))
    ]
    assert unmarked == []
