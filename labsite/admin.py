"""Admin for the lab settings (a single row, edited in place), and list filters that the
apps' admins share."""

from django.contrib import admin
from django.db.models.functions import Substr
from django.shortcuts import redirect

from labsite.models import LabSettings
from people.models import Person

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


class YearFilter(admin.SimpleListFilter):
    """Filter a model by the year of its partial `date`."""

    title = "year"
    parameter_name = "year"

    def lookups(self, request, model_admin):
        years = (
            model_admin.model.objects.exclude(date=None)
            .annotate(y=Substr("date", 1, 4))
            .order_by("-y")
            .values_list("y", flat=True)
            .distinct()
        )
        return [(y, y) for y in years]

    def queryset(self, request, queryset):
        return queryset.filter(date__startswith=self.value()) if self.value() else queryset


def member_filter(rows):
    """A list filter by lab member, through `rows` (e.g. "authorships"): the related rows
    that point at a Person with their `person` field."""

    class MemberFilter(admin.SimpleListFilter):
        title = "lab member"
        parameter_name = "member"

        def lookups(self, request, model_admin):
            row_model = model_admin.model._meta.get_field(rows).related_model
            related_name = row_model._meta.get_field("person").remote_field.related_name
            people = Person.objects.filter(**{f"{related_name}__isnull": False}).distinct()
            return [(p.slug, p.name) for p in people.order_by("name")]

        def queryset(self, request, queryset):
            if not self.value():
                return queryset
            return queryset.filter(**{f"{rows}__person__slug": self.value()}).distinct()

    return MemberFilter
