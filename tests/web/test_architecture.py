"""The layout keeps its promises: rules in web/core hold no routes, no module of web imports
itself round a circle, and only a design's or a question type's own module names it (every name
read from the registries)."""

import re

import pytest

from tests.conftest import no_database
from tests.helpers import files_named_but_missing
from tests.servers import ROOT

# Nothing here reads or writes the database: it runs once, on SQLite.
pytestmark = no_database


TYPE_COMPARISON = re.compile(
    r"""(?:[!=]==?|\bin\b|\bnot in\b)\s*["'](?:yesno|multi)["']|["'](?:yesno|multi)["']\s*[!=]==?"""
)
SOURCES = [
    *sorted((ROOT / "web").rglob("*.py")),
    *sorted((ROOT / "templates").rglob("*.html")),
    *sorted((ROOT / "static" / "js").rglob("*.js")),
]


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_only_the_question_types_compare_type_names(path):
    if path.parent == ROOT / "web" / "core" / "surveys" / "questions":
        return
    found = TYPE_COMPARISON.findall(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT)} compares a question type by name: {found}"


@pytest.mark.parametrize(
    "path", sorted((ROOT / "web" / "core").rglob("*.py")), ids=lambda path: path.name
)
def test_the_rules_hold_no_routes(path):
    text = path.read_text(encoding="utf-8")
    assert (
        "Blueprint(" not in text
        and ".route(" not in text
        and not re.search(r"@\w+\.(get|post)\(", text)
    )


def imported_modules(path) -> set[str]:
    """The modules of web/ that a file imports, those it imports only to name a type (under
    ``if TYPE_CHECKING:``) included: a circle of type names is a circle all the same, and a
    model's back-reference names what it reads of its owner as a Protocol instead."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("web."):
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("web."))
    return found


def test_no_module_of_web_imports_itself_round_a_circle():
    # A package is its __init__: importing from it imports that module first.
    modules = {
        ".".join(
            path.relative_to(ROOT).parent.parts
            if path.stem == "__init__"
            else path.relative_to(ROOT).with_suffix("").parts
        ): path
        for path in (ROOT / "web").rglob("*.py")
    }
    imports = {
        name: imported_modules(path) & set(modules) - {name} for name, path in modules.items()
    }
    assert circles(imports) == []


def design_names() -> tuple[str, ...]:
    from web.core.surveys.designs import known_designs

    return known_designs()


def type_names() -> tuple[str, ...]:
    from web.core.surveys.questions import QUESTION_TYPES

    return tuple(QUESTION_TYPES)


def own_names(path, registered) -> set[str]:
    """The names of what ``path``'s module registers (its designs, its question types): those
    classes are defined there."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return {name for name, found in registered if type(found).__module__ == ".".join(parts)}


def registered_designs():
    from web.core.surveys.designs import registered

    return [(design.name, design) for design in registered()]


def registered_types():
    from web.core.surveys.questions import QUESTION_TYPES, VARIANTS

    return [(kind.name, kind) for kind in (*QUESTION_TYPES.values(), *VARIANTS.values())]


# "list" is a list experiment's type and design, and also XLSForm's word for a choice list
# (``select_one <list>``) and a command's name; no module compares a question's by it (each asks
# its type or its design).
COMMON_WORDS = {"list"}


