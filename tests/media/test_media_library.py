"""The media library through the admin a lab admin uses: uploads checked, turned upright and
stripped, renditions made once at upload; hostile files refused with nothing written; the
resolver the Markdown renderer calls; an image in use kept."""

import io
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, transaction
from PIL import ExifTags, Image

from media.models import MediaItem
from media.references import resolve
from tests import factories
from tests.admin_forms import form_data

pytestmark = pytest.mark.django_db

ADD = "/admin/media/mediaitem/add/"


def _stored_files():
    root = Path(settings.MEDIA_ROOT)
    return {p for p in root.rglob("*") if p.is_file() and "static" not in p.parts}


def _upload(admin_client, content, filename="photo.jpg", **fields):
    fields = {
        "name": "cluster",
        "alt_en": "Four racks of GPU servers",
        "alt_zh_hans": "四个 GPU 服务器机架",
        **fields,
    }
    data = form_data(admin_client.get(ADD), image=SimpleUploadedFile(filename, content), **fields)
    return admin_client.post(ADD, data)


def _encode(image, fmt, **params):
    buffer = io.BytesIO()
    image.save(buffer, fmt, **params)
    return buffer.getvalue()


def test_an_upload_is_stored_with_renditions_for_phones_to_wide_screens(admin_client):
    response = _upload(admin_client, factories.photo_bytes((2400, 1600)))

    assert response.status_code == 302
    item = MediaItem.objects.get(name="cluster")
    assert (item.width, item.height) == (1920, 1280)
    widths = [width for width, _webp, _jpeg in item.renditions()]
    assert widths == [390, 640, 960, 1280, 1920]
    for width, webp, jpeg in item.renditions():
        for file, fmt in ((webp, "WEBP"), (jpeg, "JPEG")):
            with Image.open(Path(settings.MEDIA_ROOT) / file.name) as stored:
                assert stored.format == fmt
                assert stored.width == width


def test_a_small_image_is_never_enlarged(admin_client):
    _upload(admin_client, factories.photo_bytes((700, 500)))

    item = MediaItem.objects.get()
    assert [w for w, _webp, _jpeg in item.renditions()] == [390, 640, 700]
    assert f"{item.renditions()[-1][1].url} 700w" in item.srcset("webp")


@pytest.mark.parametrize("column", ["alt_en", "alt_zh_hans"])
def test_alt_text_is_required_in_both_languages(admin_client, column):
    before = _stored_files()

    response = _upload(admin_client, factories.photo_bytes(), **{column: ""})

    assert response.status_code == 200
    assert "Say what the image shows, in English and in Chinese" in response.content.decode()
    assert not MediaItem.objects.exists()
    assert _stored_files() == before


def test_only_an_image_marked_as_awaiting_its_alt_text_is_stored_without_it():
    with pytest.raises(IntegrityError), transaction.atomic():
        factories.MediaItemFactory(alt="", alt_zh_hans="")  # no path leaves it out unmarked

    waiting = factories.MediaItemFactory(alt="", alt_zh_hans="", awaits_alt_text=True)
    shown = resolve(waiting.name, "", None)

    assert 'alt=""' in shown  # what the site it came from said, no more


def test_an_image_saved_with_alt_text_in_both_languages_no_longer_waits(admin_client):
    item = factories.MediaItemFactory(alt="Our racks", alt_zh_hans="", awaits_alt_text=True)
    change = f"/admin/media/mediaitem/{item.pk}/change/"
    waiting = admin_client.get("/admin/media/mediaitem/?awaits_alt_text__exact=1")
    assert list(waiting.context["cl"].result_list) == [item]

    response = admin_client.post(
        change, form_data(admin_client.get(change), alt_zh_hans="我们的机架")
    )

    assert response.status_code == 302
    item.refresh_from_db()
    assert not item.awaits_alt_text
    listed = admin_client.get("/admin/media/mediaitem/?awaits_alt_text__exact=1")
    assert list(listed.context["cl"].result_list) == []


def _gps_rotated_jpeg():
    """Pixels stored sideways (top red, bottom blue), EXIF orientation 6 and a GPS position."""
    image = Image.new("RGB", (600, 400), "blue")
    image.paste("red", (0, 0, 600, 200))
    exif = Image.Exif()
    exif[ExifTags.Base.Orientation] = 6
    exif[ExifTags.Base.Make] = "PhoneCo"
    gps = exif.get_ifd(ExifTags.IFD.GPSInfo)
    gps[ExifTags.GPS.GPSLatitudeRef] = "N"
    gps[ExifTags.GPS.GPSLatitude] = (39.0, 59.0, 0.0)
    return _encode(image, "JPEG", exif=exif.tobytes())


