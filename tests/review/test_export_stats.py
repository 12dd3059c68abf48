"""Export of reviewed notes (gold corpus, de-identified release) and review statistics."""

from __future__ import annotations

import json

import pytest

from notescrub.errors import ConfigError
from notescrub.io import read_corpus
from notescrub.replace.keys import SurrogateKey
from notescrub.review.export import export_annotations, export_deid
from notescrub.review.stats import format_stats, review_stats
from notescrub.review.store import NoteInput, ReviewStore

TEXT = "Seen by Dr. Ruiz on 3/18/2024. Call 555-123-4567."


def _store(tmp_path):
    store = ReviewStore(tmp_path / "r.sqlite")
    rec = {"spans": [{"start": 12, "end": 16, "type": "DOCTOR", "score": 0.9, "source": "crf"},
                     {"start": 20, "end": 29, "type": "DATE", "score": 0.7, "source": "crf"}]}
    store.import_notes([NoteInput("a", TEXT, "P1", rec), NoteInput("b", TEXT, "P2", rec),
                        NoteInput("c", TEXT, "P3", rec)], corpus="c", model="m")
    # note 1: alice rejects the date, adds the phone, reviews; bob then retypes and reviews too
    v = store.edit(1, 0, "alice", "reject", {"sid": 2})["version"]
    v = store.edit(1, v, "alice", "add", {"start": 36, "end": 48, "type": "PHONE"})["version"]
    v = store.edit(1, v, "alice", "reviewed", {})["version"]
    v = store.edit(1, v, "bob", "retype", {"sid": 1, "type": "PATIENT"})["version"]
    store.edit(1, v, "bob", "reviewed", {})
    # note 2: bob reviews as proposed; note 3 stays open
    store.edit(2, 0, "bob", "reviewed", {})
    return store


@pytest.mark.parametrize("fmt", ["jsonl", "brat", "i2b2"])
def test_export_writes_reviewed_notes_only(tmp_path, fmt):
    store = _store(tmp_path)
    out = tmp_path / ("gold.jsonl" if fmt == "jsonl" else "gold")
    assert export_annotations(store, out, fmt) == 2
    docs = {d.id: d for d in read_corpus(out)}
    assert set(docs) == {"a", "b"}
    assert [(docs["a"].span_text(s), s.label) for s in docs["a"].layer("gold")] == [
        ("Ruiz", "PATIENT"), ("555-123-4567", "PHONE")]
    assert [s.label for s in docs["b"].layer("gold")] == ["DOCTOR", "DATE"]


def test_export_refuses_when_nothing_reviewed(tmp_path):
    store = ReviewStore(tmp_path / "r.sqlite")
    store.import_notes([NoteInput("a", TEXT, None, {"spans": []})], corpus="c", model="m")
    with pytest.raises(ConfigError, match="no note has been marked reviewed"):
        export_annotations(store, tmp_path / "x.jsonl")
    assert not (tmp_path / "x.jsonl").exists()


def test_export_deid_replaces_reviewed_spans_under_the_release_policy(tmp_path):
    store = _store(tmp_path)
    key = SurrogateKey(bytes(range(32)))
    assert export_deid(store, tmp_path / "deid.jsonl", "jsonl", key) == 2
    lines = [json.loads(x) for x in (tmp_path / "deid.jsonl").read_text().splitlines()]
    a = lines[0]
    assert "Ruiz" not in a["text"] and "555-123-4567" not in a["text"]
    assert "3/18/2024" in a["text"]  # alice rejected the date: it is not PHI in the reviewed note
    assert a["patient"] != "P1" and a["patient"].startswith("pt-")  # keyed pseudonym
    assert set(a) <= {"id", "patient", "text", "spans", "meta"} and a["meta"] == {"deidentified": True}
    again = tmp_path / "deid2.jsonl"
    export_deid(store, again, "jsonl", key)
    assert again.read_text() == (tmp_path / "deid.jsonl").read_text()  # surrogates: a function of the key


def test_stats_counts_and_agreement(tmp_path):
    store = _store(tmp_path)
    stats = review_stats(store)
    assert (stats["notes"], stats["reviewed"]) == (3, 2)
    assert stats["reviewers"]["alice"] == {"notes_reviewed": 1, "accepted": 1, "rejected": 1, "added": 1,
                                           "retyped": 0, "extent_changed": 0}
    assert stats["reviewers"]["bob"]["retyped"] == 1 and stats["reviewers"]["bob"]["notes_reviewed"] == 2
    assert stats["reviewers"]["bob"]["accepted"] == 2  # the two proposed spans of note 2
    # note 1: alice {DOCTOR Ruiz, PHONE} vs bob {PATIENT Ruiz, PHONE}: 1 common of 2 + 2 -> F1 0.5
    assert stats["agreement"] == [{"reviewers": ["alice", "bob"], "notes": 1, "span_f1": 0.5}]
    text = format_stats(stats)
    assert "notes reviewed: 2 / 3" in text and "alice vs bob: 0.500 on 1 note(s)" in text
    assert "Ruiz" not in text


def test_undone_edits_are_not_counted(tmp_path):
    store = _store(tmp_path)
    v = store.note(3)["version"]
    v = store.edit(3, v, "carol", "reject", {"sid": 1})["version"]
    store.edit(3, v, "carol", "undo", {})
    assert "carol" not in review_stats(store)["reviewers"]
