"""The site's look from the lab settings: the primary colour's shades for the light and the
dark page, checked against the backgrounds the stylesheet itself sets, and the CSS that puts
them in place of the stylesheet's own accent colour.

The lab admin picks one colour, for the light page; the dark page's shade is worked out from
it (the same hue, lightened until text in it reads on the dark backgrounds), so one choice
works in both themes and no second colour can be forgotten or mismatched."""

import functools
import hashlib
import math
from dataclasses import dataclass
from pathlib import Path

from django.contrib.staticfiles import finders
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext as _

from core import colours

STYLESHEET = "labsite/site.css"
# How much of the colour tints the background of labels and tags (`--accent-soft`) in
# each theme: the stylesheet's own blue tints them about this much.
SOFT_SHARE = {"light": 0.10, "dark": 0.20}
# Where the accent colour is read as text, besides the labels' tint of it: the page and
# its tinted boxes (footer, stat cards, the filter form).
SURFACES = ("paper", "tint")
DARK_RATIO = 7.0  # what the dark shade reaches (see dark_shade)


@functools.cache
def stylesheet_colours() -> dict[str, dict[str, str]]:
    """The stylesheet's colours (custom properties), for the light and the dark theme."""
    found = finders.find(STYLESHEET)
    if not isinstance(found, str):  # None when missing (a list only when all are asked for)
        raise ImproperlyConfigured(f"The stylesheet {STYLESHEET} is not among the static files.")
    return colours.custom_properties(Path(found).read_text("utf-8"))


@dataclass(frozen=True)
class Shades:
    """The accent colour of one theme, the tint of it labels sit on, and where text in it
    stands out least (the ratio and that background)."""

    accent: str
    soft: str
    ratio: float
    weakest_on: str


def _backgrounds(theme: str):
    """Where text in a shade is read in `theme`: the page, its tinted boxes, and the
    labels' tint of that shade."""
    page = stylesheet_colours()[theme]

    def of(shade: str) -> list[str]:
        return [page[s] for s in SURFACES] + [colours.mix(shade, page["paper"], SOFT_SHARE[theme])]

    return of


def shades(accent: str, theme: str) -> Shades:
    backgrounds = _backgrounds(theme)(accent)
    ratio, background = colours.lowest_contrast(accent, backgrounds)
    return Shades(accent, backgrounds[-1], ratio, background)


def dark_shade(primary: str) -> str:
    """The primary colour's shade for the dark page: its own hue, lightened until text in
    it reaches 7:1 on every dark background, about as the stylesheet's own dark accent
    does (6.9:1 on its labels' tint, 8.4:1 on the page): WCAG AA asks 4.5:1, but links
    just at it look dim beside the page's light text."""
    return colours.shade_reaching(primary, _backgrounds("dark"), DARK_RATIO, lighter=True)


def shown_ratio(ratio: float) -> float:
    """A ratio as the lab admin reads it, to one decimal rounded down: 4.49 is said as
    4.4:1, never as a passing 4.5:1."""
    return math.floor(ratio * 10) / 10


def problems(primary: str) -> list[str]:
    """What keeps `primary` (#rrggbb) from being the site's colour, said for the lab
    admin: nothing when text in it reads on the light page and its shade on the dark one."""
    found = []
    light = shades(primary, "light")
    if light.ratio < colours.AA_TEXT:
        darker = colours.shade_reaching(primary, _backgrounds("light"), lighter=False)
        found.append(
            _(
                "Links and labels in %(colour)s would be hard to read on the light page: "
                "its contrast with the background %(background)s is %(ratio).1f:1, and "
                "text needs at least 4.5:1. A darker shade of it, such as %(darker)s, passes."
            )
            % {
                "colour": primary,
                "background": light.weakest_on,
                "ratio": shown_ratio(light.ratio),
                "darker": darker,
            }
        )
    dark = shades(dark_shade(primary), "dark")
    if dark.ratio < colours.AA_TEXT:
        found.append(
            _(
                "No lighter shade of %(colour)s reads on the dark page (at best %(ratio).1f:1 "
                "on %(background)s, where text needs 4.5:1); choose another colour."
            )
            % {"colour": primary, "ratio": shown_ratio(dark.ratio), "background": dark.weakest_on}
        )
    return found


@dataclass(frozen=True)
class Palette:
    """The lab's colour in both themes, as the custom properties the stylesheet reads."""

    light: Shades
    dark: Shades

    @classmethod
    @functools.lru_cache(maxsize=8)
    def of(cls, primary: str) -> "Palette":
        return cls(shades(primary, "light"), shades(dark_shade(primary), "dark"))

    @property
    def css(self) -> str:
        def rule(shades: Shades) -> str:
            return f":root {{ --accent: {shades.accent}; --accent-soft: {shades.soft}; }}"

        return (
            f"/* The lab's colour (lab settings), over the stylesheet's own accent. */\n"
            f"{rule(self.light)}\n"
            f"@media (prefers-color-scheme: dark) {{\n  {rule(self.dark)}\n}}\n"
        )

    @property
    def version(self) -> str:
        """Names this CSS in its address: a new colour (or stylesheet) is a new address, so
        browsers may keep each for good."""
        return hashlib.blake2b(self.css.encode(), digest_size=6).hexdigest()
