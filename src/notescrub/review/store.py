"""The review database: notes, their current spans and an append-only log of every edit.

One SQLite file in WAL mode (readers never wait for the writer). Tables:

* ``notes``: one row per note (text, model spans, current spans, status, priority,
  ``version``, who changed it last and when);
* ``edits``: one row per change (note, new version, reviewer, UTC time, action, a
  summary without text, the spans before and after); rows are only ever inserted;
* ``meta``: the corpus, the model and the preview key.

Optimistic concurrency: every edit names the version it was made on; an edit made on
an older version raises :class:`EditConflict` (who changed the note, and when) and
changes nothing. Edits of different notes never touch each other's rows.

>>> import tempfile, pathlib
>>> store = ReviewStore(pathlib.Path(tempfile.mkdtemp()) / "review.sqlite")
>>> store.import_notes([NoteInput("n1", "Seen by Ruiz.", None, {"spans": [
...     {"start": 8, "end": 12, "type": "DOCTOR", "score": 0.9, "source": "crf"}]})], corpus="notes.jsonl", model="m")
1
>>> note = store.note(1)
>>> note["version"], [s["state"] for s in note["spans"]]
(0, ['proposed'])
>>> store.edit(1, 0, "alice", "reject", {"sid": 1})["version"]
1
>>> try:
...     store.edit(1, 0, "bob", "accept", {"sid": 1})
... except EditConflict as exc:
...     exc.by
'alice'
>>> store.edit(1, 1, "bob", "undo", {})["spans"][0]["state"]
'proposed'
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from notescrub.errors import ConfigError, NotescrubError
from notescrub.review.edits import EditError, apply_action, new_span
from notescrub.review.queue import note_priority, priority_source

__all__ = ["EditConflict", "NoteInput", "ReviewStore", "utc_now"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS notes (
    nid INTEGER PRIMARY KEY,            -- 1-based position in the corpus
    doc_id TEXT NOT NULL UNIQUE,
    patient TEXT,
    text TEXT NOT NULL,
    priority REAL NOT NULL,
    priority_source TEXT NOT NULL,      -- risk | proxy
    risk REAL,
    logprob REAL,
    suspects TEXT NOT NULL,             -- JSON [{start, end, score, type}]
    model_spans TEXT NOT NULL,          -- JSON, as the model gave them
    spans TEXT NOT NULL,                -- JSON, the current review spans
    status TEXT NOT NULL DEFAULT 'open',
    version INTEGER NOT NULL DEFAULT 0,
    updated_by TEXT,
    updated_at TEXT
);
CREATE TABLE IF NOT EXISTS edits (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    nid INTEGER NOT NULL REFERENCES notes(nid),
    version INTEGER NOT NULL,           -- the note's version after this edit
    reviewer TEXT NOT NULL,
    at TEXT NOT NULL,
    action TEXT NOT NULL,
    summary TEXT NOT NULL,              -- JSON without note text
    undoes INTEGER REFERENCES edits(seq),
    spans_before TEXT NOT NULL,
    spans_after TEXT NOT NULL,
    status_before TEXT NOT NULL,
    status_after TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS edits_by_note ON edits(nid, seq);
CREATE TRIGGER IF NOT EXISTS edits_append_only_u BEFORE UPDATE ON edits
    BEGIN SELECT RAISE(ABORT, 'the edit log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS edits_append_only_d BEFORE DELETE ON edits
    BEGIN SELECT RAISE(ABORT, 'the edit log is append-only'); END;
"""


