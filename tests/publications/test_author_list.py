"""The one author-list renderer, in every context, against the seed pages' cases."""

import pytest
from django.utils import translation

from lab.models import LabSettings
from publications.authors import DETAIL, EXPORT, FEED, LIST, PROFILE, author_list
from publications.models import Publication
from tests.factories import PersonFactory, authored

pytestmark = pytest.mark.django_db


def _render(publication, context=PROFILE, person=None):
    publication = Publication.objects.for_listing().get(pk=publication.pk)
    return author_list(publication, context, person=person)


@pytest.fixture
def teng(db):
    return PersonFactory(name="Teng Ma", slug="teng-ma")


def test_co_first_authors_get_the_equal_contribution_marker_and_badge(teng):
    lightdsa = authored(teng, ["Y Wang", "T Ma", "Y Luo"], at=2, co_first=[1, 2])

    authors = _render(lightdsa, person=teng)

    html = authors.html()
    assert 'Y Wang<sup class="marker" title="Equal contribution">*</sup>' in html
    marker = '<sup class="marker" title="Equal contribution">*</sup>'
    assert f'<strong class="author-self">T Ma</strong>{marker}' in html
    assert "Y Luo<sup" not in html
    assert authors.badges == ["Co-first"]
    assert [m.meaning for m in authors.legend] == ["Equal contribution"]


def test_corresponding_author_gets_a_distinct_marker_and_badge(teng):
    engram = authored(teng, ["R Ma", "T Ma", "Z Su", "..."], at=2, corresponding=[2])

    authors = _render(engram, person=teng)

    assert '<sup class="marker" title="Corresponding author">†</sup>' in authors.html()
    assert "*" not in authors.html()
    assert authors.badges == ["Corresponding"]
    assert [m.symbol for m in authors.legend] == ["†"]


def test_same_printed_name_highlights_only_the_linked_person(teng):
    xrdma = authored(teng, ["T Ma", "T Ma", "Z Song"], at=1)

    html = _render(xrdma, person=teng).html()

    assert html.count("author-self") == 1
    assert html.index("author-self") < html.index(", ")
    assert '<span class="author">T Ma</span>' in html  # the second T Ma, plain


def test_first_author_badge_needs_first_position_without_co_first(teng):
    first = authored(teng, ["T Ma", "K Chen"], at=1)
    co_first_first = authored(teng, ["T Ma", "M Zhang"], at=1, co_first=[1, 2])
    second = authored(teng, ["K Chen", "T Ma"], at=2)

    assert _render(first, person=teng).badges == ["1st Author"]
    assert _render(co_first_first, person=teng).badges == ["Co-first"]
    assert _render(second, person=teng).badges == []


def test_a_co_first_and_corresponding_author_gets_both_markers_and_badges(teng):
    paper = authored(teng, ["M Zhang", "T Ma"], at=2, co_first=[1, 2], corresponding=[2])

    authors = _render(paper, person=teng)

    assert "T Ma</strong><sup" in authors.html()
    assert authors.html().count("†") == 1
    assert authors.badges == ["Co-first", "Corresponding"]


def test_long_list_is_shortened_keeping_the_person_even_when_last(teng):
    names = [f"A Author{n}" for n in range(1, 15)] + ["T Ma"]
    paper = authored(teng, names, at=15)

    authors = _render(paper, person=teng)

    assert [n.text for n in authors.names] == ["A Author1", "A Author2", "A Author3", "…", "T Ma"]
    assert authors.names[-1].is_context


def test_long_list_is_shortened_around_a_person_in_the_middle(teng):
    names = [f"A Author{n}" for n in range(1, 21)]
    names[9] = "T Ma"
    paper = authored(teng, names, at=10)

    texts = [n.text for n in _render(paper, person=teng).names]

    assert texts == ["A Author1", "A Author2", "A Author3", "…", "T Ma", "…"]


def test_person_among_the_first_names_keeps_them_and_one_ellipsis(teng):
    names = ["F Ren", "R Qin", "T Ma"] + [f"A Author{n}" for n in range(11)]
    paper = authored(teng, names, at=3)

    texts = [n.text for n in _render(paper, LIST, person=teng).names]

    assert texts == ["F Ren", "R Qin", "T Ma", "…"]


