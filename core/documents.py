"""Documents attached to content (a paper's PDF): checked by content, capped in size, stored
under generated names, and served so that nothing uploaded can run on the site's origin.

A file is taken as a PDF only when its bytes say so (it starts with the `%PDF-` header and
ends with an `%%EOF` marker), whatever its name or the type the browser claimed. It is stored
as `<random>.pdf`, so a web server serving MEDIA_ROOT types it application/pdf; pages link to
`serve_pdf`, which adds `nosniff`, a `sandbox` Content-Security-Policy and a download name.
"""

import secrets

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.http import FileResponse
from django.utils.translation import gettext as _

from core import kept_uploads

MAX_PDF_BYTES = 30 * 1024 * 1024
ACCEPT = "application/pdf,.pdf"
_HEADER_WINDOW = 1024  # PDF readers accept the header within the first kilobyte
_TRAILER_WINDOW = 2048


def check_pdf(file):
    """Raise ValidationError unless `file` (an open upload) is a PDF of at most 30 MB."""
    size = getattr(file, "size", None)
    if size is not None and size > MAX_PDF_BYTES:
        raise ValidationError(
            f"This file is {size / 1024 / 1024:.1f} MB; a PDF may be at most "
            f"{MAX_PDF_BYTES // 1024 // 1024} MB.",
            code="too_large",
        )
    file.seek(0)
    head = file.read(_HEADER_WINDOW)
    file.seek(max(0, (size or 0) - _TRAILER_WINDOW))
    tail = file.read(_TRAILER_WINDOW)
    file.seek(0)
    if not head.startswith(b"%PDF-"):
        raise ValidationError(
            _(
                "This file is not a PDF (its content does not start with a PDF header); "
                "upload the paper as a PDF."
            ),
            code="not_a_pdf",
        )
    if b"%%EOF" not in tail:
        raise ValidationError(
            _("This PDF is incomplete (it has no end-of-file marker); upload it again."),
            code="truncated_pdf",
        )


def _validate_new_pdf(value):
    """Model-level check, so every entry point (forms, `full_clean()`) runs it on new files;
    files already stored were checked when they came in."""
    if value and not getattr(value, "_committed", True):
        check_pdf(value.file)


def pdf_upload_path(instance, filename):
    """`<app>/pdf/<random>.pdf`: the uploaded name is never used."""
    return f"{instance._meta.app_label}/pdf/{secrets.token_hex(12)}.pdf"


class PdfFormField(kept_uploads.KeepsUploads, forms.FileField):
    """A PDF upload, checked by `check_pdf` (so problems are field errors, and it is at most
    30 MB); kept when the form is refused for another reason (core/kept_uploads.py)."""

    def to_python(self, data):
        upload = super().to_python(data)
        if upload is not None:
            check_pdf(upload)
        return upload

    def widget_attrs(self, widget):
        return {**super().widget_attrs(widget), "accept": ACCEPT}


class PdfField(models.FileField):
    """A FileField for PDFs: content-checked, size-capped, stored under a random name."""

    default_validators = [_validate_new_pdf]

    def formfield(self, **kwargs):
        return super().formfield(**{"form_class": PdfFormField, **kwargs})


def serve_pdf(field_file, download_name):
    """A response that shows the stored PDF and nothing else: typed application/pdf, never
    sniffed, sandboxed (no script, no same-origin access) and named `download_name`."""
    response = FileResponse(
        field_file.open("rb"), content_type="application/pdf", filename=download_name
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "sandbox; default-src 'none'; object-src 'none'"
    return response
