"""The site's two languages: which one a request is in, and the same page in the other.

A public page's language is in its address alone (`/people/teng-ma/` English,
`/zh-hans/people/teng-ma/` Chinese), so one address is one page for every visitor, cache and
crawler. The admin (and the accounts pages) have no language in their address; they follow
the editor's choice (the language cookie, set from the menu in the admin header) or else
their browser.
"""

from dataclasses import dataclass

from django.conf import settings
from django.middleware import locale
from django.urls import NoReverseMatch, reverse, translate_url
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext_lazy

from core import content
from core.languages import language_tag


def is_admin(path: str) -> bool:
    """The editors' pages: the admin, and the page where an invited member sets a password."""
    try:
        admin = reverse("admin:index")
    except NoReverseMatch:  # a site without the admin (some tests' URLs)
        return False
    return path.startswith((admin, "/accounts/"))


class LocaleMiddleware(locale.LocaleMiddleware):
    """Django's, but for the admin, which takes the editor's language rather than English."""

    def process_request(self, request):
        if not is_admin(request.path_info):
            return super().process_request(request)
        translation.activate(translation.get_language_from_request(request))
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request, response):
        if is_admin(request.path_info):
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
        # A public page's language comes from its path alone, so unlike Django's middleware
        # this one adds no `Vary: Accept-Language` (it would split every shared cache).
        response.headers.setdefault("Content-Language", translation.get_language())
        return response


@dataclass(frozen=True)
class Alternate:
    tag: str  # BCP 47: "zh-Hans"
    name: str  # in its own language: "简体中文"
    url: str  # this page in that language, path and query (the query keeps a filter)
    path: str  # the same, without the query: the page `hreflang` names
    current: bool


def alternates(request) -> list[Alternate]:
    """This page in each language, for the language menu and `hreflang` links. An address
    no page answers (an error page) stays as it is in both."""
    current = translation.get_language()
    # Resolved without the script prefix; reversing puts it back (a site under /lab/).
    query = request.META.get("QUERY_STRING", "")
    full_path = f"{request.path_info}?{query}" if query else request.path_info
    return [
        Alternate(
            tag=language_tag(code),
            name=translation.get_language_info(code)["name_local"],
            url=translate_url(full_path, code),
            path=translate_url(request.path_info, code),
            current=code == current,
        )
        for code, _name in settings.LANGUAGES
    ]


def model_texts() -> list[str]:
    """The English texts of the content models' names, field labels and help, as written
    in the models (with the language English, as `manage.py catalogs update` runs)."""
    texts = []
    for model in _content_models():
        opts = model._meta
        texts += [opts.verbose_name, opts.verbose_name_plural]
        for field in opts.get_fields():
            # A column of a text in two languages is labelled "bio (English)": "bio" is
            # translated, the language's own name is not.
            label = getattr(field, "in_languages_of", None) or getattr(field, "verbose_name", "")
            texts += [label, getattr(field, "help_text", "")]
    return list(dict.fromkeys(str(t) for t in texts if t))


def _content_models():
    """The models the admin shows of the content apps, without their history twins
    (labelled after them)."""
    return content.models_of((content.CONTENT, content.TRANSIENT))


def translate_model_texts() -> None:
    """Make each content model's name, field labels and help a lazy translation of its
    English text, so that the admin shows them in the editor's language wherever Django
    prints them (forms, lists, errors, history) while models keep writing plain English.
    Called once at start-up; `catalogs update` collects the texts (`model_texts`)."""
    for model in _content_models():
        opts = model._meta
        # A name Django made ("news items" from "news item") is lazy already: its English.
        opts.verbose_name = _lazy(str(opts.verbose_name))
        opts.verbose_name_plural = _lazy(str(opts.verbose_name_plural))
        for field in opts.get_fields():
            for attribute in ("verbose_name", "help_text"):
                if isinstance(getattr(field, attribute, None), str):
                    setattr(field, attribute, _lazy(getattr(field, attribute)))


def _lazy(text):
    return gettext_lazy(text) if isinstance(text, str) and text else text
