"""Per-token evidence that an untagged token is PHI the model missed.

:func:`leftover_features` looks at every word-like token (one with a letter or digit)
that the final ``phi`` layer does not touch and gives it a row of numbers, one per
name in :data:`FEATURES`:

* ``crf_logit`` -- ``log(p / (1 - p))`` of the CRF's ``P(not O)`` for the token (the
  marginal under the model's decoding settings, clipped to [-12, 12]); ``crf_seen`` is 1
  when a CRF decoded the note (rules-only models get 0 for both);
* ``feeder`` -- a feeder detector (rules, dictionaries) of a stacked CRF put a span on
  the token but the final output did not keep it;
* ``next_to_phi`` -- the token touches a tagged PHI span (one token away): extent errors;
* ``same_as_tagged`` -- the same word (any case) is tagged elsewhere in the note;
* ``capital``, ``all_caps``, ``digit`` -- shape;
* ``name_lexicon`` -- the lower-cased token is a first or last name in the packaged lexicons;
* ``rarity`` -- ``(8 - zipf) / 8`` from wordfreq (1.0 for unknown words), ``common`` -- in
  the common-word list.

:func:`tagged_features` gives the same columns for the word-like tokens the output *does*
cover (the evidence that a tagged token is a false alarm), with two columns read from that
side: ``next_to_phi`` -- a neighbouring token (word or punctuation) is tagged too (the token
is inside a multi-token span); ``same_as_tagged`` -- the same word is tagged at another place of the
note; ``feeder`` -- a feeder detector put a span on the token.

The example uses no CRF: ``Ruiz`` is a capitalised, rare, name-lexicon word.

>>> from notescrub.types import Document
>>> doc = Document("d", "Seen by Ruiz today.")
>>> doc.add_layer("phi", [])
>>> rows = leftover_features(doc, "en")
>>> [doc.text[t.start:t.end] for t in rows.tokens]
['Seen', 'by', 'Ruiz', 'today']
>>> x = rows.matrix[2]
>>> [float(x[FEATURES.index(f)]) for f in ("name_lexicon", "capital", "crf_seen")]
[1.0, 1.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from notescrub.detect.crf import posteriors as token_posteriors
from notescrub.text.tokenize import Token
from notescrub.text.views import token_view
from notescrub.types import PHI, Document, Span

__all__ = ["FEATURES", "Leftovers", "both_sides", "leftover_features", "tagged_features"]

#: Feature names, in matrix column order (the calibration's weights follow this order by name).
FEATURES: tuple[str, ...] = ("crf_logit", "crf_seen", "feeder", "next_to_phi", "same_as_tagged", "capital",
                             "all_caps", "digit", "name_lexicon", "rarity", "common")

_CLIP = 12.0


@dataclass(frozen=True)
class Leftovers:
    """The untagged word-like tokens of a note, their features and their likeliest PHI type.

    ``matrix[i]`` are the :data:`FEATURES` of ``tokens[i]``; ``types[i]`` is the CRF's most
    probable PHI label for it (``None`` without a CRF); ``tagged`` counts word-like tokens
    the output does cover.
    """

    tokens: list[Token]
    matrix: np.ndarray
    types: list[str | None]
    tagged: int


def _names(lang: str) -> tuple[frozenset[str], frozenset[str], str]:
    from notescrub.lexicons import lexicon

    if lang == "es":
        return lexicon("es_first_names") | lexicon("es_last_names"), lexicon("es_common_words"), "es"
    return lexicon("first_names") | lexicon("last_names"), lexicon("common_words"), "en"


def _covered(doc: Document, view_tokens: list[Token], spans: Iterable[Span]) -> np.ndarray:
    """Per token: one of ``spans`` overlaps it."""
    marks = np.zeros(len(doc.text) + 1, dtype=np.int32)
    for s in spans:
        for a, b in s.pieces:
            marks[a] += 1
            marks[b] -= 1
    inside = np.cumsum(marks)[:-1] > 0 if len(doc.text) else np.zeros(0, dtype=bool)
    prefix = np.concatenate([[0], np.cumsum(inside)])
    return np.array([prefix[t.end] - prefix[t.start] > 0 for t in view_tokens], dtype=bool)


def leftover_features(doc: Document, lang: str = "en", layer: str = PHI,
                      spans: Sequence[Span] | None = None) -> Leftovers:
    """Features of the word-like tokens of ``doc`` that no span of ``layer`` touches (see module doc).

    ``spans``, when given, stand for the output instead of ``layer`` (a detector that runs
    before the output layer exists, :class:`notescrub.risk.net.LeftoverNet`, passes the
    union of the earlier detectors' layers).
    """
    return _token_features(doc, lang, layer, (False,), spans)[0]


def tagged_features(doc: Document, lang: str = "en", layer: str = PHI) -> Leftovers:
    """Features of the word-like tokens of ``doc`` that a span of ``layer`` covers (see module doc).

    >>> from notescrub.types import Document, Span
    >>> doc = Document("d", "Seen by Ruiz today.")
    >>> doc.add_layer("phi", [Span(8, 12, "DOCTOR")])
    >>> rows = tagged_features(doc, "en")
    >>> [doc.text[t.start:t.end] for t in rows.tokens], rows.tagged
    (['Ruiz'], 1)
    """
    return _token_features(doc, lang, layer, (True,))[0]


def both_sides(doc: Document, lang: str = "en", layer: str = PHI) -> tuple[Leftovers, Leftovers]:
    """``(leftover_features(...), tagged_features(...))`` in one pass over the tokens."""
    left, tagged = _token_features(doc, lang, layer, (False, True))
    return left, tagged


def _token_features(doc: Document, lang: str, layer: str, sides: tuple[bool, ...],
                    spans: Sequence[Span] | None = None) -> list[Leftovers]:
    """The rows of the word-like tokens on each of ``sides`` of ``layer`` (False: untagged, True: tagged)."""
    from notescrub.lexicons import zipf

    view = token_view(doc)
    toks = view.tokens
    covered = _covered(doc, toks, doc.layer(layer) if spans is None else spans)
    posts = [p for p in (token_posteriors.recall(doc, n) for n in token_posteriors.names(doc))
             if p is not None and len(p.p_phi) == len(toks)]
    names, common, zlang = _names(lang)
    wordlike = [any(c.isalnum() for c in t.text) for t in toks]
    tagged_count: dict[str, int] = {}
    for i, t in enumerate(toks):
        if covered[i] and wordlike[i]:
            low = t.text.lower()
            tagged_count[low] = tagged_count.get(low, 0) + 1
    rows: dict[bool, list[list[float]]] = {side: [] for side in sides}
    kept: dict[bool, list[Token]] = {side: [] for side in sides}
    types: dict[bool, list[str | None]] = {side: [] for side in sides}
    tagged = 0
    for i, t in enumerate(toks):
        word = t.text
        if not wordlike[i]:
            continue
        tagged_side = bool(covered[i])
        tagged += tagged_side
        if tagged_side not in rows:
            continue
        p, typ, feeder = 0.0, None, False
        for post in posts:
            if post.p_phi[i] >= p:
                p, typ = float(post.p_phi[i]), post.types[int(post.best[i])] if post.types else None
            feeder = feeder or bool(post.feeder is not None and post.feeder[i])
        p = min(max(p, 1e-6), 1.0 - 1e-6)
        near = (i > 0 and covered[i - 1]) or (i + 1 < len(toks) and covered[i + 1])
        low = word.lower()
        letters = [c for c in word if c.isalpha()]
        # the same word tagged elsewhere: for an untagged token any tagged occurrence, for a
        # tagged one another tagged occurrence than itself
        same = tagged_count.get(low, 0) > (1 if tagged_side else 0)
        rows[tagged_side].append([
            max(-_CLIP, min(_CLIP, float(np.log(p / (1.0 - p))))) if posts else 0.0,
            1.0 if posts else 0.0,
            float(feeder),
            float(near),
            float(same),
            float(word[0].isupper()),
            float(len(letters) > 1 and all(c.isupper() for c in letters)),
            float(any(c.isdigit() for c in word)),
            float(low in names),
            (8.0 - min(8.0, zipf(low, zlang))) / 8.0,
            float(low in common),
        ])
        kept[tagged_side].append(t)
        types[tagged_side].append(typ)
    return [Leftovers(kept[s], np.array(rows[s], dtype=float).reshape(len(rows[s]), len(FEATURES)), types[s], tagged)
            for s in sides]
