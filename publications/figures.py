"""Figures computed from a person's publications: counts, venue summary, citations, h-index,
and the publications-per-year chart. Computed from data already loaded; no queries."""

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, ngettext_lazy

from publications.models import Publication

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

# Kinds that are not a paper in the venue's proceedings or journal, so a venue summary
# ("SOSP (2)") leaves them out: an OSDI poster is not an OSDI paper.
NOT_VENUE_PAPERS = {
    Publication.Kind.POSTER,
    Publication.Kind.DEMO,
    Publication.Kind.PREPRINT,
    Publication.Kind.PATENT,
    Publication.Kind.THESIS,
}


def h_index(citation_counts: Iterable[int | None]) -> int:
    """The largest h such that h papers have at least h citations each."""
    ranked = sorted((c for c in citation_counts if c), reverse=True)
    return sum(1 for rank, count in enumerate(ranked, start=1) if count >= rank)


_Kind = Publication.Kind
# How many of each kind, as the summary above a member's list says it.
COUNTED: dict[str, "_StrPromise"] = {
    _Kind.CONFERENCE: ngettext_lazy(
        "%(count)d conference paper", "%(count)d conference papers", "count"
    ),
    _Kind.JOURNAL: ngettext_lazy(
        "%(count)d journal article", "%(count)d journal articles", "count"
    ),
    _Kind.WORKSHOP: ngettext_lazy("%(count)d workshop paper", "%(count)d workshop papers", "count"),
    _Kind.PREPRINT: ngettext_lazy("%(count)d preprint", "%(count)d preprints", "count"),
    _Kind.POSTER: ngettext_lazy("%(count)d poster", "%(count)d posters", "count"),
    _Kind.DEMO: ngettext_lazy("%(count)d demo", "%(count)d demos", "count"),
    _Kind.THESIS: ngettext_lazy("%(count)d thesis", "%(count)d theses", "count"),
    _Kind.CHAPTER: ngettext_lazy("%(count)d book chapter", "%(count)d book chapters", "count"),
    _Kind.BOOK: ngettext_lazy("%(count)d book", "%(count)d books", "count"),
    _Kind.REPORT: ngettext_lazy(
        "%(count)d technical report", "%(count)d technical reports", "count"
    ),
    _Kind.PATENT: ngettext_lazy("%(count)d patent", "%(count)d patents", "count"),
    _Kind.OTHER: ngettext_lazy("%(count)d other work", "%(count)d other works", "count"),
}


@dataclass
class Figures:
    total: int
    by_kind: list  # (kind, count), largest first
    venue_summary: list  # (venue short name, count) in the lab's order
    citations: int
    with_citations: int
    h_index: int
    per_year: list  # (year, count) for every year from the first to the last
    # Where and when the counts were read: the source most of them come from ("OpenAlex"),
    # and the latest reading among them; "" and None when no count says.
    citations_source: str = ""
    citations_read_on: Any = None

    @property
    def citations_cover_most(self) -> bool:
        """Whether the computed citation total and h-index mean something: most papers
        have a recorded count. With 1 of 40 they would contradict a Scholar figure beside
        them, so the profile leaves them out."""
        return self.with_citations > 0 and 2 * self.with_citations >= self.total

    def kind_counts(self) -> list[str]:
        """ "12 conference papers", "3 journal articles" ("会议论文 12 篇"), largest first."""
        return [COUNTED[kind] % {"count": count} for kind, count in self.by_kind]

    def venue_summary_text(self) -> str:
        return ", ".join(f"{v} ({n})" if n > 1 else v for v, n in self.venue_summary)

    def chart_svg(self) -> str:
        return per_year_chart(self.per_year)


def compute(publications: Iterable[Any], venue_order: Sequence[str] = ()) -> Figures:
    """Figures of `publications` (with their venues selected)."""
    publications = list(publications)
    kinds = Counter(p.kind for p in publications)
    venue_counts = Counter(
        p.venue.short_name
        for p in publications
        if p.venue and p.venue.short_name and p.kind not in NOT_VENUE_PAPERS
    )
    years = Counter(p.year for p in publications if p.year)
    per_year = []
    if years:
        per_year = [(y, years.get(y, 0)) for y in range(min(years), max(years) + 1)]
    counted = [p for p in publications if p.citation_count is not None]
    counts = [p.citation_count for p in counted]
    sources = Counter(p.citations_source for p in counted if p.citations_source)
    read = [p.citations_read_on for p in counted if p.citations_read_on]
    return Figures(
        total=len(publications),
        by_kind=sorted(kinds.items(), key=lambda item: (-item[1], item[0])),
        venue_summary=[(v, venue_counts[v]) for v in venue_order if venue_counts.get(v)],
        citations=sum(counts),
        with_citations=len(counts),
        h_index=h_index(counts),
        per_year=per_year,
        citations_source=sources.most_common(1)[0][0] if sources else "",
        citations_read_on=max(read, default=None),
    )


def citations_by_year(readings: Iterable[tuple[int, Any, int]]) -> list[tuple[int, int]]:
    """From the readings (paper, date read, count) of papers' citation counts: for every year
    from the first reading's to the last's, the papers' total as last read by that year's
    end (a paper not yet read counts nothing; one not read again keeps its last count)."""
    latest: dict[int, int] = {}
    totals: dict[int, int] = {}
    for paper, read_on, count in sorted(readings, key=lambda r: r[1]):
        latest[paper] = count
        totals[read_on.year] = sum(latest.values())
    if not totals:
        return []
    first, last = min(totals), max(totals)
    out, carried = [], 0
    for year in range(first, last + 1):
        carried = totals.get(year, carried)
        out.append((year, carried))
    return out


def per_year_chart(
    per_year: list[tuple[int, int]],
    *,
    bar: int = 14,
    gap: int = 6,
    height: int = 64,
    name: str = "chart",
    title: str = "",
) -> str:
    """A bar chart of a figure per year (publications by default) as inline SVG: no script,
    readable by screen readers through its title, and labelled every few years. `name` keeps
    two charts' title ids apart; `title` is a "%(years)s" sentence."""
    if not per_year:
        return ""
    peak = max(n for _, n in per_year) or 1
    width = len(per_year) * (bar + gap)
    label_every = 1 if len(per_year) <= 8 else 2 if len(per_year) <= 16 else 5
    bars = format_html_join(
        "",
        '<rect x="{}" y="{}" width="{}" height="{}" rx="2"><title>{}: {}</title></rect>',
        (
            (i * (bar + gap), height - round(n / peak * (height - 4)), bar,
             round(n / peak * (height - 4)), year, n)
            for i, (year, n) in enumerate(per_year)
        ),
    )  # fmt: skip
    labels = format_html_join(
        "",
        '<text x="{}" y="{}" text-anchor="middle">{}</text>',
        (
            (i * (bar + gap) + bar // 2, height + 14, f"’{year % 100:02d}")
            for i, (year, _) in enumerate(per_year)
            if i % label_every == 0 or i == len(per_year) - 1
        ),
    )
    summary = ", ".join(f"{y}: {n}" for y, n in per_year if n)
    return format_html(
        '<svg class="chart" viewBox="0 0 {} {}" width="{}" height="{}" role="img" '
        'aria-labelledby="{}-title"><title id="{}-title">{}</title>{}{}</svg>',
        width,
        height + 18,
        width,
        height + 18,
        name,
        name,
        (title or gettext("Publications per year: %(years)s")) % {"years": summary},
        bars,
        labels,
    )
