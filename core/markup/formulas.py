"""Formulas as the writer writes them: TeX typeset as MathML by latex2mathml, up to
MAX_FORMULAS a text; a formula it cannot read shows as code, and its editor is told why."""

import functools
from dataclasses import dataclass

from django.utils.translation import gettext
from latex2mathml.converter import convert as latex_to_mathml

from core.markup.events import Events, escape
from core.markup.limits import MAX_FORMULAS


@dataclass(kw_only=True)
class Formulas(Events):
    formulas: int = 0  # formulas read so far in the text

    def _math(self, tex: str, display: bool) -> str:
        tex = tex.strip()
        self.formulas += 1
        if self.formulas > MAX_FORMULAS or len(tex) > 5_000:
            if self.formulas == MAX_FORMULAS + 1:
                self.problems.append(
                    gettext("Only the first %(count)s formulas are typeset; the rest show as code.")
                    % {"count": MAX_FORMULAS}
                )
            return f"<code>{escape(tex)}</code>"
        try:
            mathml = _mathml(tex, display)
        except Exception as error:  # latex2mathml raises many kinds; each is bad TeX
            reason = str(error) or type(error).__name__
            self.problems.append(
                gettext("The formula “%(tex)s” cannot be read (%(reason)s); it is shown as code.")
                % {"tex": tex[:200], "reason": reason[:200]}
            )
            return f"<code>{escape(tex)}</code>"
        return f'<span class="math-block">{mathml}</span>' if display else mathml


@functools.lru_cache(maxsize=1024)
def _mathml(tex: str, display: bool) -> str:
    """A formula as MathML (a text repeats its formulas; the same ones recur across pages)."""
    return latex_to_mathml(tex, display="block" if display else "inline")
