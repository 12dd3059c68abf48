"""``notescrub stats``."""

import json
from pathlib import Path

from notescrub.cli.main import main

FIX = Path(__file__).resolve().parents[1] / "io" / "fixtures"


def test_stats_json(capsys):
    assert main(["stats", str(FIX / "inline"), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert (res["format"], res["documents"], res["patients"], res["spans"]) == ("inline", 3, 2, 5)
    assert res["by_canonical"]["PATIENT"] == 1 and res["tokens"] > 20


def test_stats_table_never_prints_text(capsys):
    assert main(["stats", str(FIX / "i2b2")]) == 0
    out = capsys.readouterr().out
    assert "documents" in out and "MEDICALRECORD" in out and "NAME" in out
    assert "Quillfeather" not in out


def test_stats_bad_input(tmp_path, capsys):
    (tmp_path / "a.jsonl").write_text("{broken\n", encoding="utf-8")
    assert main(["stats", str(tmp_path / "a.jsonl")]) == 2
    assert "a.jsonl:1" in capsys.readouterr().err


def test_stats_says_no_patient_ids(tmp_path, capsys):
    from notescrub.io import write_corpus
    from notescrub.types import Document

    path = tmp_path / "n.jsonl"
    write_corpus([Document("a", "Seen by Dr. Ruiz."), Document("b", "Seen again.")], path)
    assert main(["stats", str(path)]) == 0
    out = capsys.readouterr().out
    assert "no patient ids" in out and "patients 0" not in " ".join(out.split())
    write_corpus([Document("a", "Seen.", "P1"), Document("b", "Seen.")], tmp_path / "m.jsonl")
    assert main(["stats", str(tmp_path / "m.jsonl")]) == 0
    assert "1 document without a patient id" in capsys.readouterr().out
    assert main(["stats", str(tmp_path / "m.jsonl"), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["patients"] == 1 and res["without_patient"] == 1
