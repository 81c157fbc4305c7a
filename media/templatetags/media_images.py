"""Media images in templates: `{% picture item sizes %}` writes the `<picture>` of a media
item (its renditions, width and height, alt text) without a query or a decoded pixel."""

from django import template

from media import references

register = template.Library()

# A featured image at the top of an item's page: the prose column's width.
PAGE_SIZES = references.PROSE_SIZES
LIST_SIZES = references.LIST_SIZES


@register.simple_tag
def picture(item, sizes="page", lazy=True, css_class=""):
    """`sizes` is "page", "list" or a sizes attribute of its own."""
    if item is None:
        return ""
    sizes = {"page": PAGE_SIZES, "list": LIST_SIZES}.get(sizes, sizes)
    return references.picture(item, sizes=sizes, lazy=lazy, css_class=css_class)


@register.simple_tag
def featured_figure(item):
    """A featured image at the top of an item's page, with its caption and credit."""
    if item is None:
        return ""
    # the first thing a visitor sees: loaded at once, not lazily
    return references.figure(item, css_class="figure figure--featured", lazy=False)
