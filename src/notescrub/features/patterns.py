"""Multi-token orthographic features: whitespace chunks and task patterns.

Our tokenizer splits punctuation (``555-1234`` is three tokens), so Carafe's
regular-expression classes that span punctuation (``PHONE_REG1``, ``REAL_NUM``,
``HAS_DASH_NUM_ALPHA``) are computed over the *chunk*: the run of tokens with no
whitespace between them (what a whitespace tokenizer would call a word). Every token
of the chunk gets the chunk's short shape, its Carafe classes and its place in the chunk.

Task patterns (Wellner et al. 2007, Table 5) are regular expressions over the text;
every token inside a match gets ``pat=NAME``: phone numbers, dates, e-mails, URLs,
ZIP-like numbers, ``<CapWord>{1,3} Medical Center``-style hospital names and
``<number> <CapWord> <street suffix>`` addresses (trigger words from the lexicons
for English; a handful of Spanish trigger words below).

>>> from notescrub.types import Document
>>> from notescrub.text.views import token_view
>>> v = token_view(Document("d", "Call 555-1234 at Boston Medical Center"))
>>> chunk_features(v)[1][:2], "c:PHONE_REG1" in chunk_features(v)[1]
(['cshape=d-d', 'cpos=B'], True)
>>> feats = pattern_features(Document("d", "Call 555-1234 at Boston Medical Center"), v, "en")
>>> feats[1][0], feats[4], feats[5]
('pat=PHONE', [], ['pat=HOSP'])
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

from notescrub.detect.rules.prefilter import first_ascii_chars
from notescrub.features.token import carafe_classes, short_shape
from notescrub.text.views import TokenView
from notescrub.types import Document

__all__ = ["chunk_features", "chunk_table", "pattern_features", "pattern_table", "patterns_for"]

# Spanish trigger words for the contextual patterns (generic nouns, not names).
_ES_HOSPITAL = ("hospital", "clínica", "clinica", "centro de salud", "centro médico", "sanatorio", "policlínica",
                "fundación", "instituto", "servicio")
_ES_STREET = ("calle", "c/", "avenida", "avda.", "avda", "av.", "plaza", "pza.", "paseo", "pº", "camino", "carretera",
              "ctra.", "ronda", "travesía", "urbanización", "glorieta", "vía", "pasaje")

_ES_MONTHS = ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "setiembre",
              "octubre", "noviembre", "diciembre", "ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep",
              "sept", "oct", "nov", "dic")

_CAP = r"[^\W\d_a-zß-ÿ][\w'’.-]*"
_COMMON: dict[str, str] = {
    "PHONE": r"(?<!\d)(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)[ .-]?|\d{2,4}[ .-])\d{2,4}(?:[ .-]\d{2,4}){0,2}(?!\d)",
    "DATE": r"(?<!\d)(?:\d{1,2}[/.-]\d{1,2}(?:[/.-]\d{2,4})?|\d{4}[/.-]\d{1,2}[/.-]\d{1,2})(?!\d)",
    "EMAIL": r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+",
    "URL": r"(?:https?://|www\.)\S+",
    "ZIP": r"(?<![\d-])\d{5}(?:-\d{4})?(?![\d-])",
    "LONGNUM": r"(?<![\w])\d(?:[\d .-]*\d){5,}(?![\w])",
}


#: a character every match of the pattern contains
_REQUIRED = {"EMAIL": "@"}


def _alt(words) -> str:
    """An alternation of the literal ``words``, longest first, written as a trie.

    The regex engine tries an alternation's branches one after the other at every start;
    a trie rejects a position after one character class per level instead. Among words
    that match at one position (each a prefix of the next) a deeper branch is tried
    before a shorter word ends, so the same word wins as with the longest-first list.

    >>> _alt(["st", "street", "sq"])
    's(?:q|t(?:reet|))'
    >>> bool(re.fullmatch(_alt(["st", "street"]), "street"))
    True
    """
    words = set(words)
    if len({w.lower() for w in words}) < len(words) or any(w != w.lower() for w in words):
        # (the patterns match case-insensitively: with words that differ only in case the
        # trie could try a shorter word first; keep the plain longest-first list)
        return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    trie: dict[str, Any] = {}
    for w in words:
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}  # a word ends here
    return _render_trie(trie)


def _render_trie(node: dict[str, Any]) -> str:
    branches = [re.escape(ch) + _render_trie(child) for ch, child in sorted(node.items()) if ch]
    if "" in node:
        branches.append("")  # ending here is tried last: longer words first
    if len(branches) == 1:
        return branches[0]
    return "(?:" + "|".join(branches) + ")"


@lru_cache(maxsize=4)
def patterns_for(lang: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Compiled ``(name, regex)`` pairs for ``lang`` (``en`` uses the packaged lexicons)."""
    pats = dict(_COMMON)
    if lang == "es":
        pats["HOSP"] = rf"(?i:{_alt(_ES_HOSPITAL)})(?:\s+(?:de(?:l| la| los)?|{_CAP})){{1,5}}"
        pats["DATE_ES"] = (rf"(?i:\b(?:\d{{1,2}}\s+de\s+)?(?:{_alt(_ES_MONTHS)})\b\.?"
                           rf"(?:\s*(?:-|de(?:l)?)\s*\d{{2,4}}\b)?)")
        pats["ADDR"] = rf"(?i:{_alt(_ES_STREET)})\s*(?:(?:de(?:l| la| los)?|{_CAP})\s*){{1,5}},?\s*(?:n[ºo°]\.?\s*)?\d+"
    else:
        from notescrub.lexicons import lexicon

        hosp = {w for w in lexicon("hospital_words")} | {"medical center", "care center", "health"}
        street = {w for w in lexicon("street_suffixes")}
        pats["HOSP"] = rf"(?:{_CAP}\s+){{1,3}}(?i:{_alt(hosp)})\b"
        pats["ADDR"] = rf"\b\d+\s+(?:{_CAP}\s+){{1,3}}(?i:{_alt(street)})\b\.?"
    return tuple((name, re.compile(rx)) for name, rx in pats.items())


