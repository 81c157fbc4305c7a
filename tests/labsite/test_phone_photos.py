"""Photos as phones make them (an iPhone's MPO JPEG, a HEIC), through the admin form and the
site import: accepted, stored upright as a fresh JPEG with no location."""

import io

import pillow_heif
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import ExifTags, Image

from core import images
from people.models import Person
from tests import factories
from tests.admin_forms import form_data
from tests.labsite.test_site_import import _import, _own_copy

pytestmark = pytest.mark.django_db


def _sideways_exif():
    """Orientation 6 (display rotated 90° clockwise), a camera maker and a GPS position."""
    exif = Image.Exif()
    exif[ExifTags.Base.Orientation] = 6
    exif[ExifTags.Base.Make] = "PhoneCo"
    gps = exif.get_ifd(ExifTags.IFD.GPSInfo)
    gps[ExifTags.GPS.GPSLatitudeRef] = "N"
    gps[ExifTags.GPS.GPSLatitude] = (39.0, 59.0, 0.0)
    gps[ExifTags.GPS.GPSLongitudeRef] = "E"
    gps[ExifTags.GPS.GPSLongitude] = (116.0, 19.0, 0.0)
    return exif.tobytes()


def _sideways_pixels():
    """Stored sideways: top red, bottom blue; shown upright, red is on the right."""
    image = Image.new("RGB", (600, 400), "blue")
    image.paste("red", (0, 0, 600, 200))
    return image


def mpo_photo():
    """An MPO as an iPhone writes its JPEGs: the photo, then a second image (a depth map)."""
    buffer = io.BytesIO()
    depth = Image.new("RGB", (300, 200), "gray")
    _sideways_pixels().save(
        buffer, "MPO", save_all=True, append_images=[depth], exif=_sideways_exif()
    )
    return buffer.getvalue()


def heic_photo():
    buffer = io.BytesIO()
    _sideways_pixels().save(buffer, "HEIF", exif=_sideways_exif(), quality=90)
    return buffer.getvalue()


def test_the_test_photos_are_what_phones_make():
    mpo = Image.open(io.BytesIO(mpo_photo()))
    heic = Image.open(io.BytesIO(heic_photo()))

    assert (mpo.format, mpo.n_frames) == ("MPO", 2)
    assert mpo.getexif().get_ifd(ExifTags.IFD.GPSInfo)
    assert heic.format == "HEIF"
    assert pillow_heif.is_supported(io.BytesIO(heic_photo()))


def _assert_upright_jpeg_without_metadata(field):
    stored = Image.open(field.path)
    assert stored.format == "JPEG"
    assert not stored.getexif()
    with open(field.path, "rb") as file:
        assert b"PhoneCo" not in file.read()
    width, height = stored.size
    assert width == height
    assert stored.getpixel((width // 8, height // 2))[2] > 200  # blue on the left
    assert stored.getpixel((width * 7 // 8, height // 2))[0] > 200  # red on the right


@pytest.mark.parametrize(
    ("make", "name"), [(mpo_photo, "IMG_0001.JPG"), (heic_photo, "IMG_0002.HEIC")]
)
def test_a_phone_photo_is_accepted_by_the_admin_upright_and_without_location(
    admin_client, make, name
):
    person = factories.PersonFactory(slug="teng-ma", name="Teng Ma")
    url = f"/admin/people/person/{person.pk}/change/"
    data = form_data(admin_client.get(url), photo=SimpleUploadedFile(name, make()))

    response = admin_client.post(url, data)

    assert response.status_code == 302
    person.refresh_from_db()
    for field in (person.photo, person.photo_thumb):
        _assert_upright_jpeg_without_metadata(field)


def test_the_photo_field_offers_heic_to_the_file_chooser(admin_client):
    person = factories.PersonFactory()

    html = admin_client.get(f"/admin/people/person/{person.pk}/change/").content.decode()

    assert f'accept="{images.ACCEPT}"' in html
    assert "image/heic" in images.ACCEPT


def test_a_site_import_brings_a_phone_photo_in(tmp_path):
    site = _own_copy("alfolio-template", tmp_path)
    (site / "assets/img").mkdir(parents=True)
    (site / "assets/img/prof_pic.jpg").write_bytes(mpo_photo())

    _import(site, "--apply")

    _assert_upright_jpeg_without_metadata(Person.objects.get().photo)
