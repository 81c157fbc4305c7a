"""Who may edit what in the admin: the one mixin every content admin uses (permissions,
history revert, restoring deleted rows, refusing saves on stale pages), the inline that
keeps a member on their own rows, and the list filters the apps share."""

import copy
from typing import Any, NamedTuple

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.utils import unquote
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import FieldDoesNotExist, PermissionDenied, ValidationError
from django.db import models
from django.db.models import Max
from django.forms.models import _get_foreign_key
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from simple_history.admin import SimpleHistoryAdmin

from core import history, markup
from core.id_fields import IdChoiceField, IdMultipleChoiceField, is_id
from core.partial_dates import years
from lab.groups import is_lab_admin


def markdown_problems_of(forms_saved) -> list[str]:
    """What the Markdown texts of saved forms will not show as written (an image from a host
    the lab does not allow, an unknown media reference, a formula that cannot be read),
    each named with its field: warnings for the editor, the text is kept as typed."""
    problems = []
    for form in forms_saved:
        if not getattr(form, "cleaned_data", None) or form.cleaned_data.get("DELETE"):
            continue
        model = form._meta.model
        for name in form.changed_data:
            try:
                field = model._meta.get_field(name)
            except FieldDoesNotExist:
                continue
            if not markup.is_markdown_field(field):
                continue
            for problem in markup.markdown_problems(form.cleaned_data.get(name) or ""):
                problems.append(f"{capfirst(field.verbose_name)}: {problem}")
    return problems


def member_person(user):
    """The person (`people.Person`, linked to the account as `user.person`) a logged-in
    member edits as, or None (cached on the user; one query the first time)."""
    if not hasattr(user, "_member_person"):
        user._member_person = getattr(user, "person", None) if user.pk else None
    return user._member_person


# Every select and autocomplete of rows checks a submitted id before querying with it.
ID_FIELDS: dict[type[models.Field], dict[str, Any]] = {
    models.ForeignKey: {"form_class": IdChoiceField},
    models.OneToOneField: {"form_class": IdChoiceField},
    models.ManyToManyField: {"form_class": IdMultipleChoiceField},
}


class ValidIdsMixin(admin.ModelAdmin):
    """A model admin whose forms and inlines' forms answer a submitted value that is no id
    ("abc", a number past the column) with a form error, and whose changelist answers a
    filter no date can be (a year past every calendar) as one it cannot apply: never a
    500."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # (a ClassVar in django-stubs, which Django's own BaseModelAdmin.__init__ also sets
        # on the instance, as here and below)
        overrides = {**self.formfield_overrides, **_id_overrides(self)}
        self.formfield_overrides = overrides  # type: ignore[misc]

    def get_inline_instances(self, request, obj=None):
        inlines = super().get_inline_instances(request, obj)
        for inline in inlines:
            overrides = {**inline.formfield_overrides, **_id_overrides(inline)}
            inline.formfield_overrides = overrides  # type: ignore[misc]
        return inlines

    def get_changelist(self, request, **kwargs):
        return LabChangeList


def _id_overrides(model_admin):
    return {
        field_class: {**model_admin.formfield_overrides.get(field_class, {}), **options}
        for field_class, options in ID_FIELDS.items()
    }


def _parent_column(model_admin, inline) -> str:
    """The column of `inline`'s rows that names the row `model_admin` edits."""
    fk = _get_foreign_key(model_admin.model, inline.model, fk_name=inline.fk_name)
    if fk is None:  # only when asked not to fail (can_fail), which it is not here
        raise ValueError(f"{inline.model.__name__} has no key to {model_admin.model.__name__}")
    return fk.attname


class LabChangeList(ChangeList):
    """Django's changelist, with an overflowing date filter (`?date__year=99999999999`)
    refused as a filter it cannot apply (the list shown unfiltered, "?e=1"), as Django does
    for a value it cannot read."""

    def get_filters(self, request):
        try:
            return super().get_filters(request)
        except OverflowError as error:
            raise IncorrectLookupParameters(error) from error


