"""A site's own pages (Join us, Contact, Research…) as the lab's pages, placed in its menu."""

import re
from pathlib import PurePosixPath

from django.core.exceptions import ValidationError

from labsite.site_import.site import SitePage
from labsite.site_import.writing.part import Part
from labsite.site_import.writing.report import NEW, UNCHANGED
from website.models import MenuItem, Page


class Pages(Part):
    def write(self) -> None:
        """The site's own pages (Join us, Contact, Research…) as the lab's pages: published
        when the site showed them, in the menu when it placed them there (`nav_order`,
        `weight`), after the built-in sections; a page that cannot stand at its address (a
        section of labsite's own is there) is skipped and named. The teaching page gives way
        to the Teaching section when the site's courses came in; else its text is the
        teaching, kept at /courses/ (/teaching/ is the section's)."""
        for source in self.site.pages:
            address = source.address
            if _is_teaching_page(source):
                if self.site.courses:
                    self._teaching_page(source)
                    continue
                address = "courses"
            self._page(source, address)

    def _page(self, source: SitePage, address: str) -> None:
        title = source.title[:200]
        if Page.objects.filter(title_en=title).exists():
            self.report.count("page", UNCHANGED, title)
            return
        body = self.figures.text(source.body, source.source)
        page = Page(title_en=title, body_en=body, is_published=source.in_menu)
        # the address the site gave it, where it is one level deep ("/contact_us/")
        parts = [part for part in address.split("/") if part]
        if len(parts) == 1 and re.fullmatch(r"[-\w]{1,80}", parts[0], re.ASCII):
            page.slug = parts[0]
        try:
            page.full_clean(validate_unique=False)
        except ValidationError as error:
            self.report.skipped.append(
                f"{source.source}: the page “{title}” cannot be kept: {' '.join(error.messages)}"
            )
            return
        page.save()
        self.report.count("page", NEW, title)
        if source.in_menu and source.order is not None:
            position = 60 + min(max(source.order, 0), 900)
            MenuItem.objects.create(page=page, position=position)

    def _teaching_page(self, source: SitePage) -> None:
        """The site's teaching page, which lists its courses: the lab's Teaching section
        lists them now, placed in the menu where the site placed the page; the page's own
        words are named, not kept."""
        if source.in_menu and not MenuItem.objects.filter(section="teaching").exists():
            position = 60 + min(max(source.order or 0, 0), 900)
            MenuItem.objects.create(section=MenuItem.Section.TEACHING, position=position)
            self.report.count("menu", NEW, "Teaching")
        self.report.notes.append(
            f"{source.source}: the page “{source.title[:100]}” is the lab's Teaching section "
            "(/teaching/ lists the courses); its own text is not kept"
        )


def _is_teaching_page(page: SitePage) -> bool:
    """Whether the site's page is where it lists its courses (al-folio's teaching.md)."""
    address = "/".join(part for part in page.address.split("/") if part)
    return (address or PurePosixPath(page.source).stem) in ("teaching", "courses")
