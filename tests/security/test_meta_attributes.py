"""What a member writes reaches a page's <meta> attributes as text: the template engine
escapes it there, so a quote cannot end the attribute and add one of its own."""

from html.parser import HTMLParser

import pytest

from tests import factories

pytestmark = pytest.mark.django_db

HOSTILE = 'Cache "lines" onmouseover="alert(1)" <script>alert(2)</script> & more'


class _Metas(HTMLParser):
    def __init__(self):
        super().__init__()
        self.metas = []

    def handle_starttag(self, tag, attrs):
        if tag == "meta":
            self.metas.append(dict(attrs))


def _metas(response):
    assert response.status_code == 200
    parser = _Metas()
    parser.feed(response.content.decode())
    return parser.metas


def _description(metas):
    (meta,) = [m for m in metas if m.get("name") == "description"]
    return meta


@pytest.mark.parametrize("written_in", ["summary", "body"])
def test_a_post_summary_or_body_stays_text_in_the_description(client, written_in):
    text = HOSTILE if written_in == "summary" else f"**Cache** {HOSTILE}"
    fields = {"summary": HOSTILE, "body": ""} if written_in == "summary" else {"body": text}
    factories.PostFactory(slug="hostile", **fields)

    metas = _metas(client.get("/posts/hostile/"))

    description = _description(metas)
    assert set(description) == {"name", "content"}  # no attribute of the writer's own
    if written_in == "summary":
        assert description["content"] == HOSTILE
    else:  # the body's raw HTML is dropped by the Markdown sanitiser; its text stays
        assert description["content"] == 'Cache Cache "lines" onmouseover="alert(1)" & more'
    assert all(set(m) <= {"name", "property", "content", "charset"} for m in metas)


def test_an_opening_and_a_page_body_stay_text_in_the_description(client):
    factories.OpeningFactory(slug="hostile", description=f"# Join\n\n{HOSTILE}")
    factories.PageFactory(slug="hostile-page", body=f"*{HOSTILE}*")

    for url in ("/openings/hostile/", "/hostile-page/"):
        description = _description(_metas(client.get(url)))
        assert set(description) == {"name", "content"}, url
        assert 'Cache "lines" onmouseover="alert(1)" & more' in description["content"], url
