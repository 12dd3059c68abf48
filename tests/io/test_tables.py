"""CSV and Parquet tables of notes."""

import csv
import json

import pytest

from notescrub.errors import EncodingError, InputFormatError
from notescrub.io import read_corpus, write_corpus
from notescrub.types import Document, Span

DOCS = [
    Document("t1", 'Seen by Ruiz,\r\n"quoted" on 3/18.', "P1", {"xml_root": "MEDDOCAN"},
             {"gold": [Span(8, 12, "DOCTOR", meta={"id": "T1", "comment": "x"}), Span(28, 32, "DATE")]}),
    Document("t2", "fax 555 0177", None, layers={"gold": [Span(0, 12, "FAX", fragments=((0, 3), (4, 12)))]}),
    Document("t3", "No PHI at all."),
]


def _view(docs):
    return [(d.id, d.patient_id, d.text, d.metadata.get("xml_root"),
             [(s.start, s.end, s.label, s.fragments, dict(s.meta)) for s in d.layer("gold")]) for d in docs]


@pytest.mark.parametrize("name", ["x.csv", "x.tsv", "x.parquet"])
def test_round_trip(tmp_path, name):
    assert write_corpus(DOCS, tmp_path / name) == 3
    assert _view(read_corpus(tmp_path / name)) == _view(DOCS)


def test_csv_fixture_extra_columns_to_metadata(fixtures):
    docs = list(read_corpus(fixtures / "notes.csv"))
    assert [(d.id, d.patient_id, d.metadata) for d in docs] == [("c-1", "P5", {"ward": "4B"}), ("c-2", "P5", {})]
    assert docs[0].text == "Seen by Dr. Ruiz\non 3/18."


def test_column_options_and_tsv(tmp_path):
    f = tmp_path / "n.tsv"
    f.write_text("note_id\tbody\nA\tfirst\nB\tsecond\n", encoding="utf-8")
    docs = list(read_corpus(f, text_column="body", id_column="note_id"))
    assert [(d.id, d.text) for d in docs] == [("A", "first"), ("B", "second")]
    with pytest.raises(InputFormatError, match="no 'text' column") as info:
        list(read_corpus(f))
    assert info.value.line == 1


def test_parquet_row_groups_stream(tmp_path):
    import pyarrow.parquet as pq

    docs = [Document(f"d{i}", f"note {i}") for i in range(600)]
    write_corpus(docs, tmp_path / "x.parquet")
    assert pq.ParquetFile(tmp_path / "x.parquet").metadata.num_row_groups == 3
    assert [d.id for d in read_corpus(tmp_path / "x.parquet")] == [d.id for d in docs]


def test_parquet_with_json_spans_and_custom_columns(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({"body": ["Seen by Ruiz."], "spans": [json.dumps([{"start": 8, "end": 12, "type": "DOCTOR"}])]})
    pq.write_table(table, tmp_path / "x.parquet")
    (doc,) = read_corpus(tmp_path / "x.parquet", text_column="body")
    assert doc.id == "x-1" and [doc.span_text(s) for s in doc.layer("gold")] == ["Ruiz"]


def test_bad_rows(tmp_path):
    f = tmp_path / "n.csv"
    with open(f, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "text", "spans"])
        w.writerow(["a", "multi\nline ok", ""])
        w.writerow(["b", "abc", "[{bad json"])
        w.writerow(["c", "abc", json.dumps([{"start": 0, "end": 9, "type": "X"}])])
        w.writerow(["d", "abc"])
        w.writerow(["e", "fine", ""])
    with pytest.raises(InputFormatError) as info:
        list(read_corpus(f))
    assert info.value.line == 4 and "invalid JSON" in str(info.value)
    skipped = []
    docs = list(read_corpus(f, skip_bad=True, on_skip=skipped.append))
    assert [d.id for d in docs] == ["a", "e"]
    assert [e.line for e in skipped] == [4, 5, 6]


def test_csv_encoding(tmp_path):
    f = tmp_path / "n.csv"
    f.write_bytes(b"id,text\na,Pe\xf1a\n")
    with pytest.raises(EncodingError) as info:
        list(read_corpus(f))
    assert info.value.line == 2
    assert [d.text for d in read_corpus(f, encoding="cp1252")] == ["Peña"]


@pytest.mark.parametrize("content", [b"", b"id,text\n", b"id,text\n\n"])
def test_empty_csv(tmp_path, content):
    (tmp_path / "e.csv").write_bytes(content)
    with pytest.raises(InputFormatError, match="empty file"):
        list(read_corpus(tmp_path / "e.csv"))


def test_not_a_parquet_file(tmp_path):
    (tmp_path / "x.parquet").write_bytes(b"definitely not parquet")
    with pytest.raises(InputFormatError, match="not a readable Parquet file"):
        list(read_corpus(tmp_path / "x.parquet"))


def test_parquet_empty_string_is_a_value_csv_empty_field_is_not(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"text": ["a", "b"], "ward": ["", None]}), tmp_path / "x.parquet")
    assert [d.metadata for d in read_corpus(tmp_path / "x.parquet")] == [{"ward": ""}, {}]
    (tmp_path / "x.csv").write_text("text,ward\na,\n", encoding="utf-8")
    assert [d.metadata for d in read_corpus(tmp_path / "x.csv")] == [{}]


def test_tsv_output_is_tab_separated(tmp_path):
    write_corpus(DOCS, tmp_path / "x.tsv")
    header = (tmp_path / "x.tsv").read_text(encoding="utf-8").splitlines()[0]
    assert header == "id\tpatient\ttext\tspans\tmeta"