def test_an_upload_is_turned_upright_and_keeps_no_location_in_any_file(admin_client):
    _upload(admin_client, _gps_rotated_jpeg())

    item = MediaItem.objects.get()
    assert (item.width, item.height) == (400, 600)  # upright: taller than wide
    names = [item.image.name, *item.rendition_names()]
    for name in names:
        path = Path(settings.MEDIA_ROOT) / name
        assert b"PhoneCo" not in path.read_bytes()
        with Image.open(path) as stored:
            assert not stored.getexif().get_ifd(ExifTags.IFD.GPSInfo)
            rgb = stored.convert("RGB")
            w, h = rgb.size
            assert rgb.getpixel((w // 8, h // 2))[2] > 200  # blue on the left
            assert rgb.getpixel((w * 7 // 8, h // 2))[0] > 200  # red on the right


def _png_header_50000():
    """A PNG whose header says 50,000 × 50,000 pixels, with almost no data after it."""
    png = _encode(Image.new("L", (1, 1)), "PNG")
    import struct
    import zlib

    ihdr = struct.pack(">IIBBBBB", 50_000, 50_000, 8, 0, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return png[:8] + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk)) + png[33:]


HOSTILE = {
    "a decompression bomb": (
        lambda: _encode(Image.new("1", (15_000, 15_000)), "PNG"),
        "bomb.png",
        "too many pixels",
    ),
    "a 50,000 × 50,000 PNG header": (_png_header_50000, "huge.png", "too many pixels"),
    "an SVG with a script": (
        lambda: b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        "logo.svg",
        "SVG files are not accepted",
    ),
    "a PNG that is also a web page": (
        lambda: (
            _encode(Image.new("RGB", (300, 300), "green"), "PNG")
            + b"<html><script>alert(document.cookie)</script></html>"
        ),
        "polyglot.png",
        "an image and something else as well",
    ),
    "a JPEG that is also a ZIP archive": (
        lambda: (
            factories.photo_bytes((200, 200)) + b"PK\x03\x04payload" + b"PK\x05\x06" + b"\0" * 18
        ),
        "gifar.jpg",
        "an image and something else as well",
    ),
    "a file that is no image": (lambda: b"%PDF-1.4 not a photo", "cv.jpg", "not an image"),
}


@pytest.mark.parametrize("hostile", HOSTILE, ids=list(HOSTILE))
def test_a_hostile_upload_is_refused_with_a_message_and_nothing_is_written(admin_client, hostile):
    make, filename, message = HOSTILE[hostile]
    content = make()
    assert len(content) < 200_000  # each is small: the danger is in what it claims or hides
    before = _stored_files()

    response = _upload(admin_client, content, filename)

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not MediaItem.objects.exists()
    assert _stored_files() == before


def test_the_model_refuses_a_polyglot_outside_the_admin_too():
    before = _stored_files()
    polyglot = factories.photo_bytes((200, 200)) + b"<script>alert(1)</script>"

    with pytest.raises(Exception, match="something else as well"):
        factories.MediaItemFactory(image=SimpleUploadedFile("p.jpg", polyglot))

    assert not MediaItem.objects.exists()
    assert _stored_files() == before


def test_the_resolver_gives_a_figure_with_srcset_sizes_alt_and_caption():
    item = factories.MediaItemFactory(
        name="cluster",
        image=SimpleUploadedFile("c.jpg", factories.photo_bytes((1600, 900))),
        alt="Four racks of GPU servers",
        caption="Our cluster in 2026",
        credit="Photo: Lin Wei",
    )

    html = resolve("cluster", "", None)

    assert html.startswith('<figure class="figure"><picture>')
    assert 'type="image/webp"' in html
    assert re.search(
        r'srcset="[^"]+\.webp 390w, [^"]+ 640w, [^"]+ 960w, [^"]+ 1280w, [^"]+ 1600w"', html
    )
    assert 'sizes="(max-width: 800px) calc(100vw - 2.5rem), 736px"' in html
    assert 'width="1600" height="900"' in html
    assert 'alt="Four racks of GPU servers"' in html and 'loading="lazy"' in html
    assert "<figcaption>Our cluster in 2026 " in html and "Photo: Lin Wei" in html
    assert item.fallback().url in html


def test_the_texts_alt_and_title_win_and_are_escaped():
    factories.MediaItemFactory(name="cluster", caption="Our cluster")

    html = resolve("cluster", 'The "old" <rack>', "Before the move & after")

    assert 'alt="The &quot;old&quot; &lt;rack&gt;"' in html
    assert "<figcaption>Before the move &amp; after</figcaption>" in html


def test_the_resolver_says_none_for_an_unknown_name():
    assert resolve("no-such-image", "alt", None) is None
    assert resolve("gallery/no-such-gallery", "alt", None) is None


def test_a_gallery_is_a_grid_of_figures_with_captions():
    gallery = factories.GalleryFactory(name="retreat", title="Our retreat, 2026")
    for position, caption in enumerate(["The hike", "The dinner"], start=1):
        factories.GalleryItemFactory(
            gallery=gallery,
            position=position,
            item=factories.MediaItemFactory(caption=caption),
        )

    html = resolve("gallery/retreat", "", None)

    assert html.startswith('<figure class="gallery"><ul class="gallery__grid"><li>')
    assert html.count("<picture>") == 2
    assert html.index("The hike") < html.index("The dinner")
    assert html.endswith("<figcaption>Our retreat, 2026</figcaption></figure>")


def test_the_resolver_is_registered_when_the_renderer_has_the_hook():
    import core.markup

    if not hasattr(core.markup, "register_media_resolver"):
        pytest.skip("this renderer has no media hook yet (it shows no images)")
    factories.MediaItemFactory(name="cluster", alt="Racks")

    html = core.markup.render_page_markdown("![Racks](media:cluster)")

    assert "<picture>" in html and 'alt="Racks"' in html
