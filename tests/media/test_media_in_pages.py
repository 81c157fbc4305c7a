"""Featured images where visitors and link previews meet them: on each item's page (a figure
with srcset and alt text, og:image, twitter:image, JSON-LD `image`), in lists and the home's
sections; no request decodes or encodes a pixel; an image in use is not deleted."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from PIL import Image, ImageFile

from media.models import MediaItem
from media.references import resolve
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def photo(site_rows):
    return factories.MediaItemFactory(
        name="cluster",
        image=SimpleUploadedFile("c.jpg", factories.photo_bytes((1000, 600))),
        alt="Four racks of GPU servers",
        alt_zh_hans="四个 GPU 服务器机架",
        caption="Our cluster",
        credit="Photo: Lin Wei",
    )


@pytest.fixture
def tagged(photo):
    """One of each kind of item with the photo as its featured image."""
    return {
        "post": factories.PostFactory(slug="new-cluster", featured_image=photo),
        "paper": factories.PublicationFactory(title="Mooncake", featured_image=photo),
        "talk": factories.TalkFactory(title="KV caches", featured_image=photo),
        "theme": factories.ThemeFactory(slug="kvcache", featured_image=photo),
        "course": factories.CourseFactory(slug="os-2026", featured_image=photo),
    }


def _pages(items):
    return [
        items["post"].get_absolute_url(),
        items["paper"].get_absolute_url(),
        items["talk"].get_absolute_url(),
        items["theme"].get_absolute_url(),
        items["course"].get_absolute_url(),
    ]


def test_each_items_page_shows_its_featured_image_with_srcset_alt_and_caption(client, tagged):
    photo = tagged["post"].featured_image
    for url in _pages(tagged):
        html = client.get(url).content.decode()

        figure = re.search(r'<figure class="figure figure--featured">.*?</figure>', html, re.S)
        assert figure, url
        assert f'srcset="{photo.srcset("webp")}"' in figure[0]
        assert 'alt="Four racks of GPU servers"' in figure[0]
        assert 'width="1000" height="600"' in figure[0]
        assert "Our cluster" in figure[0] and "Photo: Lin Wei" in figure[0]


def test_the_chinese_page_describes_the_image_in_chinese(client, tagged):
    html = client.get(f"/zh-hans{tagged['post'].get_absolute_url()}").content.decode()

    assert 'alt="四个 GPU 服务器机架"' in html


def test_link_previews_and_search_engines_get_the_image(client, tagged):
    share = "http://testserver" + tagged["post"].featured_image.share_image.url
    for url in _pages(tagged):
        html = client.get(url).content.decode()

        assert f'<meta property="og:image" content="{share}">' in html, url
        assert f'<meta name="twitter:image" content="{share}">' in html, url
        assert '<meta name="twitter:card" content="summary_large_image">' in html
    for url in _pages(tagged)[:2]:  # the pages with JSON-LD: a post, a paper
        html = client.get(url).content.decode()
        data = json.loads(re.search(r'application/ld\+json">(.*?)</script>', html, re.S)[1])
        assert data["image"] == share


@pytest.mark.parametrize("url", ["/posts/", "/publications/", "/themes/", "/teaching/", "/"])
def test_lists_and_the_home_show_the_featured_image(client, tagged, url):
    factories.HomeSectionFactory(kind="posts", position=1)
    factories.HomeSectionFactory(kind="themes", position=2)

    html = client.get(url).content.decode()

    assert html.count(tagged["post"].featured_image.renditions()[0][1].url) >= 1
    assert 'class="list-picture"' in html


def _count_pillow_work(monkeypatch):
    """Calls that read, decode, resize or encode pixels, counted as they happen."""
    calls = []

    def counting(owner, name):
        original = getattr(owner, name)

        def wrapper(*args, **kwargs):
            calls.append(f"{owner.__name__}.{name}")
            return original(*args, **kwargs)

        monkeypatch.setattr(owner, name, wrapper)

    counting(Image, "open")
    for name in ("load", "save", "resize", "thumbnail", "convert", "copy"):
        counting(Image.Image, name)
    counting(ImageFile.ImageFile, "load")
    return calls


def _images(count):
    """`count` images of the library (small ones: one width each, kept quick to make)."""
    return [
        factories.MediaItemFactory(
            image=SimpleUploadedFile("i.jpg", factories.photo_bytes((300, 200)))
        )
        for _n in range(count)
    ]


def _page_showing(slug, figures, in_gallery):
    """A page whose text shows `figures` as figures, then a gallery of `in_gallery`."""
    text = [f"![Image {n}](media:{item.name})" for n, item in enumerate(figures)]
    if in_gallery:
        gallery = factories.GalleryFactory(name=f"{slug}-gallery")
        for position, item in enumerate(in_gallery, start=1):
            factories.GalleryItemFactory(gallery=gallery, item=item, position=position)
        text.append(f"![Our retreat](media:gallery/{gallery.name})")
    return factories.PageFactory(slug=slug, body="Text.\n\n" + "\n\n".join(text))


def test_no_request_decodes_or_encodes_an_image(client, tagged, monkeypatch):
    gallery = factories.GalleryFactory(name="retreat")
    factories.GalleryItemFactory(gallery=gallery, item=tagged["post"].featured_image)
    tag = factories.TagFactory(slug="systems")
    for item in tagged.values():
        item.tags.add(tag)
    factories.HomeSectionFactory(kind="posts", position=1)
    factories.PageFactory(slug="lab", body="![](media:cluster)\n\n![](media:gallery/retreat)")
    ten = _images(10)
    _page_showing("ten-images", ten[:5], ten[5:])  # five figures and a gallery of five
    calls = _count_pillow_work(monkeypatch)

    urls = [*_pages(tagged), "/", "/posts/", "/publications/", "/themes/", "/teaching/"]
    urls += ["/tags/systems/", "/zh-hans/tags/systems/", "/lab/", "/sitemap.xml"]
    urls += ["/ten-images/", "/zh-hans/ten-images/"]
    for url in urls:
        assert client.get(url).status_code == 200, url
    # what the Markdown renderer asks for a page's `media:` references
    assert "<picture>" in resolve("cluster", "", None)
    assert "<picture>" in resolve("gallery/retreat", "", None)

    assert calls == []


def test_a_page_with_ten_images_shows_all_ten_with_their_sizes(client, site_rows):
    ten = _images(10)
    _page_showing("ten-images", ten[:5], ten[5:])

    html = client.get("/ten-images/").content.decode()

    assert html.count("<picture>") == 10
    assert html.count('width="300" height="200"') == 10  # each reserves its space
    assert html.count('<figure class="gallery__item">') == 5


@pytest.mark.parametrize(
    ("one", "ten"),
    [((1, 0), (10, 0)), ((0, 1), (0, 10)), ((1, 1), (5, 5))],
    ids=["figures", "a gallery", "figures and a gallery"],
)
def test_a_page_with_ten_images_takes_the_queries_one_with_one_takes(
    client, site_rows, django_assert_num_queries, one, ten
):
    images = _images(10)
    _page_showing("one", images[: one[0]], images[one[0] : one[0] + one[1]])
    _page_showing("ten", images[: ten[0]], images[ten[0] : ten[0] + ten[1]])
    with CaptureQueriesContext(connection) as first:
        assert client.get("/one/").status_code == 200

    with django_assert_num_queries(len(first)):
        html = client.get("/ten/").content.decode()

    assert html.count("<picture>") == 10


def test_a_gallery_in_a_text_keeps_its_grid_and_a_figure_its_credit(client):
    gallery = factories.GalleryFactory(name="retreat", title="The retreat")
    for position in (1, 2):
        factories.GalleryItemFactory(gallery=gallery, position=position)
    factories.MediaItemFactory(name="cluster", credit="Photo: Lin Wei")
    factories.PageFactory(slug="lab", body="![](media:gallery/retreat)\n\n![](media:cluster)")

    html = client.get("/lab/").content.decode()

    # the sanitiser keeps the classes site.css lays the grid and the credit out with
    assert '<figure class="gallery"><ul class="gallery__grid">' in html
    assert html.count('<figure class="gallery__item">') == 2
    assert '<span class="figure__credit">Photo: Lin Wei</span>' in html


def test_the_posts_list_reads_images_and_tags_in_a_fixed_number_of_queries(
    client, photo, django_assert_max_num_queries
):
    tags = [factories.TagFactory(), factories.TagFactory()]
    for _n in range(12):
        post = factories.PostFactory(featured_image=photo)
        post.tags.set(tags)
    client.get("/posts/")  # the first visit writes the site's own rows

    with django_assert_max_num_queries(12):
        html = client.get("/posts/").content.decode()

    assert html.count("<picture>") == 12


def test_an_image_in_use_is_not_deleted_and_the_admin_says_where(admin_client, tagged):
    photo = tagged["post"].featured_image
    factories.PageFactory(title="Our lab", slug="lab", body="![Racks](media:cluster)")
    url = f"/admin/media/mediaitem/{photo.pk}/delete/"

    html = admin_client.get(url).content.decode()
    admin_client.post(url, {"post": "yes"})

    assert MediaItem.objects.filter(pk=photo.pk).exists()
    assert "Our lab" in html  # the page whose text shows it
    assert tagged["post"].title in html  # a featured use
    assert "Cannot delete" in html or "would require deleting" in html


def test_an_image_only_a_text_uses_is_kept_too(admin_client, photo):
    factories.PageFactory(title="Our lab", slug="lab", body="See ![](media:cluster).")

    with pytest.raises(Exception, match="Our lab"):
        photo.delete()

    assert MediaItem.objects.filter(pk=photo.pk).exists()


def test_an_unused_image_is_deleted_with_its_renditions(
    admin_client, photo, django_capture_on_commit_callbacks
):
    from django.core.files.storage import default_storage

    names = [photo.image.name, *photo.rendition_names()]
    assert all(default_storage.exists(name) for name in names)
    factories.PageFactory(slug="other", body="media:clusters is another name")

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(f"/admin/media/mediaitem/{photo.pk}/delete/", {"post": "yes"})

    assert response.status_code == 302
    assert not MediaItem.objects.exists()
    assert not any(default_storage.exists(name) for name in names)


def test_a_replaced_image_takes_its_old_files_away(
    admin_client, photo, django_capture_on_commit_callbacks
):
    from django.core.files.storage import default_storage

    from tests.admin_forms import form_data

    old = [photo.image.name, *photo.rendition_names()]
    url = f"/admin/media/mediaitem/{photo.pk}/change/"
    new = SimpleUploadedFile("n.jpg", factories.photo_bytes((500, 400)))

    data = form_data(admin_client.get(url), image=new)
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(url, data)

    assert response.status_code == 302
    photo.refresh_from_db()
    assert (photo.width, photo.height) == (500, 400)
    assert all(default_storage.exists(name) for name in photo.rendition_names())
    assert not any(default_storage.exists(name) for name in old)
