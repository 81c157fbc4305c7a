"""`import_site`: whole al-folio and Hugo Blox sites, real ones, brought into the lab; a
second run changes nothing; what cannot be read is skipped and named, the rest comes in;
only a security fault refuses a site."""

import io
import os
import re
import shutil
import tempfile
import time
import zipfile
from pathlib import Path

import bibtexparser
import pytest
import yaml
from django.contrib.auth.models import Group
from django.core.files.base import ContentFile
from django.core.files.storage import storages
from django.core.management import CommandError, call_command
from django.test import Client
from PIL import Image

from core.partial_dates import PartialDate
from labsite.site_import import import_site, open_site
from people.models import Education, Experience, Link, NewsItem, Person, Project
from publications.models import Authorship, Publication
from talks.models import Award, Talk
from tests import factories
from website.models import Course, Page, Post

pytestmark = pytest.mark.django_db
SITES = Path(__file__).parent / "data" / "sites"
MODELS = {
    "people": Person,
    "links": Link,
    "education": Education,
    "experience": Experience,
    "awards": Award,
    "news": NewsItem,
    "projects": Project,
    "talks": Talk,
    "publications": Publication,
}


def _entries(path):
    """The entries of a BibTeX file, as bibtexparser counts them: an entry whose key repeats
    an earlier one's is still an entry of the file."""
    library = bibtexparser.parse_string(path.read_text())
    repeated = [b for b in library.failed_blocks if "Duplicate entry key" in str(b.error)]
    return len(library.entries) + len(repeated)


def _cv_rows(section):
    cv = yaml.safe_load((SITES / "alfolio-template/_data/cv.yml").read_text())["cv"]
    return len(cv["sections"][section])


def _me(key):
    me = yaml.safe_load((SITES / "hugoblox-academic-cv/data/authors/me.yaml").read_text())
    return len(me[key])


# What each site's files hold, counted from the files where a count is plain.
EXPECTED = {
    "alfolio-template": {
        "people": 1,
        "links": 3,  # scholar_userid, inspirehep_id, custom_social (email is the e-mail)
        "education": lambda: _cv_rows("Education"),
        "experience": lambda: _cv_rows("Experience") + _cv_rows("Volunteer"),
        "awards": lambda: _cv_rows("Awards"),
        "news": lambda: len(list((SITES / "alfolio-template/_news").glob("*.md"))),
        "projects": lambda: len(list((SITES / "alfolio-template/_projects").glob("*.md"))),
        "talks": 0,
        "publications": lambda: _entries(SITES / "alfolio-template/_bibliography/papers.bib"),
    },
    "alfolio-user": {
        "people": 1,
        "links": 3,  # schema.org sameAs: Scholar, LinkedIn, GitHub (the ORCID is the ORCID)
        "education": 0,
        "experience": 0,
        "awards": 0,
        "news": lambda: len(list((SITES / "alfolio-user/_news").glob("*.md"))),
        "projects": 0,
        "talks": 0,
        "publications": lambda: _entries(SITES / "alfolio-user/_bibliography/papers.bib"),
    },
    "hugoblox-academic-cv": {
        "people": 1,
        "links": 4,  # x, github, linkedin, scholar (mailto: and orcid.org have their fields)
        "education": lambda: _me("education"),
        "experience": lambda: _me("experience"),
        "awards": lambda: _me("awards"),
        "news": 0,
        "projects": lambda: len(
            list((SITES / "hugoblox-academic-cv/content/projects").glob("*/index.md"))
        ),
        "talks": lambda: len(
            list((SITES / "hugoblox-academic-cv/content/events").glob("*/index.md"))
        ),
        "publications": lambda: len(
            list((SITES / "hugoblox-academic-cv/content/publications").glob("*/index.md"))
        ),
    },
    "alfolio-0x404": {
        "people": 1,
        "links": 1,  # github_username
        "education": 2,  # cv.yml's time_table
        "experience": 6,  # about.md's experiences
        "awards": 0,
        "news": 0,
        "projects": 0,
        "talks": 0,
        "publications": lambda: _entries(SITES / "alfolio-0x404/_bibliography/papers.bib"),
    },
    "hugo-zanna": {
        "people": 2,
        "links": 5,  # Zanna: twitter, scholar, github; Subel: scholar, github
        "education": 3,  # Zanna's courses
        "experience": 0,
        "awards": 0,
        "news": 0,  # its one post is one of the lab's posts
        "projects": 1,
        "talks": 0,
        "publications": 0,
    },
}


def _counts():
    return {name: model.objects.count() for name, model in MODELS.items()}


def _import(path, *args):
    out = io.StringIO()
    call_command("import_site", str(path), *args, stdout=out)
    return out.getvalue()


TEMPLATES = {"alfolio-template", "hugoblox-academic-cv"}


def _own_copy(name, folder):
    """A site that starts from the template's files and changes each of them (here by a
    newline at the end): its owner's own, no longer the template's samples."""
    site = folder / name
    shutil.copytree(SITES / name, site)
    for path in site.rglob("*"):
        if path.suffix in (".md", ".yml", ".yaml", ".bib", ".json", ".toml"):
            path.write_bytes(path.read_bytes() + b"\n")
    return site


@pytest.fixture
def own_template(tmp_path):
    return lambda name: _own_copy(name, tmp_path)


@pytest.mark.parametrize("name", EXPECTED)
def test_a_real_site_comes_in_whole_and_a_second_run_changes_nothing(name, tmp_path):
    expected = {k: v() if callable(v) else v for k, v in EXPECTED[name].items()}
    folder = _own_copy(name, tmp_path) if name in TEMPLATES else SITES / name

    preview = _import(folder)
    assert _counts() == dict.fromkeys(MODELS, 0)  # a preview writes nothing
    assert "Preview only" in preview
    _import(folder, "--apply")
    assert _counts() == expected
    rows = {
        label: sorted(model.objects.values_list("pk", flat=True)) for label, model in MODELS.items()
    }

    again = _import(folder, "--apply")

    assert "Imported: 0 rows new or updated." in again
    assert {
        label: sorted(model.objects.values_list("pk", flat=True)) for label, model in MODELS.items()
    } == rows


def test_the_templates_own_samples_are_left_out_and_named():
    al_folio = _import(SITES / "alfolio-template", "--apply")
    hugo_blox = _import(SITES / "hugoblox-academic-cv", "--apply")

    assert Person.objects.count() == 1  # al-folio's owner, from _config.yml
    assert _counts() | {"people": 0} == dict.fromkeys(MODELS, 0)
    assert "_data/cv.yml: the template's sample CV, identical to the template's" in al_folio
    assert "_projects/1_project.md: the template's sample" in al_folio
    assert "data/authors/me.yaml: the template's sample author" in hugo_blox
    assert "content/publications/preprint/index.md: the template's sample" in hugo_blox


