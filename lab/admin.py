"""The lab settings in the admin: one row, edited by lab admins."""

from urllib.parse import quote

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.utils.html import escape, format_html_join
from django.utils.safestring import mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from core.languages import in_languages
from lab import look
from lab.editing import LabModelAdmin
from lab.models import LabSettings, PublicationKind, harvest_sources


@admin.register(LabSettings)
class LabSettingsAdmin(LabModelAdmin):
    fieldsets = [
        (
            _("The lab"),
            {
                "fields": [
                    tuple(in_languages("name")),
                    tuple(in_languages("tagline")),
                    tuple(in_languages("about")),
                ]
            },
        ),
        (
            _("Look"),
            {"fields": ["logo", "favicon", "primary_colour", "colour_preview"]},
        ),
        (_("Contact"), {"fields": ["contact_email", tuple(in_languages("address"))]}),
        (_("Team page"), {"fields": ["team_role_order"]}),
        (
            _("Author lists"),
            {
                "fields": [
                    "author_name_style",
                    ("marker_equal_contribution", "marker_corresponding"),
                    ("authors_shorten_above", "authors_keep_first"),
                ]
            },
        ),
        (_("Profiles"), {"fields": ["venue_summary_order"]}),
        (_("Harvest"), {"fields": ["harvested_kinds", "auto_accepted_sources"]}),
    ]

    readonly_fields = ["colour_preview"]

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        """The harvested kinds and the auto-accepted sources as a box each, not the JSON
        lists the row stores (the model's `clean` checks what is sent)."""
        if db_field.name == "harvested_kinds":
            return forms.MultipleChoiceField(
                label=capfirst(db_field.verbose_name),
                help_text=db_field.help_text,
                choices=PublicationKind.choices,
                widget=forms.CheckboxSelectMultiple,
                required=False,
            )
        if db_field.name == "auto_accepted_sources":  # the harvest's sources, as it lists them
            return forms.MultipleChoiceField(
                label=capfirst(db_field.verbose_name),
                help_text=db_field.help_text,
                choices=harvest_sources,
                widget=forms.CheckboxSelectMultiple,
                required=False,
            )
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    @admin.display(description=_("how the colour reads"))
    def colour_preview(self, lab):
        """The colour as links show it on the light and the dark page, with its contrast:
        a picture (data: address), as the admin's Content-Security-Policy allows no style
        written in the page."""
        palette = lab.palette
        if palette is None:
            return _("The site's own blue (no colour set).")
        pages = look.stylesheet_colours()
        rows = [
            (
                _swatch(shades, pages[theme]["paper"]),
                label % {"colour": shades.accent, "ratio": look.shown_ratio(shades.ratio)},
            )
            for theme, shades, label in (
                (
                    "light",
                    palette.light,
                    _("On the light page: %(colour)s, contrast %(ratio).1f:1."),
                ),
                ("dark", palette.dark, _("In dark mode: %(colour)s, contrast %(ratio).1f:1.")),
            )
        ]
        return format_html_join(
            mark_safe("<br>"), '<img src="{}" alt="" width="150" height="40"> {}', rows
        )

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        """There is one settings row: go straight to editing it."""
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        lab = LabSettings.load()
        return redirect("admin:lab_labsettings_change", lab.pk)


def _swatch(shades, paper):
    """A small picture of a link in `shades` on a label of its tint, on the page `paper`."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="150" height="40">'
        f'<rect width="150" height="40" fill="{paper}"/>'
        f'<text x="10" y="25" font-family="sans-serif" font-size="15" fill="{shades.accent}" '
        f'text-decoration="underline">{escape(_("Link"))}</text>'
        f'<rect x="62" y="9" width="78" height="22" rx="11" fill="{shades.soft}"/>'
        f'<text x="101" y="25" font-family="sans-serif" font-size="13" fill="{shades.accent}" '
        f'text-anchor="middle">{escape(_("Label"))}</text></svg>'
    )
    return "data:image/svg+xml," + quote(svg)
