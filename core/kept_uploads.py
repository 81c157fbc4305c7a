"""A file chosen in a form that is refused is kept for the next try, not chosen again.

When a form comes back with errors, each upload that passed its own field's checks is put
aside in the private storage (core/private_storage.py, under `kept/`; never served) and the
form carries a signed token naming it, beside the file input: "Kept: IMG_0001.HEIC". Sending
the form again without choosing another file sends that token, and the field takes the kept
file as if it had been chosen again; it goes through the same checks and the model's own
encoding. Choosing another file, or ticking "Clear", wins. A token is signed with the site's secret
key (it cannot name any other file) and works for a day; kept files go once used, or after
a day.

Any file field keeps its uploads so: a form field declares it with `KeepsUploads` (images,
PDFs) or is a `KeptFileField` (a BibTeX file, a site's ZIP), which bounds the size. Only an
upload that passed every check of its field is kept, so each check that refuses a file
belongs in the field, not in the form's `clean_<field>`.
"""

import contextlib
import functools
import os
import secrets
from pathlib import Path

from django import forms
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.files import File
from django.core.files.uploadedfile import UploadedFile
from django.utils.html import format_html
from django.utils.translation import gettext as _

from core.private_storage import forget_old, open_local, private_storage

SALT = "labsite.kept-upload"
MAX_AGE = 24 * 60 * 60
FOLDER = "kept"


def keep(upload):
    """Put `upload` aside; returns its token (the same one again for a file already kept)."""
    if getattr(upload, "kept_token", None):
        return upload.kept_token
    forget_old(FOLDER, MAX_AGE)
    upload.seek(0)
    # copied through a plain File: given the upload, a storage moves a large one's temporary
    # file away from under it
    stored = private_storage().save(f"{FOLDER}/{secrets.token_hex(16)}.upload", File(upload.file))
    upload.seek(0)
    token = signing.dumps({"file": stored, "name": Path(upload.name).name}, salt=SALT)
    upload.kept_token = token
    return token


def take(token):
    """The kept upload a token names, as a fresh upload (its kept copy removed), or None
    for a token that is forged, expired or already used. The upload reads the kept file,
    whatever its size, without a copy in memory; the storage keeps no name for it (its
    bytes go once the upload is closed)."""
    try:
        kept = signing.loads(token, salt=SALT, max_age=MAX_AGE)
        file = open_local(kept["file"])
    except (signing.BadSignature, KeyError, TypeError, OSError):
        return None
    private_storage().delete(kept["file"])
    return UploadedFile(file, name=kept["name"], size=os.fstat(file.fileno()).st_size)


class KeptUploadMixin:
    """For a file input widget: offers a refused form's checked upload again (see the
    module). The field gives its widget the upload (`checked_upload`) once it passed the
    field's checks; a rendered form with such an upload is one being shown again."""

    checked_upload = None

    def kept_name(self, name):
        return f"{name}__kept"

    def value_from_datadict(self, data, files, name):
        value = super().value_from_datadict(data, files, name)
        if value is None and data.get(self.kept_name(name)):
            upload = take(data[self.kept_name(name)])
            if upload is not None:
                with contextlib.suppress(TypeError, AttributeError):
                    files[name] = upload  # closed with the request's own uploads
                return upload
        return value

    def use_required_attribute(self, initial):
        return False if getattr(self, "_kept", None) else super().use_required_attribute(initial)

    def render(self, name, value, attrs=None, renderer=None):
        self._kept = None
        if isinstance(self.checked_upload, UploadedFile):
            self._kept = (keep(self.checked_upload), Path(self.checked_upload.name).name)
        html = super().render(name, value, attrs, renderer)
        if self._kept:
            token, filename = self._kept
            html += format_html(
                '<input type="hidden" name="{}" value="{}">'
                '<p class="help kept-upload">Kept from your last try: <strong>{}</strong>. '
                "Save to use it, or choose another file.</p>",
                self.kept_name(name),
                token,
                filename,
            )
        return html


@functools.cache
def keeping(widget_class):
    """`widget_class` offering a refused form's checked upload again."""
    return type(f"Kept{widget_class.__name__}", (KeptUploadMixin, widget_class), {})


class KeepsUploads:
    """For a file form field: an upload that passed all its checks is kept when the form is
    refused for another reason (see the module)."""

    def __init__(self, **kwargs):
        widget = kwargs.get("widget") or self.widget
        kwargs["widget"] = keeping(widget if isinstance(widget, type) else type(widget))
        super().__init__(**kwargs)

    def clean(self, data, initial=None):
        value = super().clean(data, initial)
        if isinstance(value, UploadedFile):
            self.widget.checked_upload = value  # this form's own copy of the widget
        return value


class KeptFileField(KeepsUploads, forms.FileField):
    """A file field of any kind that refuses a file over `max_bytes` and keeps a checked
    upload when its form is refused for another reason."""

    def __init__(self, *, max_bytes, **kwargs):
        self.max_bytes = max_bytes
        super().__init__(**kwargs)

    def to_python(self, data):
        upload = super().to_python(data)
        if upload is not None and upload.size > self.max_bytes:
            raise ValidationError(
                _("This file is larger than %(size)s MB.") % {"size": self.max_bytes // 2**20},
                code="too_large",
            )
        return upload