def test_al_folios_template_field_by_field(own_template):
    _import(own_template("alfolio-template"), "--apply")
    owner = Person.objects.get()
    assert (owner.name, owner.email) == ("You R. Name", "you@example.com")
    assert {"Albert Einstein", "A. Einstein"} <= set(owner.name_variants.splitlines())
    # The papers print the owner as Einstein: every one of them links the profile.
    assert Authorship.objects.filter(person=owner).count() == Publication.objects.count()
    phd = owner.education.get(institution="University of Zurich")
    assert (phd.degree, phd.start, phd.end) == (
        "PhD in Physics",
        PartialDate(1900),
        PartialDate(1905),
    )
    assert "Description 1." in phd.description
    news = list(NewsItem.objects.order_by("date").values_list("text_en", flat=True))
    assert news[0] == "A simple inline announcement."
    assert news[1] == "A long announcement with details"
    assert all(item.person == owner for item in NewsItem.objects.all())
    for project in Project.objects.all():  # Liquid is gone, but from code it shows as code
        prose = re.sub(r"(?ms)^```.*?^```", "", project.summary_en)
        assert "{%" not in prose and "{{" not in prose
    # al-folio's own example of its figures, in {% raw %} in its file, shows as code
    for figures in Project.objects.filter(summary_en__contains="{% include figure.liquid"):
        assert "```html\n<div" in figures.summary_en
    link = owner.links.get(label="Custom Social")
    assert link.url == "https://www.alberteinstein.com/"
    assert owner.links.get(kind="scholar").url.endswith("user=qc6CJjYAAAAJ")


def test_a_researchers_al_folio_site_field_by_field():
    report = _import(SITES / "alfolio-user", "--apply")
    owner = Person.objects.get()
    assert owner.name == "Andrés Peters"
    assert (owner.title_en, owner.affiliation_en) == (
        "Associate Professor",
        "Universidad Adolfo Ibáñez",
    )
    assert owner.orcid == "0000-0003-3282-770X"
    assert owner.email == ""  # the site spells it out only as "andres (dot) peters (at) …"
    assert "Control Systems Theory" in owner.interests()
    assert "My research focuses on control systems theory" in owner.bio_en
    assert "Also known as" not in owner.bio_en  # a hidden d-none block
    assert "{% include" not in owner.bio_en
    assert Authorship.objects.filter(person=owner).count() >= 42
    texts = " ".join(NewsItem.objects.values_list("text_en", flat=True))
    assert "Dr Miaomiao Wang" in texts and "{:" not in texts
    assert "schema_markup award (3 awards" in report


def test_hugo_bloxs_academic_cv_field_by_field(own_template):
    report = _import(own_template("hugoblox-academic-cv"), "--apply")
    me = Person.objects.get()
    assert (me.name, me.title_en, me.affiliation_en) == (
        "Alex Johnson",
        "Senior AI Research Scientist",
        "Meta AI",
    )
    assert (me.email, me.orcid) == ("alex.johnson@example.com", "0000-0002-1825-0097")
    assert me.interests() == [
        "Large Language Models",
        "Computer Vision",
        "Reinforcement Learning",
        "AI Ethics",
    ]
    current = me.experience.get(organization="Meta AI")
    # Hugo Blox shows these to the month ("January 2020"); the row is still current.
    assert (current.start, current.end) == (PartialDate(2020, 1), None)
    paper = Publication.objects.get(title="An example conference paper")
    authors = list(paper.authorships.order_by("position"))
    assert [a.full_name for a in authors] == ["Alex Johnson", "Robert Ford"]  # `me` resolved
    assert authors[0].person == me and all(a.is_equal_contribution for a in authors)
    talk = Talk.objects.get()
    assert (talk.title_en, talk.date, talk.city) == (
        "Create Beautiful Presentations with Markdown",
        PartialDate(2030, 6, 1),
        "Stanford",
    )
    assert talk.speakers.get().person == me
    preprint = Publication.objects.get(title="An example preprint / working paper")
    assert preprint.arxiv_id == ""  # the template's placeholder id stays with the article
    assert Publication.objects.get(title="An example journal article").arxiv_id.startswith(
        "1512.04133"
    )
    assert "is also given to “An example journal article”" in report
    assert "data/authors/me.yaml: skills" in report


def test_older_al_folio_and_academic_layouts_field_by_field():
    _import(SITES / "alfolio-0x404", "--apply")
    _import(SITES / "hugo-zanna", "--apply")
    zeng = Person.objects.get(name="Qunhong Zeng")
    minimax = zeng.experience.get(organization="MiniMax")
    assert (minimax.title, minimax.start, minimax.end) == (
        "Top Talent Intern",
        PartialDate(2024, 7),
        None,
    )
    ms = zeng.education.get(degree="M.S. in Computer Science")
    assert (ms.start, ms.end) == (PartialDate(2023), PartialDate(2026))
    zanna, subel = Person.objects.get(name="Laure Zanna"), Person.objects.get(name="Adam Subel")
    assert (zanna.role, subel.role) == ("pi", "phd")
    assert zanna.email == "laure.zanna@nyu.edu"  # written without mailto:
    assert Project.objects.get().person == zanna


def test_a_person_already_in_the_lab_is_matched_and_keeps_what_an_admin_wrote():
    Person.objects.create(name="Andres A. Peters", slug="peters", title_en="Profesor Asociado")

    _import(SITES / "alfolio-user", "--apply")

    peters = Person.objects.get()  # matched through the site's alternate names
    assert peters.title_en == "Profesor Asociado"
    assert peters.orcid == "0000-0003-3282-770X"  # what was empty is filled


def test_a_zip_of_the_folder_imports_as_the_folder(tmp_path):
    _own_copy("hugoblox-academic-cv", tmp_path / "own")
    archive = shutil.make_archive(str(tmp_path / "site"), "zip", tmp_path / "own")

    _import(archive, "--apply")

    assert Person.objects.get().name == "Alex Johnson" and Publication.objects.count() == 3


def test_a_photo_comes_in_through_the_upload_checks(tmp_path):
    site = _own_copy("alfolio-template", tmp_path)
    (site / "assets/img").mkdir(parents=True)
    Image.new("RGB", (600, 800), "navy").save(site / "assets/img/prof_pic.jpg")

    _import(site, "--apply")

    owner = Person.objects.get()
    assert owner.photo and owner.photo_thumb
    assert Image.open(owner.photo).size[0] == Image.open(owner.photo).size[1]  # re-encoded


def _photo_outside(site):
    path = site / "_pages/about.md"
    path.write_text(
        path.read_text().replace("image: prof_pic.jpg", "image: ../../../../etc/hostname")
    )


def _unknown(site):
    shutil.rmtree(site)
    site.mkdir()
    (site / "index.html").write_text("<h1>My page</h1>")


REFUSED = {
    "an unknown generator": (_unknown, "is neither an al-folio site"),
    "a path leaving the folder": (_photo_outside, "leads out of the site's folder"),
}


@pytest.mark.parametrize("fault", REFUSED)
def test_only_a_security_fault_or_no_site_refuses_the_whole_site(fault, tmp_path):
    site = _own_copy("alfolio-template", tmp_path)
    spoil, message = REFUSED[fault]
    spoil(site)

    with pytest.raises(CommandError, match=re.escape(message)) as refused:
        _import(site, "--apply")

    assert str(refused.value).endswith("Nothing was imported.")
    assert _counts() == dict.fromkeys(MODELS, 0)


def _write(site, name, text):
    (site / name).parent.mkdir(parents=True, exist_ok=True)
    (site / name).write_text(text, encoding="utf-8")


