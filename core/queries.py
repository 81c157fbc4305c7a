"""Canonical query strings: each public view declares the parameters it reads and their
valid values (its `canonical_query(params)`), and the page cache sends any other spelling
to the one canonical address, so no visitor can make a page be built again by varying it.

A canonical query names only parameters the view reads, each once (the last given, as
`QueryDict.get` reads it), in the view's own order, with valid values in one spelling
(`page=007` is `page=7`), and leaves out empty and invalid
values, which the view would ignore anyway."""

from urllib.parse import urlencode

from django import forms


def encode(pairs):
    """`pairs` ((name, value), in the view's order) as a query string."""
    return urlencode([(name, value) for name, value in pairs if value])


def page_number(value):
    """A paginated list's `page`: a whole number from 1, without leading zeros, else None.
    (The lists' own links name page 1, so it stays; a page past the last is the view's
    404, never stored.)"""
    if value.isascii() and value.isdigit() and int(value) >= 1:
        return str(int(value))
    return None


def paginated(pairs, params):
    """`pairs` and the canonical `page` of `params` after them."""
    return [*pairs, ("page", page_number(params.get("page", "")))]


def form_pairs(form):
    """(name, canonical value) for each field of the bound `form` that the query gives a
    valid, non-empty value: the form's own validation (the same rules the view applies)
    decides, and its cleaned value is written back in one spelling."""
    form.is_valid()
    pairs = []
    for name, field in form.fields.items():
        if name not in form.data or name in form.errors:
            continue
        value = form.cleaned_data.get(name)
        if value in field.empty_values or value is False:
            continue
        if isinstance(field, forms.ModelChoiceField):
            value = getattr(value, field.to_field_name or "pk")
        elif isinstance(field, forms.BooleanField):
            value = "on"
        pairs.append((name, str(value)))
    return pairs
