"""Public pages come whole from the cache for anonymous visitors, compressed and with an
ETag, and are fresh again after any change: a save, an admin edit, an import, a restore,
a settings edit. Editors always get a freshly built page."""

import contextlib
import gzip
import io
import socket

import pytest
from django.core.management import call_command
from django.db import OperationalError, connection, transaction
from django.http import HttpResponse
from django.test import override_settings
from django.urls import path

from lab.models import LabSettings
from labsite import archive
from labsite.page_cache import content_version
from people import invitations
from people.models import Person
from tests import factories
from tests.admin_forms import form_data

pytestmark = pytest.mark.django_db

PROFILE = "/people/teng-ma/"


@pytest.fixture(autouse=True)
def _settings_row(db):
    LabSettings.load()  # made on a site's first visit; a save like any other


def _cached_twice(client, url=PROFILE):
    first = client.get(url)
    second = client.get(url)
    assert (first["X-Page-Cache"], second["X-Page-Cache"]) == ("miss", "hit")
    return second


def test_a_second_visit_is_served_from_the_cache_reading_only_the_content_version(
    client, person, django_assert_num_queries
):
    built = client.get(PROFILE)

    with django_assert_num_queries(1):
        cached = client.get(PROFILE)

    assert cached["X-Page-Cache"] == "hit"
    assert cached.content == built.content
    assert cached["Content-Type"] == built["Content-Type"]
    # the headers the security middleware sets are on the cached answer too
    assert cached["Content-Security-Policy"] == built["Content-Security-Policy"]
    assert cached["X-Frame-Options"] == "DENY"


def test_a_save_makes_the_next_visit_fresh(client, person):
    _cached_twice(client)

    person.name = "Teng Ma (renamed)"
    person.save()

    response = client.get(PROFILE)
    assert response["X-Page-Cache"] == "miss"
    assert "Teng Ma (renamed)" in response.content.decode()


def test_an_edit_through_the_admin_reaches_anonymous_visitors(client, admin_client, person):
    _cached_twice(client)
    url = f"/admin/people/person/{person.pk}/change/"

    admin_client.post(url, form_data(admin_client.get(url), title="Associate Professor"))

    assert "Associate Professor" in client.get(PROFILE).content.decode()


def test_a_settings_edit_reaches_every_page(client, person):
    _cached_twice(client, "/")
    _cached_twice(client)

    lab = LabSettings.load()
    lab.name = "Renamed Systems Lab"
    lab.save()

    for url in ("/", PROFILE):
        assert "Renamed Systems Lab" in client.get(url).content.decode()


def test_an_import_reaches_the_publication_list(client, tmp_path):
    _cached_twice(client, "/publications/")
    bib = tmp_path / "new.bib"
    bib.write_text("@inproceedings{x, title={Pooled Memory at Scale}, author={Ma, T}, year=2026}")

    call_command("import_publications", str(bib), stdout=io.StringIO())

    assert "Pooled Memory at Scale" in client.get("/publications/").content.decode()


def test_a_restore_reaches_the_pages(client, person):
    saved = io.BytesIO()
    archive.export_lab(saved)
    person.delete()
    assert client.get(PROFILE).status_code == 404
    _cached_twice(client, "/people/")

    archive.import_lab(io.BytesIO(saved.getvalue()), replace=True)

    assert client.get(PROFILE).status_code == 200
    assert "Teng Ma" in client.get("/people/").content.decode()


def _still_a_hit(client, change, url="/people/"):
    """Run `change` between two visits of a page: whether the next is a hit."""
    _cached_twice(client, url)
    before = content_version()
    change()
    return content_version() == before and client.get(url)["X-Page-Cache"] == "hit"


def _work_harvested_for(person):
    candidate = factories.CandidateFactory(title="A Work Found for Them")
    candidate.people.add(person)  # the member it was found for


def _invitation_to(person):
    invitations.invite(person, "teng@example.org")  # an account, and the stamp of the mail


