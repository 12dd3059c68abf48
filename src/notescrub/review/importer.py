"""Fill a review database once: read the corpus, pre-annotate it with the model, store it.

:func:`prepare_review` imports the corpus the first time and does nothing on the
next runs with the same database (the review resumes where it stopped); the import
is one transaction, so an interrupted import leaves an empty database behind. It
also makes the review's preview key (:mod:`notescrub.review.preview`) once.

>>> import tempfile, pathlib
>>> from notescrub.assemble import build
>>> tmp = pathlib.Path(tempfile.mkdtemp())
>>> _ = (tmp / "notes.jsonl").write_text('{"id": "n1", "text": "Call 555-123-4567 today."}\\n')
>>> store = ReviewStore(tmp / "review.sqlite")
>>> prepare_review(store, tmp / "notes.jsonl", None, lambda: build("rules-en", None), "rules-en")
1
>>> prepare_review(store, tmp / "notes.jsonl", None, lambda: build("rules-en", None), "rules-en")
0
>>> [s["type"] for s in store.note(1)["spans"]]
['PHONE']
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from notescrub.errors import ConfigError
from notescrub.io import detect_format, read_corpus
from notescrub.replace.keys import SurrogateKey
from notescrub.review.queue import annotation_record
from notescrub.review.store import NoteInput, ReviewStore
from notescrub.types import Document

__all__ = ["annotate_notes", "prepare_review", "preview_key"]

_KEY = "preview_key"


def annotate_notes(docs: Iterable[Document], pipeline: Any) -> Iterator[NoteInput]:
    """Run ``pipeline`` over ``docs`` (a patient's notes together when it works per patient)."""
    layer = getattr(pipeline, "output_layer", "phi")
    for doc in pipeline.pipe(d.copy(layers=False) for d in docs):
        yield NoteInput(doc.id, doc.text, doc.patient_id, annotation_record(doc, doc.layer(layer), pipeline))


def preview_key(store: ReviewStore) -> SurrogateKey:
    """The review's own surrogate key for previews (made on first use, kept in the database)."""
    value = store.get_meta(_KEY)
    if value is None:
        value = secrets.token_bytes(32).hex()
        store.set_meta(_KEY, value)
    return SurrogateKey(bytes.fromhex(value))


def prepare_review(store: ReviewStore, corpus: str | Path | None, fmt: str | None,
                   load_pipeline: Callable[[], Any], model: str, **columns: Any) -> int:
    """Import ``corpus`` into ``store`` unless it already holds it; return the number of notes imported.

    A database made from another corpus is refused (:class:`ConfigError`); without
    ``corpus`` the database must already hold one.
    """
    preview_key(store)
    held = store.get_meta("corpus")
    if store.count():
        if corpus is not None and held is not None and str(Path(corpus).resolve()) != held:
            raise ConfigError(f"this review database holds another corpus ({held}); "
                              "use another --db for this corpus", path=store.path)
        return 0
    if corpus is None:
        raise ConfigError("the review database is empty: give the CORPUS to review", path=store.path)
    fmt = fmt or detect_format(corpus)
    docs = list(read_corpus(corpus, fmt, **columns))
    if not docs:
        raise ConfigError("the corpus holds no notes", path=corpus)
    pipeline = load_pipeline()
    return store.import_notes(annotate_notes(docs, pipeline), corpus=str(Path(corpus).resolve()), model=model)
