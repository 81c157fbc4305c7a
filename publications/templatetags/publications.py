"""Template helpers for publication lists: the marker legend, years and export links."""

from django import template
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from publications.authors import legend_html
from publications.exports import FORMATS

register = template.Library()


@register.filter
def legend(markers):
    """The legend for the markers a page shows: "* Equal contribution · † Corresponding"."""
    return legend_html(markers)


@register.filter
def by_year(entries):
    """Listed entries (publications.listing.Entry) under their years, in their order:
    (year, the entries' HTML) for each run of one year."""
    groups: list = []
    for entry in entries:
        year = entry.publication.year
        if not groups or groups[-1][0] != year:
            groups.append((year, []))
        groups[-1][1].append(entry.html)
    return [(year, mark_safe("".join(html))) for year, html in groups]  # each escaped


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
