"""Who may do what in the admin: every content model × {lab admin, owning member, other
member, anonymous} × {changelist, add, change, delete, history, forged POST}.

Outcomes: "ok" (the page works, or the POST takes effect), "denied" (403), "absent" (the
admin answers as if the row did not exist: a redirect to the admin index), "login" (a
redirect to the login page), "unchanged" (a forged POST that changes nothing).
"""

import pytest
from django.test import Client
from django.urls import reverse

from lab.models import LabSettings
from people.models import Person
from tests import factories
from tests.admin_forms import form_data

pytestmark = pytest.mark.django_db

ROLES = ["admin", "owner", "other", "anonymous"]
ACTIONS = ["changelist", "add", "change", "delete", "history", "forged_post"]

# model: {role: outcomes in ACTIONS order}
MATRIX = {
    "person": {
        "admin": ["ok", "ok", "ok", "ok", "ok", "ok"],
        "owner": ["ok", "denied", "ok", "denied", "ok", "ok"],
        "other": ["ok", "denied", "absent", "denied", "denied", "unchanged"],
        "anonymous": ["login"] * 5 + ["unchanged"],
    },
    "newsitem": {
        "admin": ["ok"] * 6,
        "owner": ["ok"] * 6,
        "other": ["ok", "ok", "absent", "absent", "denied", "unchanged"],
        "anonymous": ["login"] * 5 + ["unchanged"],
    },
    "publication": {
        "admin": ["ok"] * 6,
        "owner": ["ok"] * 6,
        "other": ["ok", "ok", "absent", "absent", "denied", "unchanged"],
        "anonymous": ["login"] * 5 + ["unchanged"],
    },
    "talk": {
        "admin": ["ok"] * 6,
        "owner": ["ok"] * 6,
        "other": ["ok", "ok", "absent", "absent", "denied", "unchanged"],
        "anonymous": ["login"] * 5 + ["unchanged"],
    },
    "award": {
        "admin": ["ok"] * 6,
        "owner": ["ok"] * 6,
        "other": ["ok", "ok", "absent", "absent", "denied", "unchanged"],
        "anonymous": ["login"] * 5 + ["unchanged"],
    },
    "post": {
        "admin": ["ok"] * 6,
        "owner": ["ok"] * 6,
        "other": ["ok", "ok", "absent", "absent", "denied", "unchanged"],
        "anonymous": ["login"] * 5 + ["unchanged"],
    },
    # The lab's own pages, openings and home page: lab admins alone write them.
    "page": {
        "admin": ["ok"] * 6,
        "owner": ["denied"] * 5 + ["unchanged"],
        "other": ["denied"] * 5 + ["unchanged"],
        "anonymous": ["login"] * 5 + ["unchanged"],
    },
    "opening": {
        "admin": ["ok"] * 6,
        "owner": ["denied"] * 5 + ["unchanged"],
        "other": ["denied"] * 5 + ["unchanged"],
        "anonymous": ["login"] * 5 + ["unchanged"],
    },
    "homesection": {
        "admin": ["ok"] * 6,
        "owner": ["denied"] * 5 + ["unchanged"],
        "other": ["denied"] * 5 + ["unchanged"],
        "anonymous": ["login"] * 5 + ["unchanged"],
    },
    # Shared reference data: members may look venues up and add new ones, not edit them.
    "venue": {
        "admin": ["ok"] * 6,
        "owner": ["ok", "ok", "view-only", "denied", "ok", "unchanged"],
        "other": ["ok", "ok", "view-only", "denied", "ok", "unchanged"],
        "anonymous": ["login"] * 5 + ["unchanged"],
    },
    # The media library and the tags: members upload images and add tags, and pick them;
    # lab admins change, merge and delete them. Galleries are the lab admins' alone.
    "mediaitem": {
        "admin": ["ok"] * 6,
        "owner": ["ok", "ok", "view-only", "denied", "ok", "unchanged"],
        "other": ["ok", "ok", "view-only", "denied", "ok", "unchanged"],
        "anonymous": ["login"] * 5 + ["unchanged"],
    },
    "tag": {
        "admin": ["ok"] * 6,
        "owner": ["ok", "ok", "view-only", "denied", "ok", "unchanged"],
        "other": ["ok", "ok", "view-only", "denied", "ok", "unchanged"],
        "anonymous": ["login"] * 5 + ["unchanged"],
    },
    "gallery": {
        "admin": ["ok"] * 6,
        "owner": ["denied"] * 5 + ["unchanged"],
        "other": ["denied"] * 5 + ["unchanged"],
        "anonymous": ["login"] * 5 + ["unchanged"],
    },
    "labsettings": {
        "admin": ["redirect", "denied", "ok", "denied", "ok", "ok"],
        "owner": ["denied"] * 5 + ["unchanged"],
        "other": ["denied"] * 5 + ["unchanged"],
        "anonymous": ["login"] * 5 + ["unchanged"],
    },
}

