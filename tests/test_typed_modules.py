"""Every module with an annotated function is one mypy checks (CI runs mypy with the files
pyproject.toml names): read from the source, so a module that gains annotations outside
mypy's set fails here rather than going unchecked."""

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "lab", "labsite", "media", "people", "publications", "talks", "tags")
PACKAGES += ("harvest", "website")


def _annotated(path):
    """Whether some function in the module at `path` annotates a parameter or its return."""
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
            if node.returns or any(arg and arg.annotation for arg in every):
                return True
    return False


def _checked():
    """The files and folders (as paths from the root) mypy is told to check."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return [Path(name) for name in config["tool"]["mypy"]["files"]]


def _is_checked(module, checked):
    return any(module == name or name in module.parents for name in checked)


def test_every_annotated_module_is_checked_by_mypy():
    checked = _checked()
    annotated = [
        path.relative_to(ROOT)
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts and _annotated(path)
    ]

    unchecked = [str(m) for m in annotated if not _is_checked(m, checked)]

    assert unchecked == []