@pytest.mark.parametrize("change", [_work_harvested_for, _invitation_to])
def test_what_no_page_shows_leaves_the_cached_pages_hits(client, person, change):
    """A harvested candidate and an invitation's stamp are kept in backups, but no page
    shows them: they made every cached page cold."""
    assert _still_a_hit(client, lambda: change(person))
    assert _still_a_hit(client, lambda: change(person), PROFILE)


def test_a_save_of_a_field_a_page_shows_beside_one_none_shows_makes_the_next_visit_fresh(
    client, person
):
    def renamed_and_invited():
        person.name = "Teng Ma (renamed)"
        person.save(update_fields=["invited", "name"])

    assert not _still_a_hit(client, renamed_and_invited)
    assert "Teng Ma (renamed)" in client.get("/people/").content.decode()


class Refused(Exception):
    pass


def test_a_change_after_one_rolled_back_to_its_savepoint_makes_the_next_visit_fresh(client, person):
    _cached_twice(client)
    with contextlib.suppress(Refused), transaction.atomic():
        person.name = "Teng Ma (never saved)"
        person.save()  # moves the version, and the rollback takes the move back
        raise Refused

    person.name = "Teng Ma (renamed)"
    person.save()  # moves it again

    response = client.get(PROFILE)
    assert response["X-Page-Cache"] == "miss"
    assert "Teng Ma (renamed)" in response.content.decode()


@contextlib.contextmanager
def _change_log_refused(times):
    """The next `times` inserts into the change log fail, as a database may refuse one."""
    left = [times]

    def refuse(execute, sql, params, many, context):
        if left[0] and sql.startswith('INSERT INTO "labsite_contentchange"'):
            left[0] -= 1
            raise OperationalError("could not extend file: No space left on device")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(refuse):
        yield


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("refusals", [1, 2])
def test_a_version_move_refused_after_a_commit_is_an_error_and_tried_again(
    person, refusals, caplog
):
    """Refused once, the move is tried again at once; twice, the task worker makes it.
    Before, Django logged the refusal and nothing moved the version: the pages of before
    the change could be served until the next one."""
    refused = contextlib.ExitStack()
    with transaction.atomic():
        person.name = "Teng Ma (renamed)"
        person.save()
        committed = content_version()  # as the change's own transaction left it
        refused.enter_context(_change_log_refused(refusals))  # the inserts after the commit
    refused.close()

    assert content_version() != committed
    errors = [r for r in caplog.records if r.name.startswith("labsite.page_cache")]
    assert [r.levelname for r in errors] == ["ERROR"] * refusals
    assert "did not move after a commit" in errors[0].getMessage()


def test_a_visitor_who_accepts_gzip_gets_the_page_compressed(client, person):
    plain = client.get(PROFILE)

    compressed = client.get(PROFILE, headers={"accept-encoding": "br, gzip"})

    assert compressed["Content-Encoding"] == "gzip"
    assert gzip.decompress(compressed.content) == plain.content
    assert int(compressed["Content-Length"]) < len(plain.content) / 2
    assert "Accept-Encoding" in compressed["Vary"]


def test_a_visitor_who_has_the_page_gets_not_modified(client, person):
    etag = client.get(PROFILE)["ETag"]

    again = client.get(PROFILE, headers={"if-none-match": etag})

    assert again.status_code == 304 and again.content == b""
    person.name = "Teng Ma (renamed)"
    person.save()
    assert client.get(PROFILE, headers={"if-none-match": etag}).status_code == 200


def test_exports_and_feeds_are_cached_by_their_filters(client, person):
    factories.authored(person, ["T Ma"], at=1, kind="journal", title="A Journal Paper")
    factories.authored(person, ["T Ma"], at=1, kind="conference", title="A Conference Paper")

    _cached_twice(client, "/people/teng-ma/publications.bib?kind=journal")
    journal = client.get("/people/teng-ma/publications.bib?kind=journal").content.decode()
    everything = client.get("/people/teng-ma/publications.bib").content.decode()

    assert "A Journal Paper" in journal and "A Conference Paper" not in journal
    assert "A Conference Paper" in everything
    _cached_twice(client, "/publications/feed/")


