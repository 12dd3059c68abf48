"""Pipeline: ordered detectors -> one layer each -> a resolver -> the final ``phi`` layer.

>>> from notescrub.detect.base import Detector
>>> class Caps(Detector):
...     name = "caps"
...     def detect(self, doc):
...         return [Span(0, 4, "PATIENT", 0.9, self.name)] if doc.text.startswith("DIAZ") else []
>>> doc = Pipeline([Caps()])(Document("a", "DIAZ was seen"))
>>> doc.layer_names, [s.label for s in doc.layer("phi")]
(['caps', 'phi'], ['PATIENT'])
"""

from __future__ import annotations

import logging
import traceback
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from notescrub.detect.base import Detector, check_spans
from notescrub.detect.spans.resolve import Resolver, longest
from notescrub.docref import doc_ref
from notescrub.errors import NotescrubError, ProcessingError
from notescrub.types import PHI, Document, Span

__all__ = ["MAX_CHARS", "Pipeline"]

log = logging.getLogger(__name__)

_LANGUAGES = {"en": "English", "es": "Spanish"}

#: Documents longer than this (characters) are refused: a single note of tens of MB is
#: almost always a concatenated export that should be split into notes first.
MAX_CHARS = 20_000_000


def _where(exc: BaseException) -> str:
    """``file.py:line`` of the innermost frame of ``exc`` (never its message, which may quote the note)."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "unknown place"
    last = frames[-1]
    return f"{Path(last.filename).name}:{last.lineno}"


def _describe(exc: BaseException, stage: str) -> str:
    """What failed, for a message: notescrub's own errors by their reason (written never to quote
    note text), any other exception by type and place only (its text may quote the note)."""
    if isinstance(exc, NotescrubError):
        return f"{exc.reason} (in {stage})"
    return f"{type(exc).__name__} in {stage} ({_where(exc)})"


class Pipeline:
    """Run detectors in order, store each one's spans in its own layer, resolve into ``phi``.

    Parameters
    ----------
    detectors:
        Components with ``name`` and ``detect(doc) -> list[Span]``. A detector that sets
        ``patient_level = True`` receives all documents of one patient at once through
        ``detect_many`` (used by two-pass patient dictionaries).
    resolver:
        Policy turning the union of all layers into a non-overlapping set.
    output_layer:
        Name of the final layer (``"phi"``).
    keep_labels:
        If given, only spans whose native label or canonical subtype is in this set reach
        the output layer.
    max_chars:
        Documents longer than this are refused with a :class:`ProcessingError` naming the
        limit (fail closed: nothing of them is written).
    lang:
        Language the detectors were built for (``"en"``, ``"es"``). Documents that do not
        look like it (see :func:`notescrub.text.language.looks_like`) are processed but
        logged with a warning naming the document id.
    """

    def __init__(
        self,
        detectors: Sequence[Detector],
        resolver: Resolver = longest,
        output_layer: str = PHI,
        name: str = "pipeline",
        keep_labels: Iterable[str] | None = None,
        metadata: dict | None = None,
        max_chars: int = MAX_CHARS,
        lang: str | None = None,
    ) -> None:
        names = [d.name for d in detectors]
        if len(set(names)) != len(names):
            raise ValueError(f"pipeline detectors need distinct names, got {names}")
        self.detectors = list(detectors)
        self.resolver = resolver
        self.output_layer = output_layer
        self.name = name
        self.keep_labels = frozenset(keep_labels) if keep_labels is not None else None
        self.metadata = dict(metadata or {})
        self.max_chars = max_chars
        self.lang = lang if lang is not None else (self.metadata.get("lang") or self.metadata.get("language"))

    def _admit(self, doc: Document) -> None:
        n = len(doc.text)
        if n > self.max_chars:
            raise ProcessingError(
                f"{doc_ref(doc.id)} has {n:,} characters, over the limit of {self.max_chars:,}: "
                "split it into notes (or raise the limit, e.g. --max-chars)")
        if self.lang:
            from notescrub.text.language import looks_like

            if not looks_like(doc.text, self.lang):
                # one line per document for library users; the CLI turns these into one summary line
                name = _LANGUAGES.get(self.lang, self.lang)
                hint = "; for Spanish use --model es-meddocan" if self.lang != "es" else ""
                log.warning("%s does not look like %s (%s) text: this model may miss PHI in it%s",
                            doc_ref(doc.id), name, self.lang, hint,
                            extra={"summary": (f"document does not look like {name}: the model may miss PHI in it{hint}",
                                               f"documents do not look like {name}: the model may miss PHI in them{hint}")})

    @property
    def patient_level(self) -> bool:
        return any(getattr(d, "patient_level", False) for d in self.detectors)

    def _finish(self, doc: Document) -> Document:
        spans: list[Span] = []
        for d in self.detectors:
            spans.extend(doc.layer(d.name))
        if self.keep_labels is not None:
            spans = [s for s in spans if s.label in self.keep_labels or (s.phi or "") in self.keep_labels]
        resolver = self.resolver
        for_text = getattr(resolver, "for_text", None)  # Cover trims its remainders against the text
        if for_text is not None:
            resolver = for_text(doc.text)
        doc.add_layer(self.output_layer, resolver(spans))
        return doc

    def __call__(self, doc: Document) -> Document:
        """Annotate one document in place (adds layers) and return it."""
        self._admit(doc)
        stage = "resolver"
        try:
            for d in self.detectors:
                stage = f"detector {d.name!r}"
                spans, info = d.detect_with_info(doc)
                doc.add_layer(d.name, check_spans(spans, doc, d.name))
                if info:
                    doc.metadata[d.name] = info
            stage = "resolver"
            return self._finish(doc)
        except ProcessingError:
            raise
        except Exception as exc:  # fail closed: the caller must not write this document
            raise ProcessingError(f"{doc_ref(doc.id)} could not be processed: {_describe(exc, stage)}") from exc

    def run_group(self, docs: list[Document]) -> list[Document]:
        """Annotate a group of documents (typically one patient's) together."""
        for doc in docs:
            self._admit(doc)
        stage = "resolver"
        try:
            for d in self.detectors:
                stage = f"detector {d.name!r}"
                results = d.detect_many_with_info(docs)
                for doc, (spans, info) in zip(docs, results):
                    doc.add_layer(d.name, check_spans(spans, doc, d.name))
                    if info:
                        doc.metadata[d.name] = info
            stage = "resolver"
            return [self._finish(doc) for doc in docs]
        except ProcessingError:
            raise
        except Exception as exc:
            ids = ", ".join(doc_ref(d.id) for d in docs[:3]) + (", ..." if len(docs) > 3 else "")
            raise ProcessingError(f"documents {ids} could not be processed: {_describe(exc, stage)}") from exc

    def pipe(self, docs: Iterable[Document]) -> Iterator[Document]:
        """Annotate a stream. Patient-level pipelines group documents by ``patient_id``
        (documents without one are processed alone); others stream one at a time."""
        if not self.patient_level:
            for doc in docs:
                yield self(doc)
            return
        groups: dict[str, list[Document]] = defaultdict(list)
        order: list[str] = []
        for doc in docs:
            key = doc.patient_id if doc.patient_id is not None else f"\0{doc.id}"
            if key not in groups:
                order.append(key)
            groups[key].append(doc)
        for key in order:
            yield from self.run_group(groups.pop(key))

    def __repr__(self) -> str:
        return f"Pipeline(name={self.name!r}, detectors={[d.name for d in self.detectors]})"
