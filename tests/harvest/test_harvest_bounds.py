"""What a source can make a harvest cost is bounded: a whole answer within its deadline (a
source dripping bytes included), its size, the works it lists, and redirects followed only
within the host asked. Each bound that bites is named in the run's report; the other
sources come in whole. Real HTTP against local servers replaying the recorded answers."""

import io
import json

import pytest
from django.core.management import call_command

from harvest.models import Candidate, HarvestRun
from tests.factories import ProjectFactory
from tests.harvest.replay import DATA, Replay

pytestmark = pytest.mark.django_db


def harvest(*args):
    out = io.StringIO()
    call_command("harvest", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.fixture
def internal():
    """A second server, standing for one inside the site's network."""
    server = Replay()
    server.routes["/repos/octocat/Hello-World"] = "github-repo.json"
    yield server
    server.close()


def test_a_source_dripping_its_answer_is_cut_off_at_the_deadline(services, piwowar, settings):
    # 80 bytes, one every 0.1 s: no single read waits a second, the whole answer takes 8 s
    settings.HARVEST_TIMEOUT = 1.0
    route = "/arxiv/a/piwowar_h_1.atom2"
    services.routes[route] = (200, (DATA / "arxiv-author.atom2").read_bytes()[:80])
    services.drip[route] = 0.1

    out = harvest("--source", "arxiv", "--source", "orcid")

    errors = HarvestRun.objects.get().report["arxiv"]["errors"]
    assert errors == [f"Heather A. Piwowar: {services.base[7:]} did not answer in full within 1 s"]
    assert len(services.asked(route)) == 1  # a slow source is not asked again
    assert "orcid: 4 fetched, 4 new" in out


def test_a_redirect_to_another_host_is_not_followed_and_is_named(
    services, piwowar, internal, monkeypatch
):
    project = ProjectFactory(person=piwowar, url="https://github.com/octocat/Hello-World")
    services.routes["/github/repos/octocat/Hello-World"] = (
        302,
        b"",
        {"Location": f"{internal.base}/repos/octocat/Hello-World"},
    )

    harvest()

    project.refresh_from_db()
    assert project.figure == ""
    assert internal.requests == []
    [error] = HarvestRun.objects.get().report["stars"]["errors"]
    assert error == (
        "https://github.com/octocat/Hello-World: "
        f"{services.base[7:]} redirected to {internal.base[7:]}, another host; not followed"
    )


def test_a_redirect_within_the_host_is_followed(services, piwowar):
    services.routes["/orcid/v3.0/old-address"] = services.routes.pop(
        "/orcid/v3.0/0000-0003-1613-5981/works"
    )
    services.routes["/orcid/v3.0/0000-0003-1613-5981/works"] = (
        301,
        b"",
        {"Location": "/orcid/v3.0/old-address"},
    )

    out = harvest("--source", "orcid")

    assert "orcid: 4 fetched, 4 new" in out
    assert HarvestRun.objects.get().report["orcid"]["errors"] == []


def test_an_answer_over_the_size_bound_is_refused_and_the_others_come_in(
    services, piwowar, settings
):
    settings.HARVEST_MAX_ANSWER_MB = 1
    empty_works = {"group": [{"work-summary": []}] * 60_000}  # about 1.4 MB of nothing
    services.routes["/orcid/v3.0/0000-0003-1613-5981/works"] = (
        200,
        json.dumps(empty_works).encode(),
    )

    out = harvest("--source", "orcid", "--source", "dblp")

    errors = HarvestRun.objects.get().report["orcid"]["errors"]
    assert errors == [
        f"Heather A. Piwowar: {services.base[7:]}'s answer is larger than 1 MB; not read"
    ]
    assert "dblp: 0 fetched" not in out and Candidate.objects.exists()


def test_an_answer_listing_more_works_than_the_bound_is_read_up_to_it_and_named(
    services, piwowar, settings
):
    settings.HARVEST_MAX_ITEMS = 2

    out = harvest("--source", "orcid")

    assert "orcid: 2 fetched, 2 new" in out
    assert HarvestRun.objects.get().report["orcid"]["errors"] == [
        "Heather A. Piwowar: ORCID listed 4 works in one answer; read the first 2"
    ]
