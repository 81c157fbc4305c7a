"""The lab's own pages (Join us, Contact, Research…) and the site's menu, which places them
among the built-in sections (people, publications, talks, awards, news).

Kept plain for importers (a Hugo Blox or al-folio page becomes a `Page`): a page is a title
and a Markdown body in each language, a slug, an optional parent and a published flag; its
address is its parents' slugs and its own ("research/projects"), kept on the row so that a
visit is one lookup. The menu lists `MenuItem`s in their order; a built-in section with no
item of its own stands at its default place (`Section.default_position`).
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import Resolver404, resolve, reverse
from django.utils import translation
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core.languages import require_one, translated
from core.markup import BODY_LIMIT, MARKDOWN_HELP, text_limit
from lab import sections
from website.models.written import Written

# First parts of an address that belong to files, not pages, whatever the URLs say.
RESERVED = frozenset({"static", "media"})
MAX_DEPTH = 3  # Research › Projects › One project: deeper than a visitor follows


class Page(Written):
    slug = models.SlugField(
        max_length=80,
        blank=True,
        help_text="The last part of the page's address: “join-us” gives /join-us/ (and "
        "/zh-hans/join-us/ in Chinese). Leave empty to make one from the title.",
    )
    parent = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="children",
        help_text="The page this one sits under: its address then starts with the parent's "
        "(/research/projects/), and the parent lists it.",
    )
    address = models.CharField(
        max_length=255,
        editable=False,
        help_text="The parents' slugs and this page's, as in the page's URL.",
    )
    body = translated(
        models.TextField(
            blank=True,
            validators=[text_limit(BODY_LIMIT)],
            help_text=MARKDOWN_HELP,
        )
    )
    is_published = models.BooleanField(
        "published",
        default=False,
        help_text="A draft is seen by no visitor, in no menu and no sitemap.",
    )

    class Meta:
        ordering = ["address"]
        constraints = [
            # a visit looks the page up by its address (the unique index serves it)
            models.UniqueConstraint(fields=["address"], name="page_address_unique"),
            models.CheckConstraint(condition=~Q(slug=""), name="page_has_a_slug"),
        ]

    def save(self, *args, **kwargs):
        self.fill_slug()
        old = self.address
        self.address = self._address()
        super().save(*args, **kwargs)
        if old and old != self.address:
            for child in self.children.all():
                child.save()  # its address starts with this one's

    def get_absolute_url(self):
        return reverse("website:page", kwargs={"address": self.address})

    def _address(self):
        """The address this page has with its current slug and parent (one query per
        ancestor, at most MAX_DEPTH - 1)."""
        return f"{self.parent.address}/{self.slug}" if self.parent_id else self.slug

    def ancestors(self):
        """The parents, nearest first (one query each)."""
        found, parent = [], self.parent
        while parent is not None and parent not in found and len(found) <= MAX_DEPTH:
            found.append(parent)
            parent = parent.parent
        return found

    def _levels_below(self):
        """How many levels of subpages sit under this page (one or two queries)."""
        if self.pk is None or not self.children.exists():
            return 0
        return 2 if Page.objects.filter(parent__parent=self).exists() else 1

    def clean(self):
        require_one(self, "title", _("Give the page's title, in English or Chinese."))
        self.fill_slug()
        ancestors = self.ancestors()
        if self.pk and any(a.pk == self.pk for a in ancestors):
            raise ValidationError({"parent": _("A page cannot sit under itself.")})
        if len(ancestors) + 1 + self._levels_below() > MAX_DEPTH:
            raise ValidationError(
                {"parent": _("Pages sit at most three levels deep; choose a higher parent.")}
            )
        address = self._address()
        if len(address) > self._meta.get_field("address").max_length:
            raise ValidationError({"slug": _("The page's address is too long.")})
        if address.split("/")[0] in RESERVED or _taken_by_the_site(address):
            taken = _("/%(address)s/ is one of the site's own addresses.")
            raise ValidationError({"slug": taken % {"address": address}})
        if Page.objects.filter(address=address).exclude(pk=self.pk).exists():
            raise ValidationError(
                {"slug": _("Another page has the address /%(address)s/.") % {"address": address}}
            )


def _taken_by_the_site(address):
    """Whether the site's own URLs (a section, the admin, a language's prefix) answer
    /address/ before the pages do, in any language."""
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            try:
                match = resolve(f"/{address}/")
            except Resolver404:
                continue
        if match.view_name != "website:page":
            return True
    return False


class MenuItem(models.Model):
    """One entry of the site's menu: a built-in section or a page."""

    # The built-in sections the menu can place, with their default places (lab/sections.py).
    Section = sections.menu_choices()

    position = models.PositiveSmallIntegerField(
        default=100,
        help_text=format_lazy("Smaller numbers come first. {}", sections.places_described(Section)),
    )
    section = models.CharField(
        max_length=20,
        choices=Section.choices,
        blank=True,
        help_text="A built-in section, to move, rename or hide it.",
    )
    page = models.OneToOneField(
        Page,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="menu_item",
        help_text="A page of the lab's own; it shows once published.",
    )
    label = translated(
        models.CharField(
            max_length=60,
            blank=True,
            help_text="The menu's word for it; empty for the section's own name or the "
            "page's title.",
        )
    )
    is_shown = models.BooleanField("shown", default=True, help_text="Untick to hide it.")
    history = HistoricalRecords()

    class Meta:
        ordering = ["position", "pk"]
        verbose_name = "menu item"
        constraints = [
            models.CheckConstraint(
                condition=(Q(section="") & Q(page__isnull=False))
                | (~Q(section="") & Q(page__isnull=True)),
                name="menu_item_is_a_section_or_a_page",
            ),
            models.UniqueConstraint(
                fields=["section"], condition=~Q(section=""), name="menu_lists_a_section_once"
            ),
        ]

    def __str__(self):
        return self.label or (self.page.title if self.page_id else self.get_section_display())

    def clean(self):
        # On a new page's form the page is not saved yet: its row is linked, without an id.
        linked = MenuItem.page.is_cached(self) and self.page is not None
        has_page = self.page_id is not None or linked
        if bool(self.section) == bool(has_page):
            raise ValidationError(_("Choose a built-in section or a page, not both."))
