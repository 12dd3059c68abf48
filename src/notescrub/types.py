"""The one data model of notescrub: spans over a document's text, in named layers.

Character offsets into :attr:`Document.text` are the single truth. Tokens, lines,
sentences and sections are derived views (see :mod:`notescrub.text`); every other
module (readers, detectors, resolvers, replacers, writers, scorers) exchanges
:class:`Span` objects and :class:`Document` objects only.

Example
-------
>>> doc = Document(id="n1", text="Seen by Dr. Ruiz on 3/18.", patient_id="P1")
>>> doc.add_layer("gold", [Span(12, 16, "DOCTOR"), Span(20, 24, "DATE")])
>>> [doc.span_text(s) for s in doc.layer("gold")]
['Ruiz', '3/18']
>>> doc.layer("gold")[0].phi
'DOCTOR'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from notescrub.docref import doc_ref
from notescrub.errors import OffsetError

__all__ = ["GOLD", "PHI", "Document", "Span"]

#: Conventional layer names.
GOLD = "gold"
PHI = "phi"
#: label -> canonical subtype (the label tables are packaged data: fixed for a process)
_PHI_OF_LABEL: dict[str, str | None] = {}


@dataclass(frozen=True, slots=True)
class Span:
    """An immutable labelled character range ``[start, end)`` of a document's text.

    Parameters
    ----------
    start, end:
        0-based character offsets, ``end`` exclusive.
    label:
        The *native* label as the corpus or model wrote it (``"DOCTOR"``,
        ``"NOMBRE_SUJETO_ASISTENCIA"``, ``"HCPName"``). The canonical i2b2-2014
        subtype is :attr:`phi`.
    score:
        Confidence in ``[0, 1]``; 1.0 for gold and deterministic rules.
    source:
        Name of the component that produced the span (``"gold"``, ``"rules"``,
        ``"crf"``...), kept through merging for explanations.
    fragments:
        For discontinuous spans (brat ``0 5;9 12``): the pieces, each ``(start, end)``.
        ``start``/``end`` then cover the whole extent. Empty for ordinary spans.
    meta:
        Free-form extra attributes (ids, the XML element name, comments). Not part
        of equality or hashing.

    >>> Span(0, 4, "PATIENT").length
    4
    >>> Span(0, 4, "NOMBRE_PERSONAL_SANITARIO").phi
    'DOCTOR'
    """

    start: int
    end: int
    label: str
    score: float = 1.0
    source: str = ""
    fragments: tuple[tuple[int, int], ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.start, int) or not isinstance(self.end, int):
            raise OffsetError(f"span offsets must be integers, got {self.start!r}, {self.end!r}")
        if self.start < 0 or self.end < self.start:
            raise OffsetError(f"invalid span offsets [{self.start}, {self.end})")
        if not self.label:
            raise OffsetError("span label must be a non-empty string")

    @property
    def length(self) -> int:
        """Number of characters covered."""
        return self.end - self.start

    @property
    def phi(self) -> str | None:
        """Canonical i2b2-2014 subtype of :attr:`label`, or ``None`` when it has none."""
        try:
            return _PHI_OF_LABEL[self.label]
        except KeyError:
            from notescrub.taxonomy import canonical

            got = _PHI_OF_LABEL[self.label] = canonical(self.label)
            return got

    @property
    def category(self) -> str | None:
        """Canonical i2b2-2014 category (``NAME``, ``DATE``...) or ``None``."""
        from notescrub.taxonomy import category_of

        sub = self.phi
        return category_of(sub) if sub else None

    @property
    def pieces(self) -> tuple[tuple[int, int], ...]:
        """The character ranges actually covered (one unless discontinuous)."""
        return self.fragments or ((self.start, self.end),)

    def overlaps(self, other: Span) -> bool:
        """True when the two extents share at least one character."""
        return self.start < other.end and other.start < self.end

    def with_(self, **changes: Any) -> Span:
        """Return a copy with some fields changed (spans are immutable).

        >>> Span(0, 3, "DATE").with_(label="AGE").label
        'AGE'
        """
        return replace(self, **changes)

    def sort_key(self) -> tuple[int, int, str]:
        return (self.start, self.end, self.label)


class Document:
    """A text plus named annotation layers.

    ``text`` never changes after construction; layers hold competing annotations
    (``gold``, ``rules``, ``crf``...) that may overlap, and the final, non-overlapping
    result conventionally lives in the ``phi`` layer. Derived views (tokens,
    lines, sections) are computed on demand by :mod:`notescrub.text` and cached.

    >>> d = Document("a", "Mr. Diaz")
    >>> d.add_layer("rules", [Span(4, 8, "PATIENT", source="rules")])
    >>> d.layer_names
    ['rules']
    """

    __slots__ = ("_cache", "_text", "id", "layers", "metadata", "patient_id")

    def __init__(
        self,
        id: str,
        text: str,
        patient_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        layers: Mapping[str, Iterable[Span]] | None = None,
    ) -> None:
        if not isinstance(text, str):
            raise TypeError(f"document {id!r}: text must be str, got {type(text).__name__}")
        self.id = str(id)
        self._text = text
        self.patient_id = patient_id
        self.metadata: dict[str, Any] = dict(metadata or {})
        self.layers: dict[str, list[Span]] = {}
        self._cache: dict[str, Any] = {}
        for name, spans in (layers or {}).items():
            self.add_layer(name, spans)

    @property
    def text(self) -> str:
        return self._text

    @property
    def layer_names(self) -> list[str]:
        return list(self.layers)

    def layer(self, name: str) -> list[Span]:
        """Spans of a layer (empty list when the layer does not exist)."""
        return self.layers.get(name, [])

    def has_layer(self, name: str) -> bool:
        return name in self.layers

    def add_layer(self, name: str, spans: Iterable[Span], *, validate: bool = True) -> None:
        """Set layer ``name`` to ``spans`` (sorted), checking offsets against the text."""
        items = sorted(spans, key=Span.sort_key)
        if validate:
            n = len(self._text)
            for s in items:
                if not isinstance(s, Span):
                    raise TypeError(f"layer {name!r} of document {doc_ref(self.id)}: expected Span, got {type(s).__name__}")
                if s.end > n:
                    raise OffsetError(
                        f"{doc_ref(self.id)}, layer {name!r}: span [{s.start}, {s.end}) "
                        f"({s.label}) ends past the text length {n}"
                    )
        self.layers[name] = items

    def drop_layer(self, name: str) -> None:
        self.layers.pop(name, None)

    def span_text(self, span: Span) -> str:
        """The covered text (fragments joined with a space when discontinuous)."""
        if span.fragments:
            return " ".join(self._text[a:b] for a, b in span.fragments)
        return self._text[span.start : span.end]

    def iter_spans(self, name: str) -> Iterator[tuple[Span, str]]:
        for s in self.layer(name):
            yield s, self.span_text(s)

    def copy(self, *, layers: bool = True) -> Document:
        """Shallow copy sharing the (immutable) spans."""
        return Document(
            self.id,
            self._text,
            self.patient_id,
            dict(self.metadata),
            {k: list(v) for k, v in self.layers.items()} if layers else None,
        )

    # -- derived-view cache used by notescrub.text ---------------------------------
    def cached(self, key: str, factory: Any) -> Any:
        """Return ``self._cache[key]``, computing it with ``factory(self)`` once."""
        try:
            return self._cache[key]
        except KeyError:
            value = factory(self)
            self._cache[key] = value
            return value

    def __repr__(self) -> str:  # never shows the text: it is PHI
        layers = ", ".join(f"{k}={len(v)}" for k, v in self.layers.items())
        return f"Document(id={self.id!r}, patient_id={self.patient_id!r}, chars={len(self._text)}, layers[{layers}])"