def test_editors_always_get_a_freshly_built_page(admin_client, person):
    admin_client.get(PROFILE)

    response = admin_client.get(PROFILE)

    assert "X-Page-Cache" not in response


@pytest.mark.parametrize("url", ["/admin/login/", "/health/", "/people/nobody/"])
def test_the_admin_the_health_check_and_errors_are_never_stored(client, url):
    client.get(url)

    assert "X-Page-Cache" not in client.get(url)


def test_a_page_is_stored_per_host(client, person, settings):
    settings.ALLOWED_HOSTS = ["lab.example.org", "testserver"]
    client.get(PROFILE)

    other = client.get(PROFILE, headers={"host": "lab.example.org"})

    assert other["X-Page-Cache"] == "miss"


def test_a_port_the_visitor_chose_is_neither_a_new_page_nor_in_its_links(client, person):
    answers = [client.get(PROFILE, headers={"host": f"testserver:{8000 + n}"}) for n in range(10)]

    assert [a["X-Page-Cache"] for a in answers] == ["miss"] + ["hit"] * 9
    assert _stored_pages() == 1
    page = answers[0].content.decode()
    assert '"url": "http://testserver/people/teng-ma/"' in page and "testserver:80" not in page


def test_the_port_of_the_configured_address_is_kept(client, person, settings):
    settings.SITE_URL = "http://testserver:8443"
    page = client.get(PROFILE, headers={"host": "testserver:9999"}).content.decode()

    assert '"url": "http://testserver:8443/people/teng-ma/"' in page


# For each page, 30 values its parameters do not take (or spell otherwise), sent once each.
JUNK = {
    PROFILE: ["kind=x{n}", "role=first{n}", "kind=Journal&n={n}"],
    "/people/teng-ma/cv/": ["since={n}", "since=0{n}x", "selected=on{n}", "authors=long{n}"],
    "/people/teng-ma/cv.pdf": ["since=+{n}", "citations=yes{n}"],
    "/people/teng-ma/publications.bib": ["role=x{n}", "kind=&role=&x={n}"],
    "/publications/": ["year=19{n}", "venue=NOPE{n}", "member=nobody-{n}", "page=-{n}"],
    "/publications/export.bib": ["kind=poem{n}", "selected=&year=x{n}"],
    "/talks/": ["person=nobody-{n}", "language=xx{n}", "page=0{n}x", "kind=nap{n}"],
    "/awards/": ["person=x{n}", "kind={n}"],
    "/news/": ["page=0&x={n}", "page=00{n}a", "page=+{n}"],
    "/posts/": ["page=0{n}x", "page=-{n}", "tag=x{n}"],
    "/openings/": ["kind=x{n}", "page={n}"],
    "/themes/": ["member=x{n}", "page=+{n}"],
}


@pytest.mark.parametrize("url", JUNK)
def test_junk_values_of_known_parameters_build_the_page_once(client, person, url):
    factories.authored(person, ["T Ma"], at=1, title="A Paper")
    factories.SpeakerFactory(person=person)
    patterns = JUNK[url]
    queries = [patterns[n % len(patterns)].format(n=n) for n in range(30)]
    assert len(set(queries)) == 30

    answers = [client.get(f"{url}?{query}") for query in queries]
    pages = [client.get(url, headers={"host": f"testserver:{8000 + n}"}) for n in range(10)]

    assert {a.status_code for a in answers} == {301}
    assert {a["Location"] for a in answers} == {url}  # the page's own address
    assert [p["X-Page-Cache"] for p in pages] == ["miss"] + ["hit"] * 9  # built once
    assert _stored_pages() == 1


def test_a_valid_value_in_another_spelling_is_sent_to_its_canonical_address(client, person):
    factories.authored(person, ["T Ma"], at=1, kind="journal", title="A Journal Paper")

    answers = {
        query: client.get(f"/publications/?{query}")["Location"]
        for query in ["page=02&kind=journal", "kind=conference&kind=journal", "selected=yes"]
    }

    assert answers == {
        "page=02&kind=journal": "/publications/?kind=journal&page=2",
        "kind=conference&kind=journal": "/publications/?kind=journal",  # the last, as read
        "selected=yes": "/publications/?selected=on",
    }


