"""The admin answers hostile input with a form error or a refusal, never a 500: a
non-numeric or overlong id in every select and autocomplete field of every add, change and
revert form, as a lab admin and as a member; hostile filters on every changelist; hostile
queries to the autocomplete view; hostile ids in every object URL.

Every form, field and filter is read from the admin site itself (admin.site._registry and
the pages it renders), so one added later is fuzzed without a word here."""

import pytest
from django import forms
from django.contrib import admin

from people.models import Person
from tests.admin_forms import form_data
from tests.security.test_admin_url_permissions import _owned

pytestmark = pytest.mark.django_db

ROLES = ["admin", "owner"]  # a lab admin, and a member who owns the rows
# A value no id is: letters, a number past every integer column, a half, SQL.
BAD_IDS = ["abc", "99999999999999999999999"]
BAD_VALUES = ["abc", "99999999999999999999999", "-1", "\x00", "é'\"<script>"]


def _answer(client, method, url, data=None):
    """The status of one request; for a 500, what the view raised."""
    client.raise_request_exception = False
    status = getattr(client, method)(url, data or {}).status_code
    if status != 500:
        return status
    client.raise_request_exception = True
    try:
        getattr(client, method)(url, data or {})
    except Exception as error:  # the test client re-raises what the view raised
        return f"500 {type(error).__name__}: {error}"[:300]
    return 500


def _failures(results):
    """Each 500 as one line: where, and what the view raised."""
    return [f"{where}: {answer}" for where, answer in results if str(answer).startswith("500")]


def _objects(owner):
    """(model admin, the admin URL of its model, an object the owner may edit or None)."""
    for model, model_admin in admin.site._registry.items():
        opts = model._meta
        base = f"/admin/{opts.app_label}/{opts.model_name}/"
        try:
            obj = _owned(opts.model_name, owner)
        except AssertionError:
            obj = None
        yield model_admin, base, obj


def _form_pages(base, model_admin, obj):
    pages = [f"{base}add/"]
    if obj is not None:
        pages.append(f"{base}{obj.pk}/change/")
        if hasattr(model_admin, "restore_view"):  # a revert page is the change form again
            version = model_admin.model.history.filter(id=obj.pk).latest("history_id")
            pages.append(f"{base}{obj.pk}/history/{version.history_id}/")
    return pages


def _choice_keys(response):
    """The submitted name of every select and autocomplete field (a ModelChoiceField or
    ModelMultipleChoiceField) of the rendered form and its inlines."""
    found = []
    forms_ = [response.context["adminform"].form]
    for inline in response.context.get("inline_admin_formsets") or []:
        forms_ += inline.formset.forms
    for form in forms_:
        for name, field in form.fields.items():
            if isinstance(field, forms.ModelChoiceField):
                multiple = isinstance(field, forms.ModelMultipleChoiceField)
                found.append((form.add_prefix(name), multiple))
    return found


@pytest.mark.parametrize("role", ROLES)
def test_every_admin_form_answers_bad_ids_with_a_form_error(client, cast, role):
    client.force_login(cast[role])
    owner = Person.objects.get(slug="owner")
    results, fields = [], 0
    for model_admin, base, obj in list(_objects(owner)):
        for page in _form_pages(base, model_admin, obj):
            response = client.get(page)
            if response.status_code != 200 or "adminform" not in (response.context or {}):
                continue
            data = form_data(response)
            for key, multiple in _choice_keys(response):
                fields += 1
                for bad in BAD_IDS:
                    answer = _answer(
                        client, "post", page, {**data, key: [bad] if multiple else bad}
                    )
                    results.append((f"{page} {key}={bad}", answer))
                    if answer == 302:  # saved regardless (a field it ignores): form anew
                        data = form_data(client.get(page))
    assert fields > 20  # the forms were found and their fields fuzzed
    failed = _failures(results)
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize("role", ROLES)
def test_every_changelist_answers_hostile_filters_without_an_error(client, cast, role):
    client.force_login(cast[role])
    owner = Person.objects.get(slug="owner")
    results, filters = [], 0
    for _model_admin, base, _obj in list(_objects(owner)):
        response = client.get(base)
        if response.status_code != 200 or not response.context or "cl" not in response.context:
            continue
        changelist = response.context["cl"]
        params = {"q", "o", "p", "e", "_to_field", "all", "person__id__exact", "_popup"}
        for spec in changelist.filter_specs:
            params |= set(spec.expected_parameters())
        if changelist.date_hierarchy:
            field = changelist.date_hierarchy
            params |= {f"{field}__year", f"{field}__month", f"{field}__day"}
        filters += len(params)
        for param in sorted(params):
            for bad in BAD_VALUES:
                results.append(
                    (f"{base}?{param}={bad}", _answer(client, "get", base, {param: bad}))
                )
    assert filters > 100
    failed = _failures(results)
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize("role", ROLES)
def test_the_autocomplete_view_answers_hostile_queries_without_an_error(client, cast, role):
    """Every autocomplete field of every admin and inline, with hostile terms and pages,
    and names of apps, models and fields that do not exist."""
    client.force_login(cast[role])
    request = client.get("/admin/").wsgi_request
    results, fields = [], []
    for model, model_admin in admin.site._registry.items():
        opts = model._meta
        for field in model_admin.get_autocomplete_fields(request):
            fields.append((opts.app_label, opts.model_name, field))
        for inline in model_admin.get_inline_instances(request):
            for field in inline.get_autocomplete_fields(request):
                iopts = inline.model._meta
                fields.append((iopts.app_label, iopts.model_name, field))
    fields.append(("people", "person", "no_such_field"))
    fields.append(("no_such_app", "person", "user"))
    for app_label, model_name, field in fields:
        for bad in BAD_VALUES:
            query = {"app_label": app_label, "model_name": model_name, "field_name": field}
            for extra in ({"term": bad}, {"term": "a", "page": bad}):
                answer = _answer(client, "get", "/admin/autocomplete/", {**query, **extra})
                results.append((f"{app_label}.{model_name}.{field} {extra}", answer))
    assert len(fields) > 10
    failed = _failures(results)
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize("role", ROLES)
def test_every_object_url_answers_a_bad_id_without_an_error(client, cast, role):
    client.force_login(cast[role])
    results = []
    for model in admin.site._registry:
        base = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        for bad in ["abc", "99999999999999999999999", "1.5", "%2e%2e"]:
            for tail in ["change/", "delete/", "history/", "password/", "review/", "undo/"]:
                url = f"{base}{bad}/{tail}"
                results.append((url, _answer(client, "get", url)))
    failed = _failures(results)
    assert not failed, "\n".join(failed)
