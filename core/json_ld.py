"""Structured data for search engines and reference managers: a page's JSON-LD, safe to put
inside its <script type="application/ld+json"> block."""

import json


def json_ld(data) -> str:
    """Serialize for a <script type="application/ld+json"> block; <, > and & are escaped so
    no value can close the script element."""
    return (
        json.dumps(data, ensure_ascii=False)
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
    )
