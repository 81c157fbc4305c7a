"""The site's message catalogs (locale/<language>/LC_MESSAGES/django.po), kept with Babel.

Strings are found as Django's `makemessages` finds them (templates through Django's own
`templatize`, Python through the gettext keywords) but read and written in Python, so a
fresh machine needs no GNU gettext: `manage.py catalogs update` brings each catalog up to
date with the code, `manage.py catalogs compile` writes the .mo files Django reads (built,
not committed), and the tests check both.
"""

import io
from collections.abc import Iterator
from pathlib import Path
from typing import IO, cast

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_python
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from django.conf import settings
from django.utils import translation
from django.utils.translation.template import templatize

from core import content
from labsite.i18n import model_texts

BASE = Path(settings.BASE_DIR)
TEMPLATES = BASE / "templates"
# The admin's own templates extend Django's (translated by Django); these are the site's.
PUBLIC_TEMPLATES = [p for p in TEMPLATES.rglob("*.html") if "admin" not in p.parts]
KEYWORDS = {
    "_": None,
    "gettext": None,
    "gettext_lazy": None,
    "ngettext": (1, 2),
    "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2),
    "pgettext_lazy": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "npgettext_lazy": ((1, "c"), 2, 3),
}


def languages() -> list[str]:
    """The translated languages, as locale folder names ("zh_Hans")."""
    return [translation.to_locale(code) for code, _name in settings.LANGUAGES[1:]]


def po_path(locale: str) -> Path:
    return BASE / "locale" / locale / "LC_MESSAGES" / "django.po"


def read(locale: str) -> Catalog:
    with po_path(locale).open("rb") as file:
        return read_po(file, locale=locale)


def _extract(file: IO[bytes]) -> Iterator[tuple[int, str, str | tuple[str, ...], list[str]]]:
    """babel's `extract_python`: (line, function, message or its parts, comments) for each
    marked string. (babel annotates it with the results of its `extract`, which come in
    another order: line, message, comments, context.)"""
    found = extract_python(file, KEYWORDS, [], {})
    return cast(Iterator[tuple[int, str, str | tuple[str, ...], list[str]]], found)


def template_messages(path: Path) -> Iterator[tuple[int, str, object, str | None]]:
    """(line, function, message, context) for each string the template marks."""
    code = templatize(path.read_text(encoding="utf-8"), origin=str(path))
    for line, function, message, _comments in _extract(io.BytesIO(code.encode("utf-8"))):
        yield line, function, *_split_context(function, message)


def _split_context(function: str, message: str | tuple[str, ...]) -> tuple[object, str | None]:
    """(message, context): pgettext's first argument is its context."""
    if function.startswith(("pgettext", "npgettext")) and isinstance(message, tuple):
        context, *rest = message
        return (rest[0] if len(rest) == 1 else tuple(rest)), context
    return message, None


def python_messages(path: Path) -> Iterator[tuple[int, str, object, str | None]]:
    with path.open("rb") as file:
        for line, function, message, _comments in _extract(file):
            yield line, function, *_split_context(function, message)


def sources() -> Iterator[tuple[Path, Iterator]]:
    for path in sorted(PUBLIC_TEMPLATES) + sorted((TEMPLATES / "admin").rglob("*.html")):
        yield path, template_messages(path)
    for app in content.project_apps():
        for path in sorted(Path(app.path).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path, python_messages(path)


def extract() -> Catalog:
    """Every marked string of the site, and the content models' names, labels and help
    (see labsite/i18n.py), as a catalog template."""
    catalog = Catalog(fuzzy=False, charset="utf-8")
    for text in model_texts():
        catalog.add(text, auto_comments=["a model's name, or a field's label or help"])
    for path, messages in sources():
        for line, _function, message, context in messages:
            if not message or (isinstance(message, tuple) and not message[0]):
                continue
            catalog.add(
                _msgid(message),
                locations=[(str(path.relative_to(BASE)), line)],
                flags=_flags(message),
                context=context,
            )
    return catalog


def _msgid(message):
    return message[:2] if isinstance(message, tuple) else message


def _flags(message) -> set[str]:
    text = message[0] if isinstance(message, tuple) else message
    return {"python-format"} if "%(" in text or "%s" in text or "%d" in text else set()


def update() -> dict[str, int]:
    """Bring each catalog up to date with the code: new strings added untranslated, gone
    ones dropped, translations kept. Returns the untranslated count per language."""
    template = extract()
    untranslated = {}
    for locale in languages():
        path = po_path(locale)
        if path.exists():
            catalog = read(locale)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=locale, charset="utf-8")
        before, created = _ids(catalog), catalog.creation_date
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        if _ids(catalog) == before:  # nothing new: the file stays as it was
            catalog.creation_date = created
        catalog.project, catalog.version = "labsite", ""
        catalog.msgid_bugs_address = catalog.last_translator = ""
        catalog.language_team = f"labsite {locale}"
        catalog.fuzzy = False
        with path.open("wb") as file:
            write_po(file, catalog, width=100, sort_output=False)
        untranslated[locale] = len(missing(catalog))
    return untranslated


def _ids(catalog: Catalog) -> set:
    return {(m.id, m.context) for m in catalog if m.id}


def missing(catalog: Catalog) -> list[Message]:
    """The messages with no translation, or a fuzzy (unreviewed) one."""
    return [
        m
        for m in catalog
        if m.id and (m.fuzzy or not (all(m.string) if isinstance(m.string, tuple) else m.string))
    ]


def compiled(locale: str) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, read(locale), use_fuzzy=False)
    return buffer.getvalue()


def compile_all() -> list[Path]:
    written = []
    for locale in languages():
        path = po_path(locale).with_suffix(".mo")
        path.write_bytes(compiled(locale))
        written.append(path)
    return written
