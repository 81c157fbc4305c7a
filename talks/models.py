"""Talks and awards: who gave or received them, when, where, and the paper they concern."""

import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core.languages import first_written, require_one, translated
from core.markup import DESCRIPTION_LIMIT, MARKDOWN_HELP, detect_language, text_limit
from core.partial_dates import PartialDateField
from core.slugs import unique_slug
from core.weblinks import SiteOrWebURLField, WebURLField, is_web_url, site_or_web_url
from media.fields import FeaturedImageField
from people.models import Person, Project
from publications.models import Publication
from tags.models import TagsField


class DatedQuerySet(models.QuerySet):
    OWNERS = ""  # the relation naming the people a row is about ("speakers")

    def published(self):
        """Published rows; on a personal site (PERSONAL_SITE), only those about its owner."""
        shown = self.filter(is_published=True)
        if settings.PERSONAL_SITE:
            owner = {f"{self.OWNERS}__person__slug": settings.PERSONAL_SITE}
            shown = shown.filter(pk__in=self.model.objects.filter(**owner).values("pk"))
        return shown

    def in_year(self, year):
        return self.filter(date__startswith=f"{int(year):04d}")


class TalkQuerySet(DatedQuerySet):
    OWNERS = "speakers"

    def for_person(self, person):
        """Talks the person gave, found by person link."""
        return self.filter(speakers__person=person).distinct()

    def for_listing(self):
        """Speakers with their people and the related paper: two queries, however many talks."""
        return self.select_related("publication").prefetch_related(
            models.Prefetch("speakers", queryset=Speaker.objects.select_related("person"))
        )


class Talk(models.Model):
    class Kind(models.TextChoices):
        INVITED = "invited", _("Invited talk")
        CONFERENCE = "conference", _("Conference talk")
        KEYNOTE = "keynote", _("Keynote")
        PANEL = "panel", _("Panel")
        MODERATOR = "moderator", _("Moderator / host")
        POSTER = "poster", _("Poster")
        SEMINAR = "seminar", _("Seminar")

    # As given, in English, Chinese or both (title_en, title_zh_hans; core/languages.py).
    title = translated(models.CharField(max_length=300))
    language = models.CharField(
        "language",
        max_length=10,
        blank=True,
        help_text="Language code of the talk (en, zh, ja…). Leave empty to tell it from the "
        "title's script: a title in Chinese characters is marked zh.",
    )
    slug = models.SlugField(
        max_length=120, unique=True, blank=True, help_text="Leave empty to make one."
    )
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.INVITED)
    event = models.CharField(
        max_length=300, blank=True, help_text="e.g. “AICon 全球人工智能开发与应用大会”."
    )
    host = models.CharField(
        "host organization",
        max_length=200,
        blank=True,
        help_text="Who invited or hosted the talk, e.g. “Moore Threads”.",
    )
    city = models.CharField(max_length=100, blank=True)
    country = models.CharField(max_length=100, blank=True)
    date = PartialDateField(help_text="YYYY-MM is enough, e.g. 2026-06 (2026.06 also works).")
    slides_url = SiteOrWebURLField(
        "slides",
        blank=True,
        help_text="A page or file of this site (/media/…, shown in the visitor's language) "
        "or a web address (https://…).",
    )
    video_url = WebURLField("video", blank=True)
    event_url = WebURLField("event page", blank=True)
    publication = models.ForeignKey(
        Publication,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="talks",
        help_text="The paper this talk presents, if any.",
    )
    description = models.TextField(
        blank=True, validators=[text_limit(DESCRIPTION_LIMIT)], help_text=MARKDOWN_HELP
    )
    featured_image = FeaturedImageField(related_name="featured_talks")
    tags = TagsField(related_name="talks")
    is_published = models.BooleanField("published", default=True)
    projects = models.ManyToManyField(
        Project, through="ProjectTalk", related_name="talks", blank=True
    )

    objects = TalkQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        ordering = ["-date", "title_en", "title_zh_hans"]
        indexes = [
            # /talks/ and profiles: published talks, newest first
            models.Index(fields=["is_published", "date"], name="talk_published_date"),
        ]

    def __str__(self):
        return self.title

    def save(self, *args, **kwargs):
        written = first_written(self, "title")
        self.language = self.language or detect_language(written)
        if not self.slug:
            self.slug = unique_slug(self, written, words=12)
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("talks:detail", kwargs={"slug": self.slug})

    def clean(self):
        require_one(self, "title", _("Give the talk's title, in English or Chinese."))

    @property
    def place(self):
        return ", ".join(p for p in (self.city, self.country) if p)

    def links(self):
        """(label, address) of its slides, video and event; slides on this site as the
        page's language has them."""
        candidates = [
            (_("Video"), self.video_url),
            (_("Event"), self.event_url),
        ]
        links = [(label, url) for label, url in candidates if is_web_url(url)]
        slides = site_or_web_url(self.slides_url)
        return [(_("Slides"), slides), *links] if slides else links

    @property
    def repeats_its_paper(self):
        """Whether the talk bears the title of the paper it presents (most conference talks
        do): a "Presents" line would print the title twice."""
        if self.publication is None:
            return False
        return _title_words(self.title) == _title_words(self.publication.display_title)

    @property
    def has_page(self):
        """More than the one line a list shows: worth a page of its own."""
        return bool(
            self.description
            or self.links()
            or self.publication_id
            or self.featured_image_id
            or len(self.speakers.all()) > 1
        )


