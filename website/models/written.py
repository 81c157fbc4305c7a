"""What the lab writes on its site: a page, a post, a research theme, an opening, a course.

Each is a title in either language, a slug made from it when left empty, a published flag
and its history; each model says only what makes it different (its body's name and limits,
its dates, who it belongs to, what more makes one public)."""

from django.db import models
from simple_history.models import HistoricalRecords

from core.languages import first_written, translated
from core.slugs import unique_slug


class WrittenQuerySet(models.QuerySet):
    def published(self):
        """What visitors see: the published flag ticked (a model may add its own rule)."""
        return self.filter(is_published=True)


class Written(models.Model):
    """The fields, rules and history every written thing of the lab has."""

    title = translated(models.CharField(max_length=200))
    is_published = models.BooleanField(
        "published", default=False, help_text="A draft is seen by no visitor."
    )

    objects = WrittenQuerySet.as_manager()
    history = HistoricalRecords(inherit=True)

    slug_words = 6  # the words of its title an empty slug is made of

    class Meta:
        abstract = True

    def __str__(self):
        return self.title

    def save(self, *args, **kwargs):
        self.fill_slug()
        super().save(*args, **kwargs)

    def fill_slug(self):
        """An empty slug made from the title (unique among its kind)."""
        if not self.slug:
            self.slug = unique_slug(self, first_written(self, "title"), words=self.slug_words)

    def slug_taken(self):
        """Whether another row of its kind has its slug (one query)."""
        return type(self)._default_manager.filter(slug=self.slug).exclude(pk=self.pk).exists()
