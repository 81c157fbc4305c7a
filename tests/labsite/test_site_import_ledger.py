"""The import's ledger: every file of a site and every key of every front matter,
configuration and data file is accounted for (landed, named, a theme setting or a template
leftover), and what no reader read is listed in the preview by file and key.

The keys a site holds are found here by a reader of its own (front matter split by regex and
read by PyYAML, tomllib or json), not the importer's, over every site of the corpus."""

import io
import json
import re
import tomllib
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command

from labsite.site_import import open_site
from labsite.site_import.ledger import NOT_READ

pytestmark = pytest.mark.django_db
DATA = Path(__file__).parent / "data"
SITES = sorted(
    path.with_suffix("").with_suffix("")
    for folder in ("corpus", "sites")
    for path in (DATA / folder).glob("*.facts.yaml")
)
FRONT = re.compile(
    r"\A\ufeff?\s*(---|\+\+\+)[ \t]*\n(.*?)\n(?:---|\+\+\+|\.\.\.)[ \t]*(?:\n|\Z)", re.S
)


def _values(path):
    """A file's front matter or data, read here (YAML with tabs spaced as Hugo reads it)."""
    text = path.read_text(encoding="utf-8-sig", errors="replace")
    suffix = path.suffix.lower()
    try:
        if suffix in (".yml", ".yaml"):
            return _yaml(text)
        if suffix == ".toml":
            return tomllib.loads(text)
        if suffix == ".json":
            return json.loads(text)
        if suffix in (".md", ".markdown", ".html", ".rmd"):
            if text.lstrip().startswith("{"):
                return json.JSONDecoder().raw_decode(text.lstrip())[0]
            match = FRONT.match(text)
            if match is None:
                return None
            return tomllib.loads(match[2]) if match[1] == "+++" else _yaml(match[2])
    except (ValueError, yaml.YAMLError, tomllib.TOMLDecodeError):
        return None
    return None


def _yaml(text):
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return yaml.safe_load(re.sub(r"(?m)(?<=\S)([^\S\n]*)\t", r"\1 ", text))


def _keys_seen(root):
    """(file, key) for every top-level key of every file, and `params.*` in Hugo's config."""
    seen = set()
    for path in root.rglob("*"):
        values = _values(path) if path.is_file() else None
        if not isinstance(values, dict):
            continue
        name = path.relative_to(root).as_posix()
        seen |= {(name, str(key)) for key in values}
        if path.stem in ("config", "hugo") and isinstance(values.get("params"), dict):
            seen |= {(name, f"params.{key}") for key in values["params"]}
    return seen


def _preview(root):
    out = io.StringIO()
    call_command("import_site", str(root), stdout=out)
    return out.getvalue()


@pytest.mark.parametrize("site", SITES, ids=lambda path: path.name)
def test_every_key_of_every_corpus_site_is_accounted_for(site):
    with open_site(site) as read:
        ledger = read.ledger
        root = read.root

    assert _keys_seen(root) == ledger.accounted()
    files = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}
    assert files == {row.file for row in ledger.rows}


def _write(root, name, text):
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_what_no_reader_reads_is_listed_by_file_and_key_under_not_imported(tmp_path):
    _write(tmp_path, "_config.yml", "first_name: Ada\nlast_name: Lovelace\nmax_width: 800px\n")
    _write(
        tmp_path,
        "_news/2024-01-01-a.md",
        "---\nlayout: post\ndate: 2024-01-01\nfavourite_colour: blue\n---\nHello.\n",
    )
    _write(tmp_path, "_data/hobbies.yml", "hobbies:\n  - chess\n")
    _write(tmp_path, "notes/plan.txt", "a file of the owner's\n")

    report = _preview(tmp_path)

    not_imported = report.split("Not imported")[1]
    assert "_news/2024-01-01-a.md: favourite_colour (not read" in not_imported
    assert "_data/hobbies.yml: hobbies (not read" in not_imported
    assert "notes/: plan.txt (not read" in not_imported
    assert re.search(r"keys [^\n]*\blayout\b[^\n]*: a setting of al-folio's theme", report)
    assert re.search(r"keys [^\n]*\bmax_width\b[^\n]*: a setting of the site's build", report)


def test_a_site_whose_every_key_is_read_lists_nothing_as_not_read(tmp_path):
    _write(tmp_path, "_config.yml", "first_name: Ada\nlast_name: Lovelace\n")
    _write(tmp_path, "_news/2024-01-01-a.md", "---\ndate: 2024-01-01\n---\nHello.\n")

    with open_site(tmp_path) as site:
        rows = site.ledger.rows

    assert not [row for row in rows if row.status == NOT_READ]
    assert ("_news/2024-01-01-a.md", "date") in {(r.file, r.key) for r in rows}


def test_hugo_reads_a_pages_keys_whatever_their_case(tmp_path):
    _write(tmp_path, "config.toml", 'title = "Lab"\n')
    _write(
        tmp_path,
        "content/authors/ada/_index.md",
        "---\ntitle: Ada Lovelace\nInterests:\n  - engines\n---\n",
    )

    with open_site(tmp_path) as site:
        ada = site.people[0]
        rows = {(r.file, r.key): r.status for r in site.ledger.rows}

    assert ada.interests == ["engines"]
    assert rows[("content/authors/ada/_index.md", "Interests")] != NOT_READ
