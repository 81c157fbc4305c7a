"""A member's publications as their profile lists them: each with its author list for the
member (badges, highlighting), filtered by kind and by the member's role, with the counts
the filters show, the figures computed from them, and the patents listed apart."""

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from urllib.parse import urlencode

from django.utils.translation import gettext

from lab.models import LabSettings
from people.models import Person
from publications import figures
from publications import roles as authorship_roles
from publications.authors import PROFILE, merge_legends
from publications.listing import entries as listed_entries
from publications.models import CitationReading, Publication


@dataclass
class ProfilePapers:
    """A member's papers as the profile shows them: filtered entries, figures, patents."""

    @staticmethod
    def canonical_query(params):
        """The query of the filters `params` give valid values (a kind of paper, a role)."""
        kind = params.get("kind", "")
        role = params.get("role", "")
        return urlencode(
            [("kind", kind)] * (kind in Publication.Kind.values)
            + [("role", role)] * (role in authorship_roles.BY_SLUG)
        )

    entries: list  # publications.listing.Entry, after the kind and role filters
    legend: list
    figures: figures.Figures
    kinds: list  # (kind value, label, count) for the kind filter
    roles: list  # (role value, label, count) for the role filter
    kind: str
    role: str
    patents: list
    person: Person
    counted: list  # the pks of the papers with a citation count

    @classmethod
    def build(cls, person, publications, params):
        """`publications`: the person's papers, as `listing.papers` gives them."""
        lab = LabSettings.load()
        papers = [p for p in publications if p.kind != Publication.Kind.PATENT]
        entries = listed_entries(papers, PROFILE, person, lab)
        kind = params.get("kind", "")
        role = authorship_roles.BY_SLUG.get(params.get("role", ""))
        shown = [
            entry
            for entry in entries
            if (not kind or entry.publication.kind == kind)
            and (not role or role.slug in entry.roles)
        ]
        counts = Counter(p.kind for p in papers)
        labels = dict(Publication.Kind.choices)
        kinds = {kind: (labels[kind], n) for kind, n in counts.items()}
        return cls(
            entries=shown,
            legend=merge_legends(shown),
            figures=figures.compute(papers, lab.venue_order()),
            kinds=sorted(
                ((value, label, n) for value, (label, n) in kinds.items()), key=lambda k: -k[2]
            ),
            roles=[
                (r.slug, r.label, sum(r.slug in entry.roles for entry in entries))
                for r in authorship_roles.ROLES
            ],
            kind=kind,
            role=role.slug if role else "",
            patents=[p for p in publications if p.kind == Publication.Kind.PATENT],
            person=person,
            counted=[p.pk for p in papers if p.citation_count is not None],
        )

    @cached_property
    def citation_history(self):
        """(year, total citations as read by then) from every reading of the counted papers'
        counts (one query, made when the profile shows its citation chart)."""
        readings = CitationReading.objects.filter(publication__in=self.counted)
        return figures.citations_by_year(readings.values_list("publication_id", "read_on", "count"))

    def citation_chart(self):
        return figures.per_year_chart(
            self.citation_history,
            name="citations-chart",
            title=gettext("Citations as read by the end of each year: %(years)s"),
        )

    def __bool__(self):
        return bool(self.figures.total)

    @property
    def query(self):
        """The filters as a query string ("kind=journal"), for exports of what is shown."""
        return urlencode([(k, v) for k, v in (("kind", self.kind), ("role", self.role)) if v])