class ProjectTalk(models.Model):
    """A talk about a project; the project's card lists it."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE)
    talk = models.ForeignKey(Talk, on_delete=models.CASCADE)
    history = HistoricalRecords()

    class Meta:
        verbose_name = "talk about the project"
        verbose_name_plural = "talks about the project"
        constraints = [
            models.UniqueConstraint(fields=["project", "talk"], name="project_lists_a_talk_once")
        ]

    def __str__(self):
        return f"{self.project}: {self.talk}"


class AwardQuerySet(DatedQuerySet):
    OWNERS = "recipients"

    def for_person(self, person):
        """Awards the person received, found by person link."""
        return self.filter(recipients__person=person).distinct()

    def for_listing(self):
        """Recipients with their people and the paper with its venue: two queries in all."""
        return self.select_related("publication__venue").prefetch_related(
            models.Prefetch("recipients", queryset=Recipient.objects.select_related("person"))
        )


class Award(models.Model):
    class Kind(models.TextChoices):
        AWARD = "award", _("Award")
        BEST_PAPER = "best-paper", _("Best paper")
        FELLOWSHIP = "fellowship", _("Fellowship")
        SCHOLARSHIP = "scholarship", _("Scholarship")
        COMPETITION = "competition", _("Competition")
        GRANT = "grant", _("Grant")

    name = translated(models.CharField(max_length=300, help_text="e.g. “ChinaSys Best Poster”."))
    awarded_by = models.CharField(
        "awarding body", max_length=200, blank=True, help_text="e.g. “CCF”, “USENIX FAST”."
    )
    date = PartialDateField(
        null=True, blank=True, help_text="YYYY or YYYY-MM; leave empty when it is not stated."
    )
    detail = models.CharField(
        max_length=100, blank=True, help_text="e.g. “5/88”, “80K RMB”, “1st Place”, “Top 1%”."
    )
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.AWARD)
    publication = models.ForeignKey(
        Publication,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="awards",
        help_text="The paper the award is for (a best paper award); it then shows on that "
        "paper wherever the paper is listed.",
    )
    is_published = models.BooleanField("published", default=True)

    objects = AwardQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        # undated ones last
        ordering = [models.F("date").desc(nulls_last=True), "name_en", "name_zh_hans"]
        indexes = [
            # /awards/ and profiles: published awards, newest first
            models.Index(fields=["is_published", "date"], name="award_published_date"),
        ]

    def __str__(self):
        return f"{self.name} ({self.date})" if self.date else self.name

    def get_absolute_url(self):
        return f"{reverse('talks:awards')}#award-{self.pk}"

    def clean(self):
        require_one(self, "name", _("Give the award's name, in English or Chinese."))


class Participant(models.Model):
    """One entry of an ordered list of people: a lab member, or an outside name."""

    position = models.PositiveSmallIntegerField(default=1, help_text="1 comes first.")
    person = models.ForeignKey(
        Person, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    name = models.CharField(
        max_length=200,
        blank=True,
        help_text="The name as printed. For a lab member it is filled from their profile when "
        "left empty, and stays if their profile is ever deleted.",
    )
    history = HistoricalRecords(inherit=True)

    class Meta:
        abstract = True

    def __str__(self):
        return self.person.name if self.person_id else self.name

    def save(self, *args, **kwargs):
        # The printed name outlives the link, as an authorship's does.
        if self.person_id and not self.name:
            self.name = self.person.name
        super().save(*args, **kwargs)

    def clean(self):
        if not self.person_id and not self.name.strip():
            raise ValidationError(_("Choose a lab member or type the name."))


class Speaker(Participant):
    talk = models.ForeignKey(Talk, on_delete=models.CASCADE, related_name="speakers")
    person = models.ForeignKey(
        Person, on_delete=models.SET_NULL, null=True, blank=True, related_name="talk_speakers"
    )

    class Meta:
        ordering = ["talk", "position", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(person__isnull=False) | ~Q(name=""), name="speaker_person_or_name"
            ),
        ]


class Recipient(Participant):
    award = models.ForeignKey(Award, on_delete=models.CASCADE, related_name="recipients")
    person = models.ForeignKey(
        Person,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="award_recipients",
    )

    class Meta:
        ordering = ["award", "position", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(person__isnull=False) | ~Q(name=""), name="recipient_person_or_name"
            ),
        ]


def _title_words(title):
    return re.findall(r"\w+", title.casefold())
