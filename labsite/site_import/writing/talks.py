"""A site's talks as the lab's, given by the lab's people the site names as their speakers."""

from labsite.site_import.site import SiteTalk
from labsite.site_import.writing.part import Part
from people.models import Person
from talks.models import Speaker, Talk


class Talks(Part):
    speakers: dict[str, Person] | None = None  # by name, once the people are all in

    def write(self) -> None:
        for talk in self.site.talks:
            self._talk(talk)

    def _talk(self, talk: SiteTalk) -> None:
        row = self.rows.row(
            Talk,
            {"title_en": talk.title[:300], "date": talk.date},
            talk.title,
            kind="talk",
            source=talk.source,
            extra=lambda: {
                "event": talk.event[:200],
                "event_url": talk.event_url,
                "city": talk.city[:100],
                "country": talk.country[:100],
                "slides_url": talk.slides_url,
                "video_url": talk.video_url,
                "description": self.figures.text(talk.description, talk.source),
                "featured_image": self.featured(talk),
            },
        )
        if row is None:
            return
        self.tag(row, talk.tags, talk.source)
        if row.speakers.exists():
            return
        if self.speakers is None:  # the people are all in by now: once for every talk
            self.speakers = {
                p.name: self.people[p.key] for p in self.site.people if p.key in self.people
            }
        names = self.speakers
        for position, name in enumerate(talk.speakers, start=1):
            person = names.get(name)
            Speaker.objects.create(talk=row, person=person, name=name[:200], position=position)