@override_settings(PAGE_CACHE=False)
def test_with_the_page_cache_off_every_page_is_built(client, person):
    client.get(PROFILE)

    assert "X-Page-Cache" not in client.get(PROFILE)


def test_a_deleted_member_disappears_from_the_team_page(client, person):
    _cached_twice(client, "/people/")

    Person.objects.filter(pk=person.pk).delete()

    assert "Teng Ma" not in client.get("/people/").content.decode()


@pytest.fixture
def wsgi_application():
    """labsite/wsgi.py's stack; the test's database connection kept open across requests
    (as Django's test client keeps it)."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    from labsite.page_cache import CachedPagesApp

    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield CachedPagesApp(WSGIHandler())
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


def _wsgi_get(application, path, query="", **headers):
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "HTTP_HOST": "testserver",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": io.StringIO(),
        **{f"HTTP_{name.upper()}": value for name, value in headers.items()},
    }
    answer = {}

    def start_response(status, response_headers, exc_info=None):
        answer.update(status=status, headers=dict(response_headers))

    answer["body"] = b"".join(application(environ, start_response))
    return answer


def test_production_answers_a_hit_before_django_with_the_same_page_and_headers(
    person, wsgi_application, django_assert_num_queries
):
    from django.core.signals import request_started

    application = wsgi_application
    built = _wsgi_get(application, PROFILE)
    django_requests = []

    def started(**kwargs):
        django_requests.append(kwargs)

    request_started.connect(started)
    with django_assert_num_queries(2):  # the content version, for each
        hit = _wsgi_get(application, PROFILE)
        not_modified = _wsgi_get(application, PROFILE, if_none_match=hit["headers"]["ETag"])
    request_started.disconnect(started)
    assert django_requests == []  # answered before Django's request cycle
    editor = _wsgi_get(application, PROFILE, cookie="sessionid=abc")

    assert built["headers"]["X-Page-Cache"] == "miss" and hit["headers"]["X-Page-Cache"] == "hit"
    assert hit["body"] == built["body"]
    assert hit["headers"]["Content-Security-Policy"] == built["headers"]["Content-Security-Policy"]
    assert not_modified["status"] == "304 Not Modified" and not_modified["body"] == b""
    assert "X-Page-Cache" not in editor["headers"]


def test_a_script_name_header_changes_nothing_stored(person, wsgi_application):
    """gunicorn takes SCRIPT_NAME from a request header: `GET /publications/` with
    "SCRIPT_NAME: /publications" resolved the home (PATH_INFO "/"), which was stored under
    /publications/ and served there to every visitor."""
    from django.core.cache import cache

    def stored_pages():
        return {key for key in cache._cache if "labsite:page:" in key}

    for resolved in ("/", PROFILE):
        moved = {"SCRIPT_NAME": "/publications", "PATH_INFO": resolved}
        for _ in range(2):
            answer = _wsgi_get_environ(wsgi_application, moved)
            assert "X-Page-Cache" not in answer["headers"]

    assert stored_pages() == set()
    listing = _wsgi_get(wsgi_application, "/publications/")
    assert listing["headers"]["X-Page-Cache"] == "miss"
    assert b"<title>Publications" in listing["body"]  # the list, not the home
    assert len(stored_pages()) == 1


def _wsgi_get_environ(application, extra):
    """_wsgi_get with WSGI variables set as gunicorn sets them from a request's headers."""
    environ = {
        "REQUEST_METHOD": "GET",
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "HTTP_HOST": "testserver",
        "HTTP_SCRIPT_NAME": extra.get("SCRIPT_NAME", ""),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": io.StringIO(),
        **extra,
    }
    answer = {}

    def start_response(status, response_headers, exc_info=None):
        answer.update(status=status, headers=dict(response_headers))

    answer["body"] = b"".join(application(environ, start_response))
    return answer


