"""Web links: the one rule for every URL that reaches an `href` (http or https only, or a
path on this site).

Models declare their links as `WebURLField`, so admin forms, importers, the demo loader and
`full_clean()` all refuse `javascript:`, `data:` and other schemes with the same message;
templates pass links through the `web_url` filter, so a value that slipped past validation
(an old row, a raw UPDATE) still never becomes a live link. A link that may lead into the
site (a banner's button, a paper's project page, a course's page) is a `SiteOrWebURLField`:
it also takes a path ("/join-us/"), which a page in another language shows as that
language's page ("/zh-hans/join-us/"), and which whatever leaves the site (an export, a
feed, a mail) writes on the site's own address (`absolute_site_or_web_url`).
"""

from urllib.parse import urlsplit

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import models
from django.urls import get_script_prefix, translate_url
from django.utils import translation

SCHEMES = ("http", "https")
MESSAGE = "Enter a web address starting with http:// or https://."

validate_web_url = URLValidator(schemes=list(SCHEMES), message=MESSAGE)


def is_web_url(value):
    """Whether `value` is a link a page may print in an href: http(s), with a host, and no
    control characters or white space that browsers would strip before reading the scheme."""
    if not value or not isinstance(value, str):
        return False
    if any(ord(c) < 33 or c == "\x7f" for c in value):
        return False
    try:
        parts = urlsplit(value)
    except ValueError:
        return False
    return parts.scheme.lower() in SCHEMES and bool(parts.netloc)


def web_url_or_empty(value):
    return value if is_web_url(value) else ""


class WebURLFormField(forms.URLField):
    default_validators = [validate_web_url]
    # what Django calls "not a valid URL" (javascript:alert(1)) is refused with the one message
    default_error_messages = {"invalid": MESSAGE}

    def __init__(self, **kwargs):
        kwargs.setdefault("assume_scheme", "https")
        super().__init__(**kwargs)


class WebURLField(models.URLField):
    """A URLField that takes only http and https links (Django's also takes ftp and ftps)."""

    default_validators = [validate_web_url]

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("max_length", 500)
        super().__init__(*args, **kwargs)

    def formfield(self, **kwargs):
        return super().formfield(**{"form_class": WebURLFormField, **kwargs})


SITE_OR_WEB_MESSAGE = (
    "Enter a web address starting with http:// or https://, or a page of this site starting "
    "with / (such as /join-us/)."
)


def is_site_path(value):
    """Whether `value` is a path on this site: one "/" first (not "//", another host), and
    nothing a browser would read as something else (white space, control characters, "\\")."""
    if not value or not isinstance(value, str) or not value.startswith("/"):
        return False
    if value.startswith("//") or "\\" in value:
        return False
    return not any(ord(c) < 33 or c == "\x7f" for c in value)


def site_or_web_url(value, language=None):
    """The link as a page in `language` (else the active one) prints it: an http(s) link as it
    is, a site path as that language's page, anything else ""."""
    if is_web_url(value):
        return value
    if not is_site_path(value):
        return ""
    if not any(value.startswith(f"/{code}/") for code, _name in settings.LANGUAGES):
        # Paths are written as the default language has them ("/join-us/"); Django's own
        # translate_url finds the page and gives its address in the other language (under
        # the site's mount point, as reverse() does).
        language = language or translation.get_language()
        with translation.override(settings.LANGUAGE_CODE):
            translated = translate_url(value, language)
        if translated != value:
            return translated
    # already one language's page, or no page of the site's own (a file): under the site's
    # mount point all the same (a static copy at https://example.org/lab/)
    return get_script_prefix() + value[1:]


def absolute_site_or_web_url(value):
    """The link as what leaves the site writes it (an export, a feed, a mail): an http(s)
    link as it is, a site path on the site's own address (SITE_URL, as mails name the site:
    "https://lab.example.org/join-us/"), anything else ""."""
    if is_web_url(value):
        return value
    return settings.SITE_URL + value if is_site_path(value) else ""


def validate_site_or_web_url(value):
    if not is_site_path(value):
        validate_web_url(value)


class SiteOrWebURLFormField(forms.CharField):
    default_validators = [validate_site_or_web_url]

    def clean(self, value):
        try:
            return super().clean(value)
        except ValidationError as error:
            raise ValidationError(SITE_OR_WEB_MESSAGE, code="invalid") from error


class SiteOrWebURLField(models.CharField):
    """A link that may lead into the site ("/join-us/") or anywhere on the web (http(s))."""

    default_validators = [validate_site_or_web_url]

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("max_length", 500)
        super().__init__(*args, **kwargs)

    def formfield(self, **kwargs):
        return super().formfield(**{"form_class": SiteOrWebURLFormField, **kwargs})
