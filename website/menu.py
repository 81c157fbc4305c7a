"""The site's menu as a page shows it: the items a lab admin placed, the built-in sections
they left alone at their default places, each with its address and whether it is the part
of the site the page is in."""

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from core.languages import active_language, language_tag, shown_language
from lab import sections
from website.models import MenuItem

Section = MenuItem.Section
# The URL each section's menu entry leads to, and the (URL namespace or name, URL name)
# of the pages that are in it ("" matches any), as the registry declares them.
SECTION_URLS = {
    Section(section.key): (section.list_url, section.pages)
    for section in sections.SECTIONS
    if section.menu
}


@dataclass
class Entry:
    label: str
    url: str
    current: bool = False
    lang: str = ""  # the label's language when it is not the page's (a fallback)


def _lang(item, name):
    """The BCP 47 tag of the language `item.<name>` is shown in, when not the page's."""
    code = shown_language(item, name)
    return language_tag(code) if code and code != active_language() else ""


def entries(match, personal_site=""):
    """The menu for a page reached through `match` (a ResolverMatch, or None on an error
    page), in order, hidden items left out (one query). On a personal site, People is the
    member's About page and the CV comes last."""
    section_name = (match.namespace or match.url_name or "") if match else ""
    page_name = (match.url_name or "") if match else ""
    address = match.kwargs.get("address", "") if match else ""
    items = list(MenuItem.objects.select_related("page"))
    placed = {item.section for item in items if item.section}
    items += [
        MenuItem(section=s, position=s.default_position)
        for s in Section
        if s not in placed and s.shown_by_default
    ]
    items.sort(key=lambda item: (item.position, item.pk is None, item.pk or 0))
    shown = []
    for item in items:
        if not item.is_shown or (item.page_id and not item.page.is_published):
            continue
        if item.page_id:
            page = item.page
            in_page = section_name == "website" and (
                address == page.address or address.startswith(page.address + "/")
            )
            label, lang = (item.label, _lang(item, "label")) if item.label else (page.title, "")
            lang = lang or ("" if item.label else _lang(page, "title"))
            shown.append(Entry(label, page.get_absolute_url(), in_page, lang))
            continue
        section = Section(item.section)
        url_name, (namespace, name) = SECTION_URLS[section]
        label, lang = (item.label, _lang(item, "label")) if item.label else (section.label, "")
        if section == Section.PEOPLE and personal_site:
            url_name, namespace, name = "home", "home", ""
            label, lang = (item.label, lang) if item.label else (_("About"), "")
        current = section_name == namespace and name in ("", page_name)
        shown.append(Entry(label, reverse(url_name), current, lang))
    if personal_site:
        shown.append(
            Entry(
                _("Curriculum vitae"),
                reverse("people:cv", args=[personal_site]),
                page_name == "cv",
            )
        )
    return shown
