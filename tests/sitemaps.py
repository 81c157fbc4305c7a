"""The whole sitemap as a crawler reads it: the index at /sitemap.xml, then every sitemap
it names (each page of each), joined."""

import re
from urllib.parse import urlsplit


def whole_sitemap(client, **extra):
    """Every sitemap the index names, joined in the index's order (each must answer 200)."""
    index = client.get("/sitemap.xml", **extra)
    assert index.status_code == 200
    parts = []
    for loc in re.findall(r"<loc>([^<]+)</loc>", index.content.decode()):
        address = urlsplit(loc.replace("&amp;", "&"))
        path = address.path + (f"?{address.query}" if address.query else "")
        response = client.get(path, **extra)
        assert response.status_code == 200, path
        parts.append(response.content.decode())
    return "".join(parts)
