"""A lab admin enters a whole new member through the admin's real forms in Chromium, with
the facts a real home page leaves out left out, then reads the public profile as a visitor.

The member (not from the seeds) has no photo, a "Now" updated only "2026", a job known only
by its employer, a pull request whose status the page does not state, a project with three
results and the paper it produced, an introduction above a section, and a five-author paper
on which they are co-first. Every change page the test uses fits a 1,280 px window.
"""

import pytest

from people.models import Person
from publications.models import Publication
from tests import factories
from tests.browser.admin_forms import pick

pytestmark = pytest.mark.django_db(transaction=True)

WINDOW = 1280
NAME = "Lena Hoffmann"


class Hands:
    """The page, driven as a person would, counting the fields filled and the clicks."""

    def __init__(self, page):
        self.page, self.fields, self.clicks = page, 0, 0

    def fill(self, selector, value):
        self.page.fill(selector, value)
        self.fields += 1

    def select(self, selector, value):
        self.page.select_option(selector, value)
        self.fields += 1

    def check(self, selector):
        self.page.check(selector)
        self.fields += 1

    def click(self, selector, **kwargs):
        self.page.locator(selector, **kwargs).first.click()
        self.clicks += 1

    def choose(self, select_id, text):
        """A select2 autocomplete: open it, type, pick the match (one field, two clicks)."""
        pick(self.page, select_id, text)
        self.clicks += 2
        self.fields += 1

    def save(self, button="_continue"):
        self.click(f"input[name={button}]")
        self.page.wait_for_load_state()
        errors = self.page.locator(".errornote, .error-summary").all_inner_texts()
        assert not errors, errors

    def width(self):
        return self.page.evaluate("document.documentElement.scrollWidth")


@pytest.fixture
def venue():
    return factories.VenueFactory(
        short_name="EuroSys", name="European Conference on Computer Systems"
    )


def test_a_lab_admin_enters_a_member_and_the_profile_says_only_what_was_given(
    lab_admin_page, live_server, venue
):
    page, hands, widths = lab_admin_page, Hands(lab_admin_page), {}
    base = live_server.url

    # The person, with the sections the page opens from its list at the top.
    page.goto(base + "/admin/people/person/add/")
    hands.fill("#id_name", NAME)  # the address (slug) fills itself in
    hands.fill("#id_title_en", "PhD Student")
    hands.fill("#id_bio_en", "Works on **memory disaggregation**.")
    hands.fill("#id_research_interests_en", "Agent harnesses, hardware, and infrastructure\nCXL")
    hands.fill("#id_now", "Writing up the CXL pooling paper.")
    hands.fill("#id_now_updated", "2026")
    hands.click(".section-nav__add[href='#experience-group']")
    hands.fill("#id_experience-0-organization", "Example Robotics")
    hands.fill("#id_experience-0-start", "2024-07")
    hands.click(".section-nav__add[href='#contributions-group']")
    hands.fill("#id_contributions-0-project", "vLLM")
    hands.fill("#id_contributions-0-title", "Add an RDMA transport for KV cache transfer")
    hands.click(".section-nav__add[href='#projects-group']")
    hands.fill("#id_projects-0-name_en", "Tessera")
    hands.fill("#id_projects-0-summary_en", "A pooled KV cache over CXL memory.")
    hands.click(".section-nav__add[href='#section_introductions-group']")
    hands.select("#id_section_introductions-0-section", "contributions")
    hands.fill("#id_section_introductions-0-text_en", "Statuses as of **December 2026**.")
    hands.save()
    person = Person.objects.get(name=NAME)
    widths["person"] = hands.width()
    person_page = page.url

    # The paper: five authors, the member second and co-first with the first.
    page.goto(base + "/admin/publications/publication/add/")
    hands.fill("#id_title", "Tessera: Pooling KV Cache over CXL")
    hands.select("#id_kind", "conference")
    hands.fill("#id_date", "2026-04")
    hands.choose("id_venue", "EuroSys")
    authors = [("Mira", "Castell"), ("", ""), ("Jun", "Okafor"), ("Ines", "Dahl"), ("Teo", "Marr")]
    for row, (given, family) in enumerate(authors):
        if row:
            hands.click("#authorships-group .add-row a")
        if given:
            hands.fill(f"#id_authorships-{row}-given_name", given)
            hands.fill(f"#id_authorships-{row}-family_name", family)
        else:  # the member: picked, their printed name taken from the profile
            hands.choose(f"id_authorships-{row}-person", NAME)
    hands.check("#id_authorships-0-is_equal_contribution")
    hands.check("#id_authorships-1-is_equal_contribution")
    hands.save()
    paper = Publication.objects.get()
    widths["publication"] = hands.width()
    paper_page = page.url

    # The project's own page, from the person's: three results and the paper.
    page.goto(base + f"/admin/people/person/{person.pk}/change/")
    hands.click(".section-nav a", has_text="projects with their results")
    hands.click("#result_list a", has_text="Tessera")
    results = [
        ("5,126", "tok/s per GPU in decoding", "", "2026-03"),
        ("+46.7%", "throughput", "vs. a local-DRAM cache", ""),
        ("4.9×", "faster time to first token", "", ""),
    ]
    for row, (value, measure, context, date) in enumerate(results):
        if row:
            hands.click("#results-group .add-row a")
        hands.fill(f"#id_results-{row}-value", value)
        hands.fill(f"#id_results-{row}-measure", measure)
        if context:
            hands.fill(f"#id_results-{row}-context", context)
        if date:
            hands.fill(f"#id_results-{row}-date", date)
    hands.click("#projectpublication_set-group .add-row a")
    hands.choose("id_projectpublication_set-0-publication", "Tessera: Pooling")
    hands.save()
    widths["project"] = hands.width()
    project_page = page.url

    # What a visitor sees.
    page.goto(base + person.get_absolute_url())
    text = page.locator("main").inner_text()
    print(f"\n{hands.fields} fields, {hands.clicks} clicks; widths {widths}")

    assert widths == {"person": WINDOW, "publication": WINDOW, "project": WINDOW}
    assert page.locator("main img").count() == 0  # no photo: the initials avatar
    assert "Last updated 2026" in text
    interests = page.locator(".tags li").all_inner_texts()
    assert "Agent harnesses, hardware, and infrastructure" in interests
    assert page.locator("section:has(#experience-heading) h3").inner_text() == "Example Robotics"
    contributions = page.locator("section:has(#contributions-heading)")
    assert contributions.locator(".status").count() == 0  # not stated, not "Merged"
    intro = contributions.locator("p", has_text="Statuses as of December 2026")
    assert intro.locator("strong").inner_text() == "December 2026"
    card = page.locator(".card", has_text="Tessera")
    assert card.locator(".results li").all_inner_texts() == [
        "5,126 tok/s per GPU in decoding · Mar 2026",
        "+46.7% throughput (vs. a local-DRAM cache)",
        "4.9× faster time to first token",
    ]
    assert card.locator(".card__work a").inner_text() == paper.title
    entry = page.locator(f"#pub-{paper.slug}")
    assert entry.locator(".author-self").inner_text() == "L Hoffmann"
    assert entry.locator(".author").nth(0).locator(".marker").count() == 1  # co-first, both
    assert entry.locator(".author").nth(1).locator(".marker").count() == 1
    assert "None" not in text and "Merged" not in text

    # The same change pages on a phone are no wider than it.
    page.set_viewport_size({"width": 390, "height": 800})
    for url in (person_page, paper_page, project_page):
        page.goto(url)
        assert hands.width() == 390, url