@pytest.mark.parametrize("context", [DETAIL, EXPORT, FEED])
def test_detail_feed_and_export_always_give_the_full_list(teng, context):
    names = [f"A Author{n}" for n in range(1, 15)] + ["T Ma"]
    paper = authored(teng, names, at=15)

    assert len(_render(paper, context, person=teng).names) == 15


def test_lab_settings_choose_name_style_markers_and_length(teng):
    lab = LabSettings.load()
    lab.author_name_style = LabSettings.AuthorNameStyle.FULL
    lab.marker_equal_contribution, lab.marker_corresponding = "#", "✉"
    lab.authors_shorten_above, lab.authors_keep_first = 3, 1
    lab.save()
    paper = authored(teng, ["Yan Wang", "Teng Ma", "Yu Luo", "Dan He"], at=2, co_first=[1, 2])

    authors = _render(paper, person=teng)

    assert [n.text for n in authors.names] == ["Yan Wang", "Teng Ma", "…"]
    assert ">#</sup>" in authors.html()
    assert [m.symbol for m in authors.legend] == ["#"]


def test_shortening_zero_never_shortens(teng):
    lab = LabSettings.load()
    lab.authors_shorten_above = 0
    lab.save()
    paper = authored(teng, [f"A Author{n}" for n in range(40)], at=1)

    assert len(_render(paper, person=teng).names) == 40


def test_unlisted_rows_print_as_ellipsis_in_the_middle_and_et_al_at_the_end(teng):
    paper = authored(teng, ["X Sun", "S Chen", "...", "T Ma", "..."], at=4)

    authors = _render(paper, person=teng)

    assert [n.text for n in authors.names] == ["X Sun", "S Chen", "…", "T Ma", "et al."]
    assert authors.has_unlisted
    assert [n.text for n in authors.authors()] == ["X Sun", "S Chen", "T Ma"]


def test_other_lab_members_are_linked_and_unpublished_ones_are_not(teng):
    feng = PersonFactory(name="Feng Ren", slug="feng-ren")
    hidden = PersonFactory(name="Hidden Person", slug="hidden", is_published=False)
    paper = authored(teng, ["F Ren", "T Ma", "H Person"], at=2)
    paper.authorships.filter(position=1).update(person=feng)
    paper.authorships.filter(position=3).update(person=hidden)

    html = _render(paper, LIST, person=teng).html()

    assert '<a href="/people/feng-ren/">F Ren</a>' in html
    assert '<strong class="author-self"><a href="/people/teng-ma/">T Ma</a></strong>' in html
    assert "/people/hidden/" not in html


def test_names_in_chinese_script_print_family_name_first_without_initials():
    paper = authored(None, ["腾 马"], at=0)

    assert _render(paper).names[0].text == "马腾"


def test_printed_names_are_escaped():
    paper = authored(None, ["<b>X</b> Evil"], at=0)

    assert "<b>" not in _render(paper).html()


def test_detail_context_numbers_affiliations():
    paper = authored(None, ["R Qin", "Z Li", "F Ren"], at=0)
    for position, affiliation in [(1, "Tsinghua"), (2, "Moonshot AI"), (3, "Tsinghua")]:
        paper.authorships.filter(position=position).update(affiliation=affiliation)

    authors = _render(paper, DETAIL)

    assert authors.affiliations == ["Tsinghua", "Moonshot AI"]
    assert [n.affiliation_numbers for n in authors.names] == [(1,), (2,), (1,)]


def test_shortened_list_about_no_one_keeps_every_lab_member_visible(teng):
    feng = PersonFactory(name="Feng Ren", slug="feng-ren")
    names = ["R Qin", "Z Li", "W He", "J Cui", "H Tang", "F Ren", "T Ma", "S Cai", "Y Zhang",
             "M Zhang", "Y Wu", "W Zheng", "X Xu"]  # fmt: skip
    paper = authored(teng, names, at=7)
    paper.authorships.filter(position=6).update(person=feng)

    texts = [n.text for n in _render(paper, LIST).names]

    assert texts == ["R Qin", "Z Li", "W He", "…", "F Ren", "T Ma", "…"]


def test_et_al_is_translated_on_chinese_pages(teng):
    paper = authored(teng, ["X Sun", "S Chen", "...", "T Ma", "..."], at=4)

    with translation.override("zh-hans"):
        authors = _render(paper, person=teng)

    assert [n.text for n in authors.names] == ["X Sun", "S Chen", "…", "T Ma", "等"]
