"""Media on S3-compatible object storage (django-storages), against moto's local S3 server."""

import http.client
import io
import json
import re
import socket
import subprocess
import sys
import time
from urllib.parse import urlsplit

import boto3
import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from moto.server import ThreadedMotoServer
from PIL import Image

from labsite import archive
from labsite.static_site import export_static
from people.models import Person
from tests import factories, served
from tests.admin_forms import form_data

pytestmark = pytest.mark.django_db
BUCKET = "lab-media"
PUBLIC_READ = {
    "Version": "2012-10-17",
    "Statement": [
        {
            "Effect": "Allow",
            "Principal": "*",
            "Action": "s3:GetObject",
            "Resource": f"arn:aws:s3:::{BUCKET}/*",
        }
    ],
}


@pytest.fixture
def s3(monkeypatch):
    """A local S3 server with an empty bucket, and the site's media stored there (the
    settings `S3_BUCKET` and `S3_ENDPOINT_URL` make)."""
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(name, value)
    client = boto3.client("s3", endpoint_url=endpoint)
    client.create_bucket(Bucket=BUCKET)
    # Photos are read by visitors' browsers: the bucket is public-read, as README says.
    client.put_bucket_policy(Bucket=BUCKET, Policy=json.dumps(PUBLIC_READ))
    storage = {
        "BACKEND": "storages.backends.s3.S3Storage",  # as settings.py makes it
        "OPTIONS": {
            "bucket_name": BUCKET,
            "endpoint_url": endpoint,
            "querystring_auth": False,
            "file_overwrite": False,
            "default_acl": None,
            "object_parameters": {"CacheControl": settings.MEDIA_CACHE_CONTROL},
        },
    }
    with override_settings(
        STORAGES={
            "default": storage,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
    ):
        yield endpoint
    server.stop()


def _fetch(url, header="Content-Type"):
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.netloc, timeout=10)
    connection.request("GET", parts.path)
    response = connection.getresponse()
    return response.status, response.getheader(header), response.read()


def test_the_settings_store_media_in_a_bucket_with_a_years_lifetime(tmp_path):
    env = served.site_env(tmp_path, S3_BUCKET=BUCKET, AWS_ACCESS_KEY_ID="test")
    code = "from django.conf import settings; print(settings.STORAGES['default']['OPTIONS'])"
    shown = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        env=env,
        cwd=served.ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout

    assert "'object_parameters': {'CacheControl': 'public, max-age=31536000, immutable'}" in shown


def test_a_library_image_and_its_sizes_are_served_from_the_bucket_for_browsers_to_keep(s3):
    item = factories.MediaItemFactory(
        image=SimpleUploadedFile("c.jpg", factories.photo_bytes((480, 320)))
    )
    files = [item.image, *(file for _w, *pair in item.renditions() for file in pair)]

    for file in files:
        status, lifetime, _body = _fetch(file.url, "Cache-Control")
        assert (status, lifetime) == (200, "public, max-age=31536000, immutable"), file.name
    # a replaced image is a new address: no browser keeps the old one for it
    item.image = SimpleUploadedFile("d.jpg", factories.photo_bytes((480, 320)))
    item.save()
    assert not {f.url for f in files} & {item.image.url, item.fallback().url}


def test_an_uploaded_photo_is_stored_in_the_bucket_and_served_from_its_url(s3, admin_client):
    person = factories.PersonFactory(slug="teng-ma", name="Teng Ma")
    url = f"/admin/people/person/{person.pk}/change/"
    data = form_data(admin_client.get(url), photo=factories.photo_upload((300, 400)))

    assert admin_client.post(url, data).status_code == 302

    person.refresh_from_db()
    stored = boto3.client("s3", endpoint_url=s3).list_objects_v2(Bucket=BUCKET)["Contents"]
    assert person.photo.name in {item["Key"] for item in stored}
    assert person.photo.url.startswith(f"{s3}/{BUCKET}/people/photos/")
    status, content_type, body = _fetch(person.photo.url)
    assert (status, content_type) == (200, "image/jpeg")
    with person.photo.open("rb") as stored_photo:
        assert body == stored_photo.read()
    assert Image.open(io.BytesIO(body)).format == "JPEG"
    assert person.photo.url in admin_client.get("/people/teng-ma/").content.decode()
    # a link preview's image is the bucket's address, not this site's glued before it
    page = admin_client.get("/people/teng-ma/").content.decode()
    assert f'<meta property="og:image" content="{person.photo.url}">' in page


