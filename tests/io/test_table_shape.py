"""The shape of a de-identified table: the input's columns, order and Arrow types, less what is not released."""

import datetime
import decimal

import pytest

from notescrub.errors import ConfigError, InputFormatError
from notescrub.io import write_corpus
from notescrub.io.table_shape import TableShape, input_columns
from notescrub.types import Document, Span

COLS = dict(text_column="note_text", id_column="note_id", patient_column="mrn")


def test_input_order_kept_fields_and_dropped_columns():
    shape = TableShape.from_columns(["dept", "note_text", "contact", "note_id", "mrn", "visit"],
                                    keep_fields={"visit", "dept"}, **COLS)
    assert shape.names == ["dept", "note_text", "note_id", "mrn", "visit", "spans"]
    assert shape.dropped == ["contact"]
    # no id column in the input: one is added first (the row ids), and a spans column in place is kept in place
    shape = TableShape.from_columns(["spans", "text", "ward"])
    assert shape.names == ["id", "spans", "text"] and shape.dropped == ["ward"]


@pytest.mark.parametrize("keep,message", [
    ("mrn", "mrn is the patient column; '--keep-field patient'"),
    ("note_text", "the text column is always written"),
    ("ward", "has no column 'ward'.*every other column is dropped \\(release policy"),
])
def test_keep_field_errors(keep, message):
    with pytest.raises(ConfigError, match=message):
        TableShape.from_columns(["note_id", "mrn", "note_text", "dept"], keep_fields={keep}, **COLS)


def test_csv_row_and_meta_column():
    shape = TableShape.from_columns(["id", "text", "meta"], keep_fields={"site"})  # 'site' lives in the meta JSON
    doc = Document("a", "Seen by Lee.", None, {"site": "north", "deidentified": True},
                   {"gold": [Span(8, 11, "DOCTOR")]})
    row = shape.row(doc, "gold")
    assert list(row) == ["id", "text", "meta", "spans"]
    assert row["meta"] == '{"site": "north"}'
    assert row["spans"] == '[{"start": 8, "end": 11, "type": "DOCTOR", "text": "Lee"}]'


def test_parquet_types_survive_and_pseudonyms_are_text(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    src = tmp_path / "in.parquet"
    pq.write_table(pa.table({
        "note_id": pa.array([7, None], pa.int64()),
        "visit": pa.array([datetime.date(2020, 1, 2), None]),
        "note_text": pa.array(["x", "y"], pa.large_string()),
        "mrn": pa.array([5, 6], pa.int32()),
        "cost": pa.array([decimal.Decimal("1.50"), None], pa.decimal128(5, 2)),
        "flag": pa.array([True, False]),
    }), src)
    assert [n for n, _ in input_columns(src, "parquet")] == ["note_id", "visit", "note_text", "mrn", "cost", "flag"]
    docs = [Document("7", "x", "pt-1", {"visit": datetime.date(2020, 1, 2), "cost": decimal.Decimal("1.50"),
                                        "flag": True}),
            Document("in-2", "y", "pt-2", {"flag": False})]  # the reader's id for a null id
    pseudo = TableShape.of_input([src], "parquet", keep_fields={"visit", "cost", "flag"}, **COLS)
    write_corpus(docs, tmp_path / "out.parquet", shape=pseudo)
    table = pq.read_table(tmp_path / "out.parquet")
    assert table.column_names == ["note_id", "visit", "note_text", "mrn", "cost", "flag", "spans"]
    types = {f.name: str(f.type) for f in table.schema}
    assert (types["note_id"], types["visit"], types["note_text"], types["mrn"], types["cost"], types["flag"]) == \
        ("int64", "date32[day]", "large_string", "string", "decimal128(5, 2)", "bool")
    assert table.column("note_id").to_pylist() == [7, None]  # a null id stays null in an integer column
    assert table.column("cost").to_pylist() == [decimal.Decimal("1.50"), None]
    kept = TableShape.of_input([src], "parquet", keep_fields={"patient"}, **COLS)
    write_corpus([Document("7", "x", "5"), Document("8", "y", "6")], tmp_path / "kept.parquet", shape=kept)
    kept_table = pq.read_table(tmp_path / "kept.parquet")
    assert str(kept_table.schema.field("mrn").type) == "int32" and kept_table.column("mrn").to_pylist() == [5, 6]


def test_tables_of_a_folder_must_release_the_same_columns(tmp_path):
    (tmp_path / "a.csv").write_text("id,text,ward\n1,x,4B\n", encoding="utf-8")
    (tmp_path / "b.csv").write_text("text,id\ny,2\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"differ from those of a\.csv"):
        TableShape.of_input([tmp_path / "a.csv", tmp_path / "b.csv"], "csv")
    # the same released columns in the same order: fine (dropped columns may differ)
    (tmp_path / "b.csv").write_text("id,text,other\n2,y,z\n", encoding="utf-8")
    assert TableShape.of_input([tmp_path / "a.csv", tmp_path / "b.csv"], "csv").names == ["id", "text", "spans"]
