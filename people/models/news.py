"""Dated news, lab-wide or about one person."""

from django.conf import settings
from django.db import models
from simple_history.models import HistoricalRecords

from core.languages import translated
from core.markup import NEWS_LIMIT, text_limit
from core.partial_dates import PartialDateField
from people.models.person import Person


class NewsItemQuerySet(models.QuerySet):
    def published(self):
        """Published news that is lab-wide or about a published person; on a personal site
        (PERSONAL_SITE), only news about its owner."""
        shown = self.filter(is_published=True)
        if settings.PERSONAL_SITE:
            return shown.filter(person__slug=settings.PERSONAL_SITE, person__is_published=True)
        return shown.filter(models.Q(person__isnull=True) | models.Q(person__is_published=True))


class NewsItem(models.Model):
    """A dated line of news: about one person (shown on their profile) or the whole lab."""

    person = models.ForeignKey(
        Person,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="news",
        help_text="Leave empty for lab-wide news.",
    )
    date = PartialDateField()
    text = translated(
        models.TextField(
            validators=[text_limit(NEWS_LIMIT)],
            help_text="One or two sentences. Markdown links: [text](https://…).",
        ),
        required=True,
    )
    is_published = models.BooleanField("published", default=True)

    objects = NewsItemQuerySet.as_manager()
    history = HistoricalRecords()

    class Meta:
        ordering = ["-date", "-pk"]
        verbose_name = "news item"
        indexes = [
            # the /news/ page and the home page: newest published news first
            models.Index(fields=["is_published", "-date"], name="news_published_date"),
        ]

    def __str__(self):
        return f"{self.date}: {self.text[:60]}"
