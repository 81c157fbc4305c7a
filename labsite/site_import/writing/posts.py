"""A site's blog posts as the lab's posts, by the lab's people the site names as authors."""

from labsite.site_import.site import SitePost
from labsite.site_import.writing.part import Part
from people.models import Person
from website.models import Post, PostAuthor


class Posts(Part):
    printed: dict[str, Person] | None = None  # by printed name, once the people are all in

    def write(self, owner: Person | None) -> None:
        for post in self.site.posts:
            self._post(post, owner)

    def _post(self, source: SitePost, owner: Person | None) -> None:
        """A post of the site's blog as the lab's post, by its authors where the site names
        them (else by the owner of a one-person site); a draft comes in unpublished. Found
        again by its title and date."""
        title = source.title[:200] or source.title_zh[:200]  # a post in Chinese only
        language = "en" if source.title else "zh_hans"
        date = source.date.first_day()
        if source.date.precision != "day":
            self.report.notes.append(
                f"{source.source}: the post is dated {source.date} only; it is given {date}"
            )
        body = source.body if source.title else source.body_zh
        if source.url and source.url not in body:  # the site only links to the post
            body = "\n\n".join(filter(None, [body, f"[{title}]({source.url})"]))
        row = self.rows.row(
            Post,
            {f"title_{language}": title, "date": date},
            title,
            kind="post",
            source=source.source,
            extra=lambda: {
                "summary_en": source.summary[:300],
                "body_en": self.figures.text(body, source.source) if source.title else "",
                "title_zh_hans": source.title_zh[:200] if source.title else "",
                "summary_zh_hans": source.summary_zh[:300],
                "body_zh_hans": self.figures.text(
                    source.body_zh if source.title else body, source.source_zh or source.source
                ),
                "is_published": source.published,
                "featured_image": self.featured(source),
            },
        )
        if row is None:
            return
        self.tag(row, source.tags, source.source)
        if not row.authors.exists():
            self._authors(row, source, owner)

    def _authors(self, row: Post, source: SitePost, owner: Person | None) -> None:
        """The post's authors, in the site's order; those that are none of the site's
        people named."""
        authors, unknown = self._people(source.authors)
        if not source.authors and owner is not None:
            authors = [owner]
        for position, person in enumerate(authors, start=1):
            PostAuthor.objects.create(post=row, person=person, position=position)
        if unknown:
            self.report.notes.append(
                f"{source.source}: the post's authors {', '.join(unknown)} (not people of the "
                "site; a post's authors are the lab's people)"
            )

    def _people(self, printed: list[str]) -> tuple[list[Person], list[str]]:
        """The lab's people that `printed` names (by key, name or a name variant), each once,
        and the names that are none of the site's people."""
        if self.printed is None:  # the people are all in by now: once for every post
            self.printed = {}
            for source in self.site.people:
                if source.key in self.people:
                    for name in (source.key, source.name, *source.name_variants):
                        self.printed.setdefault(name.casefold(), self.people[source.key])
        people = self.printed
        found: list[Person] = []
        unknown: list[str] = []
        for name in printed:
            person = people.get(name.strip().casefold())
            if person is None:
                unknown.append(name)
            elif person not in found:
                found.append(person)
        return found, unknown
