"""A member writes a post through the admin's real form in Chromium, in both languages; a
visitor then finds it in the posts list, on the member's profile (also on a 390 px phone)
and in the Atom feed. The member is still refused the page form."""

import feedparser
import pytest
from django.contrib.auth.models import Group

from tests import factories
from website.models import Post

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def member_page(browser, live_server):
    """A signed-in lab member (Feng Ren) in the admin, at 1,280 px."""
    user = factories.UserFactory(username="feng", is_staff=True)
    user.set_password("a long test password")
    user.save()
    user.groups.add(Group.objects.get(name="Lab member"))
    factories.PersonFactory(user=user, name="Feng Ren", slug="feng-ren")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(live_server.url + "/admin/login/")
    page.fill("#id_username", "feng")
    page.fill("#id_password", "a long test password")
    page.click("input[type=submit]")
    page.wait_for_load_state()
    yield page
    context.close()


def test_a_member_writes_a_post_found_in_the_list_on_their_profile_and_in_the_feed(
    member_page, browser, live_server, client
):
    page = member_page
    page.goto(live_server.url + "/admin/website/post/add/")
    page.fill("#id_title_en", "Mooncake wins a best paper award")
    page.fill("#id_title_zh_hans", "Mooncake 获最佳论文奖")
    page.fill("#id_date", "2025-02-28")
    page.fill("#id_body_en", "Our paper won the **Best Paper Award** at FAST '25.")
    page.fill("#id_body_zh_hans", "我们的论文获得 FAST '25 **最佳论文奖**。")
    page.check("#id_is_published")
    page.click("input[name=_save]")
    page.wait_for_load_state()
    assert not page.locator(".errornote").count()
    post = Post.objects.get()
    assert [a.person.slug for a in post.authors.all()] == ["feng-ren"]

    visitor = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    visitor.goto(live_server.url + "/zh-hans/posts/")
    visitor.locator(".post-list a", has_text="Mooncake 获最佳论文奖").click()
    visitor.wait_for_load_state()
    assert visitor.locator("h1").inner_text() == "Mooncake 获最佳论文奖"
    assert "最佳论文奖" in visitor.locator(".prose strong").inner_text()
    visitor.locator(".post__authors a", has_text="Feng Ren").click()
    visitor.wait_for_load_state()
    assert visitor.url == live_server.url + "/zh-hans/people/feng-ren/"
    assert visitor.locator("#posts .post-list a").inner_text() == "Mooncake 获最佳论文奖"
    visitor.context.close()

    feed = feedparser.parse(client.get("/posts/feed/").content)
    assert [entry.title for entry in feed.entries] == ["Mooncake wins a best paper award"]
    assert feed.entries[0].author == "Feng Ren"

    assert page.goto(live_server.url + "/admin/website/page/add/").status == 403
