"""The layers a newcomer sees in the folder list hold: building blocks (core) import no app;
what every app shares (lab) imports only core; the apps import only those below them
(people ← publications ← talks); the site (labsite) sits on top. Read from the source, so a
new import that breaks the order fails here."""

import ast
from pathlib import Path

import pytest

from core.content import project_apps

ROOT = Path(__file__).resolve().parent.parent
# The order INSTALLED_APPS gives them: building blocks first, the site last.
LAYERS = [config.name for config in project_apps()]


def imported_packages(package):
    """{package imported: [file:line, …]} for every first-party import in `package`'s code
    (migrations included: they run the same code)."""
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in LAYERS and top != package:
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    found.setdefault(top, []).append(where)
    return found


@pytest.mark.parametrize("package", LAYERS)
def test_each_layer_imports_only_the_layers_below_it(package):
    below = LAYERS[: LAYERS.index(package)]

    upward = {
        other: places for other, places in imported_packages(package).items() if other not in below
    }

    assert upward == {}


def test_no_two_packages_import_each_other():
    graph = {package: set(imported_packages(package)) for package in LAYERS}

    pairs = {tuple(sorted((a, b))) for a in LAYERS for b in graph[a] if a in graph.get(b, set())}

    assert pairs == set()
