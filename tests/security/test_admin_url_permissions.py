"""Every admin URL × {superuser, lab admin, owning member, other member, anonymous}.

The URLs are read from the admin site itself, so a URL added later without an expectation
here fails the test. Outcomes: "ok" (200), "view" (200, read-only), "denied" (403),
"absent" (redirect to the admin index, or 404: as if the row did not exist), "login"
(redirect to the login page), "redirect" (another redirect), "405" (wrong method).
"""

import re

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.urls import URLResolver
from django_tasks_db.models import DBTaskResult, get_date_max

from harvest.models import Candidate, HarvestRun
from lab.models import LabSettings
from people.models import Person
from publications.models import ImportBatch
from tests import factories

pytestmark = pytest.mark.django_db

ROLES = ["superuser", "admin", "owner", "other", "anonymous"]


def _admin_url_names():
    def walk(patterns):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns)
            elif pattern.name:
                yield pattern.name

    return set(walk(admin.site.urls[0]))


def _owned(model, owner):
    if model == "person":
        return owner
    if model == "newsitem":
        return factories.NewsItemFactory(person=owner)
    if model == "project":
        return factories.ProjectFactory(person=owner)
    if model == "publication":
        return factories.authored(owner, ["O Member", "X Y"], at=1)
    if model == "talk":
        return factories.SpeakerFactory(person=owner).talk
    if model == "award":
        return factories.RecipientFactory(person=owner).award
    if model == "venue":
        return factories.VenueFactory()
    if model == "mediaitem":
        return factories.MediaItemFactory()
    if model == "gallery":
        return factories.GalleryFactory()
    if model == "tag":
        return factories.TagFactory()
    if model == "labsettings":
        return LabSettings.load()
    if model == "page":
        return factories.PageFactory()
    if model == "menuitem":
        return factories.MenuItemFactory()
    if model == "post":
        return factories.PostAuthorFactory(person=owner).post
    if model == "opening":
        return factories.OpeningFactory()
    if model == "theme":
        return factories.ThemeFactory()
    if model == "homesection":
        return factories.HomeSectionFactory()
    if model == "course":
        return factories.CourseTeacherFactory(person=owner).course
    if model == "candidate":
        record = {"label": "OpenAlex work W1", "title": "A harvested work", "date": "2024"}
        record["authors"] = [{"given": "O", "family": "Member"}]
        candidate = Candidate.objects.create(title="A harvested work", record=record)
        candidate.people.add(owner)
        return candidate
    if model == "harvestrun":
        return HarvestRun.objects.create(trigger="command")
    if model == "dbtaskresult":
        return DBTaskResult.objects.create(
            args_kwargs={"args": [0], "kwargs": {}},
            task_path="harvest.tasks.harvest",
            backend_name="default",
            run_after=get_date_max(),
        )
    if model == "group":
        return Group.objects.get(name="Lab member")
    if model == "accessattempt":
        return AccessAttempt.objects.create(
            username="x", ip_address="10.0.0.1", failures_since_start=1
        )
    if model == "accesslog":
        return AccessLog.objects.create(username="x", ip_address="10.0.0.1")
    if model == "accessfailurelog":
        return AccessFailureLog.objects.create(username="x", ip_address="10.0.0.1")
    raise AssertionError(model)


# what members write of their own (a post: one they are an author of)
CONTENT = {"person", "newsitem", "project", "publication", "talk", "award", "post"}
AXES = {"accessattempt", "accesslog", "accessfailurelog"}