def test_one_unreadable_item_is_skipped_and_named_and_the_rest_comes_in(tmp_path):
    site = _own_copy("alfolio-template", tmp_path)
    path = site / "_news/announcement_1.md"
    path.write_text(path.read_text().replace("inline: true", "inline: [true"))
    (site / "assets/img").mkdir(parents=True)
    Image.new("L", (8000, 5125)).save(site / "assets/img/prof_pic.jpg")  # 41 megapixels
    _write(site, "_projects/9_broken.md", "---\ntitle: [unclosed\n---\nText.\n")

    report = _import(site, "--apply")

    assert "_news/announcement_1.md, line 4: not valid YAML" in report
    assert "_projects/9_broken.md, line 2: not valid YAML" in report
    assert "images may be at most 40 megapixels. (the profile comes in without it)" in report
    assert NewsItem.objects.count() == 2 and Project.objects.count() == 2
    assert Publication.objects.count() == _entries(site / "_bibliography/papers.bib")
    assert not Person.objects.get().photo


def test_front_matter_is_read_as_hugo_and_jekyll_read_it(tmp_path):
    site = _own_copy("alfolio-template", tmp_path)
    shutil.rmtree(site / "_news")
    _write(site, "_news/a.md", "---\ndate:\t2024-01-02\ninline: true\n---\nA tab after a key.\n")
    _write(site, "_news/b.md", "\ufeff\n\n---\ndate: 2024-01-03\ninline: true\n---\nBOM, blanks.\n")
    _write(site, "_news/c.md", "+++\ndate = 2024-01-04\ninline = true\n+++\nTOML.\n")
    _write(site, "_news/d.md", '{"date": "2024-01-05", "inline": true}\nJSON.\n')

    report = _import(site, "--apply")

    texts = list(NewsItem.objects.order_by("date").values_list("text_en", flat=True))
    assert texts == ["A tab after a key.", "BOM, blanks.", "TOML.", "JSON."]
    assert "Skipped" not in report


def test_invalid_optional_values_are_repaired_when_certain_else_dropped(tmp_path):
    site = _own_copy("alfolio-template", tmp_path)
    _write(site, "_data/socials.yml", "email: me-AT-uni.it\ngithub_username: me\n")
    bib = site / "_bibliography/papers.bib"
    bib.write_text(
        "@inproceedings{dblp, title = {Escaped}, author = {Ada Lovelace}, year = 2020,\n"
        "  doi = {10.1007/978-3-030-58548-8\\_15}}\n"
        "@article{bad, title = {Bad DOI}, author = {Ada Lovelace}, year = 2021, doi = {nope}}\n"
    )

    report = _import(site, "--apply")

    assert Person.objects.get().email == "me@uni.it"
    assert Publication.objects.get(title="Escaped").doi == "10.1007/978-3-030-58548-8_15"
    assert (
        Publication.objects.get(title="Bad DOI").doi is None
        or not Publication.objects.get(title="Bad DOI").doi
    )
    assert "invalid DOI “nope” (dropped)" in report


def _lab_site(site):
    """A Hugo Academic lab site: people in groups spelled as labs spell them, one alumnus
    with his years under his name, and the lab's own account."""
    _write(site, "config/_default/config.yaml", "title: Ocean Lab\n")
    people = {
        "pi": ("Ada Lovelace", "Advisor", ""),
        "phd": ("Bo Chen", "Ph.D. Students", ""),
        "ms": ("Cai Wen", "硕士研究生", ""),
        "old": ("Dan Roe", "Graduated Ph.D Students", "2015-2019"),
        "gone": ("Eve Poe", "Alumni", ""),
    }
    for key, (name, group, years) in people.items():
        orgs = f"organizations:\n  - name: {years}\n" if years else ""
        _write(
            site,
            f"content/authors/{key}/_index.md",
            f'---\ntitle: {name}\n{orgs}user_groups: ["{group}"]\n---\n',
        )
    _write(
        site, "content/authors/admin/_index.md", "---\ntitle: Ocean Lab\n---\nWe study oceans.\n"
    )
    return site


def test_a_lab_sites_groups_map_to_roles_and_alumni_with_their_dates(tmp_path):
    report = _import(_lab_site(tmp_path / "lab"), "--apply")

    roles = dict(Person.objects.values_list("name", "role"))
    assert roles == {
        "Ada Lovelace": "pi",
        "Bo Chen": "phd",
        "Cai Wen": "masters",
        "Dan Roe": "phd",
        "Eve Poe": "staff",
    }
    assert set(Person.objects.alumni().values_list("name", flat=True)) == {"Dan Roe", "Eve Poe"}
    dan = Person.objects.get(name="Dan Roe")
    assert (dan.member_since, dan.member_until) == (PartialDate(2015), PartialDate(2019))
    assert "an account of the lab, not a person" in report
    assert "Graduated Ph.D Students: phd, alumni (1 people)" in report
    from lab.models import LabSettings

    lab = LabSettings.objects.get()
    assert (lab.name_en, lab.about_en) == ("Ocean Lab", "We study oceans.")


def test_a_missing_folder_and_a_zip_leaving_its_folder_are_refused(tmp_path):
    with pytest.raises(CommandError, match="does not exist"):
        _import(tmp_path / "nowhere")
    evil = tmp_path / "evil.zip"
    with zipfile.ZipFile(evil, "w") as archive:
        archive.writestr("_pages/about.md", "---\ntitle: about\n---\n")
        archive.writestr("../../outside.txt", "x")

    with pytest.raises(CommandError, match="leads out of the site"):
        _import(evil, "--apply")

    assert not (tmp_path.parent / "outside.txt").exists()
    assert _counts() == dict.fromkeys(MODELS, 0)


def test_the_preview_is_what_applying_writes(own_template):
    folder = own_template("alfolio-template")
    with open_site(folder) as site:
        preview = import_site(site, apply=False)
    with open_site(folder) as site:
        applied = import_site(site, apply=True)

    assert preview.counts == applied.counts and applied.written and not preview.written


def _signed_in(username, group):
    user = factories.UserFactory(username=username, is_staff=True)
    user.groups.add(Group.objects.get(name=group))
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def lab_admin_client(db):
    return _signed_in("labadmin", "Lab admin")


@pytest.fixture
def member_client(db):
    return _signed_in("member", "Lab member")


def _zip_of(name, folder):
    root = folder / "own"
    _own_copy(name, root) if name in TEMPLATES else shutil.copytree(SITES / name, root / name)
    return open(shutil.make_archive(str(folder / name), "zip", root, name), "rb")


def test_a_lab_admin_uploads_a_site_reads_the_preview_and_imports_it(lab_admin_client, tmp_path):
    with _zip_of("hugoblox-academic-cv", tmp_path) as upload:
        preview = lab_admin_client.post("/admin/import-site/", {"site": upload})

    page = preview.content.decode()
    assert preview.status_code == 200 and "A Hugo Blox site" in page
    assert "data/authors/me.yaml: skills" in page  # what has no home, listed
    assert _counts() == dict.fromkeys(MODELS, 0)
    token = re.search(r'name="token" value="([^"]+)"', page)[1]

    done = lab_admin_client.post("/admin/import-site/", {"token": token, "confirm": "Import"})

    assert done.status_code == 302 and done.url == "/admin/people/person/"
    assert Person.objects.get().name == "Alex Johnson" and Publication.objects.count() == 3
    again = lab_admin_client.post("/admin/import-site/", {"token": token, "confirm": "Import"})
    assert again.status_code == 302 and Person.objects.count() == 1  # a used preview is gone


def test_a_bad_upload_says_why_and_members_cannot_import_sites(
    lab_admin_client, member_client, tmp_path
):
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(bad, "w") as archive:
        archive.writestr("index.html", "<h1>Mine</h1>")
    with bad.open("rb") as upload:
        page = lab_admin_client.post("/admin/import-site/", {"site": upload}, follow=True)

    assert "is neither an al-folio site" in page.content.decode()
    assert "Nothing was imported." in page.content.decode()
    assert member_client.get("/admin/import-site/").status_code == 403


