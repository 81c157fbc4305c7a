"""Videos a text may show: the address of a video on YouTube, Vimeo or Bilibili, as people
paste it, turned into the address of the provider's player."""

import re
from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

# The video players a text may show, and the hosts the CSP's frame-src lists.
VIDEO_HOSTS = ("www.youtube-nocookie.com", "player.vimeo.com", "player.bilibili.com")

_YOUTUBE_ID = re.compile(r"[\w-]{11}")
_VIMEO_ID = re.compile(r"\d{1,12}")
_BILIBILI_ID = re.compile(r"(BV[0-9A-Za-z]{10})|av(\d{1,12})")

Player = tuple[str, str]  # (player address, provider)


def video_player(url: str) -> Player | None:
    """(player address, provider) for the address of a video on YouTube, Vimeo or
    Bilibili as people paste it; None for anything else."""
    if len(url) > 300 or any(c.isspace() for c in url):
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return None
    host = (parts.hostname or "").removeprefix("www.").removeprefix("m.")
    path = [p for p in parts.path.split("/") if p]
    for hosts, player in _PROVIDERS:
        if host in hosts:
            return player(host, path, parts.query)
    return None


def _youtube(host: str, path: list[str], query: str) -> Player | None:
    if host == "youtu.be" and path:
        video = path[0]
    elif path[:1] == ["watch"]:
        video = parse_qs(query).get("v", [""])[0]
    elif len(path) == 2 and path[0] in ("embed", "shorts", "live"):
        video = path[1]
    else:
        return None
    if _YOUTUBE_ID.fullmatch(video):
        return f"https://www.youtube-nocookie.com/embed/{video}", "YouTube"
    return None


def _vimeo(host: str, path: list[str], _query: str) -> Player | None:
    video = path[-1] if path else ""
    if _VIMEO_ID.fullmatch(video) and (host == "vimeo.com" or path[0] == "video"):
        return f"https://player.vimeo.com/video/{video}", "Vimeo"
    return None


def _bilibili(host: str, path: list[str], query: str) -> Player | None:
    """A video's page names it by its BV number or its older av number; the player's
    address by either, in its query."""
    found = None
    if host == "bilibili.com" and len(path) >= 2 and path[0] == "video":
        found = _BILIBILI_ID.fullmatch(path[1])
    elif host == "player.bilibili.com":
        asked = parse_qs(query)
        bvid, aid = asked.get("bvid", [""])[0], asked.get("aid", [""])[0]
        found = _BILIBILI_ID.fullmatch(bvid or (f"av{aid}" if aid else ""))
    if found and found.group(1):
        return f"https://player.bilibili.com/player.html?bvid={found.group(1)}", "Bilibili"
    if found:
        return f"https://player.bilibili.com/player.html?aid={found.group(2)}", "Bilibili"
    return None


# Each provider's hosts (without "www." or "m."), and how its addresses name a video.
_PROVIDERS: tuple[tuple[tuple[str, ...], Callable[[str, list[str], str], Player | None]], ...] = (
    (("youtube.com", "youtube-nocookie.com", "youtu.be"), _youtube),
    (("vimeo.com", "player.vimeo.com"), _vimeo),
    (("bilibili.com", "player.bilibili.com"), _bilibili),
)
