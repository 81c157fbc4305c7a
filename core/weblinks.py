"""Web links: the one rule for every URL that reaches an `href` (http or https only).

Models declare their links as `WebURLField`, so admin forms, importers, the demo loader and
`full_clean()` all refuse `javascript:`, `data:` and other schemes with the same message;
templates pass links through the `web_url` filter, so a value that slipped past validation
(an old row, a raw UPDATE) still never becomes a live link.
"""

from urllib.parse import urlsplit

from django import forms
from django.core.validators import URLValidator
from django.db import models

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
