"""The photo pipeline, through the admin form a lab admin uses."""

import io
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import ExifTags, Image

from people.models import Person
from tests import factories
from tests.admin_forms import form_data

pytestmark = pytest.mark.django_db


def _encode(image, fmt, **params):
    buffer = io.BytesIO()
    image.save(buffer, fmt, **params)
    return buffer.getvalue()


def _upload_photo(admin_client, content, name):
    person = factories.PersonFactory(slug="teng-ma", name="Teng Ma")
    url = f"/admin/people/person/{person.pk}/change/"
    data = form_data(admin_client.get(url), photo=SimpleUploadedFile(name, content))
    response = admin_client.post(url, data)
    person.refresh_from_db()
    return response, person


def _assert_refused(response, person, message):
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not person.photo


def test_decompression_bomb_is_refused_with_a_form_error(admin_client):
    bomb = _encode(Image.new("1", (15000, 15000)), "PNG")  # 225 megapixels in a few KB
    assert len(bomb) < 100_000

    response, person = _upload_photo(admin_client, bomb, "bomb.png")

    _assert_refused(response, person, "too many pixels")


def test_image_over_40_megapixels_is_refused(admin_client):
    large = _encode(Image.new("L", (8000, 5125)), "PNG")  # 41 megapixels

    response, person = _upload_photo(admin_client, large, "large.png")

    _assert_refused(response, person, "images may be at most 40 megapixels")


def test_file_over_10_mb_is_refused(admin_client):
    response, person = _upload_photo(admin_client, b"\xff" * (10 * 1024 * 1024 + 1), "big.jpg")

    _assert_refused(response, person, "photos may be at most 10 MB")


def test_non_image_renamed_jpg_is_refused(admin_client):
    response, person = _upload_photo(admin_client, b"%PDF-1.4 not a photo at all", "cv.jpg")

    _assert_refused(response, person, "This file is not an image")


def test_svg_is_refused(admin_client):
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'

    response, person = _upload_photo(admin_client, svg, "face.svg")

    _assert_refused(response, person, "SVG files are not accepted")


def test_gif_is_refused(admin_client):
    response, person = _upload_photo(
        admin_client, _encode(Image.new("RGB", (50, 50)), "GIF"), "a.gif"
    )

    _assert_refused(response, person, "GIF images are not accepted")


def test_truncated_jpeg_is_refused(admin_client):
    jpeg = _encode(Image.effect_noise((400, 400), 64).convert("RGB"), "JPEG")

    response, person = _upload_photo(admin_client, jpeg[: len(jpeg) // 2], "cut.jpg")

    _assert_refused(response, person, "damaged or incomplete")


def test_png_with_trailing_html_is_stored_as_a_clean_reencoding(admin_client):
    polyglot = _encode(Image.new("RGB", (300, 300), "green"), "PNG")
    polyglot += b"<html><script>alert(document.cookie)</script></html>"

    response, person = _upload_photo(admin_client, polyglot, "polyglot.png")

    assert response.status_code == 302
    stored = person.photo.read()
    assert b"<script" not in stored and b"<html" not in stored
    assert Image.open(io.BytesIO(stored)).format == "JPEG"


def _gps_rotated_jpeg():
    """A JPEG whose pixels are stored sideways (top red, bottom blue) with EXIF orientation 6
    (display rotated 90° clockwise, so red on the right) and a GPS position."""
    image = Image.new("RGB", (600, 400), "blue")
    image.paste("red", (0, 0, 600, 200))
    exif = Image.Exif()
    exif[ExifTags.Base.Orientation] = 6
    exif[ExifTags.Base.Make] = "PhoneCo"
    gps = exif.get_ifd(ExifTags.IFD.GPSInfo)
    gps[ExifTags.GPS.GPSLatitudeRef] = "N"
    gps[ExifTags.GPS.GPSLatitude] = (39.0, 59.0, 0.0)
    gps[ExifTags.GPS.GPSLongitudeRef] = "E"
    gps[ExifTags.GPS.GPSLongitude] = (116.0, 19.0, 0.0)
    return _encode(image, "JPEG", exif=exif.tobytes())


def test_jpeg_with_gps_and_rotation_is_stored_upright_without_metadata(admin_client):
    original = _gps_rotated_jpeg()
    assert Image.open(io.BytesIO(original)).getexif().get_ifd(ExifTags.IFD.GPSInfo)

    response, person = _upload_photo(admin_client, original, "holiday.jpg")

    assert response.status_code == 302
    for field in (person.photo, person.photo_thumb):
        stored = Image.open(field.path)
        assert not stored.getexif()
        assert "exif" not in stored.info
        with open(field.path, "rb") as file:
            assert b"PhoneCo" not in file.read()
        width, height = stored.size
        assert width == height
        assert stored.getpixel((width // 8, height // 2))[2] > 200  # blue on the left
        assert stored.getpixel((width * 7 // 8, height // 2))[0] > 200  # red on the right


def test_stored_photos_get_server_generated_names_in_two_sizes(admin_client):
    response, person = _upload_photo(admin_client, _gps_rotated_jpeg(), "my holiday.jpg")

    assert response.status_code == 302
    assert "holiday" not in person.photo.name
    assert Image.open(person.photo.path).size == (400, 400)  # the original is 400 px high
    assert Image.open(person.photo_thumb.path).size == (192, 192)


def test_profile_and_team_page_show_the_processed_photo(client, admin_client):
    _upload_photo(admin_client, _gps_rotated_jpeg(), "me.jpg")
    person = Person.objects.get(slug="teng-ma")

    assert person.photo.url in client.get("/people/teng-ma/").content.decode()
    assert person.photo_thumb.url in client.get("/people/").content.decode()


def test_removing_the_photo_brings_back_the_initials(client, admin_client):
    _, person = _upload_photo(admin_client, _gps_rotated_jpeg(), "me.jpg")
    url = f"/admin/people/person/{person.pk}/change/"
    admin_client.post(url, form_data(admin_client.get(url), **{"photo-clear": "on"}))

    person.refresh_from_db()
    assert not person.photo and not person.photo_thumb
    assert b">TM</span>" in client.get("/people/teng-ma/").content


def test_a_full_disk_refuses_an_upload_whole_and_leaves_no_file_behind(
    admin_client, client, full_disk, caplog, settings
):
    person = factories.PersonFactory(slug="teng-ma", name="Teng Ma")
    url = f"/admin/people/person/{person.pk}/change/"
    photo = factories.photo_upload((300, 400))
    data = form_data(admin_client.get(url), photo=photo, title="Associate Professor")
    photos = Path(settings.MEDIA_ROOT) / "people"
    before = {path for path in photos.rglob("*") if path.is_file()}
    full_disk()
    admin_client.raise_request_exception = False  # answered as a browser sees it

    response = admin_client.post(url, data)

    assert response.status_code == 503
    assert "The disk the site stores files on is not answering" in response.content.decode()
    assert "nothing has changed" in response.content.decode()
    assert "disk does not answer" in caplog.text  # the log names the part
    person.refresh_from_db()
    assert not person.photo and person.title != "Associate Professor"
    assert {path for path in photos.rglob("*") if path.is_file()} == before  # no 0-byte file
    assert client.get("/people/teng-ma/").status_code == 200
