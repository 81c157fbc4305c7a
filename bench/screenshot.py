"""Screenshots of public pages in headless Chromium, as a visitor sees them.

Usage: python bench/screenshot.py [--width=1280] [--height=900] [--full-page] BASE PATH=FILE…
e.g.   python bench/screenshot.py http://127.0.0.1:8000 /people/teng-ma/=docs/profile.png
Needs Debian's chromium and `pip install playwright` (no browser download: the network is closed).
"""

import sys

from playwright.sync_api import sync_playwright

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def main(base, shots, width=1280, full_page=False, height=900):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": width, "height": height})
        for shot in shots:
            path, _, out = shot.partition("=")
            page.goto(base + path)
            page.screenshot(path=out, full_page=full_page)
            print(f"{path} -> {out}")
        browser.close()


if __name__ == "__main__":
    args = sys.argv[1:]
    options = {}
    while args and args[0].startswith("--"):
        name, _, value = args.pop(0)[2:].partition("=")
        options[name.replace("-", "_")] = int(value) if value else True
    main(args[0], args[1:], **options)