class LabModelAdmin(ValidIdsMixin, SimpleHistoryAdmin):
    """Every content admin's permissions, in one place.

    Lab admins (and superusers) may do whatever their group allows on every row. A member
    sees and edits only the rows they own: those whose `owner_lookup` (e.g.
    "authorships__person") is their Person. With no `owner_lookup` the model is shared
    reference data that members may view (and add, if their group allows) but not change.
    Everything is recorded by django-simple-history; lab admins can also restore deleted rows.
    """

    owner_lookup = None
    member_readonly_fields: tuple[str, ...] = ()
    change_list_template = "admin/labsite/change_list.html"
    change_form_template = "admin/labsite/change_form.html"

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

    def _get_obj_does_not_exist_redirect(self, request, opts, object_id):
        """A member opening a row they may not edit is told why, not that it was deleted
        (Django's own message for a row the admin's list does not hold)."""
        if (
            self.is_member_editor(request)
            and self.model._default_manager.filter(
                pk=object_id if is_id(self.model._meta.pk, str(object_id)) else None
            ).exists()
        ):
            self.message_user(
                request,
                _(
                    "You can edit only your own profile and the papers, talks and awards you "
                    "are credited on."
                ),
                messages.ERROR,
            )
            return redirect("admin:index")
        return super()._get_obj_does_not_exist_redirect(request, opts, object_id)

    def changelist_view(self, request, extra_context=None):
        extra_context = {"can_restore": self.can_restore(request), **(extra_context or {})}
        return super().changelist_view(request, extra_context)

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if self.is_member_editor(request):
            fields += [f for f in self.member_readonly_fields if f not in fields]
        return fields

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        """A member files rows they own under themselves and no one else."""
        if db_field.name == self.owner_lookup == "person" and self.is_member_editor(request):
            person = member_person(request.user)
            people = db_field.related_model.objects
            kwargs["queryset"] = people.filter(pk=person.pk if person else None)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_autocomplete_fields(self, request):
        fields = super().get_autocomplete_fields(request)
        if self.owner_lookup == "person" and self.is_member_editor(request):
            return [f for f in fields if f != "person"]  # a menu holding only themselves
        return fields

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        person = member_person(request.user)
        if self.owner_lookup == "person" and self.is_member_editor(request) and person:
            initial.setdefault("person", person.pk)
        return initial

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        person = member_person(request.user)
        if self.is_member_editor(request) and person is not None:
            self.keep_member_linked(form.instance, person)
        for problem in markdown_problems_of([form, *(f for s in formsets for f in s.forms)]):
            self.message_user(request, problem, messages.WARNING)

    def keep_member_linked(self, obj, person):
        """Make sure `person` stays linked to `obj` they just saved (an author, a speaker), so
        they keep access to it. Admins whose rows are owned through a link override this."""

    # ---- saving on top of someone else's save: refused, nothing lost

    def edit_version(self, request, obj):
        """Where `obj` and the rows its inlines edit stand now: the newest history id of
        each ("412-977"). A change form carries the version it was rendered from; one
        query per inline."""
        ids = [_newest_history_id(self.model, self.model._meta.pk.attname, obj.pk)]
        for inline in self.get_inline_instances(request, obj):
            ids.append(_newest_history_id(inline.model, _parent_column(self, inline), obj.pk))
        return "-".join(map(str, ids))

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if change and obj is not None:
            context["edit_version"] = self.edit_version(request, obj)
        if context.get("errors"):
            context["error_summary"] = error_summary(
                context["adminform"].form, context["inline_admin_formsets"]
            )
        return super().render_change_form(request, context, add, change, form_url, obj)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        submitted = request.POST.get("_edit_version") if request.method == "POST" else None
        if obj is None or not submitted or self.reverting_from is not None:
            return form
        current = self.edit_version(request, obj)
        if submitted == current:
            return form
        message = _conflict_message(self, request, obj, submitted)

        def clean(stale_form):
            form.clean(stale_form)
            raise ValidationError(message, code="stale")

        stale = type("StaleForm", (form,), {"clean": clean})  # the form, refusing to save
        return stale

    def history_view(self, request, object_id, extra_context=None):
        """A version list of a row that cannot exist ("abc", a number past the column) is
        answered as one of a deleted row, not with simple-history's query on it."""
        if not is_id(self.model._meta.pk, unquote(object_id)):
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        return super().history_view(request, object_id, extra_context)

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
        # (prepopulated_fields: a ClassVar in django-stubs, set here on the copy)
        reverting.prepopulated_fields = self.get_prepopulated_fields(request, current)  # type: ignore[misc]
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
            "title": _("Deleted %(things)s") % {"things": self.model._meta.verbose_name_plural},
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
        messages.success(request, _("Restored “%(restored)s”.") % {"restored": restored})
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
                    _(
                        "You cannot remove yourself (%(name)s) from this list; ask a lab admin "
                        "if you should not be on it."
                    )
                    % {"name": person.name}
                )


class MemberRowsInline(admin.TabularInline):
    """An inline whose formset keeps the editing member's own row (see KeepMemberFormSet)."""

    formset = KeepMemberFormSet

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "person" and field is not None:  # pick a member; no add/edit/delete
            widget = field.widget
            widget.can_add_related = widget.can_change_related = False
            widget.can_delete_related = widget.can_view_related = False
        return field

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        person = None if is_lab_admin(request.user) else member_person(request.user)
        return type(formset.__name__, (formset,), {"protected_person": person})