def test_what_is_not_read_is_named_in_the_preview(tmp_path):
    site = _own_copy("alfolio-template", tmp_path)
    _write(site, "_teachings/cs101.md", "---\ntitle: CS 101\nyear: 2024\n---\nIntro.\n")
    (site / "_pages/teaching.md").write_text("---\ntitle: teaching\n---\nI teach CS 101.\n")
    (site / "_pages/publications.md").write_text("---\nlayout: page\n---\n")  # no text of its own

    preview = _import(site)

    assert "course: 1 new" in preview  # _teachings/cs101.md
    # teaching.md lists the courses: the Teaching section does now, its own words are named
    assert "menu: 1 new" in preview
    assert "_pages/teaching.md: the page “teaching” is the lab's Teaching section" in preview
    assert "page: " not in preview
    assert "_pages/publications.md" not in preview


def test_an_al_folio_sites_courses_land_as_its_owners_teaching_in_their_roles(client, tmp_path):
    """al-folio's teaching (the _teachings collection) is its owner's: each course comes in
    published with the owner in the role the course names, on /teaching/ and the owner's
    profile; a second run adds nothing."""
    site = _own_copy("alfolio-template", tmp_path)
    _write(
        site,
        "_teachings/cs101.md",
        "---\ntitle: Introduction to Computing\nyear: 2024\nrole: TA\n"
        "institution: University of Somewhere\n---\nLoops and **recursion**.\n",
    )
    _write(site, "_teachings/ml.md", "---\ntitle: Machine Learning\nyear: 2019 - 2022\n---\n")

    _import(site, "--apply")
    again = _import(site, "--apply")

    courses = {c.title: c for c in Course.objects.all()}
    assert set(courses) == {"Introduction to Computing", "Machine Learning"}
    intro = courses["Introduction to Computing"]
    assert intro.start == PartialDate(2024) and intro.institution == "University of Somewhere"
    assert [(t.person.is_published, t.role) for t in intro.teachers.all()] == [(True, "assistant")]
    assert courses["Machine Learning"].term == "2019 – 2022"
    assert courses["Machine Learning"].teachers.get().role == "instructor"
    assert "course: 2 unchanged" in again
    owner = intro.teachers.get().person
    html = client.get(f"/people/{owner.slug}/").content.decode()
    assert '<span class="badge badge--kind">Teaching assistant</span>' in html
    assert "<strong>recursion</strong>" in client.get(intro.get_absolute_url()).content.decode()


def test_a_hugo_blox_sites_courses_land_and_their_chapters_are_named(tmp_path):
    """Hugo Blox keeps a course as a folder (content/courses/<course>/_index.md, its chapters
    beside it); older sites one page a course (content/teaching/<course>/index.md)."""
    site = _own_copy("hugoblox-academic-cv", tmp_path)
    _write(
        site,
        "content/courses/convex/_index.md",
        "---\ntitle: Applied Convex Optimization\ndate: 2022-01-04\nvenue: MIT\n---\nHow to "
        "recognise a convex problem.\n",
    )
    _write(site, "content/courses/convex/week-1.md", "---\ntitle: Week 1\n---\nCones.\n")
    _write(site, "content/teaching/robotics/index.md", "---\ntitle: Underactuated Robotics\n---\n")
    _write(site, "content/teaching/_index.md", "---\ntitle: Teaching\n---\nI love teaching.\n")

    report = _import(site, "--apply")

    convex = Course.objects.get(title_en="Applied Convex Optimization")
    assert convex.start == PartialDate(2022, 1, 4) and convex.institution == "MIT"
    assert "recognise a convex problem" in convex.description
    assert Course.objects.filter(title_en="Underactuated Robotics").exists()
    assert "content/courses: 1 pages of the courses' own text" in report
    assert "content/teaching/_index.md: the page “Teaching” is the lab's Teaching" in report
    assert not Page.objects.exists()


def test_a_teaching_page_without_courses_is_kept_beside_the_teaching_section(client, tmp_path):
    """A teaching page that lists its courses in its own words (no _teachings) is the
    site's teaching: it comes in at /courses/, as /teaching/ lists the lab's courses."""
    site = _own_copy("alfolio-template", tmp_path)
    _write(
        site,
        "_pages/teaching.md",
        "---\ntitle: Teaching\npermalink: /teaching/\nnav: true\n---\n- **CS 101**, TA, 2024\n",
    )

    _import(site, "--apply")

    page = Page.objects.get(title_en="Teaching")
    assert page.address == "courses" and page.is_published
    assert "<strong>CS 101</strong>" in client.get("/courses/").content.decode()


def test_an_al_folio_sites_posts_land_as_its_owners_and_its_drafts_unpublished(client, tmp_path):
    """A one-person site's posts are its owner's; Jekyll publishes neither _drafts nor a post
    with `published: false`, so they come in as drafts; a post that only links elsewhere
    (`redirect`) keeps the link."""
    site = _own_copy("alfolio-template", tmp_path)
    _write(
        site,
        "_posts/2024-05-01-field-season.md",
        "---\nlayout: post\ntitle: Field season on the glacier\ndescription: Six weeks on "
        "the ice.\ntags: fieldwork\n---\nWe drilled **three** cores.\n\n{% include figure "
        'path="a.jpg" %}\n',
    )
    _write(
        site,
        "_posts/2024-06-01-hidden.html",
        "---\ntitle: Not yet\npublished: false\n---\n<p>Soon.</p>\n",
    )
    _write(site, "_drafts/notes.md", "---\ntitle: Half written\ndate: 2024-07-01\n---\nNotes.\n")
    _write(
        site,
        "_posts/2024-08-01-elsewhere.md",
        "---\ntitle: Our piece in The Conversation\nredirect: https://theconversation.com/x\n---\n",
    )

    report = _import(site, "--apply")

    owner = Person.objects.get()
    posts = {p.title_en: p for p in Post.objects.all()}
    assert set(posts) == {
        "Field season on the glacier",
        "Not yet",
        "Half written",
        "Our piece in The Conversation",
    }
    season = posts["Field season on the glacier"]
    assert (season.date.isoformat(), season.summary_en) == ("2024-05-01", "Six weeks on the ice.")
    assert season.body_en == "We drilled **three** cores."  # no Liquid left
    assert [a.person for a in season.authors.all()] == [owner]
    assert not posts["Not yet"].is_published and not posts["Half written"].is_published
    assert "https://theconversation.com/x" in posts["Our piece in The Conversation"].body_en
    listing = client.get("/posts/").content.decode()
    assert "Field season on the glacier" in listing and "Half written" not in listing
    assert "three" in client.get(season.get_absolute_url()).content.decode()
    assert "blog posts" not in report  # no longer named as having no home
    assert "Imported: 0 rows new or updated." in _import(site, "--apply")


