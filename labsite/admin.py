"""Who may edit what in the admin (one mixin every content admin uses), restoring deleted
content, list filters the apps share, and the lab settings admin."""

import copy

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import FieldDoesNotExist, PermissionDenied, ValidationError
from django.db.models.functions import Substr
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from simple_history.admin import SimpleHistoryAdmin

from labsite import accounts_admin, history  # noqa: F401 (accounts_admin registers the user admin)
from labsite.models import LabSettings
from labsite.roles import is_lab_admin
from people.models import Person

admin.site.site_header = "labsite administration"
admin.site.site_title = "labsite admin"


def member_person(user):
    """The Person a logged-in member edits as, or None (cached on the user)."""
    if not hasattr(user, "_member_person"):
        user._member_person = Person.objects.filter(user_id=user.pk).first() if user.pk else None
    return user._member_person


class LabModelAdmin(SimpleHistoryAdmin):
    """Every content admin's permissions, in one place.

    Lab admins (and superusers) may do whatever their group allows on every row. A member
    sees and edits only the rows they own: those whose `owner_lookup` (e.g.
    "authorships__person") is their Person. With no `owner_lookup` the model is shared
    reference data that members may view (and add, if their group allows) but not change.
    Everything is recorded by django-simple-history; lab admins can also restore deleted rows.
    """

    owner_lookup = None
    member_readonly_fields = ()
    change_list_template = "admin/labsite/change_list.html"

    def is_member_editor(self, request):
        return not is_lab_admin(request.user)

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if not self.is_member_editor(request) or self.owner_lookup is None:
            return queryset
        person = member_person(request.user)
        if person is None:
            return queryset.none()
        owned = self.model.objects.filter(**{self.owner_lookup: person.pk}).values("pk")
        return queryset.filter(pk__in=owned)

    def owns(self, request, obj):
        """Whether the request may touch `obj`: always for lab admins; for members, only rows
        they own (one query)."""
        if obj is None or not self.is_member_editor(request):
            return True
        if self.owner_lookup is None:
            return False
        return self.get_queryset(request).filter(pk=obj.pk).exists()

    def has_view_permission(self, request, obj=None):
        if not super().has_view_permission(request, obj):
            return False
        return self.owner_lookup is None or self.owns(request, obj)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and self._may_edit(request, obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and self._may_edit(request, obj)

    def _may_edit(self, request, obj):
        """Members never edit shared reference data, and edit only rows they own."""
        if self.is_member_editor(request) and self.owner_lookup is None:
            return False
        return self.owns(request, obj)

    def changelist_view(self, request, extra_context=None):
        extra_context = {"can_restore": self.can_restore(request), **(extra_context or {})}
        return super().changelist_view(request, extra_context)

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if self.is_member_editor(request):
            fields += [f for f in self.member_readonly_fields if f not in fields]
        return fields

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        person = member_person(request.user)
        if self.is_member_editor(request) and person is not None:
            self.keep_member_linked(form.instance, person)

    def keep_member_linked(self, obj, person):
        """Make sure `person` stays linked to `obj` they just saved (an author, a speaker), so
        they keep access to it. Admins whose rows are owned through a link override this."""

    # ---- reverting to a version: the change form's rules apply

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        """django-simple-history's revert page, held to the change form's rules: only who
        may change the object now may revert it, and fields read-only to them keep their
        current values (a member cannot undo a lab admin's decision through history)."""
        current = self.get_object(request, object_id)  # None when not theirs or deleted
        if current is None or (
            request.method == "POST" and not self.has_change_permission(request, current)
        ):
            raise PermissionDenied
        # A per-request copy carries what simple-history reads off the admin itself.
        reverting = copy.copy(self)
        reverting.prepopulated_fields = self.get_prepopulated_fields(request, current)
        reverting.reverting_from = current
        return super(LabModelAdmin, reverting).history_form_view(
            request, object_id, version_id, extra_context
        )

    reverting_from = None

    def save_model(self, request, obj, form, change):
        if self.reverting_from is not None:
            for name in self.get_readonly_fields(request, obj):
                try:
                    field = obj._meta.get_field(name)
                except FieldDoesNotExist:
                    continue  # a computed column, not stored
                if field.concrete:
                    setattr(obj, field.attname, getattr(self.reverting_from, field.attname))
        super().save_model(request, obj, form, change)

    # ---- restoring deleted rows (lab admins only)

    def get_urls(self):
        opts = self.model._meta
        name = f"{opts.app_label}_{opts.model_name}"
        wrap = self.admin_site.admin_view
        return [
            path("deleted/", wrap(self.deleted_view), name=f"{name}_deleted"),
            path(
                "deleted/<int:history_id>/restore/",
                wrap(self.restore_view),
                name=f"{name}_restore",
            ),
            *super().get_urls(),
        ]

    def can_restore(self, request):
        return is_lab_admin(request.user) and self.has_add_permission(request)

    def deleted_view(self, request):
        """Rows deleted and not yet restored, newest first, each with a Restore button."""
        if not self.can_restore(request):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"Deleted {self.model._meta.verbose_name_plural}",
            "records": history.deleted_records(self.model)[:200],
        }
        return TemplateResponse(request, "admin/labsite/deleted.html", context)

    def restore_view(self, request, history_id):
        if not self.can_restore(request) or request.method != "POST":
            raise PermissionDenied
        record = get_object_or_404(history.deleted_records(self.model), history_id=history_id)
        try:
            restored = history.restore(record)
        except ValidationError as error:
            messages.error(
                request, f"“{record.instance}” cannot be restored: {' '.join(error.messages)}"
            )
            opts = self.model._meta
            return redirect(f"admin:{opts.app_label}_{opts.model_name}_deleted")
        messages.success(request, f"Restored “{restored}”.")
        opts = self.model._meta
        return redirect(
            reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[restored.pk])
        )


class KeepMemberFormSet(forms.BaseInlineFormSet):
    """An inline of rows naming people (authors, speakers, recipients) in which the member
    editing cannot remove or re-point their own row."""

    protected_person = None

    def clean(self):
        super().clean()
        person = self.protected_person
        if person is None:
            return
        for form in self.forms:
            if form.instance.pk is None or form.initial.get("person") != person.pk:
                continue
            deleted = self.can_delete and self._should_delete_form(form)
            if deleted or form.cleaned_data.get("person", person) != person:
                raise forms.ValidationError(
                    f"You cannot remove yourself ({person.name}) from this list; ask a lab "
                    "admin if you should not be on it."
                )


class MemberRowsInline(admin.TabularInline):
    """An inline whose formset keeps the editing member's own row (see KeepMemberFormSet)."""

    formset = KeepMemberFormSet

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        person = None if is_lab_admin(request.user) else member_person(request.user)
        return type(formset.__name__, (formset,), {"protected_person": person})


@admin.register(LabSettings)
class LabSettingsAdmin(LabModelAdmin):
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
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
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
