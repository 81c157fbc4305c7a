"""Failed logins lock a username/address pair out for a cool-off, then let it in again."""

import datetime

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/?next=/admin/"


PASSWORD = "a-long-test-password"


@pytest.fixture
def editor(db):
    return UserFactory(username="editor", is_staff=True, password=PASSWORD)


def _login(client, password):
    return client.post(LOGIN, {"username": "editor", "password": password}, REMOTE_ADDR="10.9.8.7")


def test_repeated_failures_lock_the_account_out_even_with_the_right_password(client, editor):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _login(client, "wrong").status_code == 200  # the form again, with its error
    assert _login(client, "wrong").status_code == 429  # the last allowed failure locks

    locked = _login(client, PASSWORD)

    assert locked.status_code == 429
    assert "locked" in locked.content.decode().lower()
    assert "_auth_user_id" not in client.session


def test_fewer_failures_than_the_limit_do_not_lock(client, editor):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _login(client, "wrong")

    assert _login(client, PASSWORD).status_code == 302


def test_lockout_clears_after_the_cool_off(client, editor):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(client, "wrong")
    assert _login(client, PASSWORD).status_code == 429

    cooled = datetime.timedelta(seconds=1) + settings.AXES_COOLOFF_TIME
    for attempt in AccessAttempt.objects.all():
        attempt.attempt_time -= cooled
        attempt.save()

    response = _login(client, PASSWORD)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(editor.pk)


def test_passwords_are_checked_by_djangos_validators():
    with pytest.raises(ValidationError):
        validate_password("password")
    with pytest.raises(ValidationError):
        validate_password("12345678901")
