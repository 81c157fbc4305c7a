"""A member's publications as their profile lists them: each with its author list for the
member (badges, highlighting), filtered by kind and by the member's role, with the counts
the filters show, the figures computed from them, and the patents listed apart."""

from dataclasses import dataclass
from urllib.parse import urlencode

from people.models import LabSettings, Person
from publications import figures
from publications import roles as authorship_roles
from publications.authors import PROFILE, author_list, merge_legends
from publications.models import Publication


@dataclass
class ProfilePapers:
    """A member's papers as the profile shows them: filtered entries, figures, patents."""

    entries: list  # (publication, AuthorList) after the kind and role filters
    legend: list
    figures: figures.Figures
    kinds: list  # (kind value, label, count) for the kind filter
    roles: list  # (role value, label, count) for the role filter
    kind: str
    role: str
    patents: list
    person: Person

    @classmethod
    def build(cls, person, publications, params):
        lab = LabSettings.load()
        papers = [p for p in publications if p.kind != Publication.Kind.PATENT]
        entries = [(p, author_list(p, PROFILE, person=person, lab=lab)) for p in papers]
        kind = params.get("kind", "")
        role = authorship_roles.BY_SLUG.get(params.get("role", ""))
        shown = [
            (p, authors)
            for p, authors in entries
            if (not kind or p.kind == kind) and (not role or role.badge in authors.badges)
        ]
        kinds = {}
        for p in papers:
            kinds.setdefault(p.kind, [p.get_kind_display(), 0])[1] += 1
        return cls(
            entries=shown,
            legend=merge_legends(authors for _, authors in shown),
            figures=figures.compute(papers, lab.venue_order()),
            kinds=sorted(
                ((value, label, n) for value, (label, n) in kinds.items()), key=lambda k: -k[2]
            ),
            roles=[
                (r.slug, r.label, sum(r.badge in a.badges for _, a in entries))
                for r in authorship_roles.ROLES
            ],
            kind=kind,
            role=role.slug if role else "",
            patents=[p for p in publications if p.kind == Publication.Kind.PATENT],
            person=person,
        )

    def __bool__(self):
        return bool(self.figures.total)

    @property
    def query(self):
        """The filters as a query string ("kind=journal"), for exports of what is shown."""
        return urlencode([(k, v) for k, v in (("kind", self.kind), ("role", self.role)) if v])
