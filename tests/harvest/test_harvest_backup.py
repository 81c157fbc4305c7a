"""Review decisions are lab data: a backup restored keeps every rejection and "not me", so a
harvest after the restore brings none of them back."""

import io

import pytest
from django.core.management import call_command

from harvest import review
from harvest.models import Candidate
from labsite import archive

pytestmark = pytest.mark.django_db


def test_rejections_and_not_me_survive_a_restore(services, piwowar, admin_user):
    call_command("harvest", stdout=io.StringIO(), stderr=io.StringIO())
    review.reject(Candidate.objects.get(title__startswith="Data reuse"), admin_user)
    review.disown(Candidate.objects.get(title__startswith="Altmetrics"), piwowar, admin_user)
    written = io.BytesIO()
    archive.export_lab(written)

    archive.import_lab(io.BytesIO(written.getvalue()), replace=True)
    call_command("harvest", stdout=io.StringIO(), stderr=io.StringIO())

    assert Candidate.objects.count() == 5
    assert Candidate.objects.get(title__startswith="Data reuse").status == "rejected"
    altmetrics = Candidate.objects.get(title__startswith="Altmetrics")
    assert list(altmetrics.not_people.all()) == [piwowar]
    assert altmetrics.provenances.count() == 3
