"""`export_static`: the folder, served by a plain web server, is the site."""

import html
import io
import re
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlencode, urljoin, urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from lab.models import forget_loaded_settings
from labsite.static_site import START, export_static
from people.models import Person
from publications.models import Publication
from tests import factories
from website.models import HomeSection

pytestmark = pytest.mark.django_db

LINK = re.compile(r'\b(?:href|src)="([^"]*)"')
FILTER = re.compile(
    r'<form class="filter-form".*?</form>|<p class="filter-form[^"]*">.*?</p>', re.S
)


def served(folder, path):
    """The file a plain web server sends for `path` (a directory: its index.html), or None."""
    name = unquote(path).lstrip("/")
    file = folder / name
    if path.endswith("/"):
        file = file / "index.html"
    return file if file.is_file() else None


def crawl(folder, start="/"):
    """Every address reached from the home page by following links within the folder, and
    every link that leads to no file: ({address: file}, [missing])."""
    found, missing, queue = {}, [], [start]
    while queue:
        address = queue.pop()
        if address in found:
            continue
        file = served(folder, address)
        if file is None:
            missing.append(address)
            continue
        found[address] = file
        if file.suffix == ".html":
            text = file.read_text()
            for value in LINK.findall(text):
                parts = urlsplit(urljoin(f"http://lab{address}", html.unescape(value)))
                if parts.netloc != "lab":
                    continue
                assert not parts.query, f"{address} links to {value}, which needs a server"
                queue.append(parts.path)
    return found, missing


def live_address(address):
    """The live page a static address stands for: "/x/_/kind=journal/" → "/x/?kind=journal"."""
    path, _, pairs = address.partition("/_/")
    if not pairs:
        return address.replace("/feed.xml", "/feed/")
    *pairs, name = pairs.split("/")
    return f"{path}/{name}?{urlencode([tuple(pair.split('=', 1)) for pair in pairs])}"


def canonical(page, address):
    """The page with its filter form and the search index's markers (data-pagefind-body,
    and data-pagefind-ignore on what it leaves out) taken out, and every link resolved to
    the live address it stands for."""

    def resolve(match):
        target = urljoin(f"http://lab{address}", html.unescape(match[1]))
        parts = urlsplit(target)
        if parts.netloc in ("lab", "testserver"):  # the site's own, relative or absolute
            live = live_address(parts.path)
            if parts.netloc == "testserver":
                live = f"http://testserver{live}"
        else:
            live = urlunsplit(parts._replace(query="", fragment=""))
        query = "?" + urlencode(parse_qsl(parts.query)) if parts.query else ""
        return f'="{live}{query}#{parts.fragment}"'

    page = FILTER.sub("", page).replace(" data-pagefind-body", "")
    page = page.replace(" data-pagefind-ignore", "")
    return LINK.sub(lambda m: m[0].split("=")[0] + resolve(m), page)


