"""A Hugo site's configuration (merged as Hugo merges its files), its name and description,
and the content folder of its language."""

import re
from pathlib import Path
from typing import Any

from labsite.site_import.hugo.sections import mapping_at
from labsite.site_import.ledger import Tracked
from labsite.site_import.site import Site, Unreadable, load_data, plain

# How the starters describe themselves ("A highly-customizable Hugo research group theme
# powered by Wowchemy website builder."), which a site that never changed it still carries.
STARTER_DESCRIPTION = re.compile(
    r"powered by (?:wowchemy|hugo ?blox|academic)|highly[- ]customi[sz]able hugo|"
    r"(?:the )?(?:hugo|wowchemy) (?:academic )?(?:resume|research group|cv) (?:theme|template)",
    re.I,
)


def read_site_name(site: Site, config: dict[str, Any]) -> None:
    """The site's name and one-line description: Hugo's `title` and `params.description`,
    Wowchemy's `marketing.seo`, Hugo Blox's `hugoblox.identity`, each language's own in
    languages.yaml (a Chinese one's as the lab's Chinese name); the starters' placeholder
    name and description of themselves are left out, named."""
    params = mapping_at(config, "params")
    seo, identity = (
        mapping_at(params, "marketing", "seo"),
        mapping_at(params, "hugoblox", "identity"),
    )
    site.title = plain(identity.get("name") or seo.get("site_name") or config.get("title"))
    site.tagline = plain(
        identity.get("tagline")
        or identity.get("description")
        or seo.get("description")
        or params.get("description")
        or params.get("tagline")
    )[:300]
    default = plain(config.get("defaultContentLanguage")).lower() or "en"
    for code, language in mapping_at(config, "languages").items():
        if not isinstance(language, dict):
            continue
        title = plain(language.get("title"))
        tagline = plain(mapping_at(language, "params").get("description"))[:300]
        if str(code).lower().startswith("zh"):
            site.title_zh, site.tagline_zh = title, tagline
        elif str(code).lower() == default:
            site.title, site.tagline = title or site.title, tagline or site.tagline
    if site.tagline_zh == site.title_zh:  # the name given again is no description
        site.tagline_zh = ""
    if re.fullmatch(r"your name", site.title, re.I):
        site.leftovers.append(f"the site's name “{site.title}”: the starter's placeholder")
        site.title = ""
    for name in ("tagline", "tagline_zh"):
        if STARTER_DESCRIPTION.search(getattr(site, name)):
            site.leftovers.append(
                f"the site's description “{getattr(site, name)}”: the starter's own"
            )
            setattr(site, name, "")


def read_config(site: Site) -> dict[str, Any]:
    """The site's configuration: config/_default/{config,hugo,params}.*, or one file, merged
    as Hugo merges them (keeping where each key came from, for the ledger)."""
    names = ["hugo.yaml", "hugo.toml", "config.yaml", "config.toml", "hugo.json", "config.json"]
    folder = site.root / "config" / "_default"
    paths = [site.root / n for n in names] + [folder / n for n in names]
    paths += [
        folder / f"{stem}.{suffix}"
        for stem in ("params", "languages")
        for suffix in ("yaml", "yml", "toml", "json")
    ]

    config = Tracked()

    def read_one(path: Path) -> None:
        values = load_data(site, path)
        if not isinstance(values, dict):
            raise Unreadable(site.name(path), "not a set of settings")
        site.lands(path, "the lab's settings")
        if path.stem in ("params", "languages"):  # the file is the mapping under its name
            values = Tracked({path.stem: values}, {path.stem: []})
        if "params" in dict.keys(config) and "params" in dict.keys(values):
            dict.__getitem__(config, "params").absorb(dict.__getitem__(values, "params"))
        else:
            config.absorb(values)

    site.each([p for p in paths if p.is_file()], read_one)
    return config


def content_folder(site: Site, config: dict[str, Any]) -> Path:
    """The content folder of the site's default language: content/, or content/en/ on a site
    in several languages; the other languages' folders are named, not read."""
    content = site.root / "content"
    language = plain(config.get("defaultContentLanguage")).lower() or "en"
    folders = {
        p.name.lower(): p
        for p in content.iterdir()
        if p.is_dir() and re.fullmatch(r"[a-z]{2}(?:[-_][a-z]{2,4})?", p.name.lower())
    }
    if not folders or (content / "authors").is_dir() or (content / "publication").is_dir():
        return content
    chosen = folders.get(language) or folders.get("en") or sorted(folders.values())[0]
    for other in sorted(set(folders.values()) - {chosen}):
        every = [p.relative_to(other).as_posix() for p in other.glob("**/*.md")]
        posts = sum(1 for name in every if POSTS.match(name))
        chinese = other.name.lower().startswith("zh") and posts
        read = f"; its {posts} posts come in, in Chinese" if chinese else ""
        site.no_home.append(
            f"{site.name(other)}: {len(every) - (posts if chinese else 0)} pages in another "
            f"language (the site's {chosen.name} pages are read{read})"
        )
    return chosen


POSTS = re.compile(r"^(?:post|posts|blog)/")


def chinese_content(site: Site, content: Path) -> Path | None:
    """The Chinese content folder of a site in several languages (content/zh/), beside the
    one read."""
    if content.parent != site.root / "content":
        return None
    return next(
        (
            p
            for p in sorted(content.parent.iterdir())
            if p.is_dir() and p.name.lower() in ("zh", "zh-cn", "zh-hans", "zh_cn")
        ),
        None,
    )
