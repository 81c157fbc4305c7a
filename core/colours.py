"""Colours as WCAG reads them: #rrggbb values, their contrast ratio, shades of one colour
that reach a ratio against given backgrounds, and the custom properties a stylesheet sets."""

import colorsys
import re

AA_TEXT = 4.5  # WCAG 2.x AA, normal-size text
_HEX = re.compile(r"#[0-9a-f]{6}")
_PROPERTY = re.compile(r"--([\w-]+)\s*:\s*(#[0-9a-fA-F]{6})\b")
_DARK_BLOCK = re.compile(r"@media\s*\(prefers-color-scheme:\s*dark\)\s*\{\s*:root\s*\{([^}]*)\}")
_ROOT_BLOCK = re.compile(r"^:root\s*\{([^}]*)\}", re.MULTILINE)


def normalized(value: str) -> str:
    """`value` as "#rrggbb" in lower case ("1F5FA8" and "#1f5fa8 " alike), or "" when it is
    not six hexadecimal digits."""
    value = value.strip().lower()
    value = value if value.startswith("#") else "#" + value
    return value if _HEX.fullmatch(value) else ""


def _rgb(colour: str) -> tuple[float, float, float]:
    red, green, blue = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return red, green, blue


def _hex(rgb) -> str:
    return "#" + "".join(f"{round(min(max(c, 0.0), 1.0) * 255):02x}" for c in rgb)


def luminance(colour: str) -> float:
    """WCAG relative luminance of an sRGB colour."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in _rgb(colour)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours, from 1 (same) to 21 (black on white)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def mix(colour: str, other: str, share: float) -> str:
    """`share` of `colour` laid over `other` (0.1: a faint tint of colour on other)."""
    return _hex(share * a + (1 - share) * b for a, b in zip(_rgb(colour), _rgb(other), strict=True))


def lowest_contrast(colour: str, backgrounds) -> tuple[float, str]:
    """(ratio, background) of the background in `backgrounds` `colour` stands out least on."""
    return min((contrast(colour, background), background) for background in backgrounds)


def shade_reaching(colour: str, backgrounds, ratio: float = AA_TEXT, *, lighter: bool) -> str:
    """The shade of `colour` (same hue and saturation, lightness moved in steps of 1%)
    nearest to it that reaches `ratio` against every one of `backgrounds(shade)`: lighter
    shades for a dark page, darker ones for a light page. White or black ends the search."""
    hue, lightness, saturation = colorsys.rgb_to_hls(*_rgb(colour))
    step = 0.01 if lighter else -0.01
    while True:
        shade = _hex(colorsys.hls_to_rgb(hue, lightness, saturation))
        if lowest_contrast(shade, backgrounds(shade))[0] >= ratio or not 0 < lightness < 1:
            return shade
        lightness = min(max(lightness + step, 0.0), 1.0)


def custom_properties(css: str) -> dict[str, dict[str, str]]:
    """{"light": {name: "#rrggbb"}, "dark": {...}} of the hexadecimal custom properties a
    stylesheet's first `:root` rule sets, and those its dark-scheme `:root` rule changes."""
    light = _ROOT_BLOCK.search(css)
    dark = _DARK_BLOCK.search(css)
    light_values = dict(_PROPERTY.findall(light[1])) if light else {}
    dark_values = {**light_values, **dict(_PROPERTY.findall(dark[1]))} if dark else light_values
    lower = {name: value.lower() for name, value in light_values.items()}
    return {"light": lower, "dark": {name: value.lower() for name, value in dark_values.items()}}