def test_the_folder_is_the_whole_site_and_each_page_is_the_live_page(demo, tmp_path):
    person = Person.objects.get(slug="teng-ma")
    person.photo = factories.photo_upload()
    person.save()
    banner = HomeSection.objects.get(kind="banner")
    banner.image, banner.image_alt = factories.photo_upload((800, 400)), "Servers"
    banner.save()
    result = export_static(tmp_path, "http://testserver/")  # the test client's live site

    found, missing = crawl(tmp_path)

    assert missing == [] and result.broken == []
    assert (tmp_path / "sitemap.xml").is_file() and (tmp_path / "robots.txt").is_file()
    for expected in [
        "/people/teng-ma/",
        "/people/teng-ma/_/kind=journal/",
        "/publications/_/page=2/",
        "/talks/",
        "/awards/",
        "/news/feed.xml",
        "/people/teng-ma/publications.bib",
        "/people/teng-ma/_/kind=journal/publications.bib",
        "/static/labsite/site.css",
        f"/media/{person.photo.name}",
        f"/media/{banner.image.name}",  # the home's banner
    ]:
        assert expected in found, expected
    with person.photo.open("rb") as stored:
        assert found[f"/media/{person.photo.name}"].read_bytes() == stored.read()
    for feed in ("/news/feed.xml", "/publications/feed.xml"):  # what a feed reader follows
        text = found[feed].read_text()
        links = re.findall(r'(?:href="|<link>)http://testserver(/[^"<]*)', text)
        assert feed in links  # its self-link
        assert [link for link in links if not served(tmp_path, link.split("#")[0])] == []
    client, compared = Client(), 0
    for address, file in found.items():
        if address.startswith(("/static/", "/media/", "/pagefind/")):
            continue  # files served as they are (the photo is compared above), the index
        if address.endswith("/search/"):
            continue  # the copy's search runs in the browser (tests/browser/test_static_search.py)
        forget_loaded_settings()
        url = live_address(address)
        live = client.get(url)
        assert live.status_code == 200, address
        body = b"".join(live) if live.streaming else live.content
        if file.suffix != ".html":  # a feed's links to feeds lead to their files
            assert file.read_bytes().replace(b"/feed.xml", b"/feed/") == body, address
            continue
        static, live = canonical(file.read_text(), address), canonical(body.decode(), url)
        assert static == live, address
        compared += 1
    assert compared > 100


def test_filter_forms_give_way_to_a_note_and_plain_filter_links_work(demo, tmp_path):
    export_static(tmp_path)

    talks = (tmp_path / "talks" / "index.html").read_text()
    journal_tab = (tmp_path / "people/teng-ma/_/kind=journal/index.html").read_text()

    assert 'class="filter-form"' not in talks
    assert "This copy of the site lists everything; filtering needs the live site." in talks
    assert 'href="/people/teng-ma/_/kind=journal/#publications"' in journal_tab
    assert journal_tab.count('class="pub"') < (
        (tmp_path / "people/teng-ma/index.html").read_text().count('class="pub"')
    )


def test_a_rerun_rewrites_only_what_an_edit_changed_and_drops_what_is_gone(demo, tmp_path):
    first = export_static(tmp_path)
    # the pages; Pagefind's index (pagefind/) is its own to write, and its entry file may
    # name its parts in another order
    rewritten = export_static(tmp_path, force=True).written
    assert [name for name in rewritten if not name.startswith("pagefind/")] == []

    Person.objects.filter(slug="feng-ren").update(title_en="Professor of Systems")
    gone = Publication.objects.get(slug="us-patent-10613992")
    gone.delete()
    again = export_static(tmp_path)

    assert "people/feng-ren/index.html" in again.written
    assert "publications/us-patent-10613992/index.html" in again.removed
    assert not (tmp_path / "publications/us-patent-10613992").exists()
    assert 0 < len(again.written) < first.files / 4


def test_a_rerun_with_nothing_changed_renders_nothing_until_an_edit(demo, tmp_path):
    first = export_static(tmp_path)
    times = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if p.is_file()}
    out = io.StringIO()

    call_command("export_static", str(tmp_path), stdout=out)

    assert f"nothing has changed since the last export; its {first.files:,} files" in out.getvalue()
    assert {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if p.is_file()} == times
    assert export_static(tmp_path, "https://other.example.org/").written  # another address
    person = Person.objects.get(slug="feng-ren")
    person.title_en = "Professor of Systems"
    person.save()
    again = export_static(tmp_path, "https://other.example.org/")
    assert "people/feng-ren/index.html" in again.written
    assert "Professor of Systems" in (tmp_path / "people/feng-ren/index.html").read_text()


