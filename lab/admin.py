"""The lab settings in the admin: one row, edited by lab admins."""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _

from core.languages import in_languages
from lab.editing import LabModelAdmin
from lab.models import LabSettings


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
                    "logo",
                ]
            },
        ),
        (_("Contact"), {"fields": ["contact_email", "address"]}),
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
    ]

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
