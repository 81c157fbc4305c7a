"""A Hugo site's posts, and their translations in its Chinese pages."""

from pathlib import Path
from typing import Any

from labsite.site_import.hugo.sections import author_names, page_tags
from labsite.site_import.maps import HUGO_POST, given
from labsite.site_import.site import (
    Site,
    SitePost,
    Unreadable,
    clean_markdown,
    date_of,
    featured_image,
    front_matter,
    is_hidden,
    plain,
    web_url,
)


def read_post(site: Site, path: Path) -> None:
    """A post, by the map of Hugo's posts: a draft comes in unpublished; the template's
    sample posts are left out, however re-saved."""
    values, body = front_matter(site, path)
    name = site.name(path)

    def field(what: str) -> Any:
        return given(values, HUGO_POST, what)

    text = site.own_post_body(name, plain(field("title")), body)
    if text is None:
        return
    date = date_of(field("date"))
    title = plain(field("title"))
    if date is None or not title:
        raise Unreadable(name, f"the post has no {'date' if date is None else 'title'}")
    site.posts.append(
        SitePost(
            title=title,
            date=date,
            body=clean_markdown(text),
            source=name,
            summary=plain(field("summary")),
            authors=author_names(site, field("authors")),
            tags=page_tags(site, name, values, "tags", "categories"),
            url=web_url(field("url")),
            published=not is_hidden(values),
            image=featured_image(site, path, values),
        )
    )


def read_chinese_post(site: Site, chinese: Path, content: Path, path: Path) -> None:
    """A post of the site's Chinese pages: the translation of the post at the same place in
    the default language's pages (Hugo pairs them so), else a post in Chinese only."""
    count = len(site.posts)
    read_post(site, path)
    if len(site.posts) == count:  # a sample of the template, left out
        return
    post = site.posts.pop()
    post.title_zh, post.summary_zh, post.body_zh = post.title, post.summary, post.body
    twin = site.name(content / path.relative_to(chinese))
    found = next((p for p in site.posts if p.source == twin), None)
    if found is not None:
        found.title_zh, found.summary_zh, found.body_zh = post.title, post.summary, post.body
        found.source_zh = post.source
        found.tags += [word for word in post.tags if word not in found.tags]
        if post.image and post.image != found.image:
            if found.image:
                site.no_home.append(
                    f"{post.source}: its image {post.image} (the post's featured image is "
                    f"{found.image}, from {found.source})"
                )
            else:  # named from the site's root, as the page naming it is another
                beside = path.parent / post.image
                found.image = f"/{site.name(beside)}" if beside.is_file() else post.image
    else:
        post.title = post.summary = post.body = ""
        site.posts.append(post)