def expected(name, model, target=None):
    """The outcome of GET on an admin URL for each role, in ROLES order."""
    kind = name.rsplit("_", 1)[-1] if model else name
    if name.endswith("simple_history"):
        kind = "revert"
    if name.endswith("import_batch"):
        kind = "batch"
    anonymous = "login"
    if model in CONTENT:
        person = model == "person"
        table = {
            "changelist": ["ok", "ok", "ok", "ok"],
            "add": ["ok", "ok", "denied", "denied"] if person else ["ok"] * 4,
            "change": ["ok", "ok", "ok", "absent"],
            "delete": ["ok", "ok", "denied", "denied"] if person else ["ok", "ok", "ok", "absent"],
            "history": ["ok", "ok", "ok", "denied"],
            "revert": ["ok", "ok", "ok", "denied"],
            "deleted": ["ok", "ok", "denied", "denied"],
            "restore": ["denied"] * 4,  # POST only
            "import": ["ok"] * 4,
            # an import's own page: only who started it (the owner here) sees it
            "batch": ["redirect", "redirect", "ok", "redirect"],
        }
    elif model in ("venue", "mediaitem", "tag"):
        # shared by everyone's work: members add them (a venue, an image for their post, a
        # tag) and pick them, and only lab admins change or delete them
        table = {
            "changelist": ["ok"] * 4,
            "add": ["ok"] * 4,
            "change": ["ok", "ok", "view", "view"],
            "delete": ["ok", "ok", "denied", "denied"],
            "history": ["ok"] * 4,
            "revert": ["ok", "ok", "view", "view"],
            "deleted": ["ok", "ok", "denied", "denied"],
            "restore": ["denied"] * 4,
        }
    elif model == "candidate":
        # found by harvests, reviewed on their own page: never added or deleted by hand
        table = {
            "changelist": ["ok"] * 4,
            "add": ["denied"] * 4,
            "change": ["redirect", "redirect", "redirect", "absent"],  # on to the review
            "review": ["ok", "ok", "ok", "absent"],
            # its page and one POST button: a lab admin, or a member it was found for
            "undo": ["ok", "ok", "ok", "absent"],
            "delete": ["denied"] * 4,
            "history": ["ok", "ok", "ok", "denied"],
            "revert": ["ok", "ok", "ok", "denied"],  # an earlier state: a review undone
            "deleted": ["denied"] * 4,  # none is ever deleted
            "restore": ["denied"] * 4,
        }
    elif model == "harvestrun":
        # reports, read by lab admins; "Harvest now" takes a POST
        table = {
            "changelist": ["ok", "ok", "denied", "denied"],
            "add": ["denied"] * 4,
            "change": ["view", "view", "denied", "denied"],
            "delete": ["denied"] * 4,
            "history": ["ok", "ok", "denied", "denied"],
            "now": ["denied"] * 4,
        }
    elif model == "dbtaskresult":
        # the task queue's own table: superusers only, read-only
        table = {
            "changelist": ["ok", "denied", "denied", "denied"],
            "add": ["denied"] * 4,
            "change": ["view", "denied", "denied", "denied"],
            "delete": ["denied"] * 4,
            "history": ["ok", "denied", "denied", "denied"],
        }
    elif model in ("page", "menuitem", "homesection", "opening", "theme", "course", "gallery"):
        # the lab's own pages, its menu and home, openings, research themes and courses (even
        # one a member teaches), and the galleries its pages show: lab admins only
        lab_admins = ["ok", "ok", "denied", "denied"]
        table = {
            "changelist": lab_admins,
            "add": lab_admins,
            "change": lab_admins,
            "delete": lab_admins,
            "history": lab_admins,
            "revert": lab_admins,
            "deleted": lab_admins,
            "restore": ["denied"] * 4,
        }
    elif model == "labsettings":
        table = {
            "changelist": ["redirect", "redirect", "denied", "denied"],
            "add": ["denied"] * 4,
            "change": ["ok", "ok", "denied", "denied"],
            "delete": ["denied"] * 4,
            "history": ["ok", "ok", "denied", "denied"],
            "revert": ["ok", "ok", "denied", "denied"],
            "deleted": ["denied"] * 4,
            "restore": ["denied"] * 4,
        }
    elif model == "user":
        # Lab admins manage member accounts; superusers and other lab admins are out of reach.
        reach = "ok" if target == "member" else "absent"
        table = {
            "changelist": ["ok", "ok", "denied", "denied"],
            "add": ["ok", "ok", "denied", "denied"],
            "change": ["ok", reach, "denied", "denied"],
            "delete": ["ok", reach, "denied", "denied"],
            # (the other member's own account is hidden from them; the owner is refused it)
            "history": ["ok", reach, "denied" if target == "member" else "absent", "absent"],
            "change_password": ["ok", reach, "denied", "denied"],
        }
        kind = "change_password" if name.endswith("password_change") else kind
    elif model == "group":
        table = {
            "changelist": ["ok", "ok", "denied", "denied"],
            "add": ["ok", "denied", "denied", "denied"],
            "change": ["ok", "view", "denied", "denied"],
            "delete": ["ok", "denied", "denied", "denied"],
            "history": ["ok", "ok", "denied", "denied"],
        }
    elif model in AXES:
        # Lockout records are technical tables: superusers only.
        table = {
            "changelist": ["ok", "denied", "denied", "denied"],
            "add": ["denied"] * 4,
            "change": ["ok", "denied", "denied", "denied"],
            "delete": ["ok", "denied", "denied", "denied"],
            "history": ["ok", "denied", "denied", "denied"],
        }
    else:
        table = {
            "index": ["ok"] * 4,
            "login": ["absent"] * 4,  # already logged in: on to the index
            "logout": ["405"] * 4,
            "password_change": ["ok"] * 4,
            "password_change_done": ["ok"] * 4,
            "jsi18n": ["ok"] * 4,
            "view_on_site": ["redirect"] * 4,
            "autocomplete": ["denied"] * 4,  # without its query parameters
            "app_list": ["ok", "ok", "ok", "ok"],
            "remove_demo": ["ok", "ok", "denied", "denied"],  # lab admins only
        }
        anonymous = {"login": "ok", "logout": "absent"}.get(kind, "login")
    return [*table[kind], anonymous]


