"""Readable, unique page addresses made from titles: "hydrarpc-rpc-in-the-cxl-era-2024"."""

from django.utils.text import slugify


def unique_slug(instance, text, *, words=8, taken=None):
    """The first `words` words of `text` as a slug, with the year of `instance.date` when it
    has one (a person has none), suffixed -2, -3… past the slugs in `taken` (read from the
    database when not given: one query). Text with no Latin letters falls back to the model's
    name."""
    model = type(instance)
    # within the slug field's length, with room for the year and a "-2" suffix
    room = min(90, (model._meta.get_field("slug").max_length or 90) - 8)
    base = "-".join(slugify(text).split("-")[:words])[:room].strip("-") or model._meta.model_name
    date = getattr(instance, "date", None)  # a person has none
    if date and not base.endswith(str(date.year)):
        base = f"{base}-{date.year}"
    if taken is None:
        others = model.objects.filter(slug__startswith=base).exclude(pk=instance.pk)
        taken = set(others.values_list("slug", flat=True))
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    return slug