def test_a_lab_sites_posts_are_by_the_people_they_name(tmp_path):
    """A Hugo lab site's post names its authors by their keys or names: those people are its
    authors, in order; a name of no one at the lab is named; a post naming nobody has no
    author (the lab wrote it); a draft comes in unpublished."""
    site = _lab_site(tmp_path / "lab")
    _write(
        site,
        "content/post/cruise/index.md",
        "---\ntitle: Back from the cruise\ndate: 2024-03-02\nauthors: [phd, Ada Lovelace, "
        "Zed Stranger]\nsummary: Two weeks at sea.\n---\nThe CTD worked.\n",
    )
    _write(
        site, "content/post/news.md", "---\ntitle: New lab website\ndate: 2024-01-05\n---\nHello.\n"
    )
    _write(
        site,
        "content/blog/plans/index.md",
        "---\ntitle: Plans\ndate: 2024-09-01\ndraft: true\n---\nNext year.\n",
    )

    report = _import(site, "--apply")

    cruise = Post.objects.get(title_en="Back from the cruise")
    assert [a.person.name for a in cruise.authors.all()] == ["Bo Chen", "Ada Lovelace"]
    assert cruise.summary_en == "Two weeks at sea." and cruise.is_published
    assert "the post's authors Zed Stranger (not people of the site" in report
    assert not Post.objects.get(title_en="New lab website").authors.exists()
    assert not Post.objects.get(title_en="Plans").is_published
    assert "Imported: 0 rows new or updated." in _import(site, "--apply")


def test_the_templates_sample_posts_are_left_out_even_when_re_saved():
    """Real sites: 1zb re-saved Wowchemy's “Welcome to Wowchemy” sample with its own YAML
    quoting (not byte for byte the template's); samsgb-lab gave the sample its own title and
    kept the sample's text: the title comes in, the sample's text does not."""
    corpus = Path(__file__).parent / "data" / "corpus"

    resaved = _import(corpus / "hugo-1zb", "--apply")
    retitled = _import(corpus / "hugo-samsgb-lab", "--apply")

    assert "content/post/getting-started/index.md: the template's sample post" in resaved
    assert not Post.objects.filter(title_en__startswith="Welcome to Wowchemy").exists()
    launched = Post.objects.get(title_en="The SAMS Research Group is officially launched!")
    assert launched.body_en == ""
    assert "its text, the template's sample's (the title comes in)" in retitled


def test_an_unconfirmed_upload_is_deleted_a_day_on(lab_admin_client, tmp_path):
    uploads = storages["uploads"]
    stale = uploads.save("site-imports/stale-preview.zip", ContentFile(b"PK"))
    os.utime(uploads.path(stale), (time.time() - 2 * 24 * 3600,) * 2)
    with _zip_of("hugo-zanna", tmp_path) as upload:
        lab_admin_client.post("/admin/import-site/", {"site": upload})

    assert not uploads.exists(stale)


def test_a_preview_is_imported_from_the_storage_every_machine_shares(
    lab_admin_client, settings, tmp_path, monkeypatch
):
    """The ZIP waits for its confirmation in the "uploads" storage, here one with no folder
    on this machine, as object storage; nothing is left in this machine's temporary
    folder, where it used to wait."""
    settings.STORAGES = {
        **settings.STORAGES,
        "uploads": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    }
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    with _zip_of("hugoblox-academic-cv", tmp_path) as upload:
        preview = lab_admin_client.post("/admin/import-site/", {"site": upload})

    assert preview.status_code == 200 and "A Hugo Blox site" in preview.content.decode()
    token = re.search(r'name="token" value="([^"]+)"', preview.content.decode())[1]
    assert storages["uploads"].exists(f"site-imports/{token}.zip")
    assert list(temporary.iterdir()) == []

    done = lab_admin_client.post("/admin/import-site/", {"token": token, "confirm": "Import"})

    assert done.status_code == 302 and Person.objects.get().name == "Alex Johnson"
    assert not storages["uploads"].exists(f"site-imports/{token}.zip")
    assert list(temporary.iterdir()) == []


@pytest.mark.parametrize("kept_in", ["a folder", "object storage"])
def test_a_preview_another_worker_deleted_meanwhile_has_expired_and_nothing_breaks(
    lab_admin_client, settings, tmp_path, monkeypatch, kept_in
):
    """Between the confirm's look for its ZIP and its read, another worker deleted it (a
    day old): the admin is told the preview expired, not shown an error page or a path of
    the server's."""
    if kept_in == "object storage":
        settings.STORAGES = {
            **settings.STORAGES,
            "uploads": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
        }
    with _zip_of("hugoblox-academic-cv", tmp_path) as upload:
        preview = lab_admin_client.post("/admin/import-site/", {"site": upload})
    token = re.search(r'name="token" value="([^"]+)"', preview.content.decode())[1]
    storage = storages["uploads"]
    exists = storage.exists

    def deleted_right_after(name):
        found = exists(name)
        storage.delete(name)
        return found

    monkeypatch.setattr(storage, "exists", deleted_right_after)
    done = lab_admin_client.post(
        "/admin/import-site/", {"token": token, "confirm": "Import"}, follow=True
    )

    assert done.status_code == 200 and "That preview has expired" in done.content.decode()
    assert "does not exist" not in done.content.decode()
    assert not Person.objects.exists()


def test_the_admin_corrects_the_group_mapping_before_importing(lab_admin_client, tmp_path):
    _lab_site(tmp_path / "own" / "lab")
    archive = shutil.make_archive(str(tmp_path / "lab"), "zip", tmp_path / "own", "lab")
    with open(archive, "rb") as upload:
        page = lab_admin_client.post("/admin/import-site/", {"site": upload}).content.decode()
    token = re.search(r'name="token" value="([^"]+)"', page)[1]
    rows = dict(re.findall(r'name="group-(\d+)-name" value="([^"]+)"', page))
    assert set(rows.values()) == {
        "Advisor", "Ph.D. Students", "硕士研究生", "Graduated Ph.D Students", "Alumni"
    }  # fmt: skip
    table = {"token": token, "groups": len(rows)}
    for index, group in rows.items():
        table[f"group-{index}-name"] = group
        table[f"group-{index}-role"] = {"Alumni": "postdoc", "硕士研究生": "-"}.get(group, "")
        if group in ("Alumni", "Graduated Ph.D Students"):
            table[f"group-{index}-alumni"] = "on"

    again = lab_admin_client.post("/admin/import-site/", {**table, "regroup": "1"})
    assert again.status_code == 200 and _counts() == dict.fromkeys(MODELS, 0)
    assert 'value="postdoc" selected' in again.content.decode()  # the correction, shown
    lab_admin_client.post("/admin/import-site/", {**table, "confirm": "Import"})

    roles = dict(Person.objects.values_list("name", "role"))
    assert roles["Eve Poe"] == "postdoc" and "Cai Wen" not in roles  # corrected, left out
    assert Person.objects.get(name="Eve Poe").is_alumnus
    assert roles["Bo Chen"] == "staff"  # the admin chose "not said" for the PhD students


def test_the_sites_own_pages_land_as_the_labs_pages_at_their_addresses(client):
    """A lab's al-folio site (Aiello Research Group): a page the menu showed is published at
    the address the site gave it and placed in the menu after the built-in sections; one the
    site hid (`nav: false`) comes in as a draft; one where labsite's own section stands is
    named, and the rest still come in."""
    site = Path(__file__).parent / "data" / "corpus" / "alfolio-aiello-lab"

    report = _import(site, "--apply")

    contact = client.get("/contact_us/")
    assert contact.status_code == 200
    assert "Get in Touch" in contact.content.decode()
    assert "Your Email" not in contact.content.decode()  # its form's labels: no form here
    assert "_pages/contact_us.md: its form (labsite's pages hold no forms)" in report
    assert "Contact Us" in client.get("/").content.decode()  # in the menu
    assert client.get("/thank_you/").status_code == 404  # nav: false: a draft
    assert Page.objects.filter(address="thank_you", is_published=False).exists()
    assert (
        "_pages/publications.md: the page “Publications” cannot be kept: /publications/ is "
        "one of the site's own addresses." in report
    )
    assert "Imported: 0 rows new or updated." in _import(site, "--apply")