def _form_page(request):
    from django.middleware.csrf import get_token

    return HttpResponse(f'<form method="post"><input name="t" value="{get_token(request)}">')


urlpatterns = [path("form/", _form_page)]


@override_settings(ROOT_URLCONF=__name__)
def test_a_page_holding_a_csrf_token_is_never_shared(client):
    client.cookies["csrftoken"] = "a" * 32  # a visitor who has the cookie is sent none

    first = client.get("/form/")
    second = client.get("/form/")

    assert "X-Page-Cache" not in first and "X-Page-Cache" not in second
    assert first.content != second.content  # each visitor's own masked token


def _cache_not_answering():
    """The shared cache set up as in production (Redis), its server not answering: nothing
    listens on its port."""
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    return override_settings(
        CACHES={
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": f"redis://127.0.0.1:{port}/0",
            }
        }
    )


@pytest.fixture
def cache_down():
    with _cache_not_answering():
        yield


def test_while_the_cache_does_not_answer_visitors_get_pages_built_afresh(
    person, cache_down, wsgi_application
):
    for url in (PROFILE, "/", "/publications/", "/people/"):
        answer = _wsgi_get(wsgi_application, url)  # production's stack, as a visitor
        assert answer["status"] == "200 OK", url
        assert "X-Page-Cache" not in answer["headers"]  # built, and not stored anywhere
    assert "Teng Ma" in _wsgi_get(wsgi_application, PROFILE)["body"].decode()


def test_while_the_cache_does_not_answer_a_change_is_saved_and_no_older_page_served_after(
    client, admin_client, person
):
    _cached_twice(client)  # stored before the outage, and still there after it
    url = f"/admin/people/person/{person.pk}/change/"

    with _cache_not_answering():
        form = admin_client.get(url)
        response = admin_client.post(url, form_data(form, title="Associate Professor"))
        assert response.status_code == 302  # saved: the cache is not needed for a change
        assert admin_client.post("/admin/logout/").status_code == 200  # nor to sign out

    person.refresh_from_db()
    assert person.title == "Associate Professor"
    # The cache answers again, holding the page it stored before the change: not served.
    after = client.get(PROFILE)
    assert after["X-Page-Cache"] == "miss"
    assert "Associate Professor" in after.content.decode()
    assert admin_client.get(url).status_code == 302  # signed out


def _stored_pages():
    from django.core.cache import cache

    return sum(":page:" in key for key in cache._cache)  # the local-memory cache's own keys


@pytest.mark.parametrize("url", ["/publications/export.bib", PROFILE, "/zh-hans/people/teng-ma/"])
def test_unknown_query_parameters_make_no_new_build_and_no_stored_page(client, person, url):
    from django.core.signals import request_started

    factories.authored(person, ["T Ma"], at=1, title="A Paper")
    client.get(url)
    stored = _stored_pages()
    builds = []
    request_started.connect(builds.append)  # every request is one; a built page also is
    answers = [client.get(f"{url}?junk={n}&utm_source=x{n}") for n in range(100)]
    request_started.disconnect(builds.append)

    assert {a.status_code for a in answers} == {301}
    assert {a["Location"] for a in answers} == {url}  # to the page's own address
    assert all("X-Page-Cache" not in a for a in answers)  # nothing built, nothing stored
    assert _stored_pages() == stored


def test_a_known_parameter_is_kept_and_stored_once_whatever_follows_it(client, person):
    factories.authored(person, ["T Ma"], at=1, kind="journal", title="A Journal Paper")

    first = client.get("/publications/?kind=journal&utm_campaign=spring")
    journal = client.get(first["Location"])
    again = client.get("/publications/?kind=journal")

    assert (first.status_code, first["Location"]) == (301, "/publications/?kind=journal")
    assert (journal["X-Page-Cache"], again["X-Page-Cache"]) == ("miss", "hit")


def test_production_sends_unknown_parameters_to_django_which_redirects(person, wsgi_application):
    answer = _wsgi_get(wsgi_application, PROFILE, query="fbclid=abc")

    assert answer["status"].startswith("301") and answer["headers"]["Location"] == PROFILE
