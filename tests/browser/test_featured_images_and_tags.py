"""In Chromium, through the admin: a lab admin uploads an image with its alt text in both
languages; a member writes a post with it as the featured image, a gallery in its text and
two tags; visitors see the post, the posts list and the tag's page (which lists a paper
too) with srcset, alt text and captions, at 1,280 and 390 px, light and dark. Screenshots
go to SCREENSHOTS (a folder) when it is set."""

import os

import pytest
from django.contrib.auth.models import Group

from media.models import MediaItem
from tests import factories
from tests.browser.admin_forms import pick
from tests.browser.visitors import serve_media
from website.models import Post

pytestmark = pytest.mark.django_db(transaction=True)


def _signed_in(browser, live_server, username, group):
    user = factories.UserFactory(username=username, is_staff=True)
    user.set_password("a long test password")
    user.save()
    user.groups.add(Group.objects.get(name=group))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(live_server.url + "/admin/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "a long test password")
    page.click("input[type=submit]")
    page.wait_for_load_state()
    return user, context, page


def test_a_post_with_a_featured_image_and_tags_in_both_languages_and_sizes(
    browser, live_server, tmp_path
):
    # a lab admin uploads the image, with alt text in both languages, a caption and credit
    _admin, admin_context, page = _signed_in(browser, live_server, "labadmin", "Lab admin")
    photo = tmp_path / "cluster.jpg"
    photo.write_bytes(factories.photo_bytes((2400, 1500)))
    page.goto(live_server.url + "/admin/media/mediaitem/add/")
    page.set_input_files("#id_image", str(photo))
    page.fill("#id_alt_en", "Four racks of GPU servers in the machine room")
    page.fill("#id_alt_zh_hans", "机房里的四个 GPU 服务器机架")
    page.fill("#id_name", "cluster")
    page.fill("#id_caption_en", "The lab's cluster, spring 2026")
    page.fill("#id_caption_zh_hans", "实验室的集群，2026 年春")
    page.fill("#id_credit", "Photo: Lin Wei")
    page.click("input[name=_save]")
    page.wait_for_load_state()
    assert not page.locator(".errornote").count()
    item = MediaItem.objects.get(name="cluster")
    assert (item.width, item.height) == (1920, 1200)
    memory = factories.TagFactory(
        name="memory systems", name_zh_hans="内存系统", slug="memory-systems"
    )
    factories.TagFactory(name="llm serving", slug="llm-serving")
    retreat = factories.GalleryFactory(name="retreat", title="The lab's retreat, 2026")
    for position in (1, 2, 3):
        factories.GalleryItemFactory(gallery=retreat, position=position)
    admin_context.close()

    # a paper carries one of the tags
    paper = factories.PublicationFactory(title="Mooncake: A KVCache-centric Architecture")
    paper.tags.add(memory)

    # a member writes the post, picking the image and the tags
    user, context, page = _signed_in(browser, live_server, "feng", "Lab member")
    factories.PersonFactory(user=user, name="Feng Ren", slug="feng-ren")
    page.goto(live_server.url + "/admin/website/post/add/")
    page.fill("#id_title_en", "Our new cluster is running")
    page.fill("#id_title_zh_hans", "我们的新集群投入使用")
    page.fill("#id_date", "2026-03-02")
    page.fill("#id_summary_en", "Four racks, 64 GPUs, one disaggregated KV cache.")
    gallery = "\n\n![The retreat](media:gallery/retreat)\n"
    page.fill("#id_body_en", "The cluster serves **Mooncake** experiments from today." + gallery)
    page.fill("#id_body_zh_hans", "集群从今天起运行 **Mooncake** 实验。" + gallery)
    pick(page, "id_featured_image", "cluster")
    pick(page, "id_tags", "memory")
    pick(page, "id_tags", "llm")
    page.check("#id_is_published")
    page.click("input[name=_save]")
    page.wait_for_load_state()
    assert not page.locator(".errornote").count()
    post = Post.objects.get()
    assert post.featured_image == item
    assert sorted(post.tags.values_list("slug", flat=True)) == ["llm-serving", "memory-systems"]
    context.close()

    shots = os.environ.get("SCREENSHOTS")
    for width, height in ((1280, 900), (390, 844)):
        for scheme in ("light", "dark"):
            visitor_context = browser.new_context(
                viewport={"width": width, "height": height}, color_scheme=scheme
            )
            serve_media(visitor_context)
            visitor = visitor_context.new_page()
            for language, prefix, alt in (
                ("en", "", "Four racks of GPU servers in the machine room"),
                ("zh-hans", "/zh-hans", "机房里的四个 GPU 服务器机架"),
            ):
                visitor.goto(f"{live_server.url}{prefix}{post.get_absolute_url()}")
                figure = visitor.locator("figure.figure--featured")
                image = figure.locator("img")
                assert image.get_attribute("alt") == alt
                assert "1920w" in image.get_attribute("srcset")
                assert figure.locator("source[type='image/webp']").count() == 1
                caption = figure.locator("figcaption").inner_text()
                assert "Photo: Lin Wei" in caption
                # the browser chose a rendition and drew it
                chosen = image.evaluate("img => img.currentSrc")
                assert chosen.endswith(".webp"), chosen
                assert image.evaluate("img => img.complete && img.naturalWidth > 0")
                drawn = image.evaluate("img => img.naturalWidth")
                assert drawn <= (1920 if width > 400 else 1280)
                tags = visitor.locator(".tag-list .tag").all_inner_texts()
                assert len(tags) == 2
                # the gallery in its text: a grid of three, each drawn once scrolled to
                grid = visitor.locator("figure.gallery img")
                assert grid.count() == 3
                visitor.locator("figure.gallery").scroll_into_view_if_needed()
                visitor.wait_for_function(
                    "() => [...document.querySelectorAll('figure.gallery img')]"
                    ".every(img => img.complete && img.naturalWidth > 0)"
                )
                if shots:
                    visitor.screenshot(
                        path=f"{shots}/post-{language}-{width}-{scheme}.png", full_page=True
                    )
                visitor.locator('.tag-list a[href$="/tags/memory-systems/"]').click()
                visitor.wait_for_load_state()
                html = visitor.content()
                assert "Our new cluster is running" in html or "我们的新集群投入使用" in html
                assert "Mooncake: A KVCache-centric Architecture" in html
                # a lazy image loads when it comes into view, not with the page
                visitor.locator(".post-list img").scroll_into_view_if_needed()
                visitor.wait_for_function(
                    "() => [...document.querySelectorAll('.post-list img')]"
                    ".every(img => img.complete && img.naturalWidth > 0)"
                )
                if shots:
                    visitor.screenshot(
                        path=f"{shots}/tag-{language}-{width}-{scheme}.png", full_page=True
                    )
            visitor_context.close()
