"""spaCy component ``notescrub``: PHI spans in ``doc.spans["phi"]`` (and optionally ``doc.ents``).

Registered through the ``spacy_factories`` entry point, so after ``pip install
notescrub[syntax]`` any pipeline can add it by name, blank or trained:

>>> import spacy
>>> nlp = spacy.blank("en")
>>> _ = nlp.add_pipe("notescrub", config={"model": "rules-en"})
>>> doc = nlp("Seen by Dr. Ruiz on 3/18/2024.")
>>> [(s.text, s.label_, s._.phi_score) for s in doc.spans["phi"]]
[('Ruiz', 'DOCTOR', 0.95), ('3/18/2024', 'DATE', 0.97)]

Labels are canonical PHI types (``span.phi``; the native label when there is none).
Offsets are notescrub's character offsets: a span that does not fall on spaCy token
boundaries is widened to whole tokens (never narrowed, so no PHI is dropped), and
``span._.phi_start`` / ``span._.phi_end`` keep notescrub's exact offsets.
``doc.spans[key].attrs["scores"]`` holds the scores in span order, as spancat does.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import minibatch

from notescrub.types import Document

__all__ = ["NotescrubComponent", "make_notescrub"]

for _name in ("phi_score", "phi_start", "phi_end", "phi_source"):
    if not Span.has_extension(_name):
        Span.set_extension(_name, default=None)


class NotescrubComponent:
    """The pipeline component (see the module docstring); ``nlp.pipe`` runs notescrub in batches."""

    def __init__(self, nlp: Language, name: str, model: str, preset: str | None, spans_key: str,
                 set_ents: bool, types: list[str] | None) -> None:
        from notescrub.api import get_pipeline
        from notescrub.replace.engine import parse_types

        self.name = name
        self.spans_key = spans_key
        self.set_ents = set_ents
        self.types = parse_types(types)
        self.pipeline = get_pipeline(model, preset)

    def _keep(self, label: str, phi: str | None) -> bool:
        return self.types is None or label in self.types or (phi or "") in self.types

    def _write(self, doc: Doc, found: Document) -> Doc:
        spans, scores = [], []
        for s in found.layer(getattr(self.pipeline, "output_layer", "phi")):
            if not self._keep(s.label, s.phi):
                continue
            span = doc.char_span(s.start, s.end, label=s.phi or s.label, alignment_mode="expand")
            if span is None:  # only whitespace: nothing a token could carry
                continue
            span._.phi_score, span._.phi_start, span._.phi_end, span._.phi_source = (
                float(s.score), s.start, s.end, s.source)
            spans.append(span)
            scores.append(float(s.score))
        doc.spans[self.spans_key] = spans
        doc.spans[self.spans_key].attrs["scores"] = scores
        if self.set_ents:
            from spacy.util import filter_spans

            phi = filter_spans(spans)
            others = [e for e in doc.ents if not any(e.start < p.end and p.start < e.end for p in phi)]
            doc.ents = sorted(phi + others, key=lambda e: e.start)
        return doc

    def _document(self, doc: Doc, n: int) -> Document:
        patient = doc.user_data.get("patient_id") if doc.user_data else None
        return Document(str(n), doc.text, patient_id=patient)

    def __call__(self, doc: Doc) -> Doc:
        return self._write(doc, self.pipeline(self._document(doc, 0)))

    def pipe(self, stream: Iterable[Doc], batch_size: int = 128) -> Iterator[Doc]:
        for batch in minibatch(stream, size=batch_size):
            docs = list(batch)
            found = {int(d.id): d for d in self.pipeline.pipe(self._document(doc, i) for i, doc in enumerate(docs))}
            for i, doc in enumerate(docs):
                yield self._write(doc, found[i])


@Language.factory(
    "notescrub",
    default_config={"model": "en-default", "preset": None, "spans_key": "phi", "set_ents": False, "types": None},
)
def make_notescrub(nlp: Language, name: str, model: str, preset: str | None, spans_key: str, set_ents: bool,
                   types: list[str] | None) -> NotescrubComponent:
    """spaCy factory: ``nlp.add_pipe("notescrub", config={"model": ..., "preset": ...})``."""
    return NotescrubComponent(nlp, name, model, preset, spans_key, set_ents, types)