class MemberWorkInline(admin.TabularInline):
    """A row linking a project to a piece of work (`work_field`): members may link only
    work they are credited on (`credited_lookup`, e.g. "authorships__person")."""

    fk_name = "project"
    extra = 0
    work_field = credited_lookup = ""

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == self.work_field and not is_lab_admin(request.user):
            model, person = db_field.related_model, member_person(request.user)
            credited = model.objects.filter(**{self.credited_lookup: person.pk if person else 0})
            kwargs["queryset"] = model.objects.filter(pk__in=credited.values("pk"))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_autocomplete_fields(self, request):
        return [self.work_field] if is_lab_admin(request.user) else []


class YearFilter(admin.SimpleListFilter):
    """Filter a model by the year of its partial `date`."""

    title = "year"
    parameter_name = "year"

    def lookups(self, request, model_admin):
        return [(y, y) for y in years(model_admin.model.objects.all())]

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
            person_field = row_model._meta.get_field("person")
            related_name = person_field.remote_field.related_name
            people = person_field.related_model.objects.filter(
                **{f"{related_name}__isnull": False}
            ).distinct()
            return [(p.slug, p.name) for p in people.order_by("name")]

        def queryset(self, request, queryset):
            if not self.value():
                return queryset
            return queryset.filter(**{f"{rows}__person__slug": self.value()}).distinct()

    return MemberFilter


class FoundError(NamedTuple):
    where: str  # "Title", "Links, row 2: URL"
    message: str
    anchor: str  # the id of the field, row or section that holds it


def error_summary(form, inline_admin_formsets):
    """Every error of a failed save, each with where it is on the page, for the list at the
    top of the change form (the page can be long; the error may be far below)."""
    found = [
        FoundError(_label(form, name), message, form[name].id_for_label)
        for name, errors in form.errors.items()
        if name in form.fields
        for message in errors
    ]
    for inline in inline_admin_formsets:
        formset = inline.formset
        section = capfirst(inline.opts.verbose_name_plural)
        found += [
            FoundError(section, m, f"{formset.prefix}-group") for m in formset.non_form_errors()
        ]
        for number, row in enumerate(formset.forms, start=1):
            for name, errors in row.errors.items():
                where = _("%(section)s, row %(number)s") % {"section": section, "number": number}
                anchor = f"{formset.prefix}-{number - 1}"
                if name in row.fields:
                    where, anchor = f"{where}: {_label(row, name)}", row[name].id_for_label
                found += [FoundError(where, message, anchor) for message in errors]
    return found


def _label(form, name):
    return capfirst(form.fields[name].label or name.replace("_", " "))


def _newest_history_id(model, attname, pk):
    if not history.has_history(model):
        return 0
    newest = model.history.filter(**{attname: pk}).aggregate(newest=Max("history_id"))
    return newest["newest"] or 0


def _conflict_message(model_admin, request, obj, submitted):
    """What was saved since the form was opened, by whom: the sentence shown instead of
    saving, above the form that still holds everything the user typed."""
    try:
        seen = [int(part) for part in submitted.split("-")]
    except ValueError:
        seen = []
    lines = []
    records = obj.history.filter(history_id__gt=seen[0] if seen else 0).select_related(
        "history_user"
    )
    for record in records.order_by("history_id"):
        previous = record.prev_record
        fields = (
            [
                str(obj._meta.get_field(c.field).verbose_name)
                for c in record.diff_against(previous).changes
            ]
            if previous is not None
            else []
        )
        who = record.history_user or _("someone")
        what = _("changed %(fields)s") % {"fields": ", ".join(fields)} if fields else _("saved it")
        at = f"{record.history_date:%H:%M:%S}"
        lines.append(_("%(who)s %(what)s at %(time)s") % {"who": who, "what": what, "time": at})
    inlines = model_admin.get_inline_instances(request, obj)
    for inline, seen_id in zip(inlines, seen[1:], strict=False):
        if _newest_history_id(inline.model, _parent_column(model_admin, inline), obj.pk) > seen_id:
            things = inline.model._meta.verbose_name_plural
            lines.append(_("the %(things)s were changed") % {"things": things})
    changes = "; ".join(lines) or _("it was changed")
    return _(
        "This %(thing)s was saved by someone else after you opened this page (%(changes)s), "
        "so your changes were not saved. Everything you entered is still below: compare it "
        "with the current version (open it in another tab) and save again to keep yours."
    ) % {"thing": obj._meta.verbose_name, "changes": changes}
