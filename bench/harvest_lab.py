"""Harvest a 50-member lab from recorded answers; compare with reading the same answers alone.

    .venv/bin/python bench/harvest_lab.py [--members 50]

Each member gets their own copy of the recorded set in tests/harvest/data (five services,
five works, one of them already in the lab; Europe PMC and DataCite answer empty), with its
identifiers renumbered. By default
OpenAlex and Crossref's search by ORCID find none of their works, so those ORCID lists
without their authors are completed from Crossref by DOI (one request each, counted;
HARVEST_MAX_COMPLETIONS bounds them), and reading alone includes parsing those answers;
--no-completion has every source answer as recorded. Answers come
from an in-process stand-in (no HTTP: the network is not what is measured). Prints the
harvest's time (read, match, write candidates, in one run), the readers' time alone on the
same answers, their ratio, and queries per candidate.
"""

import argparse
import json
import urllib.parse

from _setup import ROOT, best_of, django_on_scratch_database

DATA = ROOT / "tests" / "harvest" / "data"
FILES = {
    "orcid": "orcid-works.json",
    "openalex1": "openalex-works-1.json",
    "openalex2": "openalex-works-2.json",
    "crossref": "crossref-works.json",
    "crossref-end": "crossref-works-end.json",
    "dblp": "dblp-person.xml",
    "arxiv": "arxiv-author.atom2",
}
# Europe PMC and DataCite (asked by ORCID) know none of the members' works: their real
# recorded empty answers (tests/harvest/data/SOURCES.md)
EMPTY = {
    "europepmc": (DATA / "real" / "europepmc-pyeuropepmc-search-end.json").read_text(),
    "datacite": (DATA / "real" / "datacite-rdatacite-dois-page-emptied.json").read_text(),
}
# the recorded set's identifiers and titles, each made the member's own
TOKENS = [
    "10.7717/peerj.4375", "10.7287/peerj.preprints.3119v1", "10.1371/journal.pone.0000308",
    "10.7717/peerj.175", "W2741809807", "W2743361220", "W2100915137", "W2105441357",
    "W1561437920", "PiwowarV13", "PiwowarDF07",
]  # fmt: skip
TITLES = ["The state of OA", "The State of OA", "Sharing Detailed", "Data reuse", "Altmetrics"]


def orcid_of(n):
    from core.identifiers import orcid_checksum

    base = f"0000000{n:08d}"
    digits = base + orcid_checksum(base)
    return "-".join(digits[i : i + 4] for i in range(0, 16, 4))


def member_set(n):
    """The recorded answers, renumbered for member `n`."""
    out = {}
    for key, name in FILES.items():
        text = (DATA / name).read_text()
        for token in TOKENS:
            text = text.replace(token, f"{token}{n}")
        for title in TITLES:
            text = text.replace(title, f"{title} ({n})")
        text = text.replace("1203.4745", f"1203.{n:04d}").replace(
            "abs-1203-4745", f"abs-1203-{n:04d}"
        )
        text = text.replace("0000-0003-1613-5981", orcid_of(n))
        out[key] = text
    return out


