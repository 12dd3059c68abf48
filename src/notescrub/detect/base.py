"""The detector contract: ``detect(document) -> list[Span]``, pure, no side effects.

A detector never writes into the document; the :class:`~notescrub.pipeline.Pipeline`
stores what it returns in a layer named after it and checks the types. A detector that
has something to say about the whole document (a CRF's record log-probability) returns it
from :meth:`Detector.detect_with_info` as a small dict, which the pipeline stores in
``doc.metadata[detector name]``.
Trainable detectors additionally follow scikit-learn's estimator contract
(``__init__`` only stores parameters, ``fit(docs) -> self``, learned state ends in ``_``).

>>> class Digits(Detector):
...     name = "digits"
...     def detect(self, doc):
...         return [Span(i, i + 1, "IDNUM", source=self.name) for i, c in enumerate(doc.text) if c.isdigit()]
>>> Digits().detect(Document("x", "a1"))
[Span(start=1, end=2, label='IDNUM', score=1.0, source='digits', fragments=(), meta={})]
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Any, Protocol, runtime_checkable

from notescrub.docref import doc_ref
from notescrub.types import Document, Span

__all__ = ["Detector", "Trainable", "check_spans", "inner_detector"]


class Detector(ABC):
    """Base class of every detector. Subclasses set :attr:`name` and implement :meth:`detect`."""

    name: str = "detector"
    #: False for detectors that work on other detectors' finished output (the two-pass
    #: dictionary, the leftover net): a model's post-processing rules are not applied to them
    #: unless a ``postprocess`` component names them in its ``targets``
    takes_post: bool = True

    @abstractmethod
    def detect(self, doc: Document) -> list[Span]:
        """Return the spans found in ``doc`` (offsets into ``doc.text``)."""

    def detect_many(self, docs: Iterable[Document]) -> list[list[Span]]:
        """Detect over several documents (override for batch or cross-document logic)."""
        return [self.detect(d) for d in docs]

    def detect_with_info(self, doc: Document) -> tuple[list[Span], dict[str, Any]]:
        """The spans of ``doc`` and a dict about the document (empty unless overridden).

        Override it, not :meth:`detect`, when the detector computes document-level
        figures; :meth:`detect` then returns its spans only.
        """
        return self.detect(doc), {}

    def detect_many_with_info(self, docs: Iterable[Document]) -> list[tuple[list[Span], dict[str, Any]]]:
        """:meth:`detect_many` with each document's info (empty for cross-document detectors)."""
        docs = list(docs)
        if type(self).detect_many is not Detector.detect_many:  # batch or cross-document logic
            return [(spans, {}) for spans in self.detect_many(docs)]
        return [self.detect_with_info(d) for d in docs]


@runtime_checkable
class Trainable(Protocol):
    """A detector that learns from documents carrying a gold layer."""

    def fit(self, docs: list[Document], layer: str = "gold") -> Trainable: ...


def inner_detector(det: Any) -> Any:
    """The detector a wrapper holds (a hybrid model's component keeps it in ``inner``), or ``det``.

    >>> class Wrapper:
    ...     inner = "the CRF"
    >>> inner_detector(Wrapper()), inner_detector("plain")
    ('the CRF', 'plain')
    """
    return getattr(det, "inner", det)


def check_spans(spans: object, doc: Document, who: str) -> list[Span]:
    """Validate a detector's return value: a list of in-range :class:`Span`."""
    if not isinstance(spans, list):
        raise TypeError(f"detector {who!r} returned {type(spans).__name__}, expected list[Span]")
    n = len(doc.text)
    for s in spans:
        if not isinstance(s, Span):
            raise TypeError(f"detector {who!r} returned a {type(s).__name__} in its list, expected Span")
        if s.end > n:
            raise ValueError(f"detector {who!r}: span [{s.start}, {s.end}) past the end of document {doc_ref(doc.id)}")
    return spans