def test_a_base_url_with_a_path_puts_every_link_and_address_under_it(demo, tmp_path):
    out = io.StringIO()
    folder = tmp_path / "lab"  # served as https://example.org/lab/
    call_command("export_static", str(folder), "--base-url", "https://example.org/lab/", stdout=out)

    found, missing = crawl(tmp_path, start="/lab/")
    home = (folder / "index.html").read_text()
    index = (folder / "sitemap.xml").read_text()
    sitemap = (folder / "sitemap-people.xml").read_text()

    assert "files (" in out.getvalue()
    assert missing == [] and len(found) > 100
    assert 'href="/lab/people/"' in home and 'href="/people/"' not in home
    assert 'href="/lab/static/labsite/site.css"' in home
    assert "<loc>https://example.org/lab/sitemap-people.xml</loc>" in index
    assert "<loc>https://example.org/lab/people/teng-ma/</loc>" in sitemap
    # The live site in this process is untouched: its addresses and static files stay at "/".
    assert reverse("home") == "/" and settings.STATIC_URL == "/static/"
    assert 'href="/static/labsite/site.css"' in Client().get("/").content.decode()


def test_a_folder_holding_other_files_is_not_overwritten(demo, tmp_path):
    (tmp_path / "thesis.tex").write_text("mine")

    with pytest.raises(CommandError, match="holds files of something else"):
        call_command("export_static", str(tmp_path))

    assert (tmp_path / "thesis.tex").read_text() == "mine"


def test_served_folder_helper_refuses_links_that_need_a_server(tmp_path):
    (tmp_path / "index.html").write_text('<a href="/?year=2024">2024</a>')

    with pytest.raises(AssertionError, match="needs a server"):
        crawl(Path(tmp_path))


def test_a_run_that_meets_a_failing_page_removes_nothing(demo, tmp_path, monkeypatch):
    export_static(tmp_path)
    files = sorted(p for p in tmp_path.rglob("*") if p.is_file())
    monkeypatch.setattr("labsite.static_site.START", ["/no-such-page/", *START])
    Publication.objects.all().delete()  # the papers' pages would go, on a complete run

    result = export_static(tmp_path)

    assert result.broken == ["start → /no-such-page/"]
    assert result.removed == [] and sorted(p for p in tmp_path.rglob("*") if p.is_file()) == files


_IMAGE_ADDRESSES = re.compile(r'\b(?:src|srcset)="([^"]*)"')


def test_the_copy_carries_every_image_of_featured_images_figures_and_galleries(demo, tmp_path):
    """The crawl of the copy finds no broken image: every src and srcset of every page, a
    featured image's, a figure's and a gallery's in a post's text, names a file of it."""
    photo = factories.MediaItemFactory(name="cluster")
    retreat = factories.GalleryFactory(name="retreat")
    for position in (1, 2):
        factories.GalleryItemFactory(gallery=retreat, position=position)
    body = "Our cluster.\n\n![](media:cluster)\n\n![The retreat](media:gallery/retreat)\n"
    post = factories.PostFactory(slug="new-cluster", featured_image=photo, body=body)
    tag = factories.TagFactory(name="memory systems", slug="memory")
    post.tags.add(tag)
    Publication.objects.published().first().tags.add(tag)

    result = export_static(tmp_path, "http://testserver/")

    assert result.broken == []
    assert served(tmp_path, "/tags/memory/") and served(tmp_path, "/zh-hans/tags/memory/")
    images, broken = set(), []
    for page in tmp_path.rglob("*.html"):
        here = "/" + page.relative_to(tmp_path).as_posix()
        for value in _IMAGE_ADDRESSES.findall(page.read_text()):
            for candidate in html.unescape(value).split(","):
                if not candidate.strip():
                    continue
                parts = urlsplit(urljoin(f"http://lab{here}", candidate.split()[0]))
                if parts.netloc != "lab":
                    continue
                if "/renditions/" in parts.path:
                    images.add(parts.path)
                if served(tmp_path, parts.path) is None:
                    broken.append(f"{here} → {parts.path}")
    assert broken == []
    # the figure and the gallery in the post's text brought their images' renditions too
    shown = [photo, *(entry.item for entry in retreat.entries.all())]
    assert images == {f"/media/{name}" for item in shown for name in item.rendition_names()}
    figures = (tmp_path / "posts/new-cluster/index.html").read_text()
    assert figures.count('<figure class="gallery__item">') == 2
    assert figures.count('<figure class="figure">') == 1
