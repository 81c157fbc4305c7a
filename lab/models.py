"""What every app of the lab reads: the lab's settings (one row: the lab's name, the team
page's order, the author-list style and markers) and the roles a member holds in the lab."""

from asgiref.local import Local
from django.core.exceptions import ValidationError
from django.core.signals import request_started
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core import colours, images
from core.languages import translated
from core.markup import DESCRIPTION_LIMIT, text_limit
from lab import look

FAVICON_SIZE = 192  # px, square: what Android asks for a home-screen icon; iOS scales it

# The settings read in this request (or command); a new request reads them again.
_loaded = Local()


def forget_loaded_settings(**kwargs):
    _loaded.lab = None


request_started.connect(forget_loaded_settings, dispatch_uid="labsite-forget-settings")


class MemberRole(models.TextChoices):
    """A member's role in the lab (`people.Person.role`), which the team page groups by in
    the order the settings give."""

    PI = "pi", _("Principal investigator")
    FACULTY = "faculty", _("Faculty")
    STAFF = "staff", _("Research staff")
    POSTDOC = "postdoc", _("Postdoc")
    PHD = "phd", _("PhD student")
    MASTERS = "masters", _("Master's student")
    UNDERGRAD = "undergrad", _("Undergraduate")
    INTERN = "intern", _("Intern")
    VISITOR = "visitor", _("Visitor")


class PublicationKind(models.TextChoices):
    """A paper's kind (`publications.Publication.kind`), of which the settings choose those
    the harvest brings into the review queue."""

    CONFERENCE = "conference", _("Conference paper")
    JOURNAL = "journal", _("Journal article")
    WORKSHOP = "workshop", _("Workshop paper")
    PREPRINT = "preprint", _("Preprint")
    POSTER = "poster", _("Poster")
    DEMO = "demo", _("Demo")
    THESIS = "thesis", _("Thesis")
    CHAPTER = "chapter", _("Book chapter")
    BOOK = "book", _("Book")
    REPORT = "report", _("Technical report")
    PATENT = "patent", _("Patent")
    OTHER = "other", _("Other")


# A poster is no paper of the lab's record unless the lab says so.
NOT_HARVESTED_BY_DEFAULT = {PublicationKind.POSTER}


def default_harvested_kinds():
    """Every kind but a poster, in the kinds' order (a new lab's and an old archive's)."""
    return [kind for kind in PublicationKind.values if kind not in NOT_HARVESTED_BY_DEFAULT]


def harvest_sources():
    """(code, name) of every source the harvest reads, in its order, as the harvest app's
    registry declares them (`HarvestConfig.sources`): a source added there is offered here
    with no change to the lab. The lab sits below the harvest, so it asks the app registry
    rather than importing it; [] when the harvest is not installed."""
    from django.apps import apps

    if not apps.is_installed("harvest"):
        return []
    return apps.get_app_config("harvest").sources()


