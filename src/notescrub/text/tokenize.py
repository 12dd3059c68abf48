"""Clinical tokenizer: tokens with character offsets, splitting fused tokens.

Clinical text from EHR exports is full of tokens fused by bad text extraction
(He et al. 2015 list ``PEND01/26/2098``, ``CABG6/95``, ``x76221``, ``ALMarital``,
``34712RadiologyExam``, ``JaffreyMarital``). With ``fused=True`` (the default) the
toolkit's own generic rules split

* letters from digits (``PEND|01``, ``x|76221``, ``MRN|4482911``),
* a lower-case letter followed by an upper-case one (``Jaffrey|Marital``),
* an upper-case run followed by a capitalised word (``AL|Marital``),
* every punctuation character into its own token (``45|-|year|-|old``,
  ``01|/|26|/|2098``), which also splits date parts.

These are not He et al.'s Table 1 rules: those cut ``47798497-045-1949`` as
``47798 | 497-045-1949`` (a phone number after a fused prefix) where the generic rules
keep ``47798497`` whole, and they leave letters and digits together unless a rule
matches (``MRN4482911``). ``fused="he2015"`` selects the paper's rules
(:mod:`notescrub.text.he2015`, the WI-deId recipe's preprocessing).

With ``fused=False`` only whitespace and punctuation split, as a plain tokenizer
would (the "no preprocessing" ablation of WI-deId).

Tokens never include whitespace and never cross a line break, so every PHI span
whose boundaries fall on these break points maps exactly onto whole tokens.

>>> [t.text for t in tokenize("PEND01/26/2098 JaffreyMarital x76221")]
['PEND', '01', '/', '26', '/', '2098', 'Jaffrey', 'Marital', 'x', '76221']
>>> [t.text for t in tokenize("JaffreyMarital", fused=False)]
['JaffreyMarital']
>>> [t.text for t in tokenize("47798497-045-1949", fused="he2015")]
['47798', '497', '-', '045', '-', '1949']
>>> tokenize("Nº 12")[0]
Token(start=0, end=2, text='Nº')
"""

from __future__ import annotations

import re
from typing import NamedTuple

from notescrub.errors import ConfigError

__all__ = ["MODES", "Token", "Tokenizer", "TokenizerMode", "check_mode", "mode_key", "tokenize"]

#: a tokenizer setting: True (generic fused-token splits), False (plain) or a named rule set
TokenizerMode = bool | str
#: the named rule sets (``"he2015"``: He et al. 2015, Table 1)
MODES = ("he2015",)


class Token(NamedTuple):
    """A token: ``text == document.text[start:end]``."""

    start: int
    end: int
    text: str


# letters (any script, incl. º ª), digits, or any other single non-space character
_FUSED_RE = re.compile(r"[^\W\d_]+|\d+|[^\w\s]|_")
_PLAIN_RE = re.compile(r"[^\W_]+|[^\w\s]|_")
# inside a letter run with mixed case: split "ALMarital" -> AL|Marital, "JaffreyMarital" -> Jaffrey|Marital
_CAMEL_RE = re.compile(r"[^\W\d_a-zß-ÿ]+(?=[^\W\d_a-zß-ÿ][a-zß-ÿ])|[^\W\d_a-zß-ÿ]?[^\W\d_A-ZÀ-Þ]+|[^\W\d_]+")


def _needs_camel_split(word: str) -> bool:
    # fast path: lower, UPPER and Title words are never split
    return not (word.islower() or word.isupper() or word.istitle()) and len(word) > 2


def _camel_pieces(word: str, offset: int, out: list[Token]) -> None:
    pieces = [(m.start(), m.end()) for m in _CAMEL_RE.finditer(word)]
    # Do not split short prefixes like "Mc", "Mac", "De", "O'": keep words whose
    # first piece is a typical name particle, and single-letter lower prefixes ("iPhone").
    if len(pieces) == 2 and word[: pieces[0][1]] in _NAME_PREFIXES:
        out.append(Token(offset, offset + len(word), word))
        return
    for a, b in pieces:
        out.append(Token(offset + a, offset + b, word[a:b]))


_NAME_PREFIXES = frozenset({"Mc", "Mac", "De", "Di", "Da", "Le", "La", "Van", "Von", "Du", "Del", "Della", "St", "Fitz"})


class Tokenizer:
    """Configurable tokenizer (see module doc); instances are cheap and reusable.

    >>> Tokenizer(fused=True)("CABG6/95")
    [Token(start=0, end=4, text='CABG'), Token(start=4, end=5, text='6'), Token(start=5, end=6, text='/'), Token(start=6, end=8, text='95')]
    """

    __slots__ = ("fused",)

    def __init__(self, fused: TokenizerMode = True) -> None:
        self.fused = fused

    def __call__(self, text: str) -> list[Token]:
        return tokenize(text, fused=self.fused)

    def __repr__(self) -> str:
        return f"Tokenizer(fused={self.fused})"


def check_mode(fused: object) -> TokenizerMode:
    """``fused`` if it is a tokenizer setting, else :class:`ConfigError` naming the known ones.

    >>> check_mode("he2015")
    'he2015'
    """
    if isinstance(fused, bool) or fused in MODES:
        return fused
    raise ConfigError(f"unknown tokenizer setting fused={fused!r}; use true, false or one of {', '.join(MODES)}")


def mode_key(fused: TokenizerMode) -> str:
    """A short cache key for a tokenizer setting (``"1"``, ``"0"``, ``"he2015"``).

    >>> mode_key(True), mode_key("he2015")
    ('1', 'he2015')
    """
    return fused if isinstance(fused, str) else str(int(fused))


def tokenize(text: str, *, fused: TokenizerMode = True) -> list[Token]:
    """Split ``text`` into tokens with offsets (see the module docstring)."""
    if isinstance(fused, str):
        if fused == "he2015":
            from notescrub.text.he2015 import tokenize_he2015

            return tokenize_he2015(text)
        check_mode(fused)
    out: list[Token] = []
    append = out.append
    if not fused:
        for m in _PLAIN_RE.finditer(text):
            append(Token(m.start(), m.end(), m.group()))
        return out
    new = tuple.__new__  # (Token(...) without the keyword handling: most of a token's cost)
    for m in _FUSED_RE.finditer(text):
        word = m.group()
        if word[0].isalpha() and _needs_camel_split(word):
            _camel_pieces(word, m.start(), out)
        else:
            start = m.start()
            append(new(Token, (start, start + len(word), word)))
    return out
