"""One harvest run: every chosen source read for every chosen member, each source on its
own (one that is down, slow or answers garbage is an error in the report, never a stop),
then the works folded into the lab in one transaction, then the figures refreshed."""

import contextlib
import datetime
import functools
import logging
import os
import socket
import urllib.parse

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django_tasks import default_task_backend
from django_tasks.base import TaskResultStatus
from django_tasks.exceptions import TaskResultDoesNotExist

from harvest.completion import Completion, complete
from harvest.figures import refresh_citations, refresh_stars
from harvest.matching import fold
from harvest.models import HarvestRun, Source
from harvest.review import auto_accept
from harvest.sources import Found, harvesters
from lab.models import LabSettings
from people.models import Person
from publications.figures import COUNTED
from publications.importing.http import HttpClient, JsonClient
from publications.importing.records import ImportProblem

logger = logging.getLogger(__name__)
IDENTITIES = ("orcid", "openalex_id", "dblp_pid", "arxiv_author_id", "semantic_scholar_id")
# Longer than any run takes (a 50-member lab reads in minutes, arXiv's pauses included).
RUN_DEADLINE = datetime.timedelta(hours=6)


def client() -> HttpClient:
    """The HTTP client of a run: each service's own pause between requests."""
    pauses = {
        urllib.parse.urlsplit(getattr(settings, name)).netloc: settings.HARVEST_PAUSE
        for name in (
            "ORCID_API_URL",
            "OPENALEX_URL",
            "CROSSREF_URL",
            "DBLP_URL",
            "GITHUB_API_URL",
            "SEMANTIC_SCHOLAR_URL",
            "EUROPEPMC_URL",
            "DATACITE_URL",
        )
    }
    pauses[urllib.parse.urlsplit(settings.ARXIV_URL).netloc] = settings.ARXIV_PAUSE
    http = HttpClient(intervals=pauses)
    http.timeout = settings.HARVEST_TIMEOUT
    http.max_bytes = settings.HARVEST_MAX_ANSWER_MB * 1024 * 1024
    return http


def harvested_people(person: Person | None = None) -> list[Person]:
    """The members a run reads: `person`, or everyone with an identity at some source."""
    if person is not None:
        return [person]
    has_identity = Q()
    for name in IDENTITIES:
        has_identity |= ~Q(**{name: ""})
    return list(Person.objects.filter(has_identity).order_by("pk"))


def execute(run: HarvestRun, http: JsonClient | None = None) -> HarvestRun:
    """Do the run and store its report; returns it finished (DONE, or FAILED with why)."""
    http = http or client()
    if busy := _start(run):
        run.status, run.message, run.finished = HarvestRun.Status.FAILED, busy, timezone.now()
        run.save(update_fields=["status", "message", "finished"])
        return run
    try:
        attempts, failures = _execute(run, http)
        run.status = HarvestRun.Status.DONE
        if attempts and failures == attempts:  # nothing was read: no "Done" like a good run
            run.status = HarvestRun.Status.FAILED
            run.message = "Every source failed; nothing was read (the report says why)."
    except Exception as error:  # the report must say it stopped, not stay "running"
        logger.exception("Harvest run %s failed", run.pk)
        run.status = HarvestRun.Status.FAILED
        run.message = f"The run stopped unexpectedly ({type(error).__name__}: {error})."
    run.finished = timezone.now()
    run.save()
    return run


def _start(run: HarvestRun) -> str:
    """Marks the run running unless a run for the same people is: then returns why not.
    Two runs at once would each make a candidate of the same work. The check and the mark
    are one transaction holding the lab settings' row, so two starts take turns. A run left
    "running" by an outage or a stopped worker is marked failed first (`_why_stopped`)."""
    now = timezone.now()
    with transaction.atomic():
        LabSettings.load()
        LabSettings.objects.select_for_update().filter(pk=1).exists()
        running = HarvestRun.objects.filter(status=HarvestRun.Status.RUNNING).exclude(pk=run.pk)
        for left in running:
            if reason := _why_stopped(left, now):
                left.status, left.finished, left.message = HarvestRun.Status.FAILED, now, reason
                left.save(update_fields=["status", "finished", "message"])
                logger.warning("Harvest run %s: %s", left.pk, reason)
        if run.person_id is not None:
            running = running.filter(Q(person=None) | Q(person=run.person_id))
        other = running.order_by("started").first()
        if other is not None:
            return (
                f"Another harvest run (#{other.pk}) was reading the same members; this one "
                "did nothing. Run it again once that one is done."
            )
        run.status, run.started, run.worker = HarvestRun.Status.RUNNING, now, _this_worker()
        run.save(update_fields=["status", "started", "worker"])
    return ""