def test_a_person_whose_name_is_longer_than_an_address_comes_in(tmp_path):
    """A name of six long words makes an address longer than a person's slug holds: cut to
    fit, not refused."""
    name = "Maximiliana Konstantinopoulou Wolfeschlegelsteinhausen Bartholomew-Oyelaran"
    (tmp_path / "config/_default").mkdir(parents=True)
    (tmp_path / "config/_default/hugo.yaml").write_text("title: A lab\n")
    author = tmp_path / "content/authors/max/_index.md"
    author.parent.mkdir(parents=True)
    author.write_text(f"---\ntitle: {name}\nuser_groups: [PhD Students]\n---\n")

    report = _import(tmp_path, "--apply")

    assert "person: 1 new" in report
    assert len(Person.objects.get(name=name).slug) <= 50


def test_the_sites_name_and_description_land_in_the_labs_settings_unless_the_starters():
    """Real sites: SAMS Lab kept the starter's description of itself (named, left out);
    Pingwen Zhang's site names itself in Chinese too (languages.yaml), which is the lab's
    Chinese name; a name the lab admin already gave is never replaced."""
    from lab.models import LabSettings

    corpus = Path(__file__).parent / "data" / "corpus"

    sams = _import(corpus / "hugo-samsgb-lab", "--apply")

    lab = LabSettings.objects.get()
    assert (lab.name_en, lab.tagline_en) == ("SAMS Lab", "")
    assert "“A highly-customizable Hugo research group theme powered by Wowchemy" in sams
    LabSettings.objects.update(name_en="Our Lab")  # as a new lab starts

    _import(corpus / "hugo-pzhang-lab", "--apply")

    lab = LabSettings.objects.get()
    assert (lab.name_en, lab.name_zh_hans) == ("Pingwen Zhang", "张平文")
    LabSettings.objects.update(name_en="Ocean Physics")  # the admin's own

    _import(corpus / "hugo-zanna-lab", "--apply")

    assert LabSettings.objects.get().name_en == "Ocean Physics"


def test_a_sites_chinese_posts_come_in_as_the_translation_or_in_chinese_only(tmp_path):
    """A Hugo site in two languages: a post under content/zh/ at the same place as one under
    content/en/ is its Chinese (Hugo pairs them so); one only in Chinese comes in Chinese
    only, dated by `publishDate` when it has no `date`, as Hugo dates it."""
    _write(tmp_path, "config/_default/hugo.yaml", "title: A lab\n")
    _write(tmp_path, "config/_default/languages.yaml", "en: {}\nzh: {title: 一个实验室}\n")
    _write(tmp_path, "content/en/authors/admin/_index.md", "---\ntitle: Ada Lovelace\n---\n")
    _write(
        tmp_path,
        "content/en/post/launch/index.md",
        "---\ntitle: The lab opens\ndate: 2024-02-01\n---\nWe open today.\n",
    )
    _write(
        tmp_path,
        "content/zh/post/launch/index.md",
        "---\ntitle: 实验室成立\ndate: 2024-02-01\n---\n我们今天成立。\n",
    )
    _write(
        tmp_path,
        "content/zh/post/interview/index.md",
        "---\ntitle: 专访\npublishDate: '2024-03-05T00:00:00Z'\n---\n访谈全文。\n",
    )

    report = _import(tmp_path, "--apply")

    launch = Post.objects.get(title_en="The lab opens")
    assert (launch.title_zh_hans, launch.body_zh_hans) == ("实验室成立", "我们今天成立。")
    interview = Post.objects.get(title_zh_hans="专访")
    assert (interview.title_en, interview.body_zh_hans) == ("", "访谈全文。")
    assert interview.date.isoformat() == "2024-03-05"
    assert Post.objects.count() == 2
    assert "its 2 posts come in, in Chinese" in report
    assert "Imported: 0 rows new or updated." in _import(tmp_path, "--apply")


def test_texts_beyond_their_size_are_named_and_the_rest_comes_in(tmp_path):
    site = _own_copy("alfolio-template", tmp_path)
    about = site / "_pages/about.md"
    about.write_text(about.read_text() + "\n" + "[" * 25_000 + "\n")
    _write(
        site,
        "_news/announcement_9.md",
        "---\nlayout: post\ndate: 2024-01-02\ninline: true\n---\n\n" + "Long news. " * 300,
    )

    report = _import(site, "--apply")

    assert "at most 20000 characters (it has 2" in report  # the bio, dropped and named
    assert "at most 2000 characters (it has 3299)" in report  # the news item, skipped
    assert Person.objects.get().bio == ""
    assert NewsItem.objects.count() == 3  # the template's three


def test_an_al_folio_labs_own_people_collection_is_its_people_and_the_lab_no_person(tmp_path):
    _write(
        tmp_path,
        "_config.yml",
        "title: Kestrel Lab\nfirst_name: Kestrel\nlast_name: Lab\n"
        "collections:\n  news:\n    output: true\n  people:\n    output: true\n",
    )
    _write(tmp_path, "_pages/home.md", "---\nlayout: about\npermalink: /\n---\nWe study birds.\n")
    _write(
        tmp_path,
        "_pages/team.md",
        "---\nlayout: profiles\ntitle: Team\npermalink: /team/\n---\n",
    )
    _write(
        tmp_path,
        "_people/ada.md",
        "---\nname: Ada Byron\nrole: Professor<br>Director\nsocials:\n"
        "  github_username: adab\n---\nAda leads the lab.\n",
    )
    _write(
        tmp_path,
        "_people/bob.markdown",
        "---\nname: Bob Stone\nrole: PhD student\nex_member: true\n---\n",
    )

    _import(tmp_path, "--apply")

    assert sorted(Person.objects.values_list("name", flat=True)) == ["Ada Byron", "Bob Stone"]
    ada = Person.objects.get(name="Ada Byron")
    assert ada.title_en == "Professor, Director"
    assert Link.objects.filter(person=ada, url="https://github.com/adab").exists()
    assert Person.objects.get(name="Bob Stone").is_alumnus
    from lab.models import LabSettings

    assert LabSettings.objects.get().about_en == "We study birds."
    assert not Page.objects.filter(title_en__in=["home", "Team"]).exists()


