"""Text kept in each of the site's languages, side by side on the same row.

`translated(models.TextField(...))` gives a model `bio_en` and `bio_zh_hans` (one column per
language in settings.LANGUAGES, through django-translated-fields) and a `bio` attribute that
reads the page's language, else the first other language that has the text. Which language
was shown is what `shown_language` answers, so a page can mark a fallback with its own `lang`.

Assigning `bio` sets the primary language's text (English), whatever the request's language:
importers, the demo and factories write the same column in any thread. Other languages are
set by their own names (`bio_zh_hans`).
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import translation
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy
from translated_fields import TranslatedField, to_attribute

from core.rollback import guards_rollback


def translated(field: models.Field, *, required: bool = False) -> TranslatedField:
    """One column per language from `field`. The primary language (English) keeps `field`'s
    own blank rule when `required`, else may be left empty too (a model that needs the text
    in at least one language says so in its `clean`); the others are optional, empty
    unless written."""
    primary, *others = [code for code, _name in settings.LANGUAGES]
    specific = {code: {"blank": True, "default": ""} for code in others}
    if not required:
        specific[primary] = {"blank": True}
    return _TranslatedField(field, specific, attrgetter=_getter, attrsetter=_setter)


class _TranslatedField(TranslatedField):
    """Each column labelled with its language wherever Django shows a field's name (forms,
    error messages, history): "bio (English)", "bio (简体中文)"; and the attribute itself a
    property, so that `Person(bio=…)` works as it does for a field."""

    def contribute_to_class(self, cls, name):
        super().contribute_to_class(cls, name)
        names = dict(settings.LANGUAGES)
        label = gettext_lazy(self.short_description)
        for column, code in zip(self.fields, self.languages, strict=True):
            field = cls._meta.get_field(column)
            field.verbose_name = format_lazy("{} ({})", label, names[code])
            field.in_languages_of = self.short_description  # "bio", for the catalog
        text = TextInLanguages(self._getter, self._setter)
        text.short_description = self.short_description  # the admin's column heading
        setattr(cls, name, text)


class TextInLanguages(property):
    """`person.bio`: the text in the page's language, else another (see the module)."""

    short_description: object = ""


def language_tag(code: str) -> str:
    """The BCP 47 tag of a Django language code, for `lang` and `hreflang`: "zh-hans" →
    "zh-Hans"."""
    return translation.to_locale(code).replace("_", "-")


def active_language() -> str:
    """The active language as one of settings.LANGUAGES ("en" where "en-us" is active)."""
    try:
        return translation.get_supported_language_variant(translation.get_language() or "")
    except LookupError:
        return settings.LANGUAGE_CODE


def shown_language(obj: models.Model, name: str) -> str | None:
    """The language whose text `obj.<name>` shows: the active one when it has text, else
    the first in settings.LANGUAGES that has; None when no language has any."""
    active = active_language()
    for code in [active, *(c for c, _name in settings.LANGUAGES if c != active)]:
        if getattr(obj, to_attribute(name, code)):
            return code
    return None


def first_written(obj: models.Model, name: str) -> str:
    """The text in the first language (settings order) that has it, whatever the request's
    language: for slugs, keys and anything else that must not change with the page."""
    for column in in_languages(name):
        if value := getattr(obj, column):
            return value
    return ""


def require_one(obj: models.Model, name: str, message: str) -> None:
    """ValidationError on `name`'s primary column unless some language has the text."""
    if not first_written(obj, name):
        raise ValidationError({in_languages(name)[0]: message})


def is_translated(model: type[models.Model], name: str) -> bool:
    return isinstance(getattr(model, name, None), TextInLanguages)


def columns_given(model: type[models.Model], row: dict, name: str) -> dict:
    """Take `name` out of a row of data (a demo file's, say) as the columns it names:
    "title" is the primary language's text, "title_zh_hans" the Chinese. A name `model`
    does not keep in two languages is itself."""
    if not is_translated(model, name):
        return {name: row.pop(name, "")}
    columns = in_languages(name)
    given = {column: row.pop(column) for column in columns if column in row}
    if name in row:
        given[columns[0]] = row.pop(name)
    return given


def in_languages(name: str) -> list[str]:
    """The column names of `name` in each language: ["bio_en", "bio_zh_hans"]."""
    return [to_attribute(name, code) for code, _name in settings.LANGUAGES]


def _getter(name, field):
    def get(obj):
        code = shown_language(obj, name)
        return getattr(obj, to_attribute(name, code)) if code else ""

    return get


def _setter(name, field):
    def set_primary(obj, value):
        setattr(obj, to_attribute(name, field.languages[0]), value)

    return set_primary


def keep_texts_on_rollback(app_label: str, language: str = "zh_hans", moved_back=(), only=()):
    """The reverse of a migration that added `language`'s columns to `app_label`'s models
    (a RunPython placed last, so it runs first when rolling back): it refuses, naming what
    would be lost, while any of those columns holds text, since dropping them would delete
    it. `moved_back` names texts the migration's own reversal moves into the old column
    where the English one is empty: only rows with both are counted. `only` names the texts
    the migration added, when it did not add them all. Forwards: nothing."""

    @guards_rollback
    def check(apps, schema_editor):
        from django.core.management.base import CommandError

        held = []
        for model in apps.get_app_config(app_label).get_models():
            if model._meta.model_name.startswith("historical"):
                continue  # the history's copies go with the rows they copy
            for field in model._meta.concrete_fields:
                base = field.name.removesuffix(f"_{language}")
                if field.name.endswith(f"_{language}") and (not only or base in only):
                    rows = model._default_manager.exclude(**{field.name: ""})
                    if base in moved_back:
                        rows = rows.exclude(**{f"{base}_en": ""})
                    count = rows.count()
                    if count:
                        held.append(f"{count} {model._meta.verbose_name_plural} ({field.name})")
        if held:
            raise CommandError(
                f"Rolling back would delete the texts entered in {language}: "
                + ", ".join(held)
                + ". Archive the lab first (manage.py export_lab), or clear those texts; "
                "nothing was rolled back."
            )

    return check
