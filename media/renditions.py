"""The sizes a media image is served in: WebP and JPEG at widths for phones to wide screens,
made with django-imagekit when the image is saved (or restored), never when a page is shown.

django-imagekit was chosen over easy-thumbnails and sorl-thumbnail because its spec fields
name every rendition from the source's name and the spec alone: a page writes a `srcset`
without a query, a look at storage or a decoded pixel (the strategy below never checks),
while the other two look each thumbnail up (a query or a key-value read per image) and make
a missing one in the visitor's request.
"""

from django.conf import settings
from imagekit.cachefiles.namers import source_name_as_path
from imagekit.models import ImageSpecField
from imagekit.processors import ResizeToFit

# From a phone's 390 CSS pixels to a wide screen's 1,920; a 2× phone takes the 960 or 1,280.
WIDTHS = (390, 640, 960, 1280, 1920)
FORMATS = {"webp": ("WEBP", {"quality": 80}), "jpeg": ("JPEG", {"quality": 82})}


class MadeWhenSaved:
    """The cache-file strategy of every rendition: made by `MediaItem.make_renditions` when
    the image is saved or restored, and assumed present when a page names it (a visit never
    asks storage whether it is there, nor makes it)."""

    def should_verify_existence(self, file):
        return False


# Renditions' names, as imagekit's own namer gives them (settings.IMAGEKIT_SPEC_CACHEFILE_NAMER),
# by spec and stored image: its name pickles the spec into a hash, 0.4 ms each, which for a
# page with ten images (twenty sizes each, in two formats) was most of its build
# (bench/ten_images.py). A stored image's name is never given other bytes, so neither are
# its renditions' names.
_NAMES: dict[tuple[type, str], str] = {}
NAMES_KEPT = 100_000  # names remembered at most (≈ 20 MB), then forgotten all at once


def remembered_name(generator):
    """imagekit's `source_name_as_path` name of the rendition `generator` makes, remembered."""
    key = (type(generator), generator.source.name)  # a spec class per field: one per size
    name = _NAMES.get(key)
    if name is None:
        if len(_NAMES) >= NAMES_KEPT:
            _NAMES.clear()
        name = _NAMES[key] = source_name_as_path(generator)
    return name


def spec_fields():
    """{attribute: ImageSpecField} for every format and width, e.g. "webp_640"."""
    return {
        f"{key}_{width}": ImageSpecField(
            source="image",
            processors=[ResizeToFit(width=width, upscale=False)],
            format=fmt,
            options=options,
            cachefile_strategy=MadeWhenSaved,
        )
        for key, (fmt, options) in FORMATS.items()
        for width in WIDTHS
    }


def widths_for(width):
    """[(spec width, actual width)] of the renditions an image `width` pixels wide has: every
    spec narrower than the image, then the first one at least as wide (which keeps the
    image's own width, as renditions are never enlarged)."""
    if not width:
        return []
    chosen = [(spec, spec) for spec in WIDTHS if spec < width]
    wider = [spec for spec in WIDTHS if spec >= width]
    if wider:
        chosen.append((wider[0], width))
    return chosen


def folder_of(source_name):
    """The storage folder the renditions of the stored image `source_name` are kept in
    (imagekit's `source_name_as_path` namer: the source's name without its extension)."""
    stem = source_name.rsplit(".", 1)[0]
    return f"{settings.IMAGEKIT_CACHEFILE_DIR}/{stem}"
