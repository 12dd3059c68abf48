"""Corpus statistics: documents, patients, tokens and PHI spans by type.

>>> from notescrub.types import Document, Span
>>> docs = [Document("1", "Seen by Ruiz on 3/18.", "P1", layers={"gold": [Span(8, 12, "DOCTOR"), Span(16, 20, "FECHAS")]})]
>>> s = corpus_stats(docs)
>>> s.documents, s.patients, s.tokens, s.spans, s.by_native, s.by_canonical
(1, 1, 8, 2, {'DOCTOR': 1, 'FECHAS': 1}, {'DATE': 1, 'DOCTOR': 1})
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from notescrub.text.tokenize import tokenize
from notescrub.types import Document

__all__ = ["CorpusStats", "corpus_stats"]

NO_CANONICAL = "(none)"


@dataclass
class CorpusStats:
    """Counts over a corpus (one layer of spans); ``without_patient`` documents have no patient id."""

    layer: str = "gold"
    documents: int = 0
    patients: int = 0
    without_patient: int = 0
    characters: int = 0
    tokens: int = 0
    spans: int = 0
    discontinuous: int = 0
    by_native: dict[str, int] = field(default_factory=dict)
    by_canonical: dict[str, int] = field(default_factory=dict)
    by_category: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def corpus_stats(docs: Iterable[Document], *, layer: str = "gold") -> CorpusStats:
    """Count documents, distinct patient ids, tokens (clinical tokenizer) and spans of ``layer``."""
    st = CorpusStats(layer=layer)
    patients: set[str] = set()
    native: Counter[str] = Counter()
    canon: Counter[str] = Counter()
    cats: Counter[str] = Counter()
    for doc in docs:
        st.documents += 1
        st.characters += len(doc.text)
        st.tokens += len(tokenize(doc.text))
        if doc.patient_id is not None:
            patients.add(doc.patient_id)
        else:
            st.without_patient += 1
        for s in doc.layer(layer):
            st.spans += 1
            st.discontinuous += bool(s.fragments)
            native[s.label] += 1
            canon[s.phi or NO_CANONICAL] += 1
            cats[s.category or NO_CANONICAL] += 1
    st.patients = len(patients)
    st.by_native = dict(sorted(native.items(), key=lambda kv: (-kv[1], kv[0])))
    st.by_canonical = dict(sorted(canon.items(), key=lambda kv: (-kv[1], kv[0])))
    st.by_category = dict(sorted(cats.items(), key=lambda kv: (-kv[1], kv[0])))
    return st
