"""The kinds the lab harvests, chosen in its settings: a new work of another kind is left
out and counted by kind in the run's report; posters are left out by default; datasets,
software and slides are never harvested, whatever the settings. On ORCID's recorded lists
(tests/harvest/data/real, SOURCES.md)."""

import json
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from harvest.matching import fold
from harvest.models import Candidate, HarvestRun
from harvest.runs import execute
from harvest.sources import crossref, dblp, openalex, orcid
from lab.models import LabSettings, PublicationKind
from publications.importing.crossref import CROSSREF_KINDS
from publications.importing.http import NotFound
from publications.importing.orcid import ORCID_KINDS
from tests.admin_forms import form_data
from tests.factories import PersonFactory
from tests.harvest.test_kinds_against_evidence import _orcid_typed, _registered

pytestmark = pytest.mark.django_db

REAL = Path(__file__).parent / "data" / "real"
# 46 works, a CONFERENCE_POSTER among them
WITH_A_POSTER = "orcid-dissemin-0000-0002-9658-1473-works.json"
# 34 works, a DISSERTATION among them
WITH_A_THESIS = "orcid-dissemin-0000-0003-2888-1770-works.json"
# 111 works, 15 of them data-set
WITH_DATASETS = "orcid-rorcid-0000-0003-1444-9135-works.json"


class RecordedOrcid:
    """ORCID's recorded list of works; Crossref has none of their DOIs (the completion
    asks, and the run goes on without it)."""

    def __init__(self, name):
        self.works = json.loads((REAL / name).read_text())

    def get_json(self, url, headers=None):
        if url.endswith("/works"):
            return self.works
        raise NotFound("not found")


def _harvest(name, **settings):
    lab = LabSettings.load()
    for field, value in settings.items():
        setattr(lab, field, value)
    lab.save()
    PersonFactory(name="Adrian Del Maestro", orcid="0000-0002-1825-0097")
    run = HarvestRun.objects.create(sources=["orcid"])
    return execute(run, RecordedOrcid(name))


def _kinds():
    return sorted(c.record["kind"] for c in Candidate.objects.all())


def test_by_default_the_recorded_poster_is_left_out_and_counted_in_the_runs_report(
    admin_client,
):
    run = _harvest(WITH_A_POSTER)

    assert run.status == HarvestRun.Status.DONE
    assert run.report["candidates"]["left_out"] == {"poster": 1}
    assert "poster" not in _kinds() and len(_kinds()) == run.report["candidates"]["created"]
    page = admin_client.get(f"/admin/harvest/harvestrun/{run.pk}/change/").content.decode()
    assert "Left out by the lab&#x27;s settings (Lab settings → Harvest): 1 poster." in page


def test_a_lab_that_harvests_posters_gets_the_recorded_poster_as_a_candidate():
    run = _harvest(WITH_A_POSTER, harvested_kinds=PublicationKind.values)

    assert run.report["candidates"]["left_out"] == {}
    assert _kinds().count("poster") == 1


def test_a_lab_that_drops_theses_gets_no_thesis_candidates_and_the_report_counts_it():
    kinds = [kind for kind in LabSettings().harvested_kinds if kind != "thesis"]

    run = _harvest(WITH_A_THESIS, harvested_kinds=kinds)

    assert "thesis" not in _kinds()
    assert run.report["candidates"]["left_out"] == {"thesis": 1}


def test_with_the_default_settings_the_recorded_thesis_is_a_candidate():
    run = _harvest(WITH_A_THESIS)

    assert _kinds().count("thesis") == 1 and run.report["candidates"]["left_out"] == {}


def test_datasets_are_never_harvested_whatever_kinds_the_lab_chooses():
    run = _harvest(WITH_DATASETS, harvested_kinds=PublicationKind.values)

    assert run.report["orcid"]["skipped"] == {"dataset": 15}
    assert run.report["candidates"]["left_out"] == {}
    assert run.report["orcid"]["fetched"] == 111 - 15
    assert Candidate.objects.count() == run.report["candidates"]["created"]


@pytest.mark.parametrize(
    ("orcid_type", "counted_as"),
    [("lecture-speech", "slides"), ("software", "software"), ("data-set", "dataset")],
)
def test_slides_software_and_datasets_are_skipped_by_the_source_never_a_kind(
    orcid_type, counted_as
):
    found = _orcid_typed(orcid_type, "Some talk")

    assert (found.skipped, found.record.kind) == (counted_as, "")


