"""What a visitor's browser context needs in the browser tests: the uploads served as the web
server in front of the site serves them, video players answered offline, Content-Security-
Policy violations recorded, and how far a page sticks out sideways."""

from pathlib import Path

from django.conf import settings

from core.markup import VIDEO_HOSTS

# Collects every CSP violation the page reports, before any page script runs; read them
# with page.evaluate("window.__violations").
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const where = `${event.sourceFile}:${event.lineNumber}`;
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI} ${where}`);
});
"""

_KINDS = {"webp": "image/webp", "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png"}


def serve_media(context):
    """The live server serves no uploads (DEBUG is off): the browser reads them from the
    media folder, as the web server in front of the site would."""
    root = Path(settings.MEDIA_ROOT)

    def fulfil(route):
        name = route.request.url.split(settings.MEDIA_URL, 1)[1]
        path = root / name
        if not path.is_file():
            return route.fulfill(status=404, body="")
        kind = _KINDS[path.suffix[1:].lower()]
        return route.fulfill(status=200, body=path.read_bytes(), content_type=kind)

    context.route(f"**{settings.MEDIA_URL}**", fulfil)


# A player's frame as a dark box, as the real one is before its video loads.
_PLAYER = (
    b"<!doctype html><title>Player</title>"
    b"<body style='margin:0'><div id='player' style='height:100vh;background:#111'></div>"
)


def answer_video_players(context):
    """The video players' frames answered here, so a test needs no network; the page's CSP
    still decides whether the frame may load (the browser checks frame-src before asking).
    A loaded player shows `#player`."""
    for host in VIDEO_HOSTS:
        context.route(
            f"https://{host}/**",
            lambda route: route.fulfill(status=200, body=_PLAYER, content_type="text/html"),
        )


def sideways_overflow(page):
    """How many px the document is wider than the window's layout width (0: none), and the
    element that sticks out furthest, to say which one does (it may be one inside a box that
    scrolls on its own, such as a wide code block, when nothing sticks out of the page)."""
    return page.evaluate(
        """() => {
          const root = document.documentElement, width = root.clientWidth;
          let culprit = "", widest = width;
          for (const el of document.body.querySelectorAll("*")) {
            const right = el.getBoundingClientRect().right;
            if (right > widest) {
              widest = right;
              culprit = el.tagName.toLowerCase() + "." + el.className;
            }
          }
          return [root.scrollWidth - width, culprit];
        }"""
    )
