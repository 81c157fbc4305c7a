"""Media references, `![alt](media:NAME "title")`: the writer leaves a marker for each, and
every render (after the memo, so a replaced medium shows at once) puts in its place what
the media library answers, or the image's alt text when it knows no such medium."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.utils.translation import gettext

from core.markup.events import escape
from core.markup.sanitizer import ALLOWED_TAGS, sanitize_html

if TYPE_CHECKING:
    from core.markup.writer import Rendered

MediaResolver = Callable[[str, str, "str | None"], "str | None"]
_media_resolvers: list[MediaResolver] = []

# Markers the writer leaves where the media library's answer goes (after sanitising): a
# random word per process, so no text can forge one.
_NONCE = secrets.token_hex(8)
_MEDIA_MARK = re.compile(rf"\ue000{_NONCE}(\d+)\ue001")


def register_media_resolver(resolver: MediaResolver) -> None:
    """Let `resolver(name, alt, title)` answer `![alt](media:NAME "title")`: HTML for the
    medium (a figure or picture with its srcset; it is sanitised like the rest, see
    ALLOWED_TAGS), or None when it knows no such medium. A resolver that also has
    `resolve_many([(name, alt, title), …])` is asked once for all of a text's references
    (a page's ten images then cost what one does). The media library registers one;
    resolvers are asked in turn, and their answers are not memoized (a replaced medium
    shows at once)."""
    if resolver not in _media_resolvers:
        _media_resolvers.append(resolver)


def unregister_media_resolver(resolver: MediaResolver) -> None:
    if resolver in _media_resolvers:
        _media_resolvers.remove(resolver)


def marker(number: int) -> str:
    """What the writer leaves for a text's reference `number` (counted from 0)."""
    return f"\ue000{_NONCE}{number}\ue001"


def missing(alt: str) -> str:
    """What stands in for an image the site cannot show: its alt text, visibly."""
    shown = alt or gettext("An image")
    return f'<span class="media-missing">{escape(shown)}</span>'


def without_media(html: str) -> str:
    """The rendered HTML with its media references left out."""
    return _MEDIA_MARK.sub("", html)


def with_media(rendered: Rendered, problems: list[str] | None = None) -> str:
    """The rendered HTML with each media reference replaced by the library's answer."""
    if not rendered.media:
        return rendered.html

    answers = _resolve_media([(name, alt, title) for name, alt, title, _ in rendered.media])

    def figure(match: re.Match) -> str:
        name, alt, _title, alone = rendered.media[int(match[1])]
        answer = answers[int(match[1])]
        if answer is None:
            if problems is not None:
                problems.append(
                    gettext(
                        "The image “media:%(name)s” is not in the media library; its alt "
                        "text is shown instead."
                    )
                    % {"name": name}
                )
            return f"<p>{missing(alt)}</p>" if alone else missing(alt)
        return sanitize_html(answer, ALLOWED_TAGS)

    return _MEDIA_MARK.sub(figure, rendered.html)


def _resolve_media(references: list[tuple[str, str, str | None]]) -> list[str | None]:
    """Each reference's answer, from the first resolver that knows it."""
    answers: list[str | None] = [None] * len(references)
    for resolver in _media_resolvers:
        unanswered = [i for i, answer in enumerate(answers) if answer is None]
        if not unanswered:
            break
        asked = [references[i] for i in unanswered]
        many = getattr(resolver, "resolve_many", None)
        found = many(asked) if many is not None else [resolver(*ref) for ref in asked]
        for i, answer in zip(unanswered, found, strict=True):
            answers[i] = answer
    return answers
