"""``annotate -o OUT.csv|.parquet`` writes a table with the input's id column name (and integer type)."""

import csv
import io
import json

from notescrub.cli.main import main


def _parquet_notes(path, n=12):
    import pyarrow as pa
    import pyarrow.parquet as pq

    texts = [f"Seen by Dr. Ruiz on 03/{10 + i % 9}/2091, call 555-01{i:02d}." for i in range(n)]
    pq.write_table(pa.table({"note_id": pa.array(range(100, 100 + n), pa.int64()), "body": texts,
                             "mrn": [f"M{i % 4}" for i in range(n)]}), path)


def test_parquet_table_same_spans_as_jsonl_and_same_bytes_for_jobs(tmp_path):
    import pyarrow.parquet as pq

    src = tmp_path / "notes.parquet"
    _parquet_notes(src)
    opts = ["--model", "rules-en", "--text-column", "body", "--id-column", "note_id", "--patient-column", "mrn"]
    jsonl = tmp_path / "spans.jsonl"
    assert main(["-q", "annotate", str(src), "-o", str(jsonl), *opts]) == 0
    want = [json.loads(x) for x in jsonl.read_text(encoding="utf-8").splitlines()]
    one, two = tmp_path / "one.parquet", tmp_path / "two.parquet"
    assert main(["-q", "annotate", str(src), "-o", str(one), *opts]) == 0
    assert main(["-q", "annotate", str(src), "-o", str(two), *opts, "--jobs", "2", "--chunk-size", "3"]) == 0
    assert one.read_bytes() == two.read_bytes()
    table = pq.read_table(one)
    assert table.column_names[:3] == ["note_id", "logprob", "spans"]
    assert str(table.schema.field("note_id").type) == "int64"
    rows = table.to_pylist()
    assert [r["note_id"] for r in rows] == list(range(100, 112)) == [int(w["id"]) for w in want]
    assert [r["spans"] for r in rows] == [w["spans"] for w in want]
    assert "body" not in table.column_names and "Ruiz" not in one.read_bytes().decode("utf-8", "replace")


def test_csv_table_keeps_the_id_column_name(tmp_path):
    src = tmp_path / "notes.csv"
    with open(src, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["note_id", "note_text"], ["a1", "Seen by Dr. Ruiz."], ["a2", "No PHI."]])
    out = tmp_path / "spans.csv"
    assert main(["-q", "annotate", str(src), "-o", str(out), "--model", "rules-en", "--text-column", "note_text",
                 "--id-column", "note_id"]) == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert list(rows[0])[:3] == ["note_id", "logprob", "spans"]
    assert [r["note_id"] for r in rows] == ["a1", "a2"]
    assert [s["type"] for s in json.loads(rows[0]["spans"])] == ["DOCTOR"] and json.loads(rows[1]["spans"]) == []
