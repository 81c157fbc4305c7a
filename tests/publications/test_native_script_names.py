"""A name in Chinese, Japanese or Korean script is written family name first and whole
("马腾", never "腾 马") wherever a machine reads it: the paper's schema.org data and its
BibTeX, which biblatex (through biber) reads as one name printed as it stands. The biber
check is skipped without TeX unless REQUIRE_TEX is set, as CI does."""

import json
import os
import re
import shutil
import subprocess

import bibtexparser
import pytest
from bibtexparser.middlewares import SeparateCoAuthors, SplitNameParts

from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def paper():
    paper = factories.PublicationFactory(title="基于RDMA的分布式内存", slug="rdma-memory")
    factories.AuthorshipFactory(
        publication=paper, position=1, given_name="腾", family_name="马", person=None
    )
    factories.AuthorshipFactory(
        publication=paper, position=2, given_name="Feng", family_name="Ren", person=None
    )
    return paper


def test_the_papers_json_ld_names_a_chinese_author_family_name_first(client, paper):
    html = client.get("/publications/rdma-memory/").content.decode()

    data = json.loads(
        re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)[1]
    )
    assert [a["name"] for a in data["author"]] == ["马腾", "Feng Ren"]


def _bibtex(client):
    return client.get("/publications/rdma-memory/export.bib").content.decode()


def test_the_papers_bibtex_writes_a_chinese_name_whole(client, paper):
    library = bibtexparser.parse_string(
        _bibtex(client), append_middleware=[SeparateCoAuthors(), SplitNameParts()]
    )

    (first, second) = library.entries[0]["author"]
    assert (first.first, first.last) == ([], ["{马腾}"])
    assert (second.first, second.last) == (["Feng"], ["Ren"])


def test_biber_reads_a_chinese_name_as_one_name_written_family_first(client, paper, tmp_path):
    if not shutil.which("biber"):
        if os.environ.get("REQUIRE_TEX"):
            pytest.fail("REQUIRE_TEX is set but biber is not installed")
        pytest.skip("biber is not installed (CI installs it)")
    (tmp_path / "lab.bib").write_text(_bibtex(client), encoding="utf-8")

    done = subprocess.run(
        ["biber", "--tool", "--output-xname", "--output-file=read.bib", "lab.bib"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert done.returncode == 0, done.stdout + done.stderr
    read = (tmp_path / "read.bib").read_text(encoding="utf-8")
    author = re.search(r"AUTHOR\s*=\s*\{(.*)\},?\n", read, re.I)[1]
    assert "马腾" in author and "given=腾" not in author.replace(" ", ""), author
