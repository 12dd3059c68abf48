"""The operator contract: one small class per way of replacing a PHI span.

An :class:`Operator` turns the covered text of one span into its replacement,
given a :class:`Context` (the document, the span, its type, the patient scope, the
secret key and a per-run :class:`ReplaceState` for consistency caches). Operators
never search the text for PHI: detection is done before, by detectors.

>>> class Upper(Operator):
...     name = "upper"
...     def replacement(self, ctx):
...         return ctx.text.upper()
>>> doc = Document("d", "seen by ruiz")
>>> ctx = Context(doc, Span(8, 12, "DOCTOR"), "ruiz", "DOCTOR", "d", None, ReplaceState())
>>> Upper().replacement(ctx)
'RUIZ'
>>> ctx.left(5)
'n by '
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from notescrub.replace.keys import SurrogateKey
from notescrub.types import Document, Span

__all__ = ["Context", "Operator", "ReplaceState"]


#: memo tables that hold evidence read from the current document only
DOCUMENT_SCOPED = ("name-pairs", "name-words", "acronyms", "addresses")


@dataclass
class ReplaceState:
    """Mutable state shared by the operators of one :class:`~notescrub.replace.engine.Replacer`.

    ``caches`` holds per-operator memo tables (keyed by patient), so repeated values
    within a run are decided once; ``report`` counts events (fallbacks, unknown types)
    without storing any PHI. Memo tables only remember decisions that are a pure
    function of (key, patient, value, role); evidence gathered from a document (which
    given name goes with a surname, which full name an acronym abbreviates) lives in the
    tables named in :data:`DOCUMENT_SCOPED`, emptied before each document, so that no
    surrogate depends on which documents were processed before it.
    """

    caches: dict[str, dict[Any, Any]] = field(default_factory=dict)
    report: Counter = field(default_factory=Counter)

    def cache(self, name: str) -> dict[Any, Any]:
        """The memo table called ``name`` (created empty)."""
        return self.caches.setdefault(name, {})

    def new_document(self) -> None:
        """Forget the evidence of the previous document (see :data:`DOCUMENT_SCOPED`)."""
        for name in DOCUMENT_SCOPED:
            self.caches.pop(name, None)

    def count(self, event: str, n: int = 1) -> None:
        self.report[event] += n


@dataclass
class Context:
    """Everything an operator may use to replace one span (or one fragment of it)."""

    doc: Document
    span: Span
    text: str
    type: str
    patient: str
    key: SurrogateKey | None
    state: ReplaceState
    start: int | None = None
    end: int | None = None
    locale: str = "en"
    date_order: str = "MDY"

    def __post_init__(self) -> None:
        if self.start is None:
            self.start = self.span.start
        if self.end is None:
            self.end = self.span.end

    def left(self, n: int = 60) -> str:
        """Up to ``n`` characters of the document before the span."""
        assert self.start is not None
        return self.doc.text[max(0, self.start - n) : self.start]

    def right(self, n: int = 60) -> str:
        """Up to ``n`` characters of the document after the span."""
        assert self.end is not None
        return self.doc.text[self.end : self.end + n]


class Operator(ABC):
    """Base class of replacement operators.

    Subclasses set :attr:`name` and implement :meth:`replacement`. Operators that
    derive choices from the secret key set :attr:`needs_key`; operators that want
    to look at all of a document's spans first (names, years, acronyms) override
    :meth:`prepare`.
    """

    name: str = "operator"
    needs_key: bool = False

    @abstractmethod
    def replacement(self, ctx: Context) -> str:
        """The text replacing ``ctx.text``."""

    def prepare(self, doc: Document, items: Sequence[tuple[Span, str]], state: ReplaceState, patient: str,  # noqa: B027 - optional hook
                key: SurrogateKey | None) -> None:
        """Look at the document's spans handled by this operator before replacing (optional)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
