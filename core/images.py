"""Uploaded images made safe: checked, fully decoded, turned upright, stripped, re-encoded.

Nothing a visitor's browser loads is the uploaded file itself: every stored image is a fresh
encoding of the decoded pixels, under a server-generated name, with no metadata (GPS, camera,
comments) and no bytes trailing the image data.
"""

import io
import logging
import re
import secrets
import warnings

import pillow_heif
from django import forms
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import models, transaction
from PIL import Image, ImageCms, ImageFile, ImageOps, UnidentifiedImageError

from core import kept_uploads

logger = logging.getLogger(__name__)

# Phones' photos: an iPhone's JPEG is often an MPO (a JPEG followed by a depth or gain map,
# of which the first image is the photo), its camera's default HEIC (read by pillow-heif).
pillow_heif.register_heif_opener()

ALLOWED_FORMATS = {"JPEG": "JPEG", "MPO": "JPEG", "PNG": "PNG", "WEBP": "WebP", "HEIF": "HEIC"}
MAX_UPLOAD_BYTES = 10 * 1024 * 1024
MAX_PIXELS = 40_000_000
ACCEPT = "image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif"

_SRGB = ImageCms.createProfile("sRGB")


def _refuse(message, code):
    raise ValidationError(message, code=code)


# What a file that is also a web page, a script or an archive carries (a polyglot): a
# browser or another program told to read it as that would run it. Seven bytes and more,
# so compressed pixels match one by chance about once in 10^16 bytes.
_HIDDEN = re.compile(
    rb"<script|<html|<svg[\s>]|<iframe|<object|<embed|<\?php|javascript:|<!doctype", re.IGNORECASE
)
_ZIP_END = b"PK\x05\x06"  # the end of a ZIP archive's directory, read from the file's end


def refuse_hidden_content(file):
    """Refuse (ValidationError) an image file that also carries markup, a script or an
    archive: re-encoding would remove it, but an upload that carries one is no honest
    photo, and its sender is told so. Reads the whole file (at most 10 MB)."""
    size = getattr(file, "size", None)
    if size is not None and size > MAX_UPLOAD_BYTES:
        return  # open_upload says it is too large
    file.seek(0)
    data = file.read()
    file.seek(0)
    if _HIDDEN.search(data) or _ZIP_END in data[-65_557:]:
        _refuse(
            "This file is an image and something else as well (a web page, a script or an "
            "archive is hidden in it); upload the image alone, exported afresh.",
            "polyglot",
        )


