"""Build admin change-form POST data the way a browser submits the rendered form."""

from django import forms


def form_data(response, **overrides):
    """Every field of the rendered admin form and its inlines, as a browser would send them.

    Existing inline rows are sent unchanged and extra rows empty, so posting the result with
    no overrides is pressing Save without edits; `overrides` then change single fields. A
    text kept in two languages given by its plain name (`bio=`) is its English column
    (`bio_en`), as assigning `bio` on the model is.
    """
    data, keys = {}, set()
    for form in _forms(response):
        for name, field in form.fields.items():
            key = form.add_prefix(name)
            keys.add(key)
            value = form[name].value()
            if isinstance(field, forms.FileField) or value is None:
                continue
            if isinstance(field.widget, forms.CheckboxInput):
                if value:
                    data[key] = "on"
            elif isinstance(value, list | tuple):
                data[key] = [str(v) for v in value]
            else:
                data[key] = str(value)
    for name, value in overrides.items():
        english = f"{name}_en"
        data[english if name not in keys and english in keys else name] = value
    return data


def _forms(response):
    yield response.context["adminform"].form
    inlines = response.context.get("inline_admin_formsets") or []  # none on revert pages
    for inline in inlines:
        yield inline.formset.management_form
        yield from inline.formset.forms
