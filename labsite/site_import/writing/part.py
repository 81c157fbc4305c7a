"""What each part of an import's writing (the people, the talks, the pages...) shares with the
others, and the tags and featured images that several kinds of item have."""

from django.utils.text import slugify

from labsite.site_import.figures import Figures
from labsite.site_import.site import Site, SiteCourse, SitePost, SiteTalk
from labsite.site_import.writing.report import Report
from labsite.site_import.writing.rows import Rows
from media.models import MediaItem
from people.models import Person
from tags.models import Tag
from talks.models import Talk
from website.models import Course, Post


class Part:
    """One part of writing `site`: its report, its images, its rows and the lab's people
    that the site's people became (by the site's key), all shared by every part."""

    def __init__(
        self, site: Site, report: Report, figures: Figures, rows: Rows, people: dict[str, Person]
    ) -> None:
        self.site, self.report, self.figures, self.rows = site, report, figures, rows
        self.people = people  # a site person's key → the lab's person

    def featured(self, source: SitePost | SiteTalk | SiteCourse) -> MediaItem | None:
        """The media item for the featured image of the site's item `source` (a post, a
        talk, a course), brought in; None when it has none, or it cannot come in (named)."""
        if not source.image:
            return None
        return self.figures.featured(source.image, source.source)

    def tag(self, row: Course | Post | Talk, words: list[str], source: str) -> None:
        """The row's tags from the site's words, where it has none yet: the lab's one
        vocabulary, a word matched to a tag by its address ("Deep learning" is the tag
        deep-learning)."""
        words = self.words(words, source)
        if words and not row.tags.exists():
            row.tags.add(*Tag.objects.named(words).values())

    def words(self, words: list[str], source: str) -> list[str]:
        """The site's tag words that can be tags: one that gives no address in Latin letters
        (written in Chinese only) is named (a tag has an English name and such an address,
        and the Chinese name joins one in the admin)."""
        kept = []
        for word in words:
            if slugify(word):
                kept.append(word)
            else:
                self.report.notes.append(
                    f"{source}: the tag “{word[:100]}” (a tag has an English name whose "
                    "address is in Latin letters; give one in the admin, with this as its "
                    "Chinese name)"
                )
        return kept
