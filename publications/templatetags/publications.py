"""Template helpers for publication lists: the marker legend and export links."""

from django import template
from django.urls import reverse
from django.utils.html import format_html_join

from publications.authors import legend_html

register = template.Library()

EXPORT_FORMATS = [("bib", "BibTeX"), ("ris", "RIS"), ("json", "CSL-JSON")]


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
        ((reverse(url_name, args=[*args, fmt]) + suffix, label) for fmt, label in EXPORT_FORMATS),
    )
