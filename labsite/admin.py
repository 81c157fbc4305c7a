"""Admin for the lab settings: a single row, edited in place."""

from django.contrib import admin
from django.shortcuts import redirect

from labsite.models import LabSettings

admin.site.site_header = "labsite administration"
admin.site.site_title = "labsite admin"


@admin.register(LabSettings)
class LabSettingsAdmin(admin.ModelAdmin):
    fieldsets = [
        ("The lab", {"fields": ["name", "tagline", "about", "logo"]}),
        ("Contact", {"fields": ["contact_email", "address"]}),
        ("Team page", {"fields": ["team_role_order"]}),
        (
            "Author lists",
            {
                "fields": [
                    "author_name_style",
                    ("marker_equal_contribution", "marker_corresponding"),
                    ("authors_shorten_above", "authors_keep_first"),
                ]
            },
        ),
        ("Profiles", {"fields": ["venue_summary_order"]}),
    ]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        """There is one settings row: go straight to editing it."""
        lab = LabSettings.load()
        return redirect("admin:labsite_labsettings_change", lab.pk)
