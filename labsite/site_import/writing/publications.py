"""A site's publications, planned and applied as the BibTeX importer does, with their images."""

from labsite.site_import.writing.part import Part
from labsite.site_import.writing.report import NEW, UNCHANGED, UPDATED
from publications import importing
from publications.importing.planning import Plan


class Publications(Part):
    def write(self) -> None:
        if not self.site.records:
            return
        self._shared_identifiers()
        for record in self.site.records:
            record.abstract = self.figures.text(record.abstract, _file_of(record))
        plans = importing.plan(self.site.records)
        self._count(plans)
        importing.apply(plans, skip_invalid=True, user=self.rows.user)
        for plan in plans:
            image, page = self.site.paper_images.get(id(plan.record), ("", ""))
            if image and plan.action in (importing.NEW, importing.UPDATE):
                paper = plan.written()
                item = self.figures.featured(image, page)
                if item is not None and paper.featured_image_id is None:
                    paper.featured_image = item
                    paper.save(update_fields=["featured_image"])

    def _count(self, plans: list[Plan]) -> None:
        """Each plan in the report, what it cannot write skipped, and what its record left
        out named: one line per reason, not per entry."""
        dropped: dict[str, list[str]] = {}
        for plan in plans:
            label = plan.record.title[:80] or plan.record.label
            if plan.action == importing.ERROR:
                self.report.skipped += [f"{plan.record.label}: {p}" for p in plan.problems]
            else:
                action = {importing.NEW: NEW, importing.UPDATE: UPDATED}.get(plan.action, UNCHANGED)
                self.report.count("publication", action, label)
            for reason in plan.record.dropped:
                dropped.setdefault(reason, []).append(plan.record.citation_key or label)
        for reason, keys in dropped.items():
            where = ", ".join(keys[:5]) + (f" and {len(keys) - 5} more" if len(keys) > 5 else "")
            self.report.notes.append(f"publications: {reason} ({where})")

    def _shared_identifiers(self) -> None:
        """A DOI or arXiv id the site gives two different papers (a template's placeholder
        copied into each page) stays with the first; the later paper is imported without it,
        and the preview says so."""
        seen: dict[tuple[str, str], str] = {}
        for record in self.site.records:
            for name in ("doi", "arxiv_id"):
                value = getattr(record, name).strip().lower()
                first = seen.setdefault((name, value), record.title) if value else None
                if first is not None and first.casefold() != record.title.casefold():
                    setattr(record, name, "")
                    self.report.notes.append(
                        f"{record.label}: its {name.replace('_', ' ')} {value} is also given to "
                        f"“{first}”, which keeps it"
                    )


def _file_of(record: importing.Record) -> str:
    """The file a record was read from, as its label begins ("_bibliography/papers.bib
    (line 4)", "content/publication/x/index.md")."""
    return record.label.partition(",")[0].split(" (")[0]
