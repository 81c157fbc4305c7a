"""The site's look from the lab settings: a primary colour that every page takes up in the
light and the dark theme, refused when text in it would be hard to read; and the site icon."""

import io
import re

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from core import colours
from lab import look
from lab.models import LabSettings
from labsite.static_site import export_static
from tests.admin_forms import form_data
from tests.labsite.test_static_site import crawl

pytestmark = pytest.mark.django_db

SETTINGS = "/admin/lab/labsettings/1/change/"
DARK_PAPER = "#15191d"  # site.css, the dark theme's --paper


@pytest.fixture(autouse=True)
def _settings_row(db):
    LabSettings.load()


def _save_settings(admin_client, **changes):
    return admin_client.post(SETTINGS, form_data(admin_client.get(SETTINGS), **changes))


def _colours_css(client, url="/"):
    """The lab's colour stylesheet the page at `url` links to (None when it links none)."""
    html = client.get(url).content.decode()
    link = re.search(r'<link rel="stylesheet" href="(/colours/[^"]+\.css)">', html)
    if link is None:
        return None
    response = client.get(link[1])
    assert response.status_code == 200
    assert response["Content-Type"] == "text/css; charset=utf-8"
    return response.content.decode()


def test_a_low_contrast_colour_is_refused_with_its_ratio_and_a_darker_shade(admin_client):
    response = _save_settings(admin_client, primary_colour="#ff9900")  # orange on white

    text = response.content.decode()
    assert response.status_code == 200  # the form again, with the message
    assert "Links and labels in #ff9900 would be hard to read on the light page" in text
    assert "is 1.9:1, and text needs at least 4.5:1" in text
    # the shade it suggests is the same orange, darkened just enough, and is accepted
    darker = re.search(r"such as (#[0-9a-f]{6}), passes", text)[1]
    assert colours.contrast(darker, "#ffffff") >= 4.5
    assert LabSettings.load().primary_colour == ""
    assert _save_settings(admin_client, primary_colour=darker).status_code == 302
    assert LabSettings.load().primary_colour == darker


def test_a_colour_just_under_the_ratio_on_labels_is_refused_and_not_rounded_up(admin_client):
    # #2e7d32 reads at 5.1:1 on white but 4.49:1 on its own labels' tint
    text = _save_settings(admin_client, primary_colour="#2e7d32").content.decode()

    assert "is 4.4:1, and text needs at least 4.5:1" in text
    assert LabSettings.load().primary_colour == ""


def test_a_colour_not_written_as_hex_is_refused(admin_client):
    text = _save_settings(admin_client, primary_colour="blue").content.decode()

    assert "Write the colour as # and six digits or letters a–f" in text


def test_a_readable_colour_colours_every_page_in_light_and_a_lighter_shade_in_dark(
    admin_client, client
):
    assert _colours_css(client) is None  # the stylesheet's own colours until one is set

    assert _save_settings(admin_client, primary_colour="8E1B3A").status_code == 302

    assert LabSettings.load().primary_colour == "#8e1b3a"
    css = _colours_css(client)
    light, dark = css.split("@media (prefers-color-scheme: dark)")
    assert "--accent: #8e1b3a;" in light
    dark_accent = re.search(r"--accent: (#[0-9a-f]{6});", dark)[1]
    assert dark_accent != "#8e1b3a"
    assert colours.contrast(dark_accent, DARK_PAPER) >= 7
    assert (
        colours.contrast(re.search(r"--accent-soft: (#[0-9a-f]{6});", dark)[1], dark_accent) >= 4.5
    )
    assert _colours_css(client, "/zh-hans/people/") == css
    assert _colours_css(client, "/people/") == css


def test_a_new_colour_is_a_new_stylesheet_address_and_the_old_one_is_gone(admin_client, client):
    _save_settings(admin_client, primary_colour="#8e1b3a")
    first = re.search(r"/colours/[^\"]+\.css", client.get("/").content.decode())[0]
    assert client.get(first)["Cache-Control"] == "public, max-age=31536000, immutable"

    _save_settings(admin_client, primary_colour="#1b5e20")

    html = client.get("/").content.decode()  # the cached home is built afresh
    assert first not in html
    assert "--accent: #1b5e20;" in _colours_css(client)
    assert client.get(first).status_code == 404
    assert client.get("/colours/000000000000.css").status_code == 404


