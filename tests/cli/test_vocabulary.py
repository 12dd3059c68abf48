"""One vocabulary across commands: -q/-v anywhere, summaries of per-document warnings."""

import pytest

from notescrub.cli.main import build_parser, main
from notescrub.io import read_corpus, write_corpus
from notescrub.types import Document

SPANISH = ("Paciente de 70 años, minero jubilado, sin alergias medicamentosas conocidas, que presenta "
           "como antecedentes un accidente laboral con fracturas costales y una neumonía.")


@pytest.mark.parametrize("argv", [
    ["synth", "generate", "-n", "2", "-o", "{out}", "-q"],
    ["synth", "generate", "-q", "-n", "2", "-o", "{out}"],
    ["-q", "synth", "generate", "-n", "2", "-o", "{out}"],
    ["synth", "-q", "generate", "-n", "2", "-o", "{out}"],
    ["synth", "generate", "-n", "2", "-o", "{out}", "-v"],
])
def test_quiet_and_verbose_anywhere(argv, tmp_path):
    out = tmp_path / "s.jsonl"
    assert main([a.replace("{out}", str(out)) for a in argv]) == 0
    assert len(list(read_corpus(out))) == 2


def test_quiet_after_the_command_is_seen(tmp_path):
    args = build_parser().parse_args(["stats", "x.jsonl", "-q", "-v"])
    assert args.quiet and args.verbose
    args = build_parser().parse_args(["stats", "x.jsonl"])
    assert not getattr(args, "quiet", False)


def test_language_warnings_become_one_summary_line(tmp_path, capsys):
    notes = tmp_path / "es.jsonl"
    write_corpus([Document(f"es{i}", SPANISH) for i in range(5)], notes)
    out = tmp_path / "o.jsonl"
    assert main(["annotate", str(notes), "-o", str(out), "--model", "rules-en", "-q"]) == 0
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if "look like English" in x]
    assert lines == ["notescrub: WARNING: 5 documents do not look like English: the model may miss PHI in them; "
                     "for Spanish use --model es-meddocan; their ids with -v"], err
    assert "Paciente" not in err
    # with -v each document is named as well (by id), and the summary is still there
    assert main(["annotate", str(notes), "-o", str(tmp_path / "o2.jsonl"), "--model", "rules-en", "-v"]) == 0
    err = capsys.readouterr().err
    assert sum("'es3' does not look like English" in x for x in err.splitlines()) == 1
    assert any(x.endswith("5 documents do not look like English: the model may miss PHI in them; "
                          "for Spanish use --model es-meddocan") for x in err.splitlines())
