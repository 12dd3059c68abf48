"""The review database: import once, versions and conflicts, append-only log, undo."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from notescrub.assemble import build
from notescrub.errors import ConfigError
from notescrub.review.edits import EditError
from notescrub.review.importer import prepare_review, preview_key
from notescrub.review.store import EditConflict, NoteInput, ReviewStore

from .helpers import write_corpus


def _store(tmp_path):
    store = ReviewStore(tmp_path / "r.sqlite")
    notes = [NoteInput(f"n{i}", "Seen by Ruiz on 3/18.", "P1", {"spans": [
        {"start": 8, "end": 12, "type": "DOCTOR", "score": 0.5 + i / 10, "source": "crf"}]}) for i in range(3)]
    store.import_notes(notes, corpus="c.jsonl", model="m")
    return store


def test_wal_mode_owner_only_file_and_queue_order(tmp_path):
    store = _store(tmp_path)
    assert store.path.stat().st_mode & 0o777 == 0o600  # it holds note text
    with store.connection() as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    q = store.queue()
    assert [n["id"] for n in q] == ["n0", "n1", "n2"]  # lowest score = highest proxy priority first
    assert q[0]["priority"] > q[1]["priority"] > q[2]["priority"]
    assert "text" not in q[0]


def test_stale_version_is_refused_and_changes_nothing(tmp_path):
    store = _store(tmp_path)
    store.edit(1, 0, "alice", "reject", {"sid": 1})
    with pytest.raises(EditConflict) as err:
        store.edit(1, 0, "bob", "accept", {"sid": 1})
    assert err.value.by == "alice" and err.value.at and err.value.version == 1
    assert "changed by alice" in err.value.reason
    note = store.note(1)
    assert note["spans"][0]["state"] == "rejected" and note["version"] == 1
    assert [(e["reviewer"], e["action"]) for e in store.edits()] == [("alice", "reject")]


def test_edit_log_is_append_only(tmp_path):
    store = _store(tmp_path)
    store.edit(1, 0, "alice", "reject", {"sid": 1})
    with store.connection() as con, pytest.raises(sqlite3.IntegrityError, match="append-only"):
        con.execute("UPDATE edits SET reviewer = 'mallory'")
    with store.connection() as con, pytest.raises(sqlite3.IntegrityError, match="append-only"):
        con.execute("DELETE FROM edits")
    assert "Ruiz" not in store.edits()[0]["summary"]  # the summary holds offsets and types, never text


def test_undo_walks_back_and_is_logged(tmp_path):
    store = _store(tmp_path)
    store.edit(1, 0, "alice", "retype", {"sid": 1, "type": "PATIENT"})
    store.edit(1, 1, "alice", "add", {"start": 16, "end": 20, "type": "DATE"})
    note = store.edit(1, 2, "alice", "undo", {})
    assert [s["type"] for s in note["spans"]] == ["PATIENT"]
    note = store.edit(1, 3, "alice", "undo", {})
    assert [s["type"] for s in note["spans"]] == ["DOCTOR"] and note["version"] == 4
    with pytest.raises(EditError, match="nothing to undo"):
        store.edit(1, 4, "alice", "undo", {})
    assert [e["action"] for e in store.edits()] == ["retype", "add", "undo", "undo"]


def test_bad_edit_changes_nothing(tmp_path):
    store = _store(tmp_path)
    with pytest.raises(EditError):
        store.edit(1, 0, "alice", "add", {"start": 9, "end": 11, "type": "DATE"})
    with pytest.raises(EditError, match="reviewer"):
        store.edit(1, 0, "  ", "accept", {"sid": 1})
    assert store.note(1)["version"] == 0 and store.edits() == []


def test_concurrent_edits_of_different_notes_all_land(tmp_path):
    store = _store(tmp_path)
    errors = []

    def work(nid: int, who: str) -> None:
        try:
            version = 0
            for _ in range(10):
                version = store.edit(nid, version, who, "reject" if version % 2 == 0 else "accept", {"sid": 1})["version"]
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n, f"r{n}")) for n in (1, 2, 3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert [store.note(n)["version"] for n in (1, 2, 3)] == [10, 10, 10]
    assert len(store.edits()) == 30


def test_prepare_review_imports_once_and_refuses_another_corpus(tmp_path):
    corpus = write_corpus(tmp_path / "notes.jsonl")
    store = ReviewStore(tmp_path / "r.sqlite")
    loads = []

    def load():
        loads.append(1)
        return build("rules-en", None)

    assert prepare_review(store, corpus, None, load, "rules-en") == 4
    key = preview_key(store)
    assert prepare_review(store, corpus, None, load, "rules-en") == 0
    assert prepare_review(store, None, None, load, "rules-en") == 0
    assert loads == [1] and preview_key(store) == key  # the model ran once; the preview key is kept
    other = write_corpus(tmp_path / "other.jsonl", with_sample=False)
    with pytest.raises(ConfigError, match="another corpus"):
        prepare_review(store, other, None, load, "rules-en")
    sample = store.note(1)
    assert sample["id"] == "sample" and any(s["type"] == "PHONE" for s in sample["spans"])


def test_empty_database_needs_a_corpus(tmp_path):
    with pytest.raises(ConfigError, match="give the CORPUS"):
        prepare_review(ReviewStore(tmp_path / "r.sqlite"), None, None, lambda: None, "m")
