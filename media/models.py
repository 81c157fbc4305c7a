"""The media library: images the lab uploads once (checked, turned upright, stripped of
location and every other metadata, kept with their renditions) and uses anywhere by a
short name, and galleries of them."""

import re

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Q
from django.db.models.deletion import ProtectedError
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core import content, images
from core.languages import first_written, in_languages, translated
from media import renditions

# The stored image, from which every rendition is made: the upload decoded, upright, in
# sRGB, no wider or taller than the widest rendition, kept as PNG (lossless, so a backup
# restored, which encodes every image afresh, gives back the very same bytes and so the
# very same renditions).
MASTER_SIDE = max(renditions.WIDTHS)
NAME_HELP = (
    "A short name to use the image by in any text: “cluster” is written "
    "![The lab's GPU cluster](media:cluster). Lowercase letters, digits and hyphens."
)


def _rendition_fields(cls):
    for attribute, field in renditions.spec_fields().items():
        field.contribute_to_class(cls, attribute)
    return cls


@_rendition_fields
class MediaItem(models.Model):
    name = models.SlugField(max_length=60, help_text=NAME_HELP)
    image = images.SafeImageField(
        upload_to="library/",
        strict=True,
        help_text="JPEG, PNG or WebP, at most 10 MB and 40 megapixels. Turned upright, its "
        "location and camera data removed; pages show it in sizes for phones to wide screens.",
    )
    # the stored image's size, set when it is saved, so a page reserves its space
    width = models.PositiveIntegerField(null=True, editable=False)
    height = models.PositiveIntegerField(null=True, editable=False)
    alt = translated(
        models.CharField(
            "alt text",
            max_length=250,
            help_text="What the image shows, for readers who cannot see it (screen readers, "
            "search engines): “Four racks of GPU servers in the lab's machine room”.",
        )
    )
    caption = translated(
        models.CharField(
            max_length=300,
            blank=True,
            help_text="Shown under the image where it is a figure; empty for none.",
        )
    )
    credit = models.CharField(
        max_length=200,
        blank=True,
        help_text="Who made the image and its licence, shown with the caption: “Photo: Lin "
        "Wei, CC BY 4.0”.",
    )
    # A site import brings the site's images in with the alt text the site gave, which is
    # often none, or in one language only: unknown stays unknown (no alt text is made up),
    # and the image waits here for an editor to write it.
    awaits_alt_text = models.BooleanField(
        default=False,
        editable=False,
        help_text="Brought in by a site import without alt text in both languages; saved "
        "with both, it no longer waits.",
    )
    uploaded = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords(excluded_fields=["uploaded"])

    class Meta:
        ordering = ["name"]
        verbose_name = "image"
        constraints = [
            # a text's `media:NAME` looks the image up by its name (the unique index serves it)
            models.UniqueConstraint(fields=["name"], name="media_item_name_unique"),
            models.CheckConstraint(condition=~Q(name=""), name="media_item_has_a_name"),
            models.CheckConstraint(
                condition=(~Q(alt_en="") & ~Q(alt_zh_hans="")) | Q(awaits_alt_text=True),
                name="media_item_alt_in_both_languages_or_awaited",
            ),
        ]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        if self.alt_en.strip() and self.alt_zh_hans.strip():
            self.awaits_alt_text = False
        replaced = set()
        new_upload = bool(self.image) and not self.image._committed
        if new_upload:
            replaced = images.replaced_files(self, "image")
            # a hostile file is refused here (ValidationError), before anything is written
            picture = images.open_upload(self.image)
            images.refuse_hidden_content(self.image)
            picture.thumbnail((MASTER_SIDE, MASTER_SIDE))
            self.width, self.height = picture.size
            self.image = images.fitted_png(picture, MASTER_SIDE, MASTER_SIDE)
        with transaction.atomic():
            super().save(*args, **kwargs)
            if new_upload:
                self.make_renditions()
        if replaced:
            old = set(replaced)
            for name in replaced:
                old.update(_stored_renditions(self.image.storage, name))
            images.delete_after_commit(self.image.storage, old)

    def delete(self, *args, **kwargs):
        """Refused (ProtectedError, naming them) while a text uses the image; its featured
        uses and galleries protect it through their foreign keys."""
        in_texts = self.used_in_texts()
        if in_texts:
            raise ProtectedError(
                f"The image “{self.name}” is used in "
                + "; ".join(f"{obj._meta.verbose_name} “{obj}”" for obj in in_texts),
                set(in_texts),
            )
        files = {self.image.name, *self.rendition_names()} if self.image else set()
        storage = self.image.storage
        result = super().delete(*args, **kwargs)
        images.delete_after_commit(storage, files)
        return result

    def clean(self):
        errors = {}
        for column in in_languages("alt"):
            if not getattr(self, column).strip():
                errors[column] = _(
                    "Say what the image shows, in English and in Chinese, for readers who "
                    "cannot see it."
                )
        if self.name and MediaItem.objects.filter(name=self.name).exclude(pk=self.pk).exists():
            errors["name"] = _("Another image has this name.")
        if errors:
            raise ValidationError(errors)

    # --- renditions

    def renditions(self):
        """[(width, webp file, jpeg file)] narrowest first: names and addresses only, read
        from the stored name and size (no query, no look at storage, no pixel decoded), and
        kept for the item's other calls while they are the same (a figure asks four times)."""
        key = (self.image.name, self.width)
        kept = self.__dict__.get("_renditions")
        if kept is None or kept[0] != key:
            kept = self._renditions = (
                key,
                [
                    (actual, getattr(self, f"webp_{spec}"), getattr(self, f"jpeg_{spec}"))
                    for spec, actual in renditions.widths_for(self.width)
                ],
            )
        return kept[1]

    def rendition_names(self):
        return [file.name for _w, *files in self.renditions() for file in files]

    @classmethod
    def files_restored(cls):
        """After a backup is restored (labsite/archive.py): every image's renditions made
        from its restored file. Returns how many files were written."""
        count = 0
        for item in cls.objects.exclude(image=""):
            item.make_renditions()
            count += len(item.rendition_names())
        return count

    def make_renditions(self):
        """Write every rendition of the stored image (Pillow work: at upload, restore or by
        the `renditions` command, never in a visitor's request)."""
        for _width, *files in self.renditions():
            for file in files:
                file.generate(force=True)

    def srcset(self, fmt):
        return ", ".join(
            f"{(webp if fmt == 'webp' else jpeg).url} {width}w"
            for width, webp, jpeg in self.renditions()
        )

    def fallback(self, at_most=1280):
        """The JPEG rendition for a reader that takes no `srcset`: the widest up to `at_most`."""
        chosen = [jpeg for width, _webp, jpeg in self.renditions() if width <= at_most]
        return (chosen or [self.renditions()[0][2]])[-1]

    @property
    def share_image(self):
        """The rendition link previews and search engines take (og:image, JSON-LD `image`):
        the JPEG up to 1,280 px wide."""
        return self.fallback(1280)

    # --- where it is used

    def galleries(self):
        """The galleries that show this image (a query)."""
        return Gallery.objects.filter(entries__item=self).distinct()

    def used_in_texts(self):
        """The content rows whose Markdown shows this image: by its name (`media:NAME`) or
        through a gallery holding it (`media:gallery/NAME`). One query per model with text
        columns, and one for the galleries."""
        needles = [f"media:{self.name}"]
        needles += [
            f"media:gallery/{name}" for name in self.galleries().values_list("name", flat=True)
        ]
        patterns = [re.compile(re.escape(needle) + r"(?![\w-])") for needle in needles]
        found = []
        for model in content.models_of():
            columns = [
                f.attname for f in model._meta.concrete_fields if isinstance(f, models.TextField)
            ]
            if not columns:
                continue
            query = Q()
            for column in columns:
                for needle in needles:
                    query |= Q(**{f"{column}__contains": needle})
            for row in model._default_manager.filter(query):
                texts = [getattr(row, column) or "" for column in columns]
                if any(p.search(text) for p in patterns for text in texts):
                    found.append(row)
        return found

    def uses(self):
        """Everything that shows this image: rows whose foreign key names it (featured
        images, galleries) and texts that name it. A query per relation and text model."""
        found = []
        for relation in self._meta.related_objects:
            if relation.related_model._meta.label_lower.startswith("media.historical"):
                continue
            if relation.one_to_many:
                found.extend(getattr(self, relation.get_accessor_name()).all())
        return found + self.used_in_texts()

    @property
    def alt_text(self):
        return self.alt


