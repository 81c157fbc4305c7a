"""Work queued for a transaction's commit (core/after_commit.py) runs once however many
changes ask for it, is queued again after a rollback took it away, and is known without
reading Django's own list of commit hooks."""

import contextlib

import pytest
from django.db import transaction

from core import after_commit

pytestmark = pytest.mark.django_db


class Refused(Exception):
    pass


@pytest.fixture
def runs():
    done = []

    def work():
        done.append(1)

    work.done = done
    return work


def test_work_asked_for_by_many_changes_runs_once_after_the_commit(
    runs, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        asked = [after_commit.once(runs) for _ in range(3)]
        assert runs.done == []  # not before the commit

    assert asked == [True, False, False]
    assert runs.done == [1]


def test_work_queued_in_a_released_savepoint_stays_queued(runs, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            assert after_commit.once(runs)
        assert not after_commit.once(runs)

    assert runs.done == [1]


def test_work_queued_in_a_rolled_back_savepoint_is_queued_again(
    runs, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        with contextlib.suppress(Refused), transaction.atomic():
            assert after_commit.once(runs)
            raise Refused  # Django drops the hooks queued in the savepoint

        assert after_commit.once(runs)

    assert runs.done == [1]


def test_forgotten_work_is_queued_again_and_runs_as_often(runs, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        after_commit.once(runs)
        after_commit.forget(runs)
        assert after_commit.once(runs)

    assert runs.done == [1, 1]


def test_arguments_make_work_of_its_own(django_capture_on_commit_callbacks):
    told = []

    with django_capture_on_commit_callbacks(execute=True):
        queued = [after_commit.once(told.append, x) for x in ("a", "b", "a")]

    assert queued == [True, True, False]
    assert told == ["a", "b"]


@pytest.mark.django_db(transaction=True)
def test_each_transaction_queues_its_own_and_outside_one_work_runs_at_once(runs):
    for _ in range(2):
        with transaction.atomic():
            assert after_commit.once(runs)
            assert not after_commit.once(runs)
    with contextlib.suppress(Refused), transaction.atomic():
        assert after_commit.once(runs)
        raise Refused
    with transaction.atomic():
        assert after_commit.once(runs)  # the rolled-back transaction's went with it

    assert runs.done == [1, 1, 1]
    assert after_commit.once(runs) and runs.done == [1, 1, 1, 1]
