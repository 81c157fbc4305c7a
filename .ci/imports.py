"""Imports every module of the site and resolves every URL, with only what `make run`
installed (requirements.lock): a module the site imports but the lock lacks fails here,
before a newcomer meets it. Modules that need an optional extra import it where the setting
that needs it is read, so they import here too."""

import importlib
import os
import pkgutil
import re
import sys
import tomllib
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "labsite.settings")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import django  # noqa: E402

django.setup()

from django.urls import URLPattern, URLResolver, get_resolver  # noqa: E402

# What the production extra adds (gunicorn, psycopg, redis, S3 storage): a module that needs
# one of these may miss it here; `make run` never selects the setting that imports it.
_PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
OPTIONAL = {
    re.split(r"[\[<>=!~ ]", requirement)[0].lower().replace("-", "_")
    for requirement in _PROJECT["optional-dependencies"]["prod"]
} - {re.split(r"[\[<>=!~ ]", r)[0].lower().replace("-", "_") for r in _PROJECT["dependencies"]}
PACKAGES = ["core", "lab", "people", "publications", "talks", "harvest", "website", "labsite"]


def modules():
    for package in PACKAGES:
        yield package
        path = [str(ROOT / package)]
        for info in pkgutil.walk_packages(path, prefix=f"{package}."):
            yield info.name


def patterns(resolver, depth=0):
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from patterns(entry, depth + 1)
        elif isinstance(entry, URLPattern):
            yield entry


failures, optional = [], []
count = 0
for name in modules():
    count += 1
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as error:
        missing = (error.name or "").split(".")[0].lower()
        (optional if missing in OPTIONAL else failures).append(f"{name}: needs {missing}")
    except Exception as error:  # every failure is named, then the run fails
        failures.append(f"{name}: {type(error).__name__}: {error}")
views = sum(1 for _ in patterns(get_resolver()))
for line in optional:
    print(f"{line} (the production extra; imported only where its setting is used)")
for failure in failures:
    print(failure, file=sys.stderr)
print(f"{count} modules imported, {views} URL patterns resolved, {len(failures)} failures")
sys.exit(1 if failures else 0)
