"""``deid`` of a table writes a table of the input's shape: its names, order and kept columns, nothing else."""

import csv
import io
import json

from notescrub.cli.main import main
from notescrub.replace.keys import SurrogateKey

HEADER = ["note_id", "ward", "note_text", "mrn", "contact"]
ROWS = [["a1", "4B", "Seen by Dr. Ruiz on 03/18/2091.", "M1", "Bob Jones"],
        ["a2", "", "Call Ann Lee at 555-0100.", "M2", "Ann Lee"]]


def _table(tmp_path):
    src = tmp_path / "notes.csv"
    with open(src, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([HEADER, *ROWS])
    return src, SurrogateKey(bytes(range(32))).save(tmp_path / "k.key")


def _deid(src, out, key, *extra):
    return main(["-q", "deid", str(src), "-o", str(out), "--model", "rules-en", "--key-file", str(key),
                 "--text-column", "note_text", "--id-column", "note_id", "--patient-column", "mrn", *extra])


def test_csv_keeps_names_order_and_allow_listed_columns_only(tmp_path):
    src, key = _table(tmp_path)
    out = tmp_path / "out.csv"
    assert _deid(src, out, key, "--keep-field", "ward") == 0
    got = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert list(got[0]) == ["note_id", "ward", "note_text", "mrn", "spans"]
    assert [(r["note_id"], r["ward"]) for r in got] == [("a1", "4B"), ("a2", "")]
    assert all(r["mrn"].startswith("pt-") for r in got)
    assert "Ruiz" not in got[0]["note_text"] and "Bob" not in out.read_text(encoding="utf-8")
    spans = json.loads(got[0]["spans"])
    assert [s["type"] for s in spans] == ["DOCTOR", "DATE"]
    assert [got[0]["note_text"][s["start"]:s["end"]] for s in spans] == [s["text"] for s in spans]
    # --keep-field patient keeps the patient column verbatim, under its own name
    kept = tmp_path / "kept.csv"
    assert _deid(src, kept, key, "--keep-field", "patient") == 0
    assert [r["mrn"] for r in csv.DictReader(io.StringIO(kept.read_text(encoding="utf-8")))] == ["M1", "M2"]


def test_parquet_from_csv_and_jsonl_output_unchanged(tmp_path):
    import pyarrow.parquet as pq

    src, key = _table(tmp_path)
    out = tmp_path / "out.parquet"
    assert _deid(src, out, key, "--to", "parquet", "--keep-field", "ward") == 0
    table = pq.read_table(out)
    assert table.column_names == ["note_id", "ward", "note_text", "mrn", "spans"]
    assert str(table.schema.field("spans").type).startswith("list<element: struct<start: int64, end: int64")
    jsonl = tmp_path / "out.jsonl"
    assert _deid(src, jsonl, key, "--to", "jsonl", "--keep-field", "ward") == 0
    first = json.loads(jsonl.read_text(encoding="utf-8").splitlines()[0])
    assert sorted(first) == ["id", "meta", "patient", "spans", "text"] and first["meta"]["ward"] == "4B"


def test_unknown_or_misplaced_keep_field_is_refused_before_any_work(tmp_path, capsys):
    src, key = _table(tmp_path)
    out = tmp_path / "out.csv"
    assert _deid(src, out, key, "--keep-field", "room") == 2
    err = capsys.readouterr().err
    assert "no column 'room'" in err and "every other column is dropped" in err and not out.exists()
    assert _deid(src, out, key, "--keep-field", "mrn") == 2
    assert "'--keep-field patient' keeps patient ids" in capsys.readouterr().err


def test_tsv_output_is_tab_separated(tmp_path):
    src, key = _table(tmp_path)
    out = tmp_path / "out.tsv"
    assert _deid(src, out, key) == 0
    got = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8")), delimiter="\t"))
    assert list(got[0]) == ["note_id", "note_text", "mrn", "spans"]
    assert [r["note_id"] for r in got] == ["a1", "a2"]
