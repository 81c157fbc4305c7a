"""The home page's sections, which the lab admin picks, orders, hides and renames.

Like the menu's built-in sections, a kind with no row of its own stands at its default place
(`Kind.default_position`): about, team, publications and news show, the others once a row
places them. With no rows at all the home is the one every lab had before (the default
composition).
"""

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from PIL import Image
from simple_history.models import HistoricalRecords

from core import images
from core.languages import first_written, in_languages, translated
from core.markup import SUMMARY_LIMIT, text_limit
from core.weblinks import SiteOrWebURLField, WebURLField
from lab import sections

MAX_COUNT = 20


class HomeSection(models.Model):
    # What the home can show, with default places and counts (lab/sections.py).
    Kind = sections.home_choices()

    kind = models.CharField(max_length=20, choices=Kind.choices)
    position = models.PositiveSmallIntegerField(
        blank=True,
        help_text=format_lazy(
            "Smaller numbers come first. {} Empty: the section's own place.",
            sections.places_described(Kind),
        ),
    )
    is_shown = models.BooleanField("shown", default=True, help_text="Untick to hide it.")
    heading = translated(
        models.CharField(
            max_length=100,
            blank=True,
            help_text="The section's heading; empty for its own (“News”, “Team”…). A banner "
            "without a heading shows none.",
        )
    )
    count = models.PositiveSmallIntegerField(
        "how many",
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_COUNT)],
        help_text=f"News, publications, posts, research themes and openings: how many the "
        f"home shows (1 to {MAX_COUNT}). Empty: 5 news, 6 papers, 3 posts, 6 themes, "
        "5 openings.",
    )
    # the banner's own
    image = images.SafeImageField(
        upload_to="home/",
        blank=True,
        help_text="Banner only. JPEG, PNG or WebP; scaled to fit 1,600 × 800 pixels.",
    )
    # the stored image's size, set when it is saved, so the page reserves its space (not
    # ImageField's width_field, which opens the stored file whenever the field is assigned)
    image_width = models.PositiveIntegerField(null=True, blank=True, editable=False)
    image_height = models.PositiveIntegerField(null=True, blank=True, editable=False)
    image_alt = translated(
        models.CharField(
            "image description",
            max_length=250,
            blank=True,
            help_text="Banner only: what the image shows, for readers who cannot see it "
            "(needed with an image).",
        )
    )
    text = translated(
        models.TextField(
            blank=True,
            validators=[text_limit(SUMMARY_LIMIT)],
            help_text="Banner only. Markdown: **bold**, [a link](https://…).",
        )
    )
    link_url = SiteOrWebURLField(
        "link",
        blank=True,
        help_text="Banner only: where its button leads: a page of this site (/join-us/, shown "
        "in the visitor's language) or a web address (https://…).",
    )
    link_label = translated(
        models.CharField(
            "link label",
            max_length=60,
            blank=True,
            help_text="Banner only: the button's words, “Join us”, “Read the paper”.",
        )
    )
    # the contact section's own (the address and e-mail are the lab settings')
    map_url = WebURLField(
        "map link",
        blank=True,
        help_text="Contact only: the lab on a map (https://…); the address and e-mail come "
        "from the lab settings.",
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["position", "pk"]
        verbose_name = "home page section"
        constraints = [
            models.UniqueConstraint(fields=["kind"], name="home_lists_a_section_once"),
            models.CheckConstraint(
                condition=Q(count__isnull=True) | Q(count__gte=1, count__lte=MAX_COUNT),
                name="home_section_count_in_range",
            ),
        ]

    def __str__(self):
        return first_written(self, "heading") or self.get_kind_display()

    def save(self, *args, **kwargs):
        if self.position is None and self.kind:
            self.position = self.Kind(self.kind).default_position
        old = set()
        if self.image and not self.image._committed:
            old = images.replaced_files(self, "image")
            self.image = images.fitted_png(images.open_upload(self.image), 1600, 800)
            self.image_width, self.image_height = Image.open(self.image).size
            self.image.seek(0)
        elif self.kind == self.Kind.BANNER and not self.image:
            old = images.replaced_files(self, "image")  # the image taken off the banner
            self.image_width = self.image_height = None
        super().save(*args, **kwargs)
        images.delete_after_commit(self.image.storage, old)

    def clean(self):
        if self.kind not in self.Kind.values:
            return  # the kind's own field says what is wrong
        if self.position is None:
            self.position = self.Kind(self.kind).default_position
        banner = self.kind == self.Kind.BANNER
        errors = {}
        if banner:
            if not (self.image or first_written(self, "text")):
                errors[in_languages("text")[0]] = _("A banner needs a text or an image.")
            if self.image and not first_written(self, "image_alt"):
                errors[in_languages("image_alt")[0]] = _(
                    "Say what the image shows, in English or Chinese, for readers who "
                    "cannot see it."
                )
            if self.link_url and not first_written(self, "link_label"):
                errors[in_languages("link_label")[0]] = _(
                    "Give the link's words, in English or Chinese."
                )
        else:
            given = [
                name for name in ("image", *in_languages("text"), "link_url") if getattr(self, name)
            ]
            if given:
                errors[given[0]] = _("Only a banner has an image, a text and a link.")
        if self.map_url and self.kind != self.Kind.CONTACT:
            errors["map_url"] = _("Only the contact section has a map link.")
        if self.count is not None and self.Kind(self.kind).default_count is None:
            errors["count"] = _(
                "Only news, publications, posts, research themes and openings are lists "
                "of a chosen length."
            )
        if errors:
            raise ValidationError(errors)

    @property
    def shown_count(self):
        return self.count or self.Kind(self.kind).default_count