def open_upload(file):
    """Decode an uploaded image completely and return it upright, in RGB or RGBA.

    Refuses (ValidationError) files over 10 MB, formats other than JPEG (MPO included: its
    first image), PNG, WebP and HEIC (SVG included), images over 40 megapixels, and anything
    Pillow cannot decode to the last pixel. The pixel limit is checked from the header,
    before any pixel is decoded.
    """
    # Pillow's switch to accept cut-off images is process-wide, and a library may turn it
    # on (WeasyPrint does when it is imported, for a CV's PDF): an upload is checked whole.
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    size = getattr(file, "size", None)
    if size is not None and size > MAX_UPLOAD_BYTES:
        _refuse(
            f"This file is {size / 1024 / 1024:.1f} MB; photos may be at most 10 MB.", "too_large"
        )
    file.seek(0)
    head = file.read(512).lstrip().lower()
    file.seek(0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(file)
            if image.format not in ALLOWED_FORMATS:
                _refuse(
                    f"{image.format} images are not accepted; upload a JPEG, PNG, WebP or HEIC "
                    "image.",
                    "format",
                )
            width, height = image.size
            if width * height > MAX_PIXELS:
                _refuse(
                    f"This image is {width}×{height} pixels ({width * height / 1e6:.0f} "
                    "megapixels); images may be at most 40 megapixels.",
                    "too_many_pixels",
                )
            image.load()
    except ValidationError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        _refuse("This image expands to too many pixels to be processed safely.", "bomb")
    except UnidentifiedImageError:
        # Only now does XML mean SVG: a real JPEG may carry an XMP packet with "<?xml" in it.
        if head.startswith((b"<svg", b"<?xml", b"<!doctype svg")) or b"<svg" in head:
            _refuse("SVG files are not accepted; upload a JPEG, PNG, WebP or HEIC image.", "svg")
        _refuse(
            "This file is not an image; upload a JPEG, PNG, WebP or HEIC image.", "not_an_image"
        )
    except (OSError, SyntaxError, ValueError, EOFError):
        _refuse("This image is damaged or incomplete and cannot be read.", "undecodable")
    return _normalize(image)


def _normalize(image):
    icc_profile = image.info.get("icc_profile")
    image = ImageOps.exif_transpose(image)
    has_alpha = image.mode in ("RGBA", "LA") or (image.mode == "P" and "transparency" in image.info)
    image = image.convert("RGBA" if has_alpha else "RGB")
    if icc_profile:
        try:
            source = ImageCms.ImageCmsProfile(io.BytesIO(icc_profile))
            image = ImageCms.profileToProfile(image, source, _SRGB, outputMode=image.mode)
        except (ImageCms.PyCMSError, OSError):
            pass  # an unreadable profile is dropped; the pixels are kept as they are
    return image


def encode(image, fmt):
    """`image` encoded afresh with no metadata at all: no EXIF, no comment, no ICC profile
    (the pixels are already sRGB, which browsers assume), no XMP."""
    image = image.copy()
    image.info.clear()
    buffer = io.BytesIO()
    if fmt == "JPEG":
        if image.mode == "RGBA":
            background = Image.new("RGB", image.size, "white")
            background.paste(image, mask=image.getchannel("A"))
            image = background
        image.save(buffer, "JPEG", quality=85, optimize=True, progressive=True)
    else:
        # zlib's default level: `optimize` (level 9 and a search) took 8 s for a 1,920-px
        # photo, eight times as long, for a file 10% smaller
        image.save(buffer, "PNG", compress_level=6)
    return buffer.getvalue()


def square_variants(image, sizes, *, stem=None):
    """Square JPEG crops of `image` at each size, as ContentFiles under one fresh random stem.

    The crop is centred a little above the middle, where a portrait's face usually is.
    """
    stem = stem or secrets.token_hex(8)
    files = {}
    for size in sizes:
        side = min(size, *image.size)
        crop = ImageOps.fit(image, (side, side), Image.Resampling.LANCZOS, centering=(0.5, 0.4))
        files[size] = ContentFile(encode(crop, "JPEG"), name=f"{stem}-{size}.jpg")
    return files


def fitted_png(image, max_width, max_height):
    """A PNG scaled down to fit the box (never up), transparency kept, under a random name."""
    image = image.copy()
    image.thumbnail((max_width, max_height), Image.Resampling.LANCZOS)
    return ContentFile(encode(image, "PNG"), name=f"{secrets.token_hex(8)}.png")


def square_png(image, size):
    """A `size`×`size` PNG of the whole image, scaled to fit (up or down) and centred on
    transparency, under a random name: an icon, whose declared size must be its own."""
    image = image.convert("RGBA")
    scale = size / max(image.size)
    fitted = image.resize(
        (max(1, round(image.width * scale)), max(1, round(image.height * scale))),
        Image.Resampling.LANCZOS,
    )
    square = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    square.paste(fitted, ((size - fitted.width) // 2, (size - fitted.height) // 2))
    return ContentFile(encode(square, "PNG"), name=f"{secrets.token_hex(8)}.png")


def replaced_files(instance, *fields):
    """Names of the files `fields` of `instance` hold in the database now (one query): call
    before saving a replacement, then `delete_after_commit` the ones no longer used."""
    if instance.pk is None:
        return set()
    row = type(instance)._default_manager.filter(pk=instance.pk).values_list(*fields).first()
    return {name for name in row or () if name}


def delete_after_commit(storage, names):
    """Remove replaced files once the new ones are saved: a replaced photo (perhaps replaced
    because it should not be public) does not stay reachable at its old address. The
    change is saved by then: a file the storage fails to delete is logged, by name, for
    its operator to remove, and the editor's save still succeeds."""

    def delete():
        for name in names:
            try:
                storage.delete(name)
            except Exception:  # the storage's own errors, whichever backend
                logger.exception("A replaced file is still stored: %s", name)

    if names:
        transaction.on_commit(delete)


class SafeImageFormField(kept_uploads.KeepsUploads, forms.ImageField):
    """An upload field that runs the checks of `open_upload`, so problems are field errors;
    an upload that passed them is kept when the form is refused for another reason
    (core/kept_uploads.py), so it need not be chosen again.
    `strict` refuses polyglots too (`refuse_hidden_content`)."""

    default_error_messages = {"invalid_image": "Upload a JPEG, PNG, WebP or HEIC image."}

    def __init__(self, *args, strict=False, **kwargs):
        self.strict = strict
        super().__init__(*args, **kwargs)

    def to_python(self, data):
        upload = forms.FileField.to_python(self, data)
        if upload is None:
            return None
        open_upload(upload)
        if self.strict:
            refuse_hidden_content(upload)
        upload.seek(0)
        return upload

    def widget_attrs(self, widget):
        attrs = super().widget_attrs(widget)
        attrs["accept"] = ACCEPT
        return attrs


class SafeImageField(models.ImageField):
    """An ImageField whose form field refuses unsafe uploads with a clear message.

    The model that owns the field re-encodes new uploads before they are stored
    (see `Person.save`), so this field never stores the uploaded bytes.
    """

    def __init__(self, *args, strict=False, **kwargs):
        self.strict = strict
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        if self.strict:
            kwargs["strict"] = True
        return name, path, args, kwargs

    def formfield(self, **kwargs):
        kwargs.setdefault("form_class", SafeImageFormField)
        if self.strict:
            kwargs.setdefault("strict", True)
        return super().formfield(**kwargs)
