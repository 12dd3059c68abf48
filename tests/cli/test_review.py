"""`notescrub review --stats/--export/--export-deid` on a database filled through the library."""

from __future__ import annotations

import json

import pytest

from notescrub.assemble import build
from notescrub.cli.main import main
from notescrub.replace.keys import SurrogateKey
from notescrub.review.importer import prepare_review
from notescrub.review.store import ReviewStore

NOTE = {"id": "n1", "patient": "P1", "text": "Seen by Dr. Ruiz on 3/18/2024. Call 555-123-4567."}


@pytest.fixture()
def db(tmp_path):
    corpus = tmp_path / "notes.jsonl"
    corpus.write_text(json.dumps(NOTE) + "\n" + json.dumps({**NOTE, "id": "n2"}) + "\n")
    store = ReviewStore(tmp_path / "review.sqlite")
    prepare_review(store, corpus, None, lambda: build("rules-en", None), "rules-en")
    store.edit(1, 0, "alice", "reviewed", {})
    return tmp_path / "review.sqlite"


def test_stats(db, capsys):
    assert main(["review", "--db", str(db), "--stats"]) == 0
    out = capsys.readouterr().out
    assert "notes reviewed: 1 / 2" in out and "alice" in out and "Ruiz" not in out
    assert main(["review", "--db", str(db), "--stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["reviewed"] == 1


def test_export_formats(db, tmp_path):
    assert main(["-q", "review", "--db", str(db), "--export", str(tmp_path / "gold.jsonl")]) == 0
    rec = json.loads((tmp_path / "gold.jsonl").read_text())
    assert rec["id"] == "n1" and {s["type"] for s in rec["spans"]} >= {"DOCTOR", "PHONE"}
    assert main(["-q", "review", "--db", str(db), "--export", str(tmp_path / "xml"), "--format", "i2b2"]) == 0
    assert [p.name for p in (tmp_path / "xml").iterdir()] == ["n1.xml"]


def test_export_deid_with_key(db, tmp_path):
    key = tmp_path / "site.key"
    SurrogateKey.generate().save(key)
    assert main(["-q", "review", "--db", str(db), "--export-deid", str(tmp_path / "out"), "--format", "brat",
                 "--key-file", str(key)]) == 0
    text = (tmp_path / "out" / "n1.txt").read_text()
    assert "Ruiz" not in text and "555-123-4567" not in text


def test_missing_database_is_named(tmp_path, capsys):
    assert main(["review", "--db", str(tmp_path / "none.sqlite"), "--stats"]) != 0
    assert "none.sqlite: no such review database" in capsys.readouterr().err
    assert not (tmp_path / "none.sqlite").exists()
