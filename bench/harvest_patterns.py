"""Issue 53's patterns counted on the recorded answers (tests/harvest/data): each recorded
set harvested for its member, every candidate accepted, then the lab's papers counted.

    .venv/bin/python bench/harvest_patterns.py

Sets: the nine recorded ORCID works lists (real), arXiv's 117 recorded entries (real) for
Adrian Del Maestro, the suffix member (OpenAlex and Crossref, written in the tests), and
the undated twin (a real ORCID list and a DBLP-style entry). Crossref answers by DOI from
the recordings that hold the DOI (habanero's 205 works, the two documented ones); any other
DOI is a 404. Counts, per set:
- without member: papers of a work found for the member that do not link them;
- placeholders: papers with an unlisted-authors row and a DOI (of them, DOIs Crossref's
  recordings answer, so the list was there to take);
- preprints not joined: arXiv entries naming a journal DOI with no paper holding both;
- kinds against the DOI: papers whose kind is not the type Crossref registers the DOI with;
- duplicates: papers beyond the first of one title (both preprints or neither);
- left out: works not made candidates, by kind.
"""

import json
import sys
from collections import Counter

from _setup import ROOT, django_on_scratch_database

DATA = ROOT / "tests" / "harvest" / "data"
REAL = DATA / "real"


def main():
    django_on_scratch_database(debug=False)
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from harvest import review
    from harvest.matching import fold
    from harvest.models import Candidate
    from harvest.sources import Found, arxiv, openalex, orcid
    from people.models import Person
    from publications.importing.crossref import CROSSREF_KINDS, crossref_record
    from publications.importing.records import ImportProblem, clean_doi
    from publications.models import Publication, title_key

    try:
        from harvest.completion import Completion, complete
    except ImportError:  # before issue 53: no completion
        complete = None
    try:
        from publications.importing.http import NotFound
    except ImportError:
        NotFound = ImportProblem

    crossref_items = {}
    for item in json.loads((REAL / "crossref-habanero-works.json").read_text())["message"]["items"]:
        crossref_items[clean_doi(item["DOI"])] = item
    for name in ("crossref-physrevb-85-115117.json",):
        for item in json.loads((DATA / name).read_text())["message"]["items"]:
            crossref_items[clean_doi(item["DOI"])] = item
    popl = json.loads((DATA / "crossref-popl-2677006.json").read_text())["message"]
    crossref_items[clean_doi(popl["DOI"])] = popl

    class Client:
        """Crossref by DOI from the recordings; anything else a 404."""

        def __init__(self):
            self.asked = 0

        def get_json(self, url, headers=None):
            self.asked += 1
            doi = clean_doi(url.split("/works/", 1)[-1].split("?", 1)[0])
            if doi in crossref_items:
                return {"status": "ok", "message": crossref_items[doi]}
            raise NotFound("404")

    class Recorded:
        def __init__(self, answer):
            self.answer = answer

        def get_json(self, url, headers=None):
            return self.answer

        def get_text(self, url, headers=None):
            return self.answer

    admin = get_user_model().objects.create_superuser("bench", "b@example.org", "x")
    names = {
        "0000-0001-6723-6833": "Philipp Boersch-Supan",
        "0000-0001-9232-4042": "Stergios A. Polyzos",
        "0000-0002-1900-3901": "Clément Pit-Claudel",
        "0000-0003-1444-9135": "Scott A. Chamberlain",
    }

    def orcid_set(path):
        orcid_id = path.name.split("-", 2)[2][:19]
        person = Person.objects.create(
            name=names.get(orcid_id, f"Member {orcid_id}"), slug=orcid_id, orcid=orcid_id
        )
        found = orcid.works(person, Recorded(json.loads(path.read_text())), lambda _: None)
        return person, found

    def arxiv_set():
        person = Person.objects.create(
            name="Adrian Del Maestro", slug="del-maestro", arxiv_author_id="del_maestro_a_1"
        )
        text = (REAL / "arxiv-arxivpy-entries.atom").read_text()
        found = arxiv.works(person, Recorded(text), lambda _: None)
        # his author feed: the entries he signs (the recording is a search's answer)
        return person, [
            f for f in found if any(a.family == "Del Maestro" for a in f.record.authors)
        ]

    def suffix_set():
        sys.path.insert(0, str(ROOT))
        from tests.harvest import test_identities_across_sources as example

        person = Person.objects.create(
            name="Josiah Carberry Jr.", slug="carberry", orcid=example.CARBERRY
        )
        work = openalex.read_work(example._openalex_work(), lambda _: None)
        record = crossref_record(example._crossref_work(), "Crossref work 1")
        return person, [work, Found("crossref", record.doi, record, {"doi": record.doi})]

    def twin_set():
        from tests.harvest import test_twins_and_title_matches as example

        person, found = orcid_set(REAL / "orcid-dissemin-0000-0001-9232-4042-works.json")
        return person, [*found, example._dblp_entry()]

    sets = [
        (f"ORCID {p.name.split('-', 2)[2][:19]}", lambda p=p: orcid_set(p))
        for p in sorted(REAL.glob("orcid-*-works.json"))
    ]
    sets += [
        ("arXiv, Del Maestro's entries", arxiv_set),
        ("suffix member", suffix_set),
        ("undated twin", twin_set),
    ]
    rows = []
    for label, build in sets:
        with transaction.atomic():
            before = set(Candidate.objects.values_list("pk", flat=True))
            person, found = build()
            left = Counter(f.skipped for f in found if f.skipped)
            pairs = [(person, f) for f in found if not f.skipped]
            client = Client()
            if complete is not None:
                pairs += complete(pairs, client, Completion())
            fold(pairs)
            new = Candidate.objects.exclude(pk__in=before).order_by("pk")
            refused = 0
            for candidate in new:
                try:
                    try:
                        review.accept(candidate, admin, without_members=True)
                    except TypeError:
                        review.accept(candidate, admin)
                except review.ReviewProblem:
                    refused += 1
            papers = Publication.objects.filter(harvest_candidates__in=new).distinct()
            papers = list(papers.prefetch_related("authorships"))
            without = sum(
                1 for p in papers if not any(a.person_id == person.pk for a in p.authorships.all())
            )
            placeholders = [
                p for p in papers if p.doi and any(a.is_unlisted for a in p.authorships.all())
            ]
            answered = sum(1 for p in placeholders if p.doi in crossref_items)
            named = [(f.ids.get("arxiv"), f.published_doi) for f in found if f.published_doi]
            not_joined = sum(
                1
                for arxiv_id, doi in named
                if not Publication.objects.filter(doi=doi, arxiv_id=arxiv_id).exists()
            )
            against = sum(
                1
                for p in papers
                if p.doi in crossref_items
                and CROSSREF_KINDS.get(crossref_items[p.doi].get("type"), "other") != p.kind
            )
            titles = Counter((title_key(p.title), p.status == "preprint") for p in papers)
            duplicates = sum(n - 1 for n in titles.values())
            kinds = Counter(p.kind for p in papers)
            rows.append(
                (
                    label,
                    len(found),
                    new.count(),
                    len(papers),
                    without,
                    len(placeholders),
                    answered,
                    f"{not_joined}/{len(named)}",
                    against,
                    duplicates,
                    dict(left),
                    client.asked,
                    refused,
                    kinds.get("other", 0),
                )
            )
            transaction.set_rollback(True)  # each set on a lab of its own
    head = (
        "set",
        "works",
        "candidates",
        "papers",
        "without member",
        "placeholders",
        "(DOI answered)",
        "preprints not joined",
        "kinds against DOI",
        "duplicates",
        "left out",
        "Crossref asked",
        "refused",
        "kind other",
    )
    print("\t".join(head))
    for row in rows:
        print("\t".join(str(v) for v in row))


if __name__ == "__main__":
    main()
