"""Re-populated corpora (Uzuner et al. 2008, §5): every gold PHI replaced by a new surrogate.

Three styles rebuild an annotated corpus with the same non-PHI text and new PHI,
with the gold layer re-located onto the new text:

* ``random`` — realistic surrogates from dictionaries (names, places, shifted dates,
  same-shape numbers);
* ``ambiguous`` — person and place surrogates drawn from words that also occur as
  non-PHI in the corpus itself (eponyms and medical terms: "Mr. Huntington ...
  Huntington's disease"), so each injected word is ambiguous within the corpus;
* ``oov`` — person and place surrogates made of random letters ("O. Ymfgi"),
  absent from every dictionary.

Dates, ages and numbers are replaced as in ``random`` for all styles. The same
``seed`` gives the same corpus; surrogates stay consistent within a patient.

>>> doc = Document("n1", "Mr. Huntington was seen at Lakeshore Hospital.", "P1",
...                layers={"gold": [Span(4, 14, "PATIENT"), Span(27, 45, "HOSPITAL")]})
>>> out = next(repopulate_corpus([doc], style="oov", seed=3))
>>> [out.span_text(s) for s in out.layer("gold")] != ["Huntington", "Lakeshore Hospital"]
True
>>> out.text.startswith("Mr. ") and out.text.endswith(" Hospital.")
True
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator

from notescrub.errors import ConfigError
from notescrub.replace.engine import Replacer
from notescrub.replace.keys import SurrogateKey
from notescrub.replace.vocabulary import (
    AmbiguousVocabulary,
    Vocabulary,
    ambiguous_pool,
    get_vocabulary,
)
from notescrub.types import GOLD, Document, Span

__all__ = ["STYLES", "repopulate_corpus"]

log = logging.getLogger(__name__)

STYLES = ("random", "ambiguous", "oov")
_WORD = re.compile(r"[^\W\d_]+")
_MIN_CORPUS_WORDS = 20


def _non_phi_words(docs: list[Document], layer: str, pool: frozenset[str]) -> set[str]:
    """Ambiguous-pool words that occur outside every PHI span of the corpus."""
    found: set[str] = set()
    for doc in docs:
        text = doc.text
        for s in doc.layer(layer):
            text = text[: s.start] + " " * s.length + text[s.end:]
        found.update(w for w in (m.group().lower() for m in _WORD.finditer(text)) if w in pool)
    return found


def _vocabulary(style: str, docs: list[Document], layer: str, locale: str) -> Vocabulary:
    if style != "ambiguous":
        return get_vocabulary(style, locale)
    in_corpus = _non_phi_words(docs, layer, ambiguous_pool(locale))
    if len(in_corpus) >= _MIN_CORPUS_WORDS:
        log.info("ambiguous style: %d pool words occur as non-PHI in the corpus", len(in_corpus))
        return AmbiguousVocabulary(locale, sorted(in_corpus))
    log.info("ambiguous style: corpus too small (%d pool words as non-PHI); using the whole pool", len(in_corpus))
    return AmbiguousVocabulary(locale)


def repopulate_corpus(
    docs: Iterable[Document],
    style: str = "random",
    *,
    seed: int | str = 0,
    layer: str = GOLD,
    locale: str = "en",
    shift_range: tuple[int, int] = (-365, -30),
) -> Iterator[Document]:
    """Yield new documents whose gold PHI (``layer``) are replaced by surrogates of ``style``.

    Each output document has the new text and only ``layer``, holding the original
    spans (labels, metadata) at their new offsets. Overlapping gold spans are refused
    (:class:`~notescrub.errors.OffsetError` naming the document).
    """
    if style not in STYLES:
        raise ConfigError(f"unknown re-population style {style!r}; known: {', '.join(STYLES)}")
    items = list(docs)
    replacer = Replacer(
        "surrogate",
        key=SurrogateKey.from_seed(f"repopulate:{style}:{seed}"),
        layer=layer,
        vocabulary=_vocabulary(style, items, layer, locale),
        locale=locale,
        shift_range=shift_range,
    )
    for doc in items:
        res = replacer.replace(doc, layer=layer)
        meta = dict(doc.metadata)
        meta["repopulated"] = {"style": style, "seed": seed}
        spans: list[Span] = res.spans + res.kept
        yield Document(doc.id, res.text, doc.patient_id, meta, {layer: spans})
