"""The admin site's own parts: its title, and account administration that cannot escalate.

Superusers get Django's full user admin. Lab admins manage member accounts only: they see,
change, reset the password of and delete accounts that are neither superusers nor lab
admins (their own account included: it changes through "Change password"), and may grant
nothing but the "Lab member" group and staff status. Superuser status, single permissions
and every other group stay out of their reach, in the form and in a forged POST alike.
"""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import Group
from django.utils.functional import lazy

from lab.editing import ValidIdsMixin
from lab.groups import LAB_MEMBER_GROUP, manageable_accounts
from lab.models import LabSettings
from labsite import search

User = get_user_model()


def _lab_name():
    return LabSettings.load().name


# The lab's own name at the top of every admin page and in its titles, read per request
# (a lazy string is evaluated each time it is printed).
admin.site.site_header = lazy(_lab_name, str)()
admin.site.site_title = lazy(lambda: f"{_lab_name()} admin", str)()
admin.site.index_title = "Edit the lab’s site"

MEMBER_ACCOUNT_FIELDSETS = (
    (None, {"fields": ("username", "password")}),
    ("Personal info", {"fields": ("first_name", "last_name", "email")}),
    (
        "Access",
        {
            "fields": ("is_active", "is_staff", "groups"),
            "description": "Members need staff status and the “Lab member” group to edit "
            "their own profile and work. Only a superuser can make lab admins.",
        },
    ),
    ("Important dates", {"fields": ("last_login", "date_joined")}),
)


admin.site.unregister(User)


@admin.register(User)
class LabUserAdmin(ValidIdsMixin, UserAdmin):
    readonly_fields = ["last_login", "date_joined"]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(pk__in=manageable_accounts(request.user).values("pk"))

    def _manages(self, request, obj):
        return (
            obj is None
            or request.user.is_superuser
            or manageable_accounts(request.user).filter(pk=obj.pk).exists()
        )

    def has_view_permission(self, request, obj=None):
        return super().has_view_permission(request, obj) and self._manages(request, obj)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and self._manages(request, obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and self._manages(request, obj)

    def get_fieldsets(self, request, obj=None):
        if obj is None or request.user.is_superuser:
            return super().get_fieldsets(request, obj)
        return MEMBER_ACCOUNT_FIELDSETS

    def get_list_filter(self, request):
        if request.user.is_superuser:
            return super().get_list_filter(request)
        return ["is_active", "is_staff"]

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == "groups" and not request.user.is_superuser:
            kwargs["queryset"] = Group.objects.filter(name=LAB_MEMBER_GROUP)
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def save_related(self, request, form, formsets, change):
        if not request.user.is_superuser and "groups" in form.cleaned_data:
            # Groups outside the lab admin's reach that the account already had stay as
            # they were (the form only offers "Lab member").
            kept = form.instance.groups.exclude(name=LAB_MEMBER_GROUP)
            form.cleaned_data["groups"] = [*form.cleaned_data["groups"], *kept]
        super().save_related(request, form, formsets, change)


def _with_site_search(model_admin):
    """The admin's search box finds, besides its own matches, what the site's search finds
    among the model's rows (labsite/search.py): accents folded, stems, one typo, one or two
    Chinese characters. Drafts, which the site's index does not hold, are still found by
    the admin's own search."""
    own = model_admin.get_search_results

    def get_search_results(request, queryset, search_term):
        found, may_have_duplicates = own(request, queryset, search_term)
        pks = search.row_pks(model_admin.model, search_term)
        if pks:
            found = found | queryset.filter(pk__in=pks)
        return found, may_have_duplicates

    model_admin.get_search_results = get_search_results


for _model, _model_admin in admin.site._registry.items():
    if _model in search.DOCUMENTS and _model_admin.search_fields:
        _with_site_search(_model_admin)