class LabSettings(models.Model):
    class AuthorNameStyle(models.TextChoices):
        FULL = "full", _("Full names (Teng Ma)")
        INITIALS = "initials", _("Initials and family name (T Ma)")

    name = translated(
        models.CharField(max_length=200, default="Our Lab", help_text="Shown in every page title."),
        required=True,
    )
    tagline = translated(
        models.CharField(
            max_length=300, blank=True, help_text="One line under the lab name on the home page."
        )
    )
    about = translated(
        models.TextField(
            blank=True,
            validators=[text_limit(DESCRIPTION_LIMIT)],
            help_text="About the lab, on the home page. Markdown: **bold**, [links](https://…).",
        )
    )
    contact_email = models.EmailField(blank=True)
    address = translated(
        models.TextField(
            blank=True,
            validators=[text_limit(1_000)],
            help_text="Postal address, shown in the page footer; the Chinese pages show the "
            "English one when the Chinese is empty.",
        )
    )
    logo = images.SafeImageField(
        upload_to="lab/", blank=True, help_text="JPEG, PNG or WebP; scaled to fit the header."
    )
    primary_colour = models.CharField(
        "primary colour",
        max_length=7,
        blank=True,
        help_text="The colour of links, highlights and labels, as #rrggbb (e.g. #1f5fa8, a "
        "blue; a colour picker or your design guide gives it). Empty: the site's own blue. "
        "It must contrast enough with the white page for text in it to be easy to read "
        "(WCAG's 4.5 to 1, the ratio between the lighter and the darker colour's "
        "brightness); a lighter shade of it is worked out for visitors who use dark mode.",
    )
    favicon = images.SafeImageField(
        "site icon",
        upload_to="lab/",
        blank=True,
        help_text="The small picture in browser tabs and bookmarks, and on a phone's home "
        "screen: a square JPEG, PNG or WebP works best (kept whole, made 192×192 pixels). "
        "Empty: the logo, else the lab's initials.",
    )
    team_role_order = models.CharField(
        max_length=300,
        blank=True,
        default=",".join(MemberRole.values),
        help_text="Order of the groups on the team page, as comma-separated role codes: "
        + ", ".join(f"{value} ({label})" for value, label in MemberRole.choices)
        + ". Roles left out follow in that default order.",
    )

    author_name_style = models.CharField(
        "author names",
        max_length=10,
        choices=AuthorNameStyle.choices,
        default=AuthorNameStyle.INITIALS,
    )
    marker_equal_contribution = models.CharField(
        "equal-contribution marker",
        max_length=3,
        default="*",
        help_text="Printed after co-first authors' names, e.g. *.",
    )
    marker_corresponding = models.CharField(
        "corresponding-author marker",
        max_length=3,
        default="†",
        help_text="Printed after corresponding authors' names, e.g. †.",
    )
    authors_shorten_above = models.PositiveSmallIntegerField(
        "shorten author lists longer than",
        default=10,
        help_text="On profiles and lists, longer author lists show the first few names, “…”, "
        "and the member the page is about. Paper pages and exports always list everyone. "
        "0 never shortens.",
    )
    authors_keep_first = models.PositiveSmallIntegerField(
        "names kept at the start", default=3, help_text="How many names a shortened list keeps."
    )
    venue_summary_order = models.TextField(
        "venues in the profile summary",
        blank=True,
        validators=[text_limit(1_000)],
        help_text="Short names of the venues a profile's venue summary counts, in the order "
        "it lists them, comma-separated, e.g. “SOSP, OSDI, ASPLOS, ATC, EuroSys”.",
    )
    harvested_kinds = models.JSONField(
        "kinds the harvest brings in",
        default=default_harvested_kinds,
        blank=True,
        help_text="The harvest offers members' new works of these kinds for review; a work "
        "of another kind is left out and counted by kind in the run's report. Works a source "
        "gives no kind are always offered. Datasets, software and slides are never "
        "harvested. Works already waiting for review stay.",
    )
    auto_accepted_sources = models.JSONField(
        "sources whose works are accepted without review",
        default=list,
        blank=True,
        help_text="A new work found at one of these sources is accepted without waiting for "
        "review when that source's record names the member by their ORCID iD or their id "
        "there, it has a DOI or an arXiv id, and nothing about it needs a reviewer (no paper "
        "of the lab with its title or DOI, no other version waiting, no disagreement between "
        "sources). The member's digest lists it, with a link to undo. None chosen: every "
        "work waits for review.",
    )
    # The tables keep the names they had when lab settings were in the site package.
    history = HistoricalRecords(table_name="labsite_historicallabsettings")

    class Meta:
        db_table = "labsite_labsettings"
        verbose_name = verbose_name_plural = "lab settings"
        constraints = [
            models.CheckConstraint(condition=models.Q(pk=1), name="lab_settings_single_row"),
            models.CheckConstraint(
                condition=~models.Q(marker_equal_contribution=models.F("marker_corresponding")),
                name="lab_settings_markers_differ",
            ),
        ]

    def __str__(self):
        return str(_("Lab settings"))

    def save(self, *args, **kwargs):
        self.pk = 1
        old = set()
        replaced = [
            f for f in ("logo", "favicon") if getattr(self, f) and not getattr(self, f)._committed
        ]
        if replaced:
            old = images.replaced_files(self, *replaced)
        if "logo" in replaced:
            self.logo = images.fitted_png(images.open_upload(self.logo), 480, 160)
        if "favicon" in replaced:
            self.favicon = images.square_png(images.open_upload(self.favicon), FAVICON_SIZE)
        super().save(*args, **kwargs)
        images.delete_after_commit(self.logo.storage, old)
        forget_loaded_settings()

    @classmethod
    def load(cls):
        """The settings row, read once per request (one query): every worker process sees
        an edit from its next request on, whatever cache the site is configured with."""
        lab = getattr(_loaded, "lab", None)
        if lab is None:
            lab, _ = cls.objects.get_or_create(pk=1)
            _loaded.lab = lab
        return lab

    def clean(self):
        codes = [code.strip() for code in self.team_role_order.split(",") if code.strip()]
        unknown = [code for code in codes if code not in MemberRole.values]
        if unknown:
            raise ValidationError(
                {"team_role_order": f"Unknown role code(s): {', '.join(unknown)}."}
            )
        if len(set(codes)) != len(codes):
            raise ValidationError({"team_role_order": _("Each role may be listed once.")})
        self.team_role_order = ",".join(codes)
        if self.primary_colour.strip():
            colour = colours.normalized(self.primary_colour)
            if not colour:
                raise ValidationError(
                    {
                        "primary_colour": _(
                            "Write the colour as # and six digits or letters a–f, such as #1f5fa8."
                        )
                    }
                )
            self.primary_colour = colour
            if problems := look.problems(colour):
                raise ValidationError({"primary_colour": problems})
        else:
            self.primary_colour = ""
        self.harvested_kinds = self._checked_kinds()
        self.auto_accepted_sources = self._checked_sources()
        if self.marker_equal_contribution.strip() == self.marker_corresponding.strip():
            raise ValidationError(
                {
                    "marker_corresponding": _(
                        "The two markers must differ so readers tell them apart."
                    )
                }
            )

    def _checked_kinds(self):
        """The harvested kinds as a list of known kinds, each once, in the kinds' order."""
        kinds = self.harvested_kinds
        if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
            raise ValidationError({"harvested_kinds": _("Choose kinds from the list.")})
        unknown = sorted(set(kinds) - set(PublicationKind.values))
        if unknown:
            raise ValidationError(
                {
                    "harvested_kinds": _("Unknown kind(s): %(kinds)s.")
                    % {"kinds": ", ".join(unknown)}
                }
            )
        return [kind for kind in PublicationKind.values if kind in kinds]

    def _checked_sources(self):
        """The auto-accepted sources as a list of the harvest's sources, each once, in the
        harvest's order."""
        chosen = self.auto_accepted_sources
        if not isinstance(chosen, list) or not all(isinstance(s, str) for s in chosen):
            raise ValidationError({"auto_accepted_sources": _("Choose sources from the list.")})
        known = [code for code, _name in harvest_sources()]
        unknown = sorted(set(chosen) - set(known))
        if unknown:
            raise ValidationError(
                {
                    "auto_accepted_sources": _("Unknown source(s): %(sources)s.")
                    % {"sources": ", ".join(unknown)}
                }
            )
        return [code for code in known if code in chosen]

    @property
    def palette(self):
        """The lab's colour in the light and dark theme (lab.look.Palette), or None for
        the stylesheet's own (also for a value no form let through, so no page fails)."""
        colour = colours.normalized(self.primary_colour)
        return look.Palette.of(colour) if colour else None

    def venue_order(self):
        return [v.strip() for v in self.venue_summary_order.split(",") if v.strip()]

    def role_order(self):
        """Every role, in the order the team page groups them."""
        listed = [c for c in self.team_role_order.split(",") if c in MemberRole.values]
        return listed + [code for code in MemberRole.values if code not in listed]
