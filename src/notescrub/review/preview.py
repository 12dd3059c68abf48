"""The surrogate preview of a note under review, and the documents an export writes.

The preview is what ``notescrub deid`` would release for the note's current spans:
the project's :class:`~notescrub.replace.engine.Replacer` in surrogate mode with the
review's own key (made when the review database is created and kept in it, so the
preview of a note is stable while it is reviewed; a release uses the site's key).

>>> from notescrub.replace.keys import SurrogateKey
>>> note = {"id": "n1", "patient": "P1", "text": "Seen by Ruiz.", "spans": [
...     {"sid": 1, "start": 8, "end": 12, "type": "DOCTOR", "state": "accepted"}]}
>>> doc = review_document(note)
>>> [(doc.span_text(s), s.label) for s in doc.layer("gold")]
[('Ruiz', 'DOCTOR')]
>>> out = preview(note, SurrogateKey(bytes(32)))
>>> out["text"] != note["text"], [s["type"] for s in out["spans"]]
(True, ['DOCTOR'])
"""

from __future__ import annotations

from typing import Any

from notescrub.replace.engine import Replacer
from notescrub.replace.keys import SurrogateKey
from notescrub.review.edits import live_spans
from notescrub.types import GOLD, Document, Span

__all__ = ["preview", "review_document"]


def review_document(note: dict[str, Any]) -> Document:
    """The note as a :class:`Document` whose ``gold`` layer holds its spans not rejected."""
    spans = [Span(s["start"], s["end"], s["type"], source="review") for s in live_spans(note["spans"])]
    return Document(note["id"], note["text"], patient_id=note.get("patient"), layers={GOLD: spans})


def preview(note: dict[str, Any], key: SurrogateKey) -> dict[str, Any]:
    """``{"text", "spans": [{"start", "end", "type", "sid"}]}``: the de-identified note and where each surrogate is."""
    doc = review_document(note)
    result = Replacer("surrogate", key=key, layer=GOLD, resolve="longest").replace(doc)
    live = live_spans(note["spans"])
    sid_of = {(s["start"], s["end"]): s["sid"] for s in live}
    out = []
    for orig, new in zip(result.original, result.spans):
        out.append({"start": new.start, "end": new.end, "type": new.label, "sid": sid_of.get((orig.start, orig.end))})
    return {"text": result.text, "spans": out}
