"""``notescrub audit``."""

import json

from notescrub.cli.main import main
from notescrub.io import write_corpus
from notescrub.types import Document, Span

TEXT = "Seen by Dr. Ruiz on 03/18/2091. Call 617-555-0199."


def _orig():
    return Document("a", TEXT, "P1", layers={"gold": [Span(12, 16, "DOCTOR"), Span(20, 30, "DATE"),
                                                      Span(37, 49, "PHONE")]})


def test_pair_exit_status_and_no_values(tmp_path, capsys):
    orig, out = tmp_path / "o.jsonl", tmp_path / "d.jsonl"
    write_corpus([_orig()], orig)
    write_corpus([Document("a", TEXT.replace("03/18/2091", "[**DATE**]"))], out)
    assert main(["audit", str(orig), str(out)]) == 1
    text = capsys.readouterr().out
    assert "still present in the output: 2" in text and "DOCTOR" in text and "PHONE" in text
    assert "Ruiz" not in text and "617-555-0199" not in text
    write_corpus([Document("a", "Seen by Dr. [**DOCTOR**] on [**DATE**]. Call [**PHONE**].")], out)
    assert main(["audit", str(orig), str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["leaked"] == 0


def test_output_only_and_strict(tmp_path, capsys):
    out = tmp_path / "d.jsonl"
    write_corpus([Document("a", "Call 617-555-0199.")], out)
    assert main(["audit", "--output-only", str(out)]) == 0
    assert "phone" in capsys.readouterr().out
    assert main(["audit", "--output-only", str(out), "--strict"]) == 1


def test_usage_errors(tmp_path, capsys):
    out = tmp_path / "d.jsonl"
    write_corpus([Document("a", "x")], out)
    assert main(["audit", str(out)]) == 2
    assert main(["audit", "--output-only", str(out), str(out)]) == 2
    assert main(["audit", str(out), str(out)]) == 2  # no annotations in the original
    assert "no spans" in capsys.readouterr().err