APPS = {
    "person": "people",
    "newsitem": "people",
    "publication": "publications",
    "talk": "talks",
    "award": "talks",
    "venue": "publications",
    "post": "website",
    "page": "website",
    "opening": "website",
    "homesection": "website",
    "labsettings": "lab",
    "mediaitem": "media",
    "gallery": "media",
    "tag": "tags",
}


def _owned_object(model, owner_person):
    if model == "person":
        return owner_person
    if model == "newsitem":
        return factories.NewsItemFactory(person=owner_person, text="Owner's news")
    if model == "publication":
        return factories.authored(owner_person, ["O Member", "X Y"], at=1, title="Owner's paper")
    if model == "talk":
        return factories.SpeakerFactory(person=owner_person, talk__title="Owner's talk").talk
    if model == "award":
        return factories.RecipientFactory(person=owner_person, award__name="Owner's award").award
    if model == "post":
        return factories.PostAuthorFactory(person=owner_person, post__title="Owner's post").post
    if model == "page":
        return factories.PageFactory(title="Lab page")
    if model == "opening":
        return factories.OpeningFactory(title="Lab opening")
    if model == "homesection":
        return factories.HomeSectionFactory(heading="Lab news")
    if model == "venue":
        return factories.VenueFactory(short_name="SOSP", name="Symposium")
    if model == "mediaitem":
        return factories.MediaItemFactory(credit="Photo: the lab")
    if model == "gallery":
        return factories.GalleryFactory(title="Retreat")
    if model == "tag":
        return factories.TagFactory(name="memory")
    return LabSettings.load()


# One field per model that a forged POST tries to change, and the value it tries.
FORGED = {
    "person": ("tagline", "forged"),
    "newsitem": ("text", "forged"),
    "publication": ("title", "forged"),
    "talk": ("title", "forged"),
    "award": ("name", "forged"),
    "venue": ("name", "forged"),
    "post": ("title_en", "forged"),
    "mediaitem": ("credit", "forged"),
    "gallery": ("title_en", "forged"),
    "tag": ("name_en", "forged"),
    "page": ("title_en", "forged"),
    "opening": ("title_en", "forged"),
    "homesection": ("heading_en", "forged"),
    "labsettings": ("name", "forged"),
}


def _outcome(response, action):
    if response.status_code == 302:
        location = response["Location"]
        if "/admin/login/" in location:
            return "login"
        return "absent" if location == reverse("admin:index") else "redirect"
    if response.status_code == 403:
        return "denied"
    if (
        response.status_code == 200
        and action == "change"
        and b'name="_save"' not in response.content
    ):
        return "view-only"
    return "ok" if response.status_code == 200 else str(response.status_code)


def _forged_post(client, model, obj, admin_client):
    """POST the change form, as rendered for a lab admin, with one field changed."""
    url = reverse(f"admin:{APPS[model]}_{model}_change", args=[obj.pk])
    field, value = FORGED[model]
    data = form_data(admin_client.get(url), **{field: value})
    client.post(url, data)
    obj.refresh_from_db()
    return "ok" if getattr(obj, field) == value else "unchanged"


@pytest.mark.parametrize("model", list(MATRIX))
@pytest.mark.parametrize("role", ROLES)
def test_permission_matrix(client, cast, model, role):
    owner_person = Person.objects.get(slug="owner")
    obj = _owned_object(model, owner_person)
    if cast[role] is not None:
        client.force_login(cast[role])
    admin_client = Client()
    admin_client.force_login(cast["admin"])
    app = APPS[model]
    urls = {
        "changelist": reverse(f"admin:{app}_{model}_changelist"),
        "add": reverse(f"admin:{app}_{model}_add"),
        "change": reverse(f"admin:{app}_{model}_change", args=[obj.pk]),
        "delete": reverse(f"admin:{app}_{model}_delete", args=[obj.pk]),
        "history": reverse(f"admin:{app}_{model}_history", args=[obj.pk]),
    }

    seen = [_outcome(client.get(urls[action]), action) for action in ACTIONS[:5]]
    seen.append(_forged_post(client, model, obj, admin_client))

    assert dict(zip(ACTIONS, seen, strict=True)) == dict(
        zip(ACTIONS, MATRIX[model][role], strict=True)
    )
