"""``notescrub spark deid|annotate`` on Parquet and CSV folders, in a real local Spark session."""

from __future__ import annotations

import csv
import json

import pytest

from notescrub.cli.main import main
from notescrub.replace.keys import SurrogateKey
from notescrub.synth import generate_notes

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """30 synthetic notes as a folder of two Parquet part files, the same as one CSV, and a key."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    root = tmp_path_factory.mktemp("corpus")
    rows = [{"id": d.id, "patient": d.patient_id, "text": d.text + ' "quoted", end', "site": f"s{i % 2}"}
            for i, d in enumerate(generate_notes(30, seed=9))]
    (root / "parquet").mkdir()
    pq.write_table(pa.Table.from_pylist(rows[:17]), root / "parquet" / "part-0.parquet")
    pq.write_table(pa.Table.from_pylist(rows[17:]), root / "parquet" / "part-1.parquet")
    pq.write_table(pa.Table.from_pylist(rows), root / "notes.parquet")
    with open(root / "notes.csv", "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, ["id", "patient", "text", "site"])
        w.writeheader()
        w.writerows(rows)
    SurrogateKey.from_seed("spark-cli").save(root / "site.key")
    return root, rows


def read_csv(path):
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def read_parquet(path):
    import pyarrow.parquet as pq

    return pq.read_table(path).to_pylist()


def test_parquet_folder_same_text_as_deid_in_input_order(spark, corpus, tmp_path, capsys):
    root, rows = corpus
    key = str(root / "site.key")
    out = tmp_path / "deid"
    assert main(["spark", "deid", str(root / "parquet"), "-o", str(out), "--key-file", key, "--model", "rules-en",
                 "--keep-field", "site", "--master", "local[2]"]) == 0
    got = read_parquet(out)
    assert [r["id"] for r in got] == [r["id"] for r in rows]  # the input's order
    assert list(got[0]) == ["id", "patient", "text", "site", "spans"]
    cli = tmp_path / "cli.parquet"
    assert main(["-q", "deid", str(root / "notes.parquet"), "-o", str(cli), "--key-file", key, "--model", "rules-en",
                 "--keep-field", "site"]) == 0
    want = read_parquet(cli)
    assert list(want[0]) == list(got[0])  # the same shape as deid's
    assert [(r["text"], r["patient"], r["site"]) for r in got] == [(r["text"], r["patient"], r["site"]) for r in want]
    assert [[(s["start"], s["end"], s["type"]) for s in r["spans"]] for r in got] == \
        [[(s["start"], s["end"], s["type"]) for s in r["spans"]] for r in want]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".deid.")]  # no temporary folder left
    # an existing output is refused before any work; --force replaces it
    assert main(["spark", "deid", str(root / "parquet"), "-o", str(out), "--key-file", key,
                 "--model", "rules-en"]) == 2
    assert "output exists" in capsys.readouterr().err
    assert main(["-q", "spark", "deid", str(root / "parquet"), "-o", str(out), "--key-file", key,
                 "--model", "rules-en", "--mode", "tag", "--force"]) == 0
    assert "[**" in read_parquet(out)[0]["text"]


def test_csv_folder_and_annotate(spark, corpus, tmp_path):
    root, rows = corpus
    out = tmp_path / "deid_csv"
    assert main(["-q", "spark", "deid", str(root / "notes.csv"), "-o", str(out), "--key-file",
                 str(root / "site.key"), "--model", "rules-en"]) == 0
    parts = sorted(out.glob("part-*.csv"))
    got = [r for p in parts for r in read_csv(p)]
    assert [r["id"] for r in got] == [r["id"] for r in rows]
    ref = tmp_path / "ref"
    assert main(["-q", "spark", "deid", str(root / "notes.parquet"), "-o", str(ref), "--key-file",
                 str(root / "site.key"), "--model", "rules-en"]) == 0
    assert [r["text"] for r in got] == [r["text"] for r in read_parquet(ref)]  # multi-line, quoted notes survive
    assert json.loads(got[0]["spans"])[0].keys() == {"start", "end", "type", "score"}
    spans = tmp_path / "spans"
    assert main(["-q", "spark", "annotate", str(root / "notes.parquet"), "-o", str(spans), "--model", "rules-en"]) == 0
    ann = read_parquet(spans)
    assert list(ann[0]) == ["id", "logprob", "spans"] and len(ann) == len(rows)


def test_failing_note_fails_the_job_and_writes_nothing(spark, tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    with open(bad, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, ["id", "patient", "text"])
        w.writeheader()
        w.writerows([{"id": "a", "patient": "P1", "text": "Seen by Dr. Ruiz."}, {"id": "b", "patient": "P2", "text": ""}])
    out = tmp_path / "out"
    code = main(["spark", "deid", str(bad), "-o", str(out), "--mode", "tag", "--model", "rules-en"])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists() and not list(tmp_path.glob(".out.*"))
    assert "the Spark job failed: document" in err and "has no text" in err and "Ruiz" not in err
    assert main(["-q", "spark", "deid", str(bad), "-o", str(out), "--mode", "tag", "--model", "rules-en",
                 "--skip-bad"]) == 0
    assert [r["id"] for p in out.glob("part-*.csv") for r in read_csv(p)] == ["a"]


def test_key_is_required_for_surrogates(corpus, capsys):
    root, _ = corpus
    assert main(["spark", "deid", str(root / "notes.parquet"), "-o", "x"]) == 2
    assert "needs --key-file" in capsys.readouterr().err
    assert main(["spark"]) == 2
