"""A refused admin form keeps the files chosen in it: the photo or banner image is offered
again, not chosen again."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from people.models import Person
from tests import factories
from tests.admin_forms import form_data
from website.models import HomeSection

pytestmark = pytest.mark.django_db


def _kept(response, name):
    html = response.content.decode()
    found = re.search(rf'<input type="hidden" name="{name}__kept" value="([^"]+)">', html)
    return found and found.group(1)


def test_a_refused_person_form_keeps_its_photo_for_the_next_try(admin_client):
    person = factories.PersonFactory(slug="teng-ma", name="Teng Ma")
    url = f"/admin/people/person/{person.pk}/change/"
    form = admin_client.get(url)
    data = form_data(
        form, photo=factories.photo_upload(name="portrait.png"), orcid="0000-0002-1825-0098"
    )

    refused = admin_client.post(url, data)

    assert refused.status_code == 200 and refused.context["adminform"].form.errors["orcid"]
    assert "Kept from your last try: <strong>portrait.png</strong>" in refused.content.decode()
    token = _kept(refused, "photo")
    assert token
    person.refresh_from_db()
    assert not person.photo

    again = form_data(form, orcid="0000-0002-1825-0097")
    again["photo__kept"] = token  # as the browser sends the refused page's form
    assert admin_client.post(url, again).status_code == 302

    person.refresh_from_db()
    assert person.photo and person.photo_thumb
    assert person.photo.name.endswith(".jpg")  # encoded afresh, as any upload


def test_a_refused_banner_keeps_its_image(admin_client):
    url = "/admin/website/homesection/add/"
    data = form_data(
        admin_client.get(url), kind="banner", text="Hello.", image=factories.photo_upload()
    )  # no description of the image: refused

    refused = admin_client.post(url, data)
    token = _kept(refused, "image")
    del data["image"]
    data.update(image__kept=token, image_alt_en="The lab's servers")
    saved = admin_client.post(url, data)

    assert refused.status_code == 200 and token
    assert saved.status_code == 302
    assert HomeSection.objects.get(kind="banner").image


def test_a_refused_image_is_not_kept(admin_client):
    person = factories.PersonFactory()
    url = f"/admin/people/person/{person.pk}/change/"
    data = form_data(admin_client.get(url), photo=SimpleUploadedFile("x.jpg", b"not an image"))

    refused = admin_client.post(url, data)

    assert refused.status_code == 200 and not _kept(refused, "photo")


def test_a_forged_or_used_token_brings_nothing(admin_client):
    person = factories.PersonFactory()
    url = f"/admin/people/person/{person.pk}/change/"
    form = admin_client.get(url)
    refused = admin_client.post(
        url, form_data(form, photo=factories.photo_upload(), orcid="0000-0002-1825-0098")
    )
    token = _kept(refused, "photo")
    assert admin_client.post(url, {**form_data(form), "photo__kept": token}).status_code == 302

    for used_or_forged in (token, token[:-2] + "xx", "../../etc/passwd"):
        person.photo = None
        Person.objects.filter(pk=person.pk).update(photo="", photo_thumb="")
        response = admin_client.post(url, {**form_data(form), "photo__kept": used_or_forged})
        assert response.status_code == 302
        assert not Person.objects.get(pk=person.pk).photo
