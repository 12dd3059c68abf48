"""Generate a synthetic corpus of annotated English clinical notes.

:func:`generate_corpus` yields :class:`~notescrub.types.Document` objects with exact gold PHI
spans (layer ``"gold"``, i2b2-2014 subtypes as labels), ``patient_id`` set and ids like
``SYN0001-2``. Each patient gets their own random stream derived from ``(seed, patient
index)``, so output is deterministic for a seed and any prefix of patients is the same
whatever ``n_patients`` is.

>>> docs = list(generate_corpus(2, 2, seed=7))
>>> [d.id for d in docs]
['SYN0001-1', 'SYN0001-2', 'SYN0002-1', 'SYN0002-2']
>>> d = docs[0]
>>> all(d.text[s.start:s.end].strip() for s in d.layer("gold"))
True
>>> [x.text for x in generate_corpus(1, 1, seed=7)] == [docs[0].text]
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

from notescrub.errors import ConfigError
from notescrub.synth.builder import NoteBuilder
from notescrub.synth.fill import NoteContext
from notescrub.synth.notes import NOTE_TYPES
from notescrub.synth.world import PatientWorld
from notescrub.types import GOLD, Document, Span

__all__ = ["ComposedNote", "compose_note", "generate_corpus", "generate_note", "generate_notes"]

NotesPerPatient = int | tuple[int, int]


def _rng(seed: int, *parts: object) -> random.Random:
    return random.Random(":".join(str(p) for p in (seed, *parts)))


@dataclass(frozen=True)
class ComposedNote:
    """A generated note before it becomes a Document: text, gold spans and each span's intended value."""

    text: str
    spans: list[Span]
    values: list[str]
    note_type: str
    wrap: int | None


def compose_note(world: PatientWorld, note_type: str, rng: random.Random, *, note_date: date | None = None) -> ComposedNote:
    """Write one note of ``note_type`` for ``world``."""
    try:
        composer, _, style = NOTE_TYPES[note_type]
    except KeyError:
        raise ConfigError(f"unknown note type {note_type!r}; known: {', '.join(sorted(NOTE_TYPES))}") from None
    noisy = rng.random() < 0.5
    builder = NoteBuilder(
        rng,
        lower=style == "lower" or rng.random() < 0.02,
        upper=style == "caps" and rng.random() < 0.25,
        double_space=rng.choice((0.0, 0.0, 0.01, 0.03)) if noisy else 0.0,
        typo_rate=rng.choice((0.0, 0.005, 0.01, 0.02)) if noisy else 0.0,
    )
    ctx = NoteContext(world, rng, builder, note_date=note_date, fuse_rate=rng.choice((0.0, 0.01, 0.03, 0.06)))
    composer(ctx)
    if rng.random() < 0.35:
        if not builder.ends_with_newline():
            builder.nl()
        ctx.picks("footer", rng.choice((1, 1, 2, 3)), sep="\n")
        builder.nl()
    wrap = None
    if (style == "wrap" and rng.random() < 0.45) or rng.random() < 0.08:
        wrap = rng.choice((60, 66, 72, 76, 80, 88, 100))
    text, spans = builder.build(wrap=wrap)
    return ComposedNote(text, spans, list(builder.values), note_type, wrap)


def generate_note(world: PatientWorld, note_type: str, rng: random.Random, *, note_date: date | None = None,
                  doc_id: str = "note") -> Document:
    """Write one note of ``note_type`` for ``world``; return it as a Document with a gold layer."""
    note = compose_note(world, note_type, rng, note_date=note_date)
    return Document(doc_id, note.text, patient_id=world.pid,
                    metadata={"note_type": note_type, "synthetic": True, "wrap": note.wrap}, layers={GOLD: note.spans})


def _pick_types(rng: random.Random, n: int) -> list[str]:
    names = list(NOTE_TYPES)
    weights = [NOTE_TYPES[k][1] for k in names]
    return [rng.choices(names, weights=weights)[0] for _ in range(n)]


def generate_corpus(n_patients: int, notes_per_patient: NotesPerPatient = 3, seed: int = 0, *,
                    note_types: list[str] | None = None, prefix: str = "SYN") -> Iterator[Document]:
    """Yield ``n_patients`` patients' notes (``notes_per_patient`` each: an int or a ``(min, max)`` range)."""
    if n_patients < 0:
        raise ConfigError(f"n_patients must be >= 0, got {n_patients}")
    lo, hi = (notes_per_patient, notes_per_patient) if isinstance(notes_per_patient, int) else notes_per_patient
    if lo < 1 or hi < lo:
        raise ConfigError(f"notes_per_patient must be >= 1 (or a (min, max) range), got {notes_per_patient!r}")
    for unknown in set(note_types or ()) - set(NOTE_TYPES):
        raise ConfigError(f"unknown note type {unknown!r}; known: {', '.join(sorted(NOTE_TYPES))}")
    width = max(4, len(str(n_patients)))
    for i in range(1, n_patients + 1):
        pid = f"{prefix}{i:0{width}d}"
        rng = _rng(seed, "patient", i)
        world = PatientWorld.sample(pid, rng)
        k = rng.randint(lo, hi)
        types = [rng.choice(note_types) for _ in range(k)] if note_types else _pick_types(rng, k)
        for j, (nt, day) in enumerate(zip(types, world.note_dates(k, rng)), 1):
            yield generate_note(world, nt, _rng(seed, "note", i, j), note_date=day, doc_id=f"{pid}-{j}")


def generate_notes(n_notes: int, seed: int = 0, *, notes_per_patient: NotesPerPatient = (1, 4), **kwargs) -> Iterator[Document]:
    """Yield exactly ``n_notes`` notes (the last patient may have fewer than drawn)."""
    if n_notes <= 0:
        return
    for count, doc in enumerate(generate_corpus(n_notes, notes_per_patient, seed, **kwargs), 1):
        yield doc
        if count >= n_notes:
            return
