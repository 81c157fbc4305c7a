"""Template helpers for publication lists: the marker legend and export links."""

from django import template
from django.urls import reverse
from django.utils.html import format_html_join

from publications.authors import legend_html
from publications.exports import FORMATS

register = template.Library()


@register.filter
def legend(markers):
    """The legend for the markers a page shows: "* Equal contribution · † Corresponding"."""
    return legend_html(markers)


@register.simple_tag
def export_links(url_name, *args, query=""):
    """Links to the BibTeX, RIS and CSL-JSON exports of a list, keeping its filters."""
    suffix = f"?{query}" if query else ""
    return format_html_join(
        " · ",
        '<a href="{}" rel="nofollow">{}</a>',
        (
            (reverse(url_name, args=[*args, f.extension]) + suffix, f.label)
            for f in FORMATS.values()
        ),
    )
