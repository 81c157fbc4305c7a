"""The lab's own things from a site: its name, tagline and about, its news and its projects."""

from typing import Any

from django.core.exceptions import ValidationError

from lab.models import LabSettings
from labsite.site_import.site import SiteProject
from labsite.site_import.writing.part import Part
from labsite.site_import.writing.report import UPDATED
from labsite.site_import.writing.rows import fill
from people.models import NewsItem, Person, Project


class Lab(Part):
    def settings(self) -> None:
        """The site's name, tagline and about land in the lab's settings while those still
        hold what a new lab starts with; an admin's own are never replaced."""
        found, _ = LabSettings.objects.get_or_create(pk=1)
        settings: Any = found  # its fields in each language (name_en...) are not in the stubs
        default = LabSettings._meta.get_field("name_en").default
        about = self.site.about if not settings.about_en else ""
        about = self.figures.text(about, self.site.about_source)
        try:
            LabSettings._meta.get_field("about_en").run_validators(about)
        except ValidationError as error:
            self.report.notes.append(
                f"the site's about text is not kept: {' '.join(error.messages)}"
            )
            about = ""
        values = {
            "tagline_en": self.site.tagline[:300],
            "about_en": about,
            "name_zh_hans": self.site.title_zh[:200],
            "tagline_zh_hans": self.site.tagline_zh[:300],
        }
        named = self.site.title and settings.name_en in ("", default)
        if named:
            settings.name_en = self.site.title[:200]
        if fill(settings, values) or named:
            settings.save()
            self.report.count("lab settings", UPDATED, self.site.title or "the lab")

    def news(self, lone: Person | None) -> None:
        """The site's news as the lab's, each the news of `lone` (a one-person site's
        owner), else of the lab."""
        for news in self.site.news:
            text = self.figures.text(news.text, news.source)
            self.rows.row(
                NewsItem,
                {"person": lone, "date": news.date, "text_en": text},
                news.text[:80],
                kind="news",
                source=news.source,
            )

    def projects(self, owner: Person | None) -> None:
        """The site's projects as its owner's (a project is a person's): none without one."""
        if owner is None:
            return
        for project in self.site.projects:
            self._project(project, owner)

    def _project(self, project: SiteProject, owner: Person) -> None:
        self.rows.row(
            Project,
            {"person": owner, "name_en": project.title[:200]},
            project.title,
            extra=lambda: {
                "summary_en": self.figures.text(project.description, project.source),
                "url": project.url,
                "tags": ", ".join(self.words(project.tags, project.source))[:300],
            },
            kind="project",
            source=project.source,
        )
        if project.image:
            self.report.notes.append(
                f"{project.source}: its image {project.image} (projects have no image)"
            )
