"""Milliseconds to render 50,000 characters of hostile Markdown (each shape that made some
Markdown parser slow), per renderer: Python-Markdown as labsite used it before (view time,
one text took a worker for a minute), markdown-it-py with its plugins (linear, but pure
Python), and labsite's renderer now (pulldown-cmark through pyromark, the writer, nh3; the memo
bypassed). Best of 3; one run on the machine at hand.

    python bench/markdown.py [characters]

One run on the shared two-core machine under a load of about 7 (other engineers' tests),
50,000 characters, ms, best of 1 (old) or 3 (now); "> 10 s" stopped at 10 s:

    shape                  labsite now  Python-Markdown  markdown-it-py
    open brackets [[[             13.4         > 10 s          7658.7
    brackets with words            3.2         > 10 s          7734.5
    images ![![                   14.3         > 10 s          > 10 s
    footnote refs [^              17.8         > 10 s          > 10 s
    link openers [a](             42.2         > 10 s          7300.4
    reference links               21.2         > 10 s          > 10 s
    nested emphasis              132.5         6399.0          4736.6
    underscores                    9.9          909.2          3445.4
    backtick runs                  1.0         9358.6           197.5
    nested lists                  14.3         2112.1           151.5
    nested quotes >>>            102.6         3746.1             0.8
    angle brackets <<<           111.0         1250.5          1651.8
    tags <a<a                     81.9         > 10 s           315.1
    entities &&&                 203.4          295.8           447.7
    dollars $a$a                 327.7           44.1           250.9
    math openers \\(                67.8         1949.8           379.2
    table rows                    27.5         1742.2          1730.5
    code fence python             70.7           15.8             0.7
    plain prose                    1.1           37.8             0.9

What is left is nh3 (html5ever) on what the text itself holds (50,000 "&" are 50,000
"&amp;"; 200 ms of the 203), latex2mathml on 500 formulas (the cap) and Pygments on a
50 KB block; the call counts in tests/test_markup.py hold the Python side to a budget.
"""

import signal
import sys
import time

from _setup import django_on_scratch_database


def hostile(n: int) -> dict[str, str]:
    """Shapes of text that are slow for some Markdown parser, each about n characters."""
    return {
        "open brackets [[[": "[" * n,
        "brackets with words": "[a " * (n // 3),
        "images ![![": "![" * (n // 2),
        "footnote refs [^": "[^" * (n // 2),
        "link openers [a](": "[a](" * (n // 4),
        "reference links": "[a][" * (n // 4),
        "nested emphasis": "*a**a" * (n // 5),
        "underscores": "_a__a" * (n // 5),
        "backtick runs": "".join("`" * k + " " for k in range(1, 320))[:n],
        "nested lists": "".join("  " * k + "- a\n" for k in range(n))[:n],
        "nested quotes >>>": ">" * n,
        "angle brackets <<<": "<" * n,
        "tags <a<a": "<a" * (n // 2),
        "entities &&&": "&" * n,
        "dollars $a$a": "$a" * (n // 2),
        "math openers \\(": "\\(" * (n // 2),
        "table rows": "|a|b|\n|-|-|\n" + "|x|y|\n" * (n // 6),
        "code fence python": "```python\n" + "'''\"" * (n // 4) + "\n```",
        "plain prose": "Word and word. " * (n // 15),
    }


class TooLong(Exception):
    pass


def best_of(render, text: str, runs: int = 3, limit: int = 10) -> str:
    """The best of `runs` times in ms, or "> limit s" when one run takes longer."""

    def stop(_signum, _frame):
        raise TooLong

    times = []
    signal.signal(signal.SIGALRM, stop)
    for _ in range(runs):
        signal.alarm(limit)
        began = time.perf_counter()
        try:
            render(text)
        except TooLong:
            return f"> {limit} s"
        finally:
            signal.alarm(0)
        times.append((time.perf_counter() - began) * 1000)
    return f"{min(times):.1f}"


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    django_on_scratch_database(migrate=False)
    from core import markup
    from core.markup.writer import Writer

    def labsite(text):
        rendered = Writer(source=text, first_heading=2, toc=True).write()
        return markup.sanitize_html(rendered.html, markup.PAGE_TAGS)

    renderers = {"labsite now": labsite}
    try:
        import markdown  # the renderer before (not a dependency any more)

        renderers["Python-Markdown"] = lambda text: markdown.markdown(
            text, extensions=["extra", "sane_lists"]
        )
    except ImportError:
        pass
    try:
        from markdown_it import MarkdownIt
        from mdit_py_plugins.dollarmath import dollarmath_plugin
        from mdit_py_plugins.footnote import footnote_plugin

        parser = MarkdownIt("commonmark").enable(["table", "strikethrough"])
        parser.use(footnote_plugin).use(dollarmath_plugin)
        renderers["markdown-it-py"] = parser.render
    except ImportError:
        pass
    print(f"{'shape':22s}" + "".join(f"{name:>18s}" for name in renderers))
    for shape, text in hostile(n).items():
        row = []
        for name, render in renderers.items():
            row.append(best_of(render, text, 3 if name == "labsite now" else 1))
        print(f"{shape:22s}" + "".join(f"{cell:>18s}" for cell in row))


if __name__ == "__main__":
    main()