def test_while_the_storage_does_not_answer_an_upload_is_refused_whole(
    s3, admin_client, client, settings
):
    person = factories.PersonFactory(slug="teng-ma", name="Teng Ma")
    url = f"/admin/people/person/{person.pk}/change/"
    photo = factories.photo_upload((300, 400))
    data = form_data(admin_client.get(url), photo=photo, title="Associate Professor")
    with socket.socket() as unused:  # nothing listens at the storage's address any more
        unused.bind(("127.0.0.1", 0))
        gone = f"http://127.0.0.1:{unused.getsockname()[1]}"
    storage = settings.STORAGES["default"]
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {**storage, "OPTIONS": {**storage["OPTIONS"], "endpoint_url": gone}},
    }

    admin_client.raise_request_exception = False  # answered as a visitor's browser sees it

    response = admin_client.post(url, data)

    assert response.status_code == 503
    assert "file storage is not answering" in response.content.decode()
    person.refresh_from_db()
    assert not person.photo and person.title != "Associate Professor"  # nothing written
    assert client.get("/people/teng-ma/").status_code == 200  # visitors are not affected


def test_a_storage_that_accepts_and_never_answers_refuses_an_upload_within_its_timeouts(
    s3, admin_client, settings, silent_server, caplog
):
    from botocore.config import Config

    person = factories.PersonFactory(slug="teng-ma", name="Teng Ma")
    url = f"/admin/people/person/{person.pk}/change/"
    data = form_data(admin_client.get(url), photo=factories.photo_upload((300, 400)))
    storage = settings.STORAGES["default"]
    timeouts = Config(connect_timeout=1, read_timeout=1, retries={"max_attempts": 2})
    options = {**storage["OPTIONS"], "endpoint_url": silent_server, "client_config": timeouts}
    settings.STORAGES = {**settings.STORAGES, "default": {**storage, "OPTIONS": options}}
    admin_client.raise_request_exception = False
    started = time.monotonic()

    response = admin_client.post(url, data)

    assert response.status_code == 503 and time.monotonic() - started < 10
    assert "file storage is not answering" in response.content.decode()
    assert "file storage does not answer" in caplog.text  # the log names the part
    person.refresh_from_db()
    assert not person.photo


def test_an_archive_takes_its_files_from_the_bucket_and_puts_them_back(s3, demo):
    person = Person.objects.get(slug="teng-ma")
    person.photo = factories.photo_upload(color="navy")
    person.save()
    name, body = person.photo.name, _fetch(person.photo.url)[2]
    written = io.BytesIO()
    archive.export_lab(written)
    archive._delete_content(accounts=True)
    person.photo.storage.delete(name)

    archive.import_lab(io.BytesIO(written.getvalue()))

    assert _fetch(Person.objects.get(slug="teng-ma").photo.url) == (200, "image/jpeg", body)


def test_the_static_copy_holds_the_photos_kept_in_the_bucket(s3, demo, tmp_path):
    person = Person.objects.get(slug="teng-ma")
    person.photo = factories.photo_upload((300, 400), color="navy")
    person.save()
    in_bucket = {name: _fetch(getattr(person, name).url)[2] for name in ("photo", "photo_thumb")}

    export_static(tmp_path, "https://lab.example.org/")

    page = (tmp_path / "people/teng-ma/index.html").read_text()
    team = (tmp_path / "people/index.html").read_text()
    assert s3 not in page + team  # the copy needs nothing of the live site's storage
    assert f"/media/{person.photo.name}" in page
    assert f"/media/{person.photo_thumb.name}" in team
    for field, body in in_bucket.items():
        assert (tmp_path / "media" / getattr(person, field).name).read_bytes() == body
    preview = re.search(r'<meta property="og:image" content="([^"]+)"', page)[1]
    assert preview == f"https://lab.example.org/media/{person.photo.name}"
