"""The links a Hugo page gives (`links:` and the `url_*` fields), by where each lands."""

import re
from typing import Any

from labsite.site_import.hugo.sections import as_list
from labsite.site_import.site import plain, web_url

# Hugo Academic's and Wowchemy's link fields (`url_pdf`, `links: [{name, url}]`) by the
# word that names them, and where each lands: a Record field, or a named link ("Dataset").
LINK_WORDS = {
    "pdf": "pdf_url",
    "paper": "pdf_url",
    "code": "code_url",
    "github": "code_url",
    "slides": "slides_url",
    "video": "video_url",
    "youtube": "video_url",
    "project": "project_url",
    "site": "project_url",
    "website": "project_url",
    "dataset": "Dataset",
    "data": "Dataset",
    "source": "Source",
    "poster": "Poster",
    "preprint": "Preprint",
    "supplement": "Supplement",
    "blog": "Blog",
}
ARXIV_URL = re.compile(
    r"arxiv\.org/(?:abs|pdf)/((?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?)"
)
DOI_URL = re.compile(r"^https?://(?:dx\.)?doi\.org/(10\.\S+)$", re.I)


def _urls(value: Any) -> list[str]:
    """The addresses a link field gives: one, or a YAML list of them (older Academic)."""
    values = value if isinstance(value, list) else [value]
    return [url for url in (web_url(v) for v in values) if url]


def links_of(values: dict[str, Any]) -> dict[str, Any]:
    """{Record field: address} from a page's `links` and its `url_*` fields; a name with no
    field of its own ("Dataset", a custom name) under "named" as [(label, address)]; an arXiv
    or DOI link as the paper's arXiv id or DOI."""
    found: dict[str, Any] = {"named": []}

    def take(word: str, label: str, url: str) -> None:
        if match := ARXIV_URL.search(url):
            found.setdefault("arxiv_id", match[1])
            return
        if match := DOI_URL.match(url):
            found.setdefault("doi", match[1])
            return
        home = next((LINK_WORDS[w] for w in re.split(r"[\W_]+", word) if w in LINK_WORDS), "")
        if home.endswith("_url") and home not in found:
            found[home] = url
        elif url not in [u for _, u in found["named"]] and url not in found.values():
            found["named"].append((label or home or word.replace("_", " ").title(), url))

    for link in as_list(values.get("links")):
        if not isinstance(link, dict):
            continue
        if link.get("provider") == "arxiv" and link.get("id"):
            found.setdefault("arxiv_id", str(link["id"]))
        kind = str(link.get("type") or link.get("name") or link.get("icon") or "").lower()
        for url in _urls(link.get("url")):
            take(kind, plain(link.get("name")), url)
    for key in list(dict.keys(values)):
        word = str(key).lower()
        if word.startswith("url_"):
            for url in _urls(values.get(key)):
                take(word.removeprefix("url_"), "", url)
    return found