def test_the_admin_explains_contrast_and_shows_the_colour_in_both_themes(admin_client):
    text = admin_client.get(SETTINGS).content.decode()
    assert "the ratio between the lighter and the darker colour" in text
    assert "The site&#x27;s own blue (no colour set)." in text

    _save_settings(admin_client, primary_colour="#8e1b3a")

    text = admin_client.get(SETTINGS).content.decode()
    assert "On the light page: #8e1b3a, contrast 7.4:1." in text
    assert re.search(r"In dark mode: #[0-9a-f]{6}, contrast 7\.\d:1\.", text)
    assert text.count('<img src="data:image/svg+xml,') == 2


def test_a_site_icon_is_made_a_square_png_and_named_by_every_page(admin_client, client):
    buffer = io.BytesIO()
    Image.new("RGB", (600, 300), (142, 27, 58)).save(buffer, "JPEG")
    upload = SimpleUploadedFile("icon.jpg", buffer.getvalue())

    assert _save_settings(admin_client, favicon=upload).status_code == 302

    icon = LabSettings.load().favicon
    stored = Image.open(icon.path)
    assert (stored.format, stored.size) == ("PNG", (192, 192))
    assert stored.getpixel((96, 20))[3] == 0  # the wide picture kept whole, on transparency
    assert stored.getpixel((96, 96))[:3] == (142, 27, 58)
    html = client.get("/zh-hans/").content.decode()
    assert f'<link rel="icon" href="{icon.url}" type="image/png" sizes="192x192">' in html
    assert f'<link rel="apple-touch-icon" href="{icon.url}">' in html
    assert client.get("/favicon.svg").url == icon.url


def test_without_a_site_icon_the_initials_icon_takes_the_lab_colour(admin_client, client):
    _save_settings(admin_client, primary_colour="#8e1b3a")

    assert '<link rel="icon" href="/favicon.svg">' in client.get("/").content.decode()
    assert 'fill="#8e1b3a"' in client.get("/favicon.svg").content.decode()


def test_the_static_copy_holds_the_colour_and_the_icon(admin_client, tmp_path):
    buffer = io.BytesIO()
    Image.new("RGB", (64, 64), (142, 27, 58)).save(buffer, "PNG")
    icon = SimpleUploadedFile("icon.png", buffer.getvalue())
    _save_settings(admin_client, primary_colour="#8e1b3a", favicon=icon)

    result = export_static(tmp_path, "http://testserver/")

    found, missing = crawl(tmp_path)
    assert missing == [] and result.broken == []
    home = (tmp_path / "index.html").read_text()
    css = re.search(r'href="(/colours/[^"]+\.css)"', home)[1]
    assert "--accent: #8e1b3a;" in found[css].read_text()
    assert f"/media/{LabSettings.load().favicon.name}" in found


def test_a_colour_stored_without_the_form_leaves_pages_in_the_sites_own_colours(client):
    LabSettings.objects.update(primary_colour='"/><x>')  # e.g. typed in a database shell

    home = client.get("/")
    icon = client.get("/favicon.svg").content.decode()

    assert home.status_code == 200 and "/colours/" not in home.content.decode()
    assert 'fill="#1f5fa8"' in icon and "<x>" not in icon


def test_a_colour_no_shade_of_which_reads_on_the_dark_page_is_refused(monkeypatch):
    # a stylesheet whose dark theme has a mid-grey page: even white is under 4.5:1 on the
    # labels' tint of it (#999999)
    grey = {"paper": "#808080", "tint": "#808080"}
    light = look.stylesheet_colours()["light"]
    monkeypatch.setattr(look, "stylesheet_colours", lambda: {"light": light, "dark": grey})
    lab = LabSettings.load()
    lab.primary_colour = "#8e1b3a"

    with pytest.raises(ValidationError) as refused:
        lab.full_clean()

    assert "No lighter shade of #8e1b3a reads on the dark page (at best 2.8:1" in str(refused.value)
