"""Export a review: the reviewed annotations as a gold corpus, and their de-identified release.

Only notes marked reviewed are exported. Their spans not rejected become the ``gold``
layer (type = i2b2-2014 subtype, no score), written atomically by the project's
writers (:func:`notescrub.io.write_corpus`). The release applies the normal release
policy (:class:`~notescrub.replace.release.ReleasePolicy`: id, new text, replaced
spans, keyed patient pseudonyms; nothing else unless allow-listed) and fails closed:
if one note cannot be de-identified nothing is written.

>>> import tempfile, pathlib
>>> from notescrub.review.store import NoteInput, ReviewStore
>>> tmp = pathlib.Path(tempfile.mkdtemp())
>>> store = ReviewStore(tmp / "r.sqlite")
>>> _ = store.import_notes([NoteInput("n1", "Seen by Ruiz.", None, {"spans": [
...     {"start": 8, "end": 12, "type": "DOCTOR", "score": 0.9}]})], corpus="c", model="m")
>>> _ = store.edit(1, 0, "alice", "reviewed", {})
>>> export_annotations(store, tmp / "gold.jsonl", "jsonl")
1
>>> (tmp / "gold.jsonl").read_text().count('"type": "DOCTOR"')
1
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from notescrub.errors import ConfigError
from notescrub.io import write_corpus
from notescrub.replace.batch import deidentify
from notescrub.replace.engine import Replacer
from notescrub.replace.keys import SurrogateKey
from notescrub.replace.release import ReleasePolicy
from notescrub.review.preview import review_document
from notescrub.review.store import ReviewStore
from notescrub.types import GOLD, Document

__all__ = ["EXPORT_FORMATS", "export_annotations", "export_deid", "reviewed_documents"]

#: ``--format`` names -> the project's writer formats
EXPORT_FORMATS = {"jsonl": "jsonl", "brat": "brat", "i2b2": "i2b2-xml"}


def _format(fmt: str) -> str:
    try:
        return EXPORT_FORMATS[fmt]
    except KeyError:
        raise ConfigError(f"unknown export format {fmt!r}; choose {', '.join(EXPORT_FORMATS)}") from None


def reviewed_documents(store: ReviewStore) -> list[Document]:
    """The notes marked reviewed, in corpus order, with their reviewed spans in ``gold``."""
    return [review_document(n) for n in store.notes(status="reviewed")]


def _nonempty(docs: list[Document], what: str) -> list[Document]:
    if not docs:
        raise ConfigError(f"no note has been marked reviewed yet: nothing to {what}")
    return docs


def export_annotations(store: ReviewStore, out: str | Path, fmt: str = "jsonl", *, overwrite: bool = False) -> int:
    """Write the reviewed notes with their spans as ``fmt`` (jsonl, brat, i2b2); return the count."""
    docs = _nonempty(reviewed_documents(store), "export")
    return write_corpus(docs, out, _format(fmt), overwrite=overwrite)


def export_deid(store: ReviewStore, out: str | Path, fmt: str, key: SurrogateKey | None, *, mode: str = "surrogate",
                keep_fields: Iterable[str] = (), overwrite: bool = False) -> int:
    """Write the de-identified release of the reviewed notes (their reviewed spans replaced); return the count."""
    docs = _nonempty(reviewed_documents(store), "release")
    replacer = Replacer(mode, key=key, layer=GOLD)
    result = deidentify(docs, replacer, spans_from_input=True, input_layer=GOLD,
                        release=ReleasePolicy(keep_fields, key))
    return write_corpus(result.documents, out, _format(fmt), overwrite=overwrite)