def test_every_hugo_link_field_lands_and_a_link_written_as_a_list_too(tmp_path):
    _write(tmp_path, "config.toml", 'title = "Lab"\n')
    _write(tmp_path, "content/authors/admin/_index.md", "---\ntitle: Ada Byron\n---\n")
    _write(
        tmp_path,
        "content/publication/a/index.md",
        "---\ntitle: Paper A\ndate: 2020-01-01\nurl_pdf:\n  - http://example.org/a.pdf\n"
        "url_arxiv: https://arxiv.org/abs/2001.01234\nurl_dataset: https://data.example.org/a\n"
        "url_code: https://github.com/ada/a\nlinks:\n  - name: Demo\n    url: https://demo.example.org\n"
        "---\n",
    )
    _write(
        tmp_path,
        "content/publication/b/index.md",
        "---\ntitle: Paper B\ndate: 2021-01-01\nURL_PDF: https://example.org/b.pdf\n"
        "url_slides: https://example.org/b-slides.pdf\nurl_video: https://youtu.be/b\n---\n",
    )

    _import(tmp_path, "--apply")

    a = Publication.objects.get(title="Paper A")
    assert a.pdf_url == "http://example.org/a.pdf"
    assert a.arxiv_id == "2001.01234"
    assert a.code_url == "https://github.com/ada/a"
    named = {a.other_url, *a.source_fields.values()} if a.source_fields else {a.other_url}
    assert {"https://data.example.org/a", "https://demo.example.org"} <= named
    b = Publication.objects.get(title="Paper B")
    assert (b.pdf_url, b.slides_url, b.video_url) == (
        "https://example.org/b.pdf",
        "https://example.org/b-slides.pdf",
        "https://youtu.be/b",
    )


def test_al_folios_html_link_wins_over_the_templates_url(tmp_path):
    _write(tmp_path, "_config.yml", "first_name: Ada\nlast_name: Byron\n")
    _write(
        tmp_path,
        "_bibliography/papers.bib",
        "@inproceedings{a, title={Paper A}, author={Byron, Ada}, year={2020},"
        " booktitle={Proc. X}, url={https://alshedivat.github.io/al-folio/},"
        " html={https://papers.example.org/a}, dataset={https://data.example.org/a}}\n",
    )

    _import(tmp_path, "--apply")

    paper = Publication.objects.get(title="Paper A")
    assert paper.url == "https://papers.example.org/a"
    assert paper.dataset_url == "https://data.example.org/a"


def test_two_author_folders_of_one_name_are_two_people(tmp_path):
    _write(tmp_path, "config.toml", 'title = "Lab"\n')
    _write(
        tmp_path,
        "content/authors/wei-li/_index.md",
        "---\ntitle: Wei Li\nuser_groups: [PhD Students]\n---\n",
    )
    _write(
        tmp_path,
        "content/authors/wei-li-2/_index.md",
        "---\ntitle: Wei Li\nuser_groups: [Alumni]\n---\n",
    )

    _import(tmp_path, "--apply")

    people = Person.objects.filter(name="Wei Li")
    assert people.count() == 2
    assert sorted(p.is_alumnus for p in people) == [False, True]
    assert "Imported: 0 rows" in _import(tmp_path, "--apply")


def test_a_hugo_landing_pages_blocks_land_in_the_labs_about_and_pages_or_are_named(tmp_path):
    _write(tmp_path, "config.toml", 'title = "Kestrel Lab"\n')
    _write(tmp_path, "content/authors/admin/_index.md", "---\ntitle: Ada Byron\n---\n")
    _write(
        tmp_path,
        "content/_index.md",
        "---\ntitle: Home\ntype: landing\nsections:\n"
        "  - block: markdown\n    content:\n      title: About the lab\n"
        "      text: We study birds.\n"
        "  - block: collection\n    content:\n      title: Latest News\n"
        "  - block: markdown\n    content:\n      title: Funding\n"
        "      text: Funded by the sky.\n"
        "---\n",
    )
    _write(
        tmp_path,
        "content/home/people.md",
        "---\nwidget: people\nheadless: true\ntitle: Meet the Team\n---\n",
    )

    report = _import(tmp_path, "--apply")

    from lab.models import LabSettings

    assert LabSettings.objects.get().about_en == "We study birds."
    assert Page.objects.get(title_en="Funding").body_en == "Funded by the sky."
    assert "content/_index.md, block 2: the collection block “Latest News”" in report
    assert "content/home/people.md: the people block “Meet the Team”" in report


def test_an_academicpages_site_lands_through_its_map_and_its_samples_stay_out(tmp_path):
    _write(
        tmp_path,
        "_config.yml",
        "title: Ada Byron\ndescription: personal description\nauthor:\n  name: Ada Byron\n"
        "  bio: Engine designer\n  github: adab\n  googlescholar: https://scholar.google.com/x\n"
        "  location: London\n",
    )
    _write(tmp_path, "_data/navigation.yml", "main:\n  - title: Join\n    url: /join/\n")
    _write(
        tmp_path, "_pages/about.md", "---\npermalink: /\ntitle: About me\n---\nI build engines.\n"
    )
    _write(tmp_path, "_pages/join.md", "---\ntitle: Join\npermalink: /join/\n---\nWrite to us.\n")
    _write(
        tmp_path,
        "_publications/2020-01-01-engine.md",
        "---\ntitle: 'The Analytical Engine &amp; its notes'\ndate: 2020-01-01\n"
        "venue: 'Journal of Engines'\npaperurl: 'https://example.org/engine.pdf'\n"
        "authors: 'Byron A., Babbage C.'\n"
        "citation: 'Byron, A. (2020). The Analytical Engine. doi:10.1000/engine.1'\n"
        "---\nAbstract.\n",
    )
    _write(
        tmp_path,
        "_publications/2009-10-01-paper-title-number-1.md",
        "---\ntitle: 'Paper Title Number 1'\ndate: 2009-10-01\n---\n",
    )
    _write(
        tmp_path,
        "_talks/2021-03-01-talk.md",
        "---\ntitle: 'Engines today'\ntype: Talk\nvenue: Royal Society\ndate: 2021-03-01\n"
        "location: London\n---\n",
    )
    _write(
        tmp_path,
        "_teaching/2022-course.md",
        "---\ntitle: 'Engines 101'\ntype: Undergraduate course\nvenue: UCL\n"
        "date: 2022-01-01\n---\n",
    )
    _write(tmp_path, "_posts/2023-05-01-First-Steps-In-NLP.md", "---\ndate: 2023-05-01\n---\nHi.\n")

    report = _import(tmp_path, "--apply")

    ada = Person.objects.get()
    assert (ada.name, ada.title_en, ada.bio_en) == (
        "Ada Byron",
        "Engine designer",
        "I build engines.",
    )
    assert Link.objects.filter(person=ada, url="https://github.com/adab").exists()
    assert "author.location (London)" in report
    paper = Publication.objects.get()
    assert paper.title == "The Analytical Engine & its notes"
    assert (paper.pdf_url, paper.doi) == ("https://example.org/engine.pdf", "10.1000/engine.1")
    families = list(paper.authorships.order_by("position").values_list("family_name", flat=True))
    assert families == ["Byron", "Babbage"]
    assert Talk.objects.get().title_en == "Engines today"
    assert Course.objects.get().title_en == "Engines 101"
    assert Post.objects.get().title_en == "First Steps In Nlp"  # as Jekyll titles it
    assert Page.objects.get(title_en="Join").is_published
    assert "the template's sample publication" in report
    assert "personal description" in report.split("Left out")[1]
    assert "Imported: 0 rows" in _import(tmp_path, "--apply")


def test_tabs_inside_a_yaml_flow_list_are_read_as_hugo_reads_them(tmp_path):
    _write(tmp_path, "config.toml", 'title = "Lab"\n')
    _write(tmp_path, "content/authors/admin/_index.md", "---\ntitle: Ada Byron\n---\n")
    _write(
        tmp_path,
        "content/publication/a/index.md",
        "---\ntitle: Paper A\ndate: 2020-01-01\nauthors: [admin,\n\tCharles Babbage]\n---\n",
    )

    report = _import(tmp_path, "--apply")

    assert "Skipped" not in report
    assert Publication.objects.get().authorships.count() == 2


