"""Media images in HTML: a `<picture>` with its renditions, a figure with its caption and
credit, a gallery's grid; and the resolver the Markdown renderer asks for
`![alt](media:NAME "title")` and `![alt](media:gallery/NAME)`.

Everything written here is escaped: alt text, captions and credits are the lab's words, names
come from a reader's text. Nothing here opens an image: sizes and names are on the row.
"""

from collections import defaultdict

from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

# How wide a figure in a page's text is drawn: the whole column on a phone, the prose's
# 46rem (736 px) beyond.
PROSE_SIZES = "(max-width: 800px) calc(100vw - 2.5rem), 736px"
# Beside an entry in a list: a small picture, the whole column on a phone.
LIST_SIZES = "(max-width: 600px) calc(100vw - 2.5rem), 12rem"
GALLERY_SIZES = "(max-width: 600px) calc(50vw - 2rem), 240px"
GALLERY_PREFIX = "gallery/"


def picture(item, *, alt=None, sizes=PROSE_SIZES, lazy=True, css_class=""):
    """`<picture>`: WebP renditions for the browsers that take them (all current ones),
    JPEG for the others, the width and height the page reserves, `alt` or the item's own."""
    if not item.renditions():
        return ""
    loading = mark_safe(' loading="lazy" decoding="async"') if lazy else ""
    class_attribute = format_html(' class="{}"', css_class) if css_class else ""
    return format_html(
        '<picture><source type="image/webp" srcset="{}" sizes="{}">'
        '<img src="{}" srcset="{}" sizes="{}" width="{}" height="{}" alt="{}"{}{}></picture>',
        item.srcset("webp"),
        sizes,
        item.fallback().url,
        item.srcset("jpeg"),
        sizes,
        item.width,
        item.height,
        item.alt if alt is None else alt,
        loading,
        class_attribute,
    )


def caption_of(item, title=None):
    """The caption a figure shows: the text's title for it, else the item's caption; the
    credit after it. Empty when there is neither."""
    words = title or item.caption
    if words and item.credit:
        return format_html('{} <span class="figure__credit">{}</span>', words, item.credit)
    if item.credit:
        return format_html('<span class="figure__credit">{}</span>', item.credit)
    return format_html("{}", words) if words else ""


def figure(item, *, alt=None, title=None, sizes=PROSE_SIZES, css_class="figure", lazy=True):
    caption = caption_of(item, title)
    return format_html(
        '<figure class="{}">{}{}</figure>',
        css_class,
        picture(item, alt=alt, sizes=sizes, lazy=lazy),
        format_html("<figcaption>{}</figcaption>", caption) if caption else "",
    )


def gallery(gallery, entries, *, title=None):
    """A gallery's images as a grid, each with its caption, the gallery's title under it."""
    cells = format_html_join(
        "",
        "<li>{}</li>",
        ((figure(e.item, sizes=GALLERY_SIZES, css_class="gallery__item"),) for e in entries),
    )
    heading = title or gallery.title
    return format_html(
        '<figure class="gallery"><ul class="gallery__grid">{}</ul>{}</figure>',
        cells,
        format_html("<figcaption>{}</figcaption>", heading) if heading else "",
    )


def resolve(name, alt, title):
    """The HTML for `![alt](media:NAME "title")`, or None when the library has no such image
    or gallery: `resolve_many` for one reference."""
    return resolve_many([(name, alt, title)])[0]


def resolve_many(references):
    """The HTML for each of `references`, [(name, alt, title)] as `![alt](media:NAME "title")`
    writes them (None where the library has no such image or gallery), in three queries at
    most however many they are: a page's ten images cost what one does. The text's alt wins
    over the item's own (it may say what the image shows in this context); the item's alt
    stands in when the text gives none."""
    from media.models import Gallery, GalleryItem, MediaItem

    names = {name for name, _alt, _title in references if not name.startswith(GALLERY_PREFIX)}
    wanted = {
        name.removeprefix(GALLERY_PREFIX)
        for name, _alt, _title in references
        if name.startswith(GALLERY_PREFIX)
    }
    items = {item.name: item for item in MediaItem.objects.filter(name__in=names)} if names else {}
    galleries = {g.name: g for g in Gallery.objects.filter(name__in=wanted)} if wanted else {}
    entries = defaultdict(list)
    if galleries:
        shown = GalleryItem.objects.filter(gallery__in=galleries.values()).select_related("item")
        for entry in shown:
            entries[entry.gallery_id].append(entry)
    answers = []
    for name, alt, title in references:
        if name.startswith(GALLERY_PREFIX):
            found = galleries.get(name.removeprefix(GALLERY_PREFIX))
            answers.append(
                None
                if found is None
                else str(gallery(found, entries[found.pk], title=title or alt or None))
            )
        else:
            item = items.get(name)
            answers.append(
                None if item is None else str(figure(item, alt=alt or None, title=title or None))
            )
    return answers


class Library:
    """The media library as the Markdown renderer's resolver (core.markup): asked once for
    all of a text's references."""

    def __call__(self, name, alt, title):
        return resolve(name, alt, title)

    def resolve_many(self, references):
        return resolve_many(references)


LIBRARY = Library()