def quoted_strings(path) -> list[str]:
    """The string constants of a Python file that are not docstrings."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


@pytest.mark.parametrize(
    "path", sorted((ROOT / "web").rglob("*.py")), ids=lambda path: str(path.relative_to(ROOT))
)
def test_only_a_design_s_own_module_names_it(path):
    if path.name == "passwords.py":
        return  # "spinner" there is a word an attacker guesses first, not a design
    # The design that asks directly (designs/direct.py) and the direct question (the type) share
    # the word a survey file says for both: "procedure": "direct" and "type": "direct".
    exempt = (
        {"direct"}
        if path == ROOT / "web" / "core" / "surveys" / "questions" / "direct.py"
        else set()
    )
    own = own_names(path, registered_designs()) | COMMON_WORDS
    named = sorted(
        {
            text
            for text in quoted_strings(path)
            if text in design_names() and text not in own and text not in exempt
        }
    )
    assert named == [], f"{path.relative_to(ROOT)} names designs {named}: ask the registry"


@pytest.mark.parametrize(
    "path", sorted((ROOT / "web").rglob("*.py")), ids=lambda path: str(path.relative_to(ROOT))
)
def test_only_a_type_s_own_module_names_it(path):
    # The design "direct" shares its name with the type; the i18n module's "number" is a Jinja
    # filter, and the OpenAPI document's is JSON Schema's type of a number. "text" is every
    # file's word for a wording as well as the open question's type, which no module asks for
    # by name (the type says it is ``written``).
    exempt = {
        ROOT / "web" / "core" / "surveys" / "designs" / "direct.py": {"direct"},
        ROOT / "web" / "core" / "infrastructure" / "i18n.py": {"number"},
    }.get(path, set()) | {"text"}
    if path.parent == ROOT / "web" / "api" / "openapi":
        exempt |= {"number"}
    own = own_names(path, registered_types()) | COMMON_WORDS
    named = sorted(
        {
            text
            for text in quoted_strings(path)
            if text in type_names() and text not in own and text not in exempt
        }
    )
    assert named == [], f"{path.relative_to(ROOT)} names question types {named}: ask the type"


@pytest.mark.parametrize(
    "path",
    [
        *sorted((ROOT / "templates").rglob("*.html")),
        *sorted((ROOT / "static" / "js").rglob("*.js")),
    ],
    ids=lambda path: str(path.relative_to(ROOT)),
)
def test_no_template_or_script_names_a_design(path):
    text = path.read_text(encoding="utf-8")
    # A quoted design name; class="spinner" is the wheel's CSS class, not the design.
    named = [
        name
        for name in design_names()
        if name not in COMMON_WORDS and re.search(rf"""(?<!class=)["'`]{name}["'`]""", text)
    ]
    assert named == [], f"{path.relative_to(ROOT)} names designs {named}: use its descriptor"


def test_an_unknown_design_is_refused_with_the_known_ones():
    from web.core.surveys.designs import UnknownDesign, design_named

    with pytest.raises(UnknownDesign) as refused:
        design_named("coin_only")
    assert "'coin_only'" in str(refused.value)
    assert all(name in str(refused.value) for name in design_names())


