"""Progress lines when stderr is not a terminal; table column options; output in input order."""

import csv
import io
import json

from notescrub.cli.main import main
from notescrub.cli.progress import Progress
from notescrub.replace.keys import SurrogateKey


def test_plain_progress_lines_rate_and_time_left_and_quiet():
    out = io.StringIO()
    with Progress("annotate", stream=out, interval=0) as p:
        p.start(10, 4)  # 4 finished by an interrupted run: not counted in the rate
        p.advance(3)
        p.advance(3)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("notescrub annotate: 7/10 notes (70%), ") and lines[0].endswith(" left")
    assert lines[-1].startswith("notescrub annotate: 10/10 notes (100%)")
    quiet = io.StringIO()
    with Progress("deid", stream=quiet, interval=0, quiet=True) as p:
        p.start(2)
        p.advance(2)
    assert quiet.getvalue() == ""


def test_table_columns_and_input_order_with_jobs(tmp_path):
    src = tmp_path / "notes.csv"
    rows = [(f"r{i}", f"M{i % 3}", "Seen by Dr. Ruiz on 03/18/2091.", "north") for i in range(9)]
    with open(src, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["note_id", "mrn", "note_text", "ward"])
        w.writerows(rows)
    key = SurrogateKey(bytes(range(32))).save(tmp_path / "k.key")
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}.csv"
        assert main(["-q", "deid", str(src), "-o", str(out), "--model", "rules-en", "--key-file", str(key),
                     "--text-column", "note_text", "--id-column", "note_id", "--patient-column", "mrn",
                     "--jobs", jobs, "--chunk-size", "2"]) == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    got = list(csv.DictReader(io.StringIO(outs[0].decode("utf-8"))))
    assert list(got[0]) == ["note_id", "mrn", "note_text", "spans"]  # the input's names; 'ward' is not released
    assert [r["note_id"] for r in got] == [r[0] for r in rows]
    assert all("Ruiz" not in r["note_text"] and r["mrn"].startswith("pt-") for r in got)
    assert "north" not in outs[0].decode("utf-8")  # other columns only with --keep-field
    spans = tmp_path / "spans.jsonl"
    assert main(["-q", "annotate", str(src), "-o", str(spans), "--model", "rules-en", "--text-column", "note_text",
                 "--id-column", "note_id", "--jobs", "2"]) == 0
    assert [json.loads(x)["id"] for x in spans.read_text(encoding="utf-8").splitlines()] == [r[0] for r in rows]


def test_column_options_are_for_tables_only(tmp_path, capsys):
    src = tmp_path / "n.jsonl"
    src.write_text('{"id": "a", "text": "x"}\n', encoding="utf-8")
    assert main(["-q", "annotate", str(src), "-o", str(tmp_path / "o.jsonl"), "--model", "rules-en",
                 "--text-column", "note"]) == 2
    assert "--text-column apply to CSV/TSV/Parquet tables" in capsys.readouterr().err
