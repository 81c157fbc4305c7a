"""The lab's research themes (its projects): what each is about, who works on it, and the
papers and talks that came of it."""

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from core.languages import require_one, translated
from core.markup import BODY_LIMIT, MARKDOWN_HELP, text_limit
from core.partial_dates import PartialDateField
from core.weblinks import WebURLField
from media.fields import FeaturedImageField
from people.models import Person
from publications.models import Publication
from tags.models import TagsField
from talks.models import Talk
from website.models.written import Written


class Theme(Written):
    slug = models.SlugField(
        max_length=100,
        blank=True,
        help_text="The last part of the theme's address: “kvcache” gives /themes/kvcache/. "
        "Leave empty to make one from the title.",
    )
    summary = translated(
        models.CharField(
            max_length=300,
            blank=True,
            help_text="One or two sentences, shown in the list of research themes.",
        )
    )
    body = translated(
        models.TextField(
            blank=True,
            validators=[text_limit(BODY_LIMIT)],
            help_text=MARKDOWN_HELP,
        )
    )
    members = models.ManyToManyField(
        Person, blank=True, related_name="themes", help_text="The lab members working on it."
    )
    publications = models.ManyToManyField(
        Publication, blank=True, related_name="themes", help_text="Papers that came of it."
    )
    talks = models.ManyToManyField(
        Talk, blank=True, related_name="themes", help_text="Talks about it."
    )
    code_url = WebURLField("code", blank=True, help_text="Where its code is (https://…).")
    data_url = WebURLField("data", blank=True, help_text="Where its data sets are (https://…).")
    start = PartialDateField(null=True, blank=True, help_text="2021, 2021-09 or 2021-09-01.")
    end = PartialDateField(null=True, blank=True, help_text="Leave empty while it goes on.")
    position = models.PositiveSmallIntegerField(
        default=100, help_text="Smaller numbers come first in the list."
    )
    featured_image = FeaturedImageField(related_name="featured_themes")
    tags = TagsField(related_name="themes")

    slug_words = 5

    class Meta:
        ordering = ["position", "pk"]
        verbose_name = "research theme"
        constraints = [
            # a visit looks the theme up by its slug (the unique index serves it)
            models.UniqueConstraint(fields=["slug"], name="theme_slug_unique"),
            models.CheckConstraint(condition=~Q(slug=""), name="theme_has_a_slug"),
        ]

    def get_absolute_url(self):
        return reverse("themes:detail", kwargs={"slug": self.slug})

    def clean(self):
        require_one(self, "title", _("Give the theme's title, in English or Chinese."))
        if self.start and self.end and self.end.first_day() < self.start.first_day():
            raise ValidationError({"end": _("The end comes before the start.")})
        self.fill_slug()
        if self.slug_taken():
            raise ValidationError({"slug": _("Another research theme has this address.")})

    @property
    def links(self):
        """(label, address) of its code and data."""
        return [
            (label, url)
            for label, url in [(_("Code"), self.code_url), (_("Data"), self.data_url)]
            if url
        ]