def test_a_hugo_section_of_people_is_the_labs_people_with_their_roles_and_alumni(tmp_path):
    """A lab theme's `content/people/` (a folder per person or a page each), not Wowchemy's
    authors: each page with a name and a role, bio, social links or a photo is a member."""
    _write(tmp_path, "config.toml", 'title = "Kestrel Lab"\n')
    _write(tmp_path, "content/people/_index.md", "---\ntitle: People\n---\nWho we are.\n")
    _write(
        tmp_path,
        "content/people/ada-byron/index.md",
        "---\ntitle: Ada Byron\nrole: Principal Investigator<br>Professor\nsocial:\n"
        "  - icon: github\n    link: https://github.com/adab\n---\nAda leads the lab.\n",
    )
    _write(
        tmp_path,
        "content/people/bob-stone.md",
        "---\nname: Bob Stone\nposition: PhD Student\nalumni: true\n---\n",
    )
    _write(
        tmp_path,
        "content/people/wei-li/index.md",
        "---\ntitle: Wei Li\nuser_groups: [Master Students]\nemail: wei@example.org\n---\n",
    )
    _write(
        tmp_path,
        "content/people/wei-li-2/index.md",
        "---\ntitle: Wei Li\nuser_groups: [Alumni]\nbio: Now at a company.\n---\n",
    )
    _write(
        tmp_path,
        "content/publication/a/index.md",
        "---\ntitle: Paper A\ndate: 2020-01-01\nauthors: [ada-byron, bob-stone]\n---\n",
    )

    _import(tmp_path, "--apply")

    people = Person.objects.order_by("name", "pk")
    assert [(p.name, p.role, p.is_alumnus) for p in people] == [
        ("Ada Byron", "pi", False),
        ("Bob Stone", "phd", True),
        ("Wei Li", "masters", False),
        ("Wei Li", "staff", True),
    ]
    ada = people[0]
    assert ada.title_en == "Principal Investigator, Professor"
    assert ada.bio_en == "Ada leads the lab."
    assert Link.objects.filter(person=ada, url="https://github.com/adab").exists()
    paper = Publication.objects.get(title="Paper A")
    assert [a.person.name for a in paper.authorships.order_by("position")] == [
        "Ada Byron",
        "Bob Stone",
    ]
    assert not Page.objects.filter(title_en__in=["Ada Byron", "Bob Stone", "Wei Li"]).exists()
    assert "Imported: 0 rows" in _import(tmp_path, "--apply")


def test_a_hugo_labs_own_account_named_as_the_site_is_the_lab_not_a_person(tmp_path):
    """An author account whose name is exactly the site's title, beside the lab's people, is
    the lab's account (though its name has no word such as lab or group): its text is the
    lab's About, and it is no member."""
    _write(tmp_path, "config.toml", 'title = "Kestrel"\n')
    _write(tmp_path, "content/authors/kestrel/_index.md", "---\ntitle: Kestrel\n---\nWe fly.\n")
    _write(
        tmp_path,
        "content/authors/ada/_index.md",
        "---\ntitle: Ada Byron\nuser_groups: [Principal Investigators]\n---\n",
    )

    report = _import(tmp_path, "--apply")

    assert list(Person.objects.values_list("name", flat=True)) == ["Ada Byron"]
    from lab.models import LabSettings

    assert LabSettings.objects.get().about_en == "We fly."
    assert "content/authors/kestrel/_index.md: Kestrel" in report


def test_a_personal_hugo_site_titled_with_its_owners_name_keeps_its_owner(tmp_path):
    _write(tmp_path, "config.toml", 'title = "Ada Byron"\n')
    _write(
        tmp_path,
        "content/authors/admin/_index.md",
        "---\ntitle: Ada Byron\nsuperuser: true\nrole: Professor\n---\n",
    )
    _write(tmp_path, "content/authors/bob/_index.md", "---\ntitle: Bob Stone\n---\n")

    _import(tmp_path, "--apply")

    assert Person.objects.filter(name="Ada Byron").exists()


def test_jekyll_pages_in_markdown_r_markdown_and_html_are_the_labs_pages(tmp_path):
    _write(tmp_path, "_config.yml", "first_name: Ada\nlast_name: Byron\n")
    _write(tmp_path, "_pages/a.markdown", "---\ntitle: Kramdown\npermalink: /a/\n---\nText A.\n")
    _write(tmp_path, "_pages/b.Rmd", "---\ntitle: Knitted\npermalink: /b/\n---\nText B.\n")
    _write(
        tmp_path, "_pages/c.html", "---\ntitle: Plain HTML\npermalink: /c/\n---\n<p>Text C.</p>\n"
    )

    _import(tmp_path, "--apply")

    pages = dict(Page.objects.values_list("title_en", "address"))
    assert pages == {"Kramdown": "a", "Knitted": "b", "Plain HTML": "c"}


def test_html_in_a_yaml_role_or_title_is_read_as_html_then_cleaned(tmp_path):
    _write(tmp_path, "config.toml", 'title = "Lab"\n')
    _write(
        tmp_path,
        "content/authors/admin/_index.md",
        "---\ntitle: Ada Byron\nrole: '<strong>Professor</strong> of Maths &amp; Music'\n---\n",
    )
    _write(
        tmp_path,
        "content/publication/a/index.md",
        "---\ntitle: 'On <em>Engines</em> &amp; Notes'\ndate: 2020-01-01\n---\n",
    )

    _import(tmp_path, "--apply")

    assert Person.objects.get().title_en == "Professor of Maths & Music"
    assert Publication.objects.get().title == "On Engines & Notes"


def test_a_hugo_papers_cite_bib_copied_from_another_paper_is_left_out_and_named(tmp_path):
    """A cite.bib copied from another page (a real lab's seven papers) describes another
    paper: its year, venue and authors are not this paper's, so the page's own are read."""
    _write(tmp_path, "config.toml", 'title = "Lab"\n')
    _write(tmp_path, "content/authors/admin/_index.md", "---\ntitle: Ada Byron\n---\n")
    _write(
        tmp_path,
        "content/publication/b/index.md",
        "---\ntitle: Notes on the Engine\ndate: 2021-03-05\nauthors: [admin]\n"
        "publication: In *Proc. Engines*\n---\n",
    )
    _write(
        tmp_path,
        "content/publication/b/cite.bib",
        "@article{x, title={Tables of the Moon}, author={Stone, Bob}, year={2019},"
        " journal={Lunar Letters}}\n",
    )
    _write(
        tmp_path,
        "content/publication/c/index.md",
        "---\ntitle: 'Notes on the engine, second part'\ndate: 2021-01-01\n---\n",
    )
    _write(
        tmp_path,
        "content/publication/c/cite.bib",
        "@article{y, title={Notes on the Engine: Second Part}, author={Byron, Ada},"
        " year={2022}, journal={Engines}}\n",
    )

    report = _import(tmp_path, "--apply")

    b = Publication.objects.get(title="Notes on the Engine")
    assert b.date.year == 2021
    assert "Lunar Letters" not in (b.venue.name, b.venue.short_name)  # the other paper's
    assert [a.person.name for a in b.authorships.all()] == ["Ada Byron"]
    assert "content/publication/b/cite.bib: not read (it describes another paper" in report
    c = Publication.objects.get(title="Notes on the engine, second part")
    assert c.date.year == 2022  # its own cite.bib, the title edited on the page, is read