def test_a_run_that_leaves_works_out_says_so_on_the_command_line(monkeypatch, capsys):
    member = PersonFactory(name="Adrian Del Maestro", orcid="0000-0002-1825-0097")
    monkeypatch.setattr(
        "harvest.management.commands.harvest.Command.client", RecordedOrcid(WITH_A_POSTER)
    )

    call_command("harvest", "--person", member.slug, "--source", "orcid")

    assert "left out by the lab's settings: 1 poster\n" in capsys.readouterr().out


def test_no_sources_type_is_both_a_papers_kind_and_skipped():
    mapped = {
        "orcid": set(ORCID_KINDS),
        "crossref": set(CROSSREF_KINDS),
        "openalex": {work_type for work_type, _venue in openalex.KINDS},
        "dblp": set(dblp.KINDS),
    }
    skipped = {
        "orcid": set(orcid.SKIPPED),
        "crossref": crossref.SKIPPED,
        "openalex": openalex.SKIPPED,
    }

    both = {name: types & skipped.get(name, set()) for name, types in mapped.items()}

    assert both == {"orcid": set(), "crossref": set(), "openalex": set(), "dblp": set()}


def test_the_kind_the_evidence_settles_decides_not_one_sources_type():
    member = PersonFactory(name="Josiah Carberry", orcid="0000-0002-1825-0097")
    item, registered = _registered()  # Crossref: a proceedings-article
    poster = _orcid_typed("conference-poster", item["title"][0], doi=registered.record.doi)

    outcome = fold([(member, poster), (member, registered)], kinds=LabSettings().harvested_kinds)

    assert _kinds() == ["conference"] and dict(outcome.left_out) == {}


def test_a_work_waiting_for_review_stays_when_the_lab_stops_harvesting_its_kind():
    _harvest(WITH_A_THESIS)
    (thesis,) = Candidate.objects.filter(record__kind="thesis")
    before = (thesis.status, thesis.record, thesis.provenances.count())
    lab = LabSettings.load()
    lab.harvested_kinds = ["journal", "conference"]
    lab.save()

    execute(HarvestRun.objects.create(sources=["orcid"]), RecordedOrcid(WITH_A_THESIS))

    thesis.refresh_from_db()
    assert (thesis.status, thesis.record, thesis.provenances.count()) == before


def test_the_model_refuses_a_kind_it_does_not_know_and_orders_the_rest():
    lab = LabSettings.load()
    lab.harvested_kinds = ["thesis", "journal", "thesis"]
    lab.full_clean()
    assert lab.harvested_kinds == ["journal", "thesis"]

    lab.harvested_kinds = ["journal", "slides"]
    with pytest.raises(ValidationError) as refused:
        lab.full_clean()
    assert refused.value.message_dict == {"harvested_kinds": ["Unknown kind(s): slides."]}


def test_a_new_lab_harvests_every_kind_but_posters():
    assert set(PublicationKind.values) - set(LabSettings.load().harvested_kinds) == {"poster"}


SETTINGS = "/admin/lab/labsettings/1/change/"


def test_a_lab_admin_chooses_the_harvested_kinds_in_the_lab_settings_form(cast, signed_in):
    LabSettings.load()
    client = signed_in(cast["admin"])
    page = client.get(SETTINGS)
    assert 'value="poster"' in page.content.decode()

    response = client.post(SETTINGS, form_data(page, harvested_kinds=["thesis", "poster"]))

    assert response.status_code == 302
    assert LabSettings.objects.get().harvested_kinds == ["poster", "thesis"]


def test_a_lab_admin_may_untick_every_kind(cast, signed_in):
    LabSettings.load()
    client = signed_in(cast["admin"])

    response = client.post(SETTINGS, form_data(client.get(SETTINGS), harvested_kinds=[]))

    assert response.status_code == 302
    assert LabSettings.objects.get().harvested_kinds == []


def test_the_lab_settings_form_offers_the_kinds_in_chinese(cast, signed_in):
    LabSettings.load()
    client = signed_in(cast["admin"])
    client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/admin/"})

    html = client.get(SETTINGS).content.decode()

    assert "采集的成果类型" in html and "数据集、软件和演示文稿从不采集" in html
    assert "海报" in html and "学位论文" in html
