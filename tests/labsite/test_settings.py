"""Start-up behaviour of labsite/settings.py, each case in a fresh interpreter."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]


def _run(*args, **env):
    clean_env = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "labsite.settings",
        "LABSITE_ENV_FILE": os.devnull,  # a developer's .env must not leak into these cases
        **env,
    }
    return subprocess.run(
        [sys.executable, *args], cwd=PROJECT, env=clean_env, capture_output=True, text=True
    )


SHOW_DEBUG = ("-c", "from django.conf import settings; print('DEBUG', settings.DEBUG)")


def test_debug_is_off_when_the_environment_does_not_turn_it_on():
    result = _run(*SHOW_DEBUG, SECRET_KEY="k" * 50)

    assert result.returncode == 0, result.stderr
    assert "DEBUG False" in result.stdout


def test_production_without_secret_key_refuses_to_start_naming_the_variable():
    result = _run(*SHOW_DEBUG)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY is not set" in result.stderr


def test_debug_may_run_without_a_secret_key():
    result = _run(*SHOW_DEBUG, DEBUG="on")

    assert result.returncode == 0, result.stderr
    assert "DEBUG True" in result.stdout


def test_check_deploy_is_clean_with_production_settings():
    result = _run(
        "manage.py",
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="lab.example.org",
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_an_s3_bucket_in_the_environment_stores_media_there_and_lets_pages_show_it():
    show = (
        "from django.conf import settings; from django.core.files.storage import default_storage;"
        "print(type(default_storage._setup() or default_storage._wrapped).__name__);"
        "print(default_storage.url('people/photos/a.jpg')); print(settings.CONTENT_SECURITY_POLICY)"
    )
    result = _run(
        "-c",
        show,
        SECRET_KEY="k" * 50,
        S3_BUCKET="lab-media",
        S3_ENDPOINT_URL="https://s3.example.org",
    )

    assert result.returncode == 0, result.stderr
    backend, url, policy = result.stdout.splitlines()
    assert backend == "S3Storage"
    assert url == "https://s3.example.org/lab-media/people/photos/a.jpg"
    assert "https://s3.example.org/lab-media/" in policy


SHOW_SERVING = (
    "-c",
    "from django.conf import settings as s; "
    "print('PAGE_CACHE', s.PAGE_CACHE, 'CONN_MAX_AGE', s.DATABASES['default']['CONN_MAX_AGE'])",
)


def test_a_worker_keeps_its_database_connection_open_between_requests():
    on_sqlite = _run(*SHOW_SERVING, SECRET_KEY="k" * 50)
    on_postgresql = _run(
        *SHOW_SERVING, SECRET_KEY="k" * 50, DATABASE_URL="postgres://u@127.0.0.1:5432/lab"
    )

    assert "CONN_MAX_AGE 600" in on_sqlite.stdout, on_sqlite.stderr
    # every request reads the content version first: one connection per request would
    # cost more than serving the page
    assert "CONN_MAX_AGE 60" in on_postgresql.stdout, on_postgresql.stderr


def test_pages_are_stored_unless_the_cache_keeps_nothing():
    default = _run(*SHOW_SERVING, SECRET_KEY="k" * 50)
    dummy = _run(*SHOW_SERVING, SECRET_KEY="k" * 50, CACHE_URL="dummycache://")

    assert "PAGE_CACHE True" in default.stdout, default.stderr
    assert "PAGE_CACHE False" in dummy.stdout, dummy.stderr
