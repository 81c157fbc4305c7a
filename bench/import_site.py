"""Import a whole site (the largest of the corpus, and a 200-person Hugo lab made here);
compare with reading its files (every file read and its front matter or data parsed by
PyYAML, tomllib or json, as a plain reader would).

    .venv/bin/python bench/import_site.py

Prints both times and their ratio, measured in the same run (the budget: within 10x).
The import is the preview, which runs the whole write path in a transaction and rolls it
back, so every run starts from the same empty lab.
"""

import json
import re
import tempfile
import tomllib
from pathlib import Path

import yaml
from _setup import ROOT, best_of, django_on_scratch_database

CORPUS = ROOT / "tests" / "labsite" / "data" / "corpus"
FRONT = re.compile(r"\A\ufeff?\s*(---|\+\+\+)[ \t]*\n(.*?)\n(?:---|\+\+\+)", re.S)
GROUPS = ["Principal Investigator", "Postdocs", "PhD Students", "Master Students", "Alumni"]


def read_files(root):
    for path in root.rglob("*"):
        if not path.is_file():
            continue
        text = path.read_text(errors="replace")
        if path.suffix in (".yml", ".yaml"):
            yaml.safe_load(text)
        elif path.suffix == ".toml":
            tomllib.loads(text)
        elif path.suffix == ".json":
            json.loads(text)
        elif match := FRONT.match(text):
            tomllib.loads(match[2]) if match[1] == "+++" else yaml.safe_load(match[2])


def lab_of(people, root):
    """A Hugo lab of `people` authors in five groups, with a paper by each."""
    (root / "config.toml").write_text('title = "A large lab"\n')
    for n in range(people):
        folder = root / "content" / "authors" / f"person-{n}"
        folder.mkdir(parents=True)
        (folder / "_index.md").write_text(
            f"---\ntitle: Person Number{n}\nrole: Researcher<br>Member\n"
            f"user_groups: [{GROUPS[n % len(GROUPS)]}]\nemail: p{n}@example.org\n"
            f"social:\n  - icon: github\n    link: https://github.com/p{n}\n---\n"
            f"Person {n} works on things.\n"
        )
        paper = root / "content" / "publication" / f"paper-{n}"
        paper.mkdir(parents=True)
        (paper / "index.md").write_text(
            f"---\ntitle: Paper number {n}\ndate: 2020-01-01\nauthors: [person-{n}, admin]\n"
            f"publication: Journal {n % 7}\nurl_pdf: https://example.org/{n}.pdf\n---\n"
        )


def main():
    django_on_scratch_database(debug=False)
    from django.db import connection

    from labsite.site_import import import_site, open_site

    def preview(root):
        with open_site(root) as site:
            import_site(site, apply=False)

    largest = max(
        (p for p in CORPUS.iterdir() if p.is_dir()),
        key=lambda p: sum(1 for _ in p.rglob("*")),
    )
    with tempfile.TemporaryDirectory() as folder:
        lab = Path(folder)
        lab_of(200, lab)
        for name, root in ((largest.name, largest), ("a 200-person lab", lab)):
            reading = best_of(5, lambda r=root: read_files(r))
            importing = best_of(3, lambda r=root: preview(r))
            files = sum(1 for p in root.rglob("*") if p.is_file())
            print(
                f"{name} ({files} files): reading {reading:.3f} s, import {importing:.3f} s, "
                f"{importing / reading:.1f}x"
            )
    connection.close()


if __name__ == "__main__":
    main()