def utc_now() -> str:
    """The current UTC time, ISO 8601 to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


class EditConflict(NotescrubError):
    """The note changed since the page loaded it (HTTP 409)."""

    def __init__(self, by: str | None, at: str | None, version: int) -> None:
        super().__init__(f"this note was changed by {by or 'someone'} at {at or 'an unknown time'} "
                         "— reload it to see their changes")
        self.by, self.at, self.version = by, at, version


@dataclass(frozen=True)
class NoteInput:
    """A note to import: id, text, patient and its annotation record (``queue.annotation_record``)."""

    doc_id: str
    text: str
    patient: str | None
    record: dict[str, Any]


class ReviewStore:
    """The review database at ``path`` (created on first use)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.exists():  # it will hold note text: readable by its owner only (as key files)
            try:
                os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            except FileExistsError:
                pass
            except OSError as exc:
                raise ConfigError(f"cannot create the review database ({type(exc).__name__})", path=self.path) from None
        with self.connection() as con:
            con.executescript(_SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        try:
            con = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            con.execute("PRAGMA journal_mode=WAL")
        except sqlite3.Error as exc:
            raise ConfigError(f"cannot open the review database ({exc})", path=self.path) from None
        con.execute("PRAGMA foreign_keys=ON")
        con.execute("PRAGMA synchronous=NORMAL")
        con.row_factory = sqlite3.Row
        return con

    @contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """A connection of its own (one per request thread), closed afterwards."""
        con = self._connect()
        try:
            yield con
        finally:
            con.close()

    # -- meta ----------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        with self.connection() as con:
            row = con.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self.connection() as con:
            con.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    def count(self) -> int:
        with self.connection() as con:
            return int(con.execute("SELECT COUNT(*) FROM notes").fetchone()[0])

    # -- import --------------------------------------------------------------------
    def import_notes(self, notes: Iterable[NoteInput], *, corpus: str, model: str) -> int:
        """Insert every note in one transaction (all or nothing) and record the corpus; return the count."""
        with self.connection() as con:
            con.execute("BEGIN IMMEDIATE")
            try:
                n = 0
                for n, note in enumerate(notes, 1):
                    rec = note.record
                    spans = [new_span(i, s["start"], s["end"], s["type"], score=s.get("score"),
                                      source=s.get("source", ""), origin="model", state="proposed")
                             for i, s in enumerate(rec.get("spans", []), 1)]
                    con.execute(
                        "INSERT INTO notes(nid, doc_id, patient, text, priority, priority_source, risk, logprob, "
                        "suspects, model_spans, spans) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                        (n, note.doc_id, note.patient, note.text, note_priority(rec), priority_source(rec),
                         rec.get("risk"), rec.get("logprob"), json.dumps(rec.get("suspects", [])),
                         json.dumps(rec.get("spans", [])), json.dumps(spans)))
                con.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                                [("corpus", corpus), ("model", model), ("imported_at", utc_now())])
                con.execute("COMMIT")
            except sqlite3.IntegrityError as exc:
                con.execute("ROLLBACK")
                raise ConfigError(f"the corpus cannot be imported: {exc} (document ids must be unique)",
                                  path=corpus) from None
            except BaseException:
                con.execute("ROLLBACK")
                raise
        return n

    # -- reading -------------------------------------------------------------------
    def queue(self) -> list[dict[str, Any]]:
        """Every note, highest priority first (then corpus order), without text."""
        with self.connection() as con:
            rows = con.execute(
                "SELECT nid, doc_id, priority, priority_source, risk, status, version, updated_by, updated_at, "
                "spans, suspects FROM notes ORDER BY priority DESC, nid").fetchall()
        out = []
        for r in rows:
            spans = json.loads(r["spans"])
            out.append({"nid": r["nid"], "id": r["doc_id"], "priority": r["priority"],
                        "priority_source": r["priority_source"], "risk": r["risk"], "status": r["status"],
                        "version": r["version"], "updated_by": r["updated_by"], "updated_at": r["updated_at"],
                        "spans": sum(s["state"] != "rejected" for s in spans),
                        "open_spans": sum(s["state"] == "proposed" for s in spans),
                        "suspects": len(json.loads(r["suspects"]))})
        return out

    def note(self, nid: int, con: sqlite3.Connection | None = None) -> dict[str, Any]:
        """One note with its text, spans, suspects and version (:class:`EditError` if unknown)."""
        if con is None:
            with self.connection() as own:
                return self.note(nid, own)
        r = con.execute("SELECT * FROM notes WHERE nid = ?", (nid,)).fetchone()
        if r is None:
            raise EditError(f"no note number {nid} in this review")
        return {"nid": r["nid"], "id": r["doc_id"], "patient": r["patient"], "text": r["text"],
                "spans": json.loads(r["spans"]), "suspects": json.loads(r["suspects"]), "status": r["status"],
                "version": r["version"], "priority": r["priority"], "priority_source": r["priority_source"],
                "risk": r["risk"], "updated_by": r["updated_by"], "updated_at": r["updated_at"]}

    def notes(self, status: str | None = None) -> Iterator[dict[str, Any]]:
        """Every note (or those with ``status``) in corpus order."""
        with self.connection() as con:
            nids = [r[0] for r in con.execute(
                "SELECT nid FROM notes WHERE ? IS NULL OR status = ? ORDER BY nid", (status, status))]
            for nid in nids:
                yield self.note(nid, con)

    def edits(self) -> list[dict[str, Any]]:
        """The whole edit log, oldest first."""
        with self.connection() as con:
            rows = con.execute("SELECT * FROM edits ORDER BY seq").fetchall()
        return [dict(zip(r.keys(), tuple(r))) for r in rows]

    # -- writing -------------------------------------------------------------------
    def edit(self, nid: int, version: int, reviewer: str, action: str, args: dict[str, Any]) -> dict[str, Any]:
        """Apply one action made on ``version`` of note ``nid``; return the note as it now is.

        Raises :class:`EditConflict` when the note is at another version and
        :class:`~notescrub.review.edits.EditError` when the action does not apply.
        """
        reviewer = (reviewer or "").strip()[:80]
        if not reviewer:
            raise EditError("give a reviewer name")
        with self.connection() as con:
            con.execute("BEGIN IMMEDIATE")  # one writer at a time: the version check and the write are atomic
            try:
                note = self.note(nid, con)
                if note["version"] != version:
                    raise EditConflict(note["updated_by"], note["updated_at"], note["version"])
                undoes = None
                if action == "undo":
                    undoes, spans, status, summary = self._undo(con, nid)
                else:
                    spans, status, summary = apply_action(note["text"], note["spans"], note["status"], action, args)
                now, new_version = utc_now(), version + 1
                con.execute("INSERT INTO edits(nid, version, reviewer, at, action, summary, undoes, spans_before, "
                            "spans_after, status_before, status_after) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                            (nid, new_version, reviewer, now, action, json.dumps(summary), undoes,
                             json.dumps(note["spans"]), json.dumps(spans), note["status"], status))
                con.execute("UPDATE notes SET spans = ?, status = ?, version = ?, updated_by = ?, updated_at = ? "
                            "WHERE nid = ?", (json.dumps(spans), status, new_version, reviewer, now, nid))
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
            return self.note(nid, con)

    @staticmethod
    def _undo(con: sqlite3.Connection, nid: int) -> tuple[int, list[dict[str, Any]], str, dict[str, Any]]:
        """The latest edit of the note not yet undone, and the state before it."""
        row = con.execute(
            "SELECT seq, action, spans_before, status_before FROM edits WHERE nid = ? AND action != 'undo' "
            "AND seq NOT IN (SELECT undoes FROM edits WHERE nid = ? AND undoes IS NOT NULL) "
            "ORDER BY seq DESC LIMIT 1", (nid, nid)).fetchone()
        if row is None:
            raise EditError("nothing to undo on this note")
        return int(row["seq"]), json.loads(row["spans_before"]), str(row["status_before"]), \
            {"undoes": int(row["seq"]), "action": row["action"]}