def _outcome(response, url):
    if response.status_code == 302:
        location = response["Location"]
        if "/admin/login/" in location:
            return "login"
        return "absent" if location == "/admin/" else "redirect"
    if response.status_code == 404:
        return "absent"
    is_form = url.endswith("/change/") or re.search(r"/history/\d+/$", url)
    if response.status_code == 200 and is_form and b'name="_save"' not in response.content:
        return "view"
    return {200: "ok", 403: "denied", 405: "405"}.get(
        response.status_code, str(response.status_code)
    )


@pytest.fixture
def people(cast):
    User = get_user_model()
    superuser = User.objects.create_superuser("root", "root@example.org", "a-long-test-password")
    return {**cast, "superuser": superuser}


def _urls(people):
    """Every admin URL, made concrete with the owning member's objects and account targets."""
    owner = Person.objects.get(slug="owner")
    urls = []
    for model_class, model_admin in admin.site._registry.items():
        opts = model_class._meta
        base = f"/admin/{opts.app_label}/{opts.model_name}/"
        model = opts.model_name
        targets = {"member": people["other"], "superuser": people["superuser"]}
        objects = targets.items() if model == "user" else [(None, _owned(model, owner))]
        for target, obj in objects:
            name = f"{opts.app_label}_{model}"
            urls += [
                (f"{name}_changelist", model, target, base),
                (f"{name}_add", model, target, f"{base}add/"),
                (f"{name}_change", model, target, f"{base}{obj.pk}/change/"),
                (f"{name}_delete", model, target, f"{base}{obj.pk}/delete/"),
                (f"{name}_history", model, target, f"{base}{obj.pk}/history/"),
            ]
            if model == "user":
                urls.append((f"{name}_password_change", model, target, f"{base}{obj.pk}/password/"))
            if hasattr(model_admin, "restore_view"):
                versions = model_class.history.filter(**{opts.pk.attname: obj.pk})
                version = versions.latest("history_id").history_id
                urls += [
                    (f"{name}_simple_history", model, None, f"{base}{obj.pk}/history/{version}/"),
                    (f"{name}_deleted", model, None, f"{base}deleted/"),
                    (f"{name}_restore", model, None, f"{base}deleted/{version}/restore/"),
                ]
            if model == "candidate":
                urls.append((f"{name}_review", model, None, f"{base}{obj.pk}/review/"))
                urls.append((f"{name}_undo", model, None, f"{base}{obj.pk}/undo/"))
            if model == "harvestrun":
                urls.append((f"{name}_now", model, None, f"{base}now/"))
            if model == "publication":
                urls.append((f"{name}_import", model, None, f"{base}import/"))
                batch = ImportBatch.objects.create(user=people["owner"])
                urls.append((f"{name}_import_batch", model, None, f"{base}import/{batch.pk}/"))
    person_type = ContentType.objects.get_for_model(Person)
    for name, path in [
        ("index", ""),
        ("login", "login/"),
        ("logout", "logout/"),
        ("password_change", "password_change/"),
        ("password_change_done", "password_change/done/"),
        ("jsi18n", "jsi18n/"),
        ("autocomplete", "autocomplete/"),
        ("view_on_site", f"r/{person_type.pk}/{owner.pk}/"),
        ("app_list", "people/"),
        ("remove_demo", "remove-demo/"),
    ]:
        urls.append((name, None, None, f"/admin/{path}"))
    return urls


def test_every_admin_url_has_an_expectation(people):
    covered = {name for name, *_ in _urls(people)}
    assert _admin_url_names() <= covered, _admin_url_names() - covered


@pytest.mark.parametrize("role", ROLES)
def test_every_admin_url_answers_each_role_as_expected(client, people, role):
    if role != "anonymous":
        client.force_login(people[role])
    seen, wanted = {}, {}
    for name, model, target, url in _urls(people):
        key = f"{name} ({target})" if target else name
        seen[key] = _outcome(client.get(url), url)
        wanted[key] = expected(name, model, target)[ROLES.index(role)]
        assert not re.match(r"5\d\d", seen[key]), f"{url} gave {seen[key]}"

    assert seen == wanted


@pytest.mark.parametrize("role", ["owner", "other", "anonymous"])
def test_only_lab_admins_restore_deleted_rows(client, people, role):
    paper = factories.authored(Person.objects.get(slug="owner"), ["O Member"], at=1, title="Gone")
    paper.delete()
    record = paper.history.model.objects.filter(history_type="-").get()
    if role != "anonymous":
        client.force_login(people[role])

    client.post(f"/admin/publications/publication/deleted/{record.history_id}/restore/")

    assert not type(paper).objects.filter(title="Gone").exists()


@pytest.mark.parametrize("role", ["other", "anonymous"])
def test_only_who_may_change_a_row_may_revert_it(client, people, role):
    owner = Person.objects.get(slug="owner")
    version = owner.history.latest("history_id").history_id
    owner.tagline = "current"
    owner.save()
    if role != "anonymous":
        client.force_login(people[role])

    client.post(f"/admin/people/person/{owner.pk}/history/{version}/", {"name": owner.name})

    owner.refresh_from_db()
    assert owner.tagline == "current"
