"""``notescrub.spark.deidentify`` / ``annotate`` on a real local Spark: the CLI's output, row for row."""

from __future__ import annotations

import json

import pytest

from notescrub.cli.main import main
from notescrub.errors import ConfigError, ModelError
from notescrub.replace.keys import SurrogateKey
from notescrub.synth import generate_notes

pytestmark = pytest.mark.slow  # starts a JVM (about 20 s on 2 cores), once for the whole directory


def write_notes(path, n, seed):
    """Synthetic notes as JSONL; every third note has no patient id (its own group)."""
    rows = []
    for i, d in enumerate(generate_notes(n, seed=seed)):
        rows.append({"id": d.id, "text": d.text, "patient": d.patient_id if i % 3 else None})
    path.write_text("".join(json.dumps({k: v for k, v in r.items() if v is not None}) + "\n" for r in rows),
                    encoding="utf-8")
    return rows


def cli_deid(tmp_path, notes, key, *extra):
    out = tmp_path / "cli.jsonl"
    assert main(["-q", "deid", str(notes), "-o", str(out), "--key-file", str(key), *extra]) == 0
    return {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}


def as_cli(span):
    """A Spark span as the CLI's JSONL writes it (score only when not 1.0)."""
    return {k: v for k, v in span.items() if k != "score" or v != 1.0}


@pytest.fixture(scope="module")
def key_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("key") / "site.key"
    SurrogateKey.from_seed("spark-tests").save(path)
    return path


@pytest.mark.parametrize("model,n", [("rules-en", 40), ("en-default", 12)])
def test_deidentify_matches_the_cli(spark, tmp_path, key_file, model, n):
    from notescrub.spark import deidentify

    rows = write_notes(tmp_path / "notes.jsonl", n, seed=5)
    expected = cli_deid(tmp_path, tmp_path / "notes.jsonl", key_file, "--model", model)
    df = spark.createDataFrame(rows, "id string, text string, patient string")
    got = {r["id"]: r.asDict(recursive=True)
           for r in deidentify(df, patient_col="patient", model=model, key=key_file).collect()}
    assert got.keys() == expected.keys()
    for note_id, row in got.items():
        want = expected[note_id]
        assert row["text"] == want["text"], note_id
        assert row["patient"] == want.get("patient"), note_id
        assert [as_cli(s) for s in row["spans"]] == [
            {k: s[k] for k in ("start", "end", "type", "score") if k in s} for s in want["spans"]], note_id
    assert any(r["spans"] for r in got.values())


def test_annotate_matches_the_cli(spark, tmp_path):
    from notescrub.spark import annotate

    rows = write_notes(tmp_path / "notes.jsonl", 20, seed=6)
    out = tmp_path / "spans.jsonl"
    assert main(["-q", "annotate", str(tmp_path / "notes.jsonl"), "-o", str(out), "--model", "rules-en"]) == 0
    expected = {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    df = spark.createDataFrame(rows, "id string, text string, patient string")
    got = annotate(df, patient_col="patient", model="rules-en").collect()
    assert len(got) == len(expected)
    for r in got:
        assert [s.asDict() for s in r["spans"]] == expected[r["id"]]["spans"]
        assert r["logprob"] == expected[r["id"]].get("logprob")


def test_columns_keep_and_key_checks(spark, tmp_path, key_file):
    from notescrub.spark import deidentify

    df = spark.createDataFrame([("n1", "Seen by Dr. Ruiz.", "P1", "north", "Bob Jones")],
                               "note_id string, note string, mrn string, site string, contact string")
    out = deidentify(df, "note", "note_id", "mrn", model="rules-en", key=key_file, keep_columns=["site"])
    assert out.columns == ["note_id", "note", "mrn", "site", "spans"]  # the input's order; 'contact' is not released
    assert out.schema["spans"].dataType.simpleString() == "array<struct<start:int,end:int,type:string,score:double>>"
    (row,) = out.collect()
    assert "Ruiz" not in row["note"] and row["mrn"].startswith("pt-") and row["site"] == "north"
    kept = deidentify(df, "note", "note_id", "mrn", model="rules-en", key=key_file, keep_columns=["mrn"]).collect()
    assert kept[0]["mrn"] == "P1"
    with pytest.raises(ConfigError, match="no text column 'text'"):
        deidentify(df, model="rules-en", key=key_file)
    with pytest.raises(ConfigError, match="mode surrogate needs key="):
        deidentify(df, "note", "note_id", model="rules-en")
    with pytest.raises(ModelError, match="no model named"):
        deidentify(df, "note", "note_id", model="no-such-model", mode="tag")
    tagged = deidentify(df, "note", "note_id", model="rules-en", mode="tag").collect()  # no key needed
    assert tagged[0]["note"] == "Seen by Dr. [**DOCTOR**]."
    # integer ids keep their type; a null patient id is its own group; a null text is refused unless skip_bad
    ints = spark.createDataFrame([(7, "Dr. Ruiz.", None), (8, None, "P1")], "id long, text string, patient string")
    rows = deidentify(ints, patient_col="patient", model="rules-en", mode="tag", skip_bad=True).collect()
    assert [(r["id"], r["patient"], r["text"]) for r in rows] == [(7, None, "Dr. [**DOCTOR**].")]