def _stored_renditions(storage, source_name):
    """Names of the renditions stored for the image once stored as `source_name`."""
    folder = renditions.folder_of(source_name)
    try:
        _dirs, files = storage.listdir(folder)
    except (FileNotFoundError, NotImplementedError, OSError):
        return []
    return [f"{folder}/{name}" for name in files]


class Gallery(models.Model):
    """Images shown together as a grid with their captions, in a page or post by its name:
    ![Our retreat, 2026](media:gallery/retreat-2026)."""

    name = models.SlugField(
        max_length=60,
        help_text="A short name to show the gallery by in any text: “retreat-2026” is "
        "written ![Our retreat](media:gallery/retreat-2026).",
    )
    title = translated(
        models.CharField(
            max_length=200, blank=True, help_text="Shown under the grid; empty for none."
        )
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "galleries"
        constraints = [
            # a text's `media:gallery/NAME` looks the gallery up by its name
            models.UniqueConstraint(fields=["name"], name="gallery_name_unique"),
            models.CheckConstraint(condition=~Q(name=""), name="gallery_has_a_name"),
        ]

    def __str__(self):
        return first_written(self, "title") or self.name


class GalleryItem(models.Model):
    """One image of a gallery, in the gallery's order."""

    gallery = models.ForeignKey(Gallery, on_delete=models.CASCADE, related_name="entries")
    item = models.ForeignKey(
        MediaItem, on_delete=models.PROTECT, related_name="gallery_entries", verbose_name="image"
    )
    position = models.PositiveSmallIntegerField(default=1, help_text="1 comes first.")
    history = HistoricalRecords()

    class Meta:
        ordering = ["gallery", "position", "pk"]
        verbose_name = "image in the gallery"
        verbose_name_plural = "images in the gallery"
        constraints = [
            models.UniqueConstraint(fields=["gallery", "item"], name="gallery_shows_an_image_once")
        ]

    def __str__(self):
        return f"{self.gallery}: {self.item}"
