"""Test settings: the real settings, with the few overrides tests need."""

import os
import tempfile
from pathlib import Path

os.environ.setdefault("DEBUG", "off")
os.environ.setdefault("SECRET_KEY", "tests-only-not-a-secret")

from labsite.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
MEDIA_ROOT = Path(tempfile.mkdtemp(prefix="labsite-test-media-"))
STATIC_ROOT = MEDIA_ROOT / "static"
PRIVATE_UPLOADS_DIR = MEDIA_ROOT.with_name(MEDIA_ROOT.name + "-kept")
STATIC_ROOT.mkdir()
_uploads = STORAGES["uploads"]  # noqa: F405
STORAGES = {
    "default": {"BACKEND": "core.storage.LocalStorage"},
    "uploads": {**_uploads, "OPTIONS": {**_uploads["OPTIONS"], "location": PRIVATE_UPLOADS_DIR}},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
SECURE_SSL_REDIRECT = False

if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    # A file, not shared-cache memory: the import test's background thread then waits for
    # locks (the busy timeout) as it does in production, instead of failing at once.
    DATABASES["default"]["TEST"] = {"NAME": str(MEDIA_ROOT / "test.sqlite3")}  # noqa: F405
    DATABASES["default"].setdefault("OPTIONS", {})["init_command"] = (  # noqa: F405
        "PRAGMA synchronous=OFF; PRAGMA journal_mode=MEMORY"
    )

# Harvests replay recorded answers from a local server: no pause between requests, and the
# queued work runs in place.
HARVEST_PAUSE = ARXIV_PAUSE = 0.0
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
