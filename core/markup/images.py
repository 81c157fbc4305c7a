"""Images and videos as the writer writes them: an address of a video alone in its
paragraph becomes a player, an image alone a figure (with a caption when titled), an image
in running text stays inline, and a media library reference becomes a marker that each
render replaces (media.py)."""

from dataclasses import dataclass, field
from urllib.parse import urlsplit

from django.utils.translation import gettext

from core.markup.events import Events, escape
from core.markup.media import marker, missing
from core.markup.sanitizer import allowed_image
from core.markup.videos import video_player


@dataclass(kw_only=True)
class Images(Events):
    blocks: bool = True  # a lone video address or image becomes a player or a figure
    media: list[tuple[str, str, str | None, bool]] = field(default_factory=list)  # per marker

    def _lone_paragraph(self, start: int) -> tuple[str, int] | None:
        """A paragraph holding only a video's address, or only an image: (its HTML without
        the paragraph, a player or a figure; the index of its end). Looks at a few events."""
        inner: list[int] = []
        j = start + 1
        while len(inner) < 4:
            event = self.events[j]
            if "End" in event and event["End"] == "Paragraph":
                break
            if not self._blank(event):
                inner.append(j)
            j += 1
        if not inner or len(inner) > 3:
            return None
        first = self.events[inner[0]]
        if len(inner) == 1 and "Text" in first:
            video = self._video(first["Text"].strip())
            return (video, j) if video else None
        if "Start" not in first or not isinstance(first["Start"], dict):
            return None
        ((name, value),) = first["Start"].items()
        if name == "Link" and value.get("link_type") == "Autolink" and len(inner) == 3:
            video = self._video(value["dest_url"])
            return (video, j) if video else None
        if name == "Image" and self._matching_end(inner[0]) == inner[-1]:
            out: list[str] = []
            self._image(value, inner[0], out, alone=True)
            return "".join(out) + "\n", j
        return None

    @staticmethod
    def _blank(event: dict) -> bool:
        return "SoftBreak" in event or ("Text" in event and not event["Text"].strip())

    def _video(self, url: str) -> str | None:
        found = video_player(url)
        if found is None:
            return None
        player, provider = found
        title = escape(gettext("Video on %(provider)s") % {"provider": provider})
        return (
            f'<div class="video"><iframe src="{escape(player)}" title="{title}" '
            "allowfullscreen></iframe></div>\n"
        )

    def _image(self, value: dict, i: int, out: list[str], alone: bool = False) -> int:
        end = self._matching_end(i)
        alt = " ".join(self._plain(i + 1, end).split())
        url = value["dest_url"].strip()
        title = value.get("title") or None
        if url.startswith("media:"):
            self.media.append((url.removeprefix("media:").strip(), alt, title, alone))
            out.append(marker(len(self.media) - 1))
        elif not allowed_image(url):
            host = urlsplit(url).hostname or url[:60]
            self.problems.append(
                gettext(
                    "The image “%(alt)s” (%(url)s) is not shown: %(host)s is not a host the "
                    "lab allows images from. Upload it to the media library, or ask for "
                    "its host to be added to MARKDOWN_IMAGE_HOSTS."
                )
                % {"alt": alt or "…", "url": url[:200], "host": host}
            )
            out.append(f"<p>{missing(alt)}</p>" if alone else missing(alt))
        else:
            image = f'<img src="{escape(url)}" alt="{escape(alt)}" loading="lazy">'
            if title and alone:
                image = (
                    f'<figure class="figure">{image}'
                    f"<figcaption>{escape(title)}</figcaption></figure>"
                )
            elif title:
                image = image.replace(" loading=", f' title="{escape(title)}" loading=', 1)
            elif alone:
                image = f"<p>{image}</p>"
            out.append(image)
        return end + 1