class Recorded:
    """Answers by URL, decoded on every call as a real client decodes them."""

    def __init__(self, members, complete_by_doi):
        self.by_key = {}
        for n, answers in members.items():
            orcid = orcid_of(n)
            self.by_key[("orcid", orcid)] = answers["orcid"]
            if complete_by_doi:  # OpenAlex knows none of their works either
                empty = json.dumps({"meta": {"next_cursor": None}, "results": []})
                self.by_key[("openalex", f"A{1000 + n}", "*")] = empty
            else:
                self.by_key[("openalex", f"A{1000 + n}", "*")] = answers["openalex1"]
                self.by_key[("openalex", f"A{1000 + n}", "next")] = answers["openalex2"]
            # Crossref's search by ORCID finds nothing: ORCID's works are completed by DOI
            listed = "crossref-end" if complete_by_doi else "crossref"
            self.by_key[("crossref", orcid, "*")] = answers[listed]
            self.by_key[("crossref", orcid, "next")] = answers["crossref-end"]
            for item in json.loads(answers["crossref"])["message"]["items"]:
                doi = item["DOI"].lower()
                self.by_key[("crossref-doi", doi)] = json.dumps({"message": item})
            self.by_key[("dblp", f"p/Member{n}")] = answers["dblp"]
            self.by_key[("arxiv", f"member{n}_h_1")] = answers["arxiv"]

    def _key(self, url):
        parts = urllib.parse.urlsplit(url)
        query = dict(urllib.parse.parse_qsl(parts.query))
        cursor = "*" if query.get("cursor") == "*" else "next"
        if "orcid.org" in parts.netloc:
            return ("orcid", parts.path.split("/")[2])
        if "openalex" in parts.netloc:
            if parts.path.startswith("/authors/"):
                return ("author", parts.path.rsplit("/", 1)[1])
            return ("openalex", query["filter"].split(":")[1], cursor)
        if "crossref" in parts.netloc and "/works/" in parts.path:
            doi = urllib.parse.unquote(parts.path.split("/works/", 1)[1]).lower()
            return ("crossref-doi", doi)
        if "crossref" in parts.netloc:
            return ("crossref", query["filter"].split(":")[1], cursor)
        if "europepmc" in parts.path or "datacite" in parts.netloc:
            return ("empty", "europepmc" if "europepmc" in parts.path else "datacite")
        if "dblp" in parts.netloc:
            return ("dblp", parts.path.removeprefix("/pid/").removesuffix(".xml"))
        return ("arxiv", parts.path.removeprefix("/a/").removesuffix(".atom2"))

    def get_text(self, url, headers=None):
        key = self._key(url)
        if key[0] == "author":
            return json.dumps({"id": f"https://openalex.org/{key[1]}"})
        if key[0] == "empty":
            return EMPTY[key[1]]
        return self.by_key[key]

    def get_json(self, url, headers=None):
        return json.loads(self.get_text(url))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--members", type=int, default=50)
    parser.add_argument(
        "--no-completion",
        action="store_true",
        help="Every source answers as recorded (nothing left to complete by DOI).",
    )
    arguments = parser.parse_args()
    members = arguments.members
    django_on_scratch_database(debug=False)
    from django.conf import settings
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from harvest.models import Candidate, HarvestRun
    from harvest.runs import execute
    from harvest.sources import harvesters
    from lab.models import LabSettings
    from people.models import Person
    from publications.importing.crossref import crossref_record
    from publications.models import Authorship, Publication

    settings.CONTACT_EMAIL = "bench@lab.example"
    # the settings row made for good: made inside a run rolled back, its cached copy would
    # outlive it and the next run would not find it
    LabSettings.load()
    answers = {n: member_set(n) for n in range(1, members + 1)}
    client = Recorded(answers, complete_by_doi=not arguments.no_completion)
    people = []
    for n in range(1, members + 1):
        person = Person.objects.create(
            name=f"Heather Member{n}",
            slug=f"member-{n}",
            orcid=orcid_of(n),
            openalex_id=f"A{1000 + n}",
            dblp_pid=f"p/Member{n}",
            arxiv_author_id=f"member{n}_h_1",
        )
        people.append(person)
        paper = Publication.objects.create(
            title=f"Sharing Detailed ({n}) Research Data Is Associated with Increased "
            "Citation Rate",
            slug=f"sharing-{n}",
            doi=f"10.1371/journal.pone.0000308{n}",
            date="2007-03",
            kind=Publication.Kind.JOURNAL,
        )
        Authorship.objects.create(
            publication=paper,
            position=1,
            given_name="Heather",
            family_name=f"Member{n}",
            person=person,
        )

    by_doi = [json.loads(text) for key, text in client.by_key.items() if key[0] == "crossref-doi"]

    def read_only():
        for person in people:
            for module in harvesters().values():
                if module.applies(person):
                    module.works(person, client, lambda text: None)
        for answer in by_doi:  # the answers completion reads
            crossref_record(json.loads(json.dumps(answer))["message"], "DOI")

    def harvest():
        with transaction.atomic():
            run = execute(
                HarvestRun.objects.create(trigger="bench", sources=list(harvesters())), client
            )
            assert run.status == "done", run.message
            transaction.set_rollback(True)
        return run

    read_time = best_of(5, read_only)
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        run = execute(
            HarvestRun.objects.create(trigger="bench", sources=list(harvesters())), client
        )
        created = Candidate.objects.count()
        transaction.set_rollback(True)
    harvest_time = best_of(3, harvest)
    fetched = sum(row["fetched"] for name, row in run.report.items() if name in harvesters())
    sources = len(harvesters())
    print(f"{members} members: {fetched} works fetched from {sources} sources, {created} new")
    print(f"reading the answers alone:         {read_time:7.3f} s")
    print(f"harvest (read + match + write):    {harvest_time:7.3f} s")
    print(f"ratio harvest / reading alone:     {harvest_time / read_time:7.2f}")
    print(f"queries: {len(queries)} in all, {len(queries) / created:.2f} per candidate")
    completion = run.report["completion"]
    print(
        f"completion by DOI: {completion['asked']} asked (bound "
        f"{settings.HARVEST_MAX_COMPLETIONS}), {completion['completed']} completed, "
        f"{completion['left for the next run']} left"
    )


if __name__ == "__main__":
    main()
