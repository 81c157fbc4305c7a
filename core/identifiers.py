"""Persistent identifiers: ORCID iDs, DOIs and the ids people have at scholarly services,
validated and stored in one normal form."""

import re
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _

_ORCID = re.compile(r"^(\d{4})-?(\d{4})-?(\d{4})-?(\d{3}[\dX])$")
_ORCID_PREFIX = re.compile(r"^(?:https?://)?(?:www\.)?orcid\.org/", re.IGNORECASE)
# A DOI suffix may hold almost any printable character (SICI DOIs have <, >, ; and #), but
# never white space, backslashes, braces or quotes, which no registered DOI uses and which
# would break out of a BibTeX field or an attribute; nor "." or ".." path segments.
_DOI = re.compile(r"^10\.\d{4,9}/[^\s\\{}\"'`\x00-\x1f\x7f]+$")
_DOT_SEGMENT = re.compile(r"(^|/)\.\.?(/|$)")
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)


def orcid_checksum(base_digits: str) -> str:
    """ISO 7064 MOD 11-2 check character for the first 15 digits of an ORCID iD."""
    total = 0
    for digit in base_digits:
        total = (total + int(digit)) * 2
    result = (12 - total % 11) % 11
    return "X" if result == 10 else str(result)


def normalize_orcid(value: str | None) -> str:
    """Return "0000-0002-7104-1526" from an iD or its orcid.org URL; ValidationError if invalid."""
    text = _ORCID_PREFIX.sub("", (value or "").strip()).upper()
    match = _ORCID.match(text)
    if not match:
        raise ValidationError(
            _("Enter an ORCID iD like 0000-0002-1825-0097 (or its https://orcid.org/ link)."),
            code="invalid_orcid",
        )
    digits = "".join(match.groups())
    if orcid_checksum(digits[:15]) != digits[15]:
        raise ValidationError(
            _("This ORCID iD's check digit is wrong; copy it again from orcid.org."),
            code="orcid_checksum",
        )
    return "-".join(match.groups())


def normalize_doi(value: object) -> str:
    """Return "10.1145/3773772" from a DOI, doi: form or doi.org link; ValidationError if not."""
    text = _DOI_PREFIX.sub("", str(value or "").strip()).strip().lower()
    if not _DOI.match(text) or _DOT_SEGMENT.search(text.split("/", 1)[1]):
        raise ValidationError(
            _("“%(value)s” is not a DOI; a DOI looks like 10.1145/3773772.") % {"value": value},
            code="invalid_doi",
        )
    return text


class OrcidField(models.CharField):
    """An ORCID iD, accepted as the iD or its orcid.org link and stored as the bare iD."""

    description = "ORCID iD"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["max_length"] = 19
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        name, path, args, kwargs = super().deconstruct()
        del kwargs["max_length"]
        return name, path, args, kwargs

    def to_python(self, value: Any) -> Any:
        value = super().to_python(value)
        return normalize_orcid(value) if value else value

    def formfield(self, **kwargs: Any) -> Any:  # type: ignore[override]
        # Room for the pasted https://orcid.org/… form, which cleaning shortens to the iD.
        return super().formfield(**{"max_length": 60, **kwargs})


class SourceIdField(models.CharField):
    """A person's identifier at a scholarly service, accepted as the bare id or as a link to
    their page there (which cleaning shortens to the id), and checked against the form the
    service gives its ids. Subclasses say the form, the links and an example."""

    description = "identifier at a scholarly service"
    pattern: re.Pattern[str] = re.compile(r"^$")
    prefix: re.Pattern[str] = re.compile(r"^$")
    suffix: re.Pattern[str] = re.compile(r"(?!)")
    example = ""
    service = ""
    case_insensitive = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 100)
        kwargs.setdefault("blank", True)
        super().__init__(*args, **kwargs)

    @classmethod
    def normalize(cls, value: str) -> str:
        text = cls.suffix.sub("", cls.prefix.sub("", (value or "").strip()).strip("/"))
        if cls.case_insensitive:
            text = text.upper()
        if not cls.pattern.match(text):
            raise ValidationError(
                _("Enter a %(service)s id like %(example)s (or the link to the page).")
                % {"service": cls.service, "example": cls.example},
                code="invalid_source_id",
            )
        return text

    def to_python(self, value: Any) -> Any:
        value = super().to_python(value)
        return self.normalize(value) if value else value

    def formfield(self, **kwargs: Any) -> Any:  # type: ignore[override]
        return super().formfield(**{"max_length": 200, **kwargs})


class OpenAlexAuthorField(SourceIdField):
    """An OpenAlex author id, "A5023888391" (from https://openalex.org/A5023888391)."""

    pattern = re.compile(r"^A[1-9]\d{3,12}$")
    prefix = re.compile(r"^(?:https?://)?(?:api\.)?openalex\.org/(?:authors/)?", re.I)
    example, service, case_insensitive = "A5023888391", "OpenAlex author", True


class DblpPidField(SourceIdField):
    """A DBLP person id, "130/1022" or "m/AndrewMcCallum" (from https://dblp.org/pid/…)."""

    pattern = re.compile(r"^(?:\d{1,4}/\d{1,10}(?:-\d{1,3})?|[a-z]/[A-Za-z][\w=.-]{0,80})$")
    prefix = re.compile(r"^(?:https?://)?dblp(?:\.uni-trier\.de|\.org)/pid/", re.I)
    suffix = re.compile(r"\.(?:html|xml|bib)$")
    example, service = "130/1022", "DBLP person"


class SemanticScholarAuthorField(SourceIdField):
    """A Semantic Scholar author id, "1741101" (from its author page's link)."""

    pattern = re.compile(r"^\d{1,12}$")
    prefix = re.compile(r"^(?:https?://)?(?:www\.)?semanticscholar\.org/author/(?:[^/]+/)?", re.I)
    example, service = "1741101", "Semantic Scholar author"


class ArxivAuthorField(SourceIdField):
    """An arXiv author id, "ma_t_1" (from https://arxiv.org/a/ma_t_1)."""

    pattern = re.compile(r"^[a-z][a-z0-9_]{0,60}_\d{1,3}$")
    prefix = re.compile(r"^(?:https?://)?(?:export\.)?arxiv\.org/a/", re.I)
    suffix = re.compile(r"\.(?:html|atom2?|json)$")
    example, service = "ma_t_1", "arXiv author"


class GitHubUserField(SourceIdField):
    """A GitHub user or organisation name, "kvcache-ai" (from https://github.com/…)."""

    pattern = re.compile(r"^[A-Za-z\d](?:[A-Za-z\d]|-(?=[A-Za-z\d])){0,38}$")
    prefix = re.compile(r"^(?:https?://)?(?:www\.)?github\.com/", re.I)
    example, service = "kvcache-ai", "GitHub user"
