"""The posts' admin: lab admins write and edit every post; a member writes their own posts
and edits those they are an author of, and cannot write pages."""

import pytest

from people.models import Person
from tests import factories
from tests.admin_forms import form_data
from website.models import Post

pytestmark = pytest.mark.django_db

POST_ADD = "/admin/website/post/add/"


def test_a_member_writes_a_post_and_is_its_author_without_naming_themselves(
    cast, client, signed_in
):
    member = signed_in(cast["owner"])
    data = form_data(
        member.get(POST_ADD),
        title_en="What we learned at FAST",
        title_zh_hans="FAST 见闻",
        slug="fast-notes",
        date="2026-03-02",
        body_en="Three talks **worth** reading.",
        body_zh_hans="三个值得一读的报告。",
        is_published="on",
    )

    response = member.post(POST_ADD, data)

    assert response.status_code == 302, response.context["errors"]
    post = Post.objects.get()
    assert [a.person.slug for a in post.authors.all()] == ["owner"]
    assert "What we learned at FAST" in client.get("/people/owner/").content.decode()
    assert "三个值得一读的报告。" in client.get("/zh-hans/posts/fast-notes/").content.decode()


def test_a_member_sees_and_edits_only_posts_they_are_an_author_of(cast, signed_in):
    own = factories.PostAuthorFactory(person=Person.objects.get(slug="owner")).post
    others = factories.PostAuthorFactory(person=Person.objects.get(slug="other")).post
    member = signed_in(cast["owner"])

    listing = member.get("/admin/website/post/").content.decode()

    assert own.title in listing
    assert others.title not in listing
    assert member.get(f"/admin/website/post/{own.pk}/change/").status_code == 200
    refused = member.get(f"/admin/website/post/{others.pk}/change/")
    assert refused.status_code == 302 and refused["Location"] == "/admin/"


def test_a_member_cannot_take_themselves_off_a_post(cast, signed_in):
    owner = Person.objects.get(slug="owner")
    post = factories.PostAuthorFactory(person=owner).post
    member = signed_in(cast["owner"])
    url = f"/admin/website/post/{post.pk}/change/"
    data = form_data(member.get(url), **{"authors-0-DELETE": "on"})

    response = member.post(url, data)

    assert response.status_code == 200
    assert "You cannot remove yourself (Owner Member)" in response.content.decode()
    assert post.authors.filter(person=owner).exists()


def test_a_lab_admin_writes_a_post_for_two_members(cast, signed_in):
    editor = signed_in(cast["admin"])
    owner, other = Person.objects.get(slug="owner"), Person.objects.get(slug="other")
    data = form_data(
        editor.get(POST_ADD),
        title_en="Welcome to our new members",
        slug="welcome",
        date="2026-09-01",
        is_published="on",
        **{
            "authors-TOTAL_FORMS": "2",
            "authors-0-position": "1",
            "authors-0-person": str(other.pk),
            "authors-1-position": "2",
            "authors-1-person": str(owner.pk),
        },
    )

    response = editor.post(POST_ADD, data)

    assert response.status_code == 302, response.context["errors"]
    post = Post.objects.get()
    assert [a.person.slug for a in post.authors.all()] == ["other", "owner"]


def test_a_post_without_a_title_is_refused_with_a_clear_message(cast, signed_in):
    editor = signed_in(cast["admin"])
    data = form_data(editor.get(POST_ADD), title_en="", title_zh_hans="", body_en="Text.")

    response = editor.post(POST_ADD, data)

    assert response.status_code == 200
    assert "Give the post&#x27;s title, in English or Chinese." in response.content.decode()
    assert not Post.objects.exists()


def _post_naming_other(member):
    """The owner member writes a published post and names the other member as its first
    author (the form as sent, with a forged "confirmed" for the other's row)."""
    other = Person.objects.get(slug="other")
    data = form_data(
        member.get(POST_ADD),
        title_en="Our paper at OSDI",
        slug="osdi",
        date="2026-03-02",
        body_en="It is out.",
        is_published="on",
        **{
            "authors-0-position": "1",
            "authors-0-person": str(other.pk),
            "authors-0-confirmed": "on",
        },
    )
    response = member.post(POST_ADD, data)
    assert response.status_code == 302, response.context["errors"]
    return Post.objects.get(slug="osdi")


def test_a_member_names_another_as_author_only_once_they_confirm(cast, client, signed_in):
    post = _post_naming_other(signed_in(cast["owner"]))
    named = signed_in(cast["other"])

    assert [(a.person.slug, a.confirmed) for a in post.authors.order_by("position")] == [
        ("other", False),
        ("owner", True),
    ]
    page = client.get("/posts/osdi/").content.decode()
    assert "Owner Member" in page and "Other Member" not in page
    assert "Our paper at OSDI" not in client.get("/people/other/").content.decode()
    assert "Other Member" not in client.get("/posts/feed/").content.decode()
    listing = named.get("/admin/website/post/").content.decode()
    assert "1 post names you as an author" in listing
    assert "Other Member (not yet confirmed)" in listing

    named.post(
        "/admin/website/post/",
        {"action": "confirm_authorship", "_selected_action": [post.pk]},
    )

    assert post.authors.get(person__slug="other").confirmed
    assert "Other Member" in client.get("/posts/osdi/").content.decode()
    assert "Our paper at OSDI" in client.get("/people/other/").content.decode()


def test_a_member_declines_being_named_and_the_writer_cannot_confirm_for_them(
    cast, client, signed_in
):
    writer = signed_in(cast["owner"])
    post = _post_naming_other(writer)

    writer.post(
        "/admin/website/post/",
        {"action": "confirm_authorship", "_selected_action": [post.pk]},
    )
    assert not post.authors.get(person__slug="other").confirmed
    signed_in(cast["other"]).post(
        "/admin/website/post/",
        {"action": "decline_authorship", "_selected_action": [post.pk]},
    )

    assert [a.person.slug for a in post.authors.all()] == ["owner"]
    assert "Other Member" not in client.get("/posts/osdi/").content.decode()


def test_a_lab_admin_names_members_without_their_confirmation(cast, client, signed_in):
    editor = signed_in(cast["admin"])
    other = Person.objects.get(slug="other")
    data = form_data(
        editor.get(POST_ADD),
        title_en="Welcome",
        slug="welcome",
        date="2026-03-02",
        is_published="on",
        **{"authors-0-position": "1", "authors-0-person": str(other.pk)},
    )

    editor.post(POST_ADD, data)

    assert Post.objects.get().authors.get().confirmed
    assert "Other Member" in client.get("/posts/welcome/").content.decode()