@pytest.mark.parametrize(
    "path", sorted((ROOT / "web").rglob("*.py")), ids=lambda path: str(path.relative_to(ROOT))
)
def test_no_module_outside_the_designs_imports_a_design(path):
    # A design's module is its own; the rest of the app asks the registry
    # (design_named, a design's methods such as arm_model), never a design's module.
    import ast

    if path.parent == ROOT / "web" / "core" / "surveys" / "designs":
        return
    designs = {type(design).__module__ for _name, design in registered_designs()}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    } | {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    assert sorted(imported & designs) == [], f"{path.relative_to(ROOT)} imports a design's module"


def architecture_parts() -> dict[str, str]:
    """docs/architecture.md in three parts: its section on rr/, its paragraph on static/js/,
    and the rest (which names the modules of web/)."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rr_start = text.index("## `rr/`, module by module")
    rr_end = text.index("\n## ", rr_start + 1)
    js_start = text.index("- **`static/js/`**")
    js_end = text.index("\n- **", js_start + 1)
    rest = text[:rr_start] + text[rr_end:]
    rest = rest.replace(text[js_start:js_end], "")
    return {"rr": text[rr_start:rr_end], "static/js": text[js_start:js_end], "web": rest}


def test_the_architecture_document_names_every_module():
    parts = architecture_parts()
    modules = {
        "rr": sorted((ROOT / "rr").glob("*.py")),
        "static/js": sorted((ROOT / "static" / "js").glob("*.js")),
        "web": sorted((ROOT / "web").rglob("*.py")),
    }
    unnamed = [
        str(path.relative_to(ROOT))
        for part, paths in modules.items()
        for path in paths
        if path.name != "__init__.py"
        and f"`{path.name}`" not in parts[part]
        and f"{path.relative_to(ROOT)}`" not in parts[part]
    ]
    assert unnamed == [], f"add a line for each to docs/architecture.md: {unnamed}"


def contract_layers(container: str) -> set[str]:
    """The packages and modules a layers contract of pyproject.toml names in ``container``."""
    import tomllib

    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(
        contract
        for contract in settings["tool"]["importlinter"]["contracts"]
        if contract["type"] == "layers" and contract.get("containers") == [container]
    )
    return {
        f"{container}.{name.strip()}"
        for layer in contract["layers"]
        for name in layer.replace("|", ":").split(":")
    }


def test_every_part_of_web_core_is_in_a_layer():
    """import-linter holds the layers of web.core; a part that is in none of them would be held
    by nothing, which a contract cannot say."""
    layered = contract_layers("web.core")
    parts = {
        f"web.core.{path.stem if path.suffix else path.name}"
        for path in (ROOT / "web" / "core").iterdir()
        if (path.suffix == ".py" and path.stem != "__init__")
        or (path.is_dir() and (path / "__init__.py").exists())
    }
    assert parts - layered == set(), "add each to a layer of web.core in pyproject.toml"
    assert "web.core.surveys" in layered and "web.core.infrastructure" in layered


def methods_of(path, name: str) -> list[str]:
    """The methods (properties included) a class of a module defines itself."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == name)
    return [node.name for node in found.body if isinstance(node, ast.FunctionDef)]


def test_a_survey_row_keeps_to_its_row():
    """What is not about the row itself (its costs over waves, its missing texts, its results'
    version) lives where it is asked for."""
    methods = methods_of(ROOT / "web" / "core" / "models" / "surveys.py", "Survey")
    assert len(methods) <= 12, methods


def test_a_question_row_keeps_to_its_row():
    """What a question's design or type answers is asked of them (``question.asked_with``,
    ``question.type``), not forwarded by the row."""
    methods = methods_of(ROOT / "web" / "core" / "models" / "questions.py", "Question")
    assert len(methods) <= 10, methods


def members_of(path, name: str) -> list[str]:
    """The members a class of a module defines itself: methods, properties and attributes."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == name)
    members = []
    for node in found.body:
        if isinstance(node, ast.FunctionDef):
            members.append(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            members.append(node.target.id)
        elif isinstance(node, ast.Assign):
            members += [target.id for target in node.targets if isinstance(target, ast.Name)]
    return members


def test_a_design_is_its_numbers_and_its_parts():
    """The page's draw and words (designs/page_draw.py), the fields (designs/fields.py) and the
    lab's row are parts a design declares, not members of the design class."""
    members = members_of(ROOT / "web" / "core" / "surveys" / "designs" / "base.py", "SurveyDesign")
    assert len(members) <= 25, members
    assert {"fields", "Page", "page", "lab"} <= set(members)


def test_reading_results_never_closes_a_survey():
    """Closing a due survey is the write side's (the writer, the respondent's pages, commands):
    no module of the results area names it, nor does finding a survey."""
    readers = sorted((ROOT / "web" / "core" / "results").rglob("*.py"))
    closing = [path.name for path in readers if "close_if_due" in path.read_text(encoding="utf-8")]
    assert closing == []
    import inspect

    from web.core.surveys import lookup

    assert "close_if_due" not in inspect.getsource(lookup.find_survey)


def test_few_modules_ask_whether_a_kind_is_randomized():
    """Whether a kind is randomized is asked where it is owned (the direct design's page, for a
    question whose kind is never randomized); which questions make groups is ``splits_groups``
    (``results/cells.py``); every other module asks the kind what it fixes (``fixed_fields``) or
    the design whether it protects. ``lab.html`` reads an rr split ballot's randomized
    condition, which is another thing."""
    readers = [
        str(path.relative_to(ROOT))
        for path in SOURCES
        if path.suffix != ".js" and re.search(r"\.randomized\b", path.read_text(encoding="utf-8"))
    ]
    assert len(readers) <= 8, readers
    assert "web/core/surveys/designs/direct.py" in readers


def test_the_top_of_web_holds_packages():
    """A newcomer finds an area by its folder: web/'s top level holds its packages (the
    commands' among them) and at most two modules."""
    modules = sorted(path.name for path in (ROOT / "web").glob("*.py"))
    assert len(modules) <= 2, modules
    commands = ROOT / "web" / "cli"
    assert (commands / "__init__.py").exists() and not list((ROOT / "web").glob("cli_*.py"))


SHAPED_SOURCES = [
    *sorted((ROOT / "web").rglob("*.py")),
    *sorted((ROOT / "rr").rglob("*.py")),
    *sorted((ROOT / "static" / "js").rglob("*.js")),
]


@pytest.mark.parametrize("path", SHAPED_SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_is_over_500_lines(path):
    """A module past 500 lines holds more than one idea: split it where its ideas part."""
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= 500, f"{path.relative_to(ROOT)} has {lines} lines"


def test_the_page_controller_stays_a_controller():
    """survey.js sets the page up and loads the rest; what it grows goes to a module of its own."""
    lines = len((ROOT / "static" / "js" / "survey.js").read_text(encoding="utf-8").splitlines())
    assert lines <= 350, lines


JS_IMPORT = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(\s*|^import\s*)["']\./([\w.-]+\.js)["']""", re.M
)


def page_module_imports(path) -> set[str]:
    """The page's modules a script imports, statically or when it needs them (``import()``);
    the JSDoc types' ``import("./x.js").Type`` are not imports."""
    code = re.sub(r"/\*\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.S)
    return set(JS_IMPORT.findall(code))


def test_the_page_s_modules_import_no_circle():
    scripts = {path.name: path for path in (ROOT / "static" / "js").glob("*.js")}
    imports = {name: page_module_imports(path) & set(scripts) for name, path in scripts.items()}
    assert imports["start.js"] == {"survey.js"}  # the reader reads imports at all
    assert circles(imports) == []


def test_the_page_s_import_reader_finds_both_kinds(tmp_path):
    script = tmp_path / "a.js"
    script.write_text(
        'import { b } from "./b.js";\n/** @type {import("./c.js").C} */\n'
        'const d = await import("./d.js");\n',
        encoding="utf-8",
    )
    assert page_module_imports(script) == {"b.js", "d.js"}


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


def areas_module():
    """docs/areas.py, which draws the picture of the areas (docs is no package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("areas", ROOT / "docs" / "areas.py")
    assert spec is not None and spec.loader is not None
    areas = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(areas)
    return areas


def test_the_picture_of_the_areas_is_the_code_s():
    """docs/architecture.md's picture is drawn from the imports (docs/areas.py): a change of them
    is drawn again with ``python docs/areas.py --write``."""
    areas = areas_module()
    assert areas.drawn_in_document() == areas.picture()
    assert areas.area_of("web.core.surveys.flow.walk") == "web.core.surveys"
    assert areas.area_of("rr.design") == "rr" and areas.area_of("web.core") is None


def test_every_module_of_the_app_is_in_an_area_of_the_picture():
    areas = areas_module()
    outside = []
    for path in [*(ROOT / "web").rglob("*.py"), *(ROOT / "rr").rglob("*.py")]:
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if name not in ("web", "web.core") and areas.area_of(name) is None:
            outside.append(name)
    assert outside == []


def test_the_tests_mirror_the_code():
    """A module's tests are found by its path: each folder of tests/web is a package of web
    (tests/web/core/surveys/xlsform tests web/core/surveys/xlsform), and only the tests of the
    app as a whole (its factory, its layout) sit at the top."""
    tests = ROOT / "tests" / "web"
    for folder in (path for path in tests.rglob("*") if path.is_dir()):
        if folder.name == "__pycache__":
            continue
        package = ROOT / "web" / folder.relative_to(tests)
        assert (package / "__init__.py").exists(), f"{folder.relative_to(ROOT)} mirrors no package"
    top = sorted(path.name for path in tests.glob("test_*.py"))
    assert top == ["test_app.py", "test_architecture.py"], top


# A file of the repository named in a module's words: `web/core/infrastructure/sqlite_guard.py`.
NAMED_FILE = re.compile(
    r"\b((?:web|rr|tests|bench|static|templates|docs|migrations)/[\w/-]+\.(?:py|js|md|html|css|json))\b"
)


def test_every_file_a_module_names_is_there():
    """A comment that sends the reader to a module moved or renamed since sends them nowhere."""
    sources = [*SHAPED_SOURCES, *sorted((ROOT / "templates").rglob("*.html"))]
    named, missing = files_named_but_missing(sources, NAMED_FILE)
    assert named > 40
    assert missing == []