@lru_cache(maxsize=4)
def _finders(lang: str) -> tuple[tuple[str, Callable[[str], Iterator[Any]]], ...]:
    """``(name, finditer)`` per pattern; patterns that start with a digit or punctuation use a
    :class:`~notescrub.detect.rules.prefilter.Scanner` (same matches, skips impossible starts)."""
    from notescrub.detect.rules.prefilter import Scanner

    out = []
    for name, rx in patterns_for(lang):
        sc = Scanner(rx)
        chars = first_ascii_chars(rx)
        narrow = sc.mode == "first-char" and chars is not None and not any(c.isalpha() for c in chars)
        out.append((name, sc.finditer if narrow else rx.finditer))
    return tuple(out)


def pattern_features(doc: Document, view: TokenView, lang: str) -> list[list[str]]:
    """``pat=NAME`` for every token inside a match of a task pattern."""
    table, ids = pattern_table(doc, view, lang)
    return [list(table[k]) for k in ids]


def pattern_table(doc: Document, view: TokenView, lang: str) -> tuple[list[list[str]], list[int]]:
    """:func:`pattern_features` as ``(table, ids)``: token ``i`` gets ``table[ids[i]]``.

    Row 0 is the empty list (most tokens are in no match).

    >>> from notescrub.text.views import token_view
    >>> d = Document("d", "Call 555-1234 now")
    >>> pattern_table(d, token_view(d), "en")
    ([[], ['pat=PHONE', 'pat=LONGNUM']], [0, 1, 1, 1, 0])
    """
    found: dict[int, list[str]] = {}
    text = doc.text
    for name, finditer in _finders(lang):
        if name in _REQUIRED and _REQUIRED[name] not in text:
            continue  # (every e-mail address has an @)
        feat = f"pat={name}"
        for m in finditer(text):
            for i in view.tokens_in(m.start(), m.end()):
                have = found.setdefault(i, [])
                if not have or have[-1] != feat:
                    have.append(feat)
    table: list[list[str]] = [[]]
    rows: dict[tuple[str, ...], int] = {}
    ids = [0] * len(view.tokens)
    for i, feats in found.items():
        key = tuple(feats)
        k = rows.get(key)
        if k is None:
            k = rows[key] = len(table)
            table.append(feats)
        ids[i] = k
    return table, ids


_CHUNK_CACHE: dict[str, tuple[str, list[str]]] = {}
# bounded like the featurizer's word memo: a long run meets ever new chunks (ids, numbers,
# surrogate names), and 100,000 entries held about 30 MiB (docs/scale.md, "Memory")
_CHUNK_CACHE_MAX = 10_000


def _chunk_info(text: str) -> tuple[str, list[str]]:
    """``(cshape feature, Carafe class features)`` of a chunk's text (cached)."""
    got = _CHUNK_CACHE.get(text)
    if got is None:
        if len(_CHUNK_CACHE) > _CHUNK_CACHE_MAX:
            _CHUNK_CACHE.clear()
        got = _CHUNK_CACHE[text] = (f"cshape={short_shape(text)[:20]}", [f"c:{c}" for c in carafe_classes(text)])
    return got


def chunk_table(view: TokenView) -> tuple[list[list[str]], list[int]]:
    """:func:`chunk_features` as ``(table, ids)``: token ``i`` gets ``table[ids[i]]``.

    Row 0 is the empty list (tokens that are a whole chunk); a chunk's rows are shared
    with every other chunk of the same text in the document.

    >>> from notescrub.types import Document
    >>> from notescrub.text.views import token_view
    >>> table, ids = chunk_table(token_view(Document("d", "Call 555-1234")))
    >>> ids, table[1][:2]
    ([0, 1, 2, 3], ['cshape=d-d', 'cpos=B'])
    """
    toks = view.tokens
    space_after = view.space_after
    table: list[list[str]] = [[]]
    rows: dict[str, int] = {}  # chunk text -> its B row (then I, L)
    ids: list[int] = []
    i = 0
    n = len(toks)
    while i < n:
        j = i
        while j < n - 1 and not space_after[j] and toks[j + 1].start == toks[j].end:
            j += 1
        if j == i:
            ids.append(0)
        else:
            text = "".join([t.text for t in toks[i : j + 1]])
            got = rows.get(text)
            if got is None:
                shape_feat, classes = _chunk_info(text)
                got = rows[text] = len(table)
                table.extend([shape_feat, f"cpos={pos}", *classes] for pos in ("B", "I", "L"))
            ids.append(got)
            ids.extend([got + 1] * (j - i - 1))
            ids.append(got + 2)
        i = j + 1
    return table, ids


def chunk_features(view: TokenView) -> list[list[str]]:
    """Short shape, Carafe classes and position of each token's whitespace chunk."""
    table, ids = chunk_table(view)
    return [list(table[k]) for k in ids]
