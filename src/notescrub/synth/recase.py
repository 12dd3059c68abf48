"""Lower-case and ALL-CAPS copies of annotated notes, for training taggers that must not rely on case.

Real notes are often typed in one case: nursing shorthand in lower case (``pt seen w/ dtr
maria``), headers and old systems in capitals (``PT: JOHN SMITH``). A tagger trained only on
well-cased text learns that a name starts with a capital. :func:`recased` writes the same
note in one case with every annotation layer kept: the case change is done character by
character and a character whose case mapping would change the length (``ß`` -> ``SS``) is
left alone, so all offsets stay valid.

>>> from notescrub.types import Document, Span
>>> d = Document("n1", "Seen by Dr. Ana Ruiz.", layers={"gold": [Span(12, 20, "DOCTOR")]})
>>> low = recased(d, "lower")
>>> low.text, low.span_text(low.layer("gold")[0]), low.id
('seen by dr. ana ruiz.', 'ana ruiz', 'n1~lower')
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from notescrub.errors import ConfigError
from notescrub.types import Document

__all__ = ["CASES", "recase_text", "recased", "recased_corpus"]

#: the case styles accepted by :func:`recased`
CASES: tuple[str, ...] = ("lower", "upper")


def _check_case(case: str) -> None:
    if case not in CASES:
        raise ConfigError(f"unknown case {case!r}; known: {', '.join(CASES)}")


def recase_text(text: str, case: str) -> str:
    """``text`` in ``case`` with the same length (length-changing mappings are skipped).

    >>> recase_text("Straße İzmir", "upper")
    'STRAßE İZMIR'
    """
    _check_case(case)
    whole = text.lower() if case == "lower" else text.upper()
    if len(whole) == len(text):
        return whole
    conv = str.lower if case == "lower" else str.upper
    return "".join(m if len(m := conv(c)) == 1 else c for c in text)


def recased(doc: Document, case: str) -> Document:
    """A copy of ``doc`` with its text in ``case`` and the same layers; id gets ``~case``."""
    meta = {**doc.metadata, "recased": case}
    return Document(f"{doc.id}~{case}", recase_text(doc.text, case), doc.patient_id, meta,
                    {k: list(v) for k, v in doc.layers.items()})


def recased_corpus(docs: Iterable[Document], case: str, share: float = 1.0, seed: int = 0) -> Iterator[Document]:
    """Recased copies of a random ``share`` of ``docs`` (deterministic for a ``seed``).

    >>> from notescrub.types import Document
    >>> docs = [Document(str(i), "Ana") for i in range(10)]
    >>> [d.text for d in recased_corpus(docs, "upper", share=0.3, seed=1)]
    ['ANA', 'ANA', 'ANA']
    """
    if not 0.0 <= share <= 1.0:
        raise ConfigError(f"share must be between 0 and 1, got {share}")
    _check_case(case)
    docs = list(docs)
    k = round(share * len(docs))
    chosen = set(random.Random(seed).sample(range(len(docs)), k))
    for i, d in enumerate(docs):
        if i in chosen:
            yield recased(d, case)