def _this_worker() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _why_stopped(run: HarvestRun, now: datetime.datetime) -> str:
    """Why a run marked running is not running any more, or "" while it may be: its task
    ended (the task worker marks a task failed when the database went while it ran, and the
    run could not record its own end), the process that started it on this machine is
    gone, or it has been running past RUN_DEADLINE (a worker on another machine killed)."""
    if run.task_id:
        with contextlib.suppress(TaskResultDoesNotExist, NotImplementedError, ValueError):
            result = default_task_backend.get_result(run.task_id)
            if result.status == TaskResultStatus.FAILED:
                error = result.errors[-1] if result.errors else None
                said = (error.traceback.strip().splitlines() or [""])[-1] if error else ""
                return f"Interrupted: its task failed ({said or 'no reason recorded'})."
            if result.status == TaskResultStatus.SUCCESSFUL:
                return "Interrupted: its task ended without recording the run's end."
    host, _, pid = run.worker.rpartition(":")
    if host == socket.gethostname() and pid.isdigit() and not _alive(int(pid)):
        return f"Interrupted: its worker (process {pid}) stopped before the run finished."
    if run.started and run.started < now - RUN_DEADLINE:
        return "Interrupted: its worker stopped before the run finished."
    return ""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: alive
    return True


def _execute(run: HarvestRun, http: JsonClient) -> tuple[int, int]:
    """Fills the run's report; returns how many (person, source) reads it tried and how many
    of them failed."""
    attempts = failures = 0
    chosen = run.sources or list(harvesters())
    people = harvested_people(run.person)
    report: dict = {
        name: {"fetched": 0, "new": 0, "matched": 0, "errors": [], "skipped": {}} for name in chosen
    }
    pairs: list[tuple[Person, Found]] = []
    for person in people:
        for name, module in harvesters().items():
            if name not in chosen or not module.applies(person):
                continue
            errors = report[name]["errors"]
            warn = functools.partial(_note, errors, person)
            attempts += 1
            try:
                found = module.works(person, http, warn)
            except ImportProblem as problem:
                errors.append(f"{person.name}: {problem}")
                failures += 1
                continue
            except Exception as error:  # garbage a reader did not foresee: this source only
                logger.exception("Harvesting %s for %s failed", name, person)
                errors.append(f"{person.name}: unreadable answer ({type(error).__name__})")
                failures += 1
                continue
            skipped = report[name]["skipped"]
            for item in found:
                if item.skipped:
                    skipped[item.skipped] = skipped.get(item.skipped, 0) + 1
                else:
                    pairs.append((person, item))
            report[name]["fetched"] += len(found) - sum(1 for item in found if item.skipped)
    completion = Completion()
    pairs += complete(pairs, http, completion)
    report["completion"] = completion.report()  # its works' counts added below
    outcome = fold(pairs, dry_run=run.dry_run, kinds=harvested_kinds())
    for name in chosen:
        report[name]["new"] = outcome.new.get(name, 0)
        report[name]["matched"] = outcome.matched.get(name, 0)
    report["completion"]["new"] = outcome.new.get(f"{Source.CROSSREF} (by DOI)", 0)
    report["completion"]["matched"] = outcome.matched.get(f"{Source.CROSSREF} (by DOI)", 0)
    report["candidates"] = {
        "created": outcome.works,
        "filled": [
            f"{paper.display_title}: {', '.join(fields)}" for paper, fields in outcome.filled
        ],
        "problems": outcome.problems,
        "left_out": dict(sorted(outcome.left_out.items())),
    }
    if not run.dry_run:
        report["auto_accepted"] = auto_accept(
            outcome.created, auto_accepted_sources(chosen), incomplete=completion.pending
        )
    if not run.dry_run and not run.sources:  # a full run; --source reads only those
        today = timezone.localdate()
        scope = None if run.person is None else people
        try:
            report["citations"] = refresh_citations(scope, http, today)
        except ImportProblem as problem:
            report["citations"] = {"errors": [str(problem)]}
        report["stars"] = refresh_stars(scope, http, today)
    run.report = report
    return attempts, failures


def harvested_kinds() -> list[str]:
    """The kinds the lab's settings have the harvest bring in, as saved now (one query: a
    task worker's settings read for an earlier run may be stale)."""
    LabSettings.load()  # the row, made with the defaults if the lab has none yet
    return LabSettings.objects.values_list("harvested_kinds", flat=True).get(pk=1)


def auto_accepted_sources(chosen: list[str]) -> list[str]:
    """Of the run's sources, those whose works the lab's settings let the harvest accept
    without review, as saved now (one query, as `harvested_kinds`)."""
    LabSettings.load()
    saved = LabSettings.objects.values_list("auto_accepted_sources", flat=True).get(pk=1)
    return [name for name in chosen if isinstance(saved, list) and name in saved]


def left_out_by_kind(counts: dict[str, int]) -> str:
    """ "1 poster, 2 theses": the run's works left out by the lab's kinds, as the report
    says them."""
    return ", ".join(
        str(COUNTED[kind] % {"count": n}) if kind in COUNTED else f"{n} {kind}"
        for kind, n in counts.items()
    )


def _note(errors: list[str], person: Person, text: str) -> None:
    errors.append(f"{person.name}: {text}")
