"""Colour contrast as WCAG 2 defines it, and the stylesheet's colours read from it."""

from pathlib import Path

import pytest

from core import colours

SITE_CSS = Path(__file__).resolve().parents[1] / "static/labsite/site.css"


@pytest.mark.parametrize(
    ("a", "b", "ratio"),
    [("#000000", "#ffffff", 21.0), ("#767676", "#ffffff", 4.54), ("#ffffff", "#ffffff", 1.0)],
)
def test_contrast_ratio_is_wcags(a, b, ratio):
    assert round(colours.contrast(a, b), 2) == ratio


def test_colours_are_read_in_any_spelling_of_six_hex_digits():
    assert colours.normalized(" 1F5FA8") == "#1f5fa8"
    assert colours.normalized("#1f5fa8") == "#1f5fa8"
    assert colours.normalized("#1f5") == ""
    assert colours.normalized("blue") == ""


def test_a_shade_keeps_the_hue_and_moves_only_as_far_as_the_ratio_asks():
    lighter = colours.shade_reaching("#8e1b3a", lambda shade: ["#15191d"], 4.5, lighter=True)
    darker = colours.shade_reaching("#ff9900", lambda shade: ["#ffffff"], 4.5, lighter=False)

    assert 4.5 <= colours.contrast(lighter, "#15191d") < 4.7
    assert 4.5 <= colours.contrast(darker, "#ffffff") < 4.7
    r, g, b = (int(darker[i : i + 2], 16) for i in (1, 3, 5))
    assert r > g > b == 0  # still an orange


def test_the_stylesheets_light_and_dark_backgrounds_are_read_from_it():
    found = colours.custom_properties(SITE_CSS.read_text())

    assert (found["light"]["paper"], found["light"]["tint"]) == ("#ffffff", "#f5f7f9")
    assert (found["dark"]["paper"], found["dark"]["tint"]) == ("#15191d", "#1d2227")
    assert found["dark"]["muted"] == "#9aa4ae"
