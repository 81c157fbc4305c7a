"""How much a Markdown text may hold and cost: each field's size, checked at save, and the
bounds a render keeps to whatever was saved before them (bench/markdown.py)."""

from django.core.validators import MaxLengthValidator

# The size each kind of text may have, in characters: room for its use, and a bound on
# what one visit can cost (bench/markdown.py).
BODY_LIMIT = 100_000  # a page's, a post's, a theme's or a course's body
DESCRIPTION_LIMIT = 20_000  # a bio, an abstract, a talk's description, the lab's about
SUMMARY_LIMIT = 5_000  # a project's or an education's few lines, a banner's text
NEWS_LIMIT = 2_000  # one or two sentences

# Beyond this, text saved before the limits existed is shown only up to it, with a note.
RENDER_LIMIT = BODY_LIMIT
# Code blocks longer than this are shown without highlighting (Pygments is regex-driven).
HIGHLIGHT_LIMIT = 20_000
# Formulas typeset per text; the rest show as code (latex2mathml takes ~0.1 ms each).
MAX_FORMULAS = 500
# Lists, quotes and emphasis nested deeper than this show their text without the elements
# (an HTML parser's cost grows with the depth of what it reads), and raw HTML past this
# many tags in one text shows as text, for the same reason.
MAX_DEPTH = 32
MAX_RAW_TAGS = 2_000
# A text with more elements than this is shown as plain text (a 100 KB page of prose has
# about 5,000; a table of 1,000 rows of 4 cells 10,000).
MAX_ELEMENTS = 20_000
# The memo holds at most this many characters of source text (and about 3x in HTML).
MEMO_CHARACTERS = 4_000_000


def text_limit(limit: int) -> MaxLengthValidator:
    """The model validator bounding a text field at `limit` characters; admin forms,
    importers (`full_clean`) and commands all refuse longer text with Django's message,
    which names both lengths."""
    return MaxLengthValidator(limit)
