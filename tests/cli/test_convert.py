"""``notescrub convert``."""

from pathlib import Path

import pytest

from notescrub.cli.main import main
from notescrub.io import read_corpus

FIX = Path(__file__).resolve().parents[1] / "io" / "fixtures"


def _bad_corpus(tmp_path):
    d = tmp_path / "in"
    d.mkdir()
    (d / "a.txt").write_text("Seen by Ruiz.", encoding="utf-8")
    (d / "a.ann").write_text("T1\tDOCTOR 8 12\tRuiz\n", encoding="utf-8")
    (d / "b.txt").write_text("Seen by Diaz.", encoding="utf-8")
    (d / "b.ann").write_text("T1\tDOCTOR 8 12\tDiaz\nT2 broken\n", encoding="utf-8")
    return d


@pytest.mark.parametrize("src,to,out", [("i2b2", "jsonl", "x.jsonl"), ("brat", "i2b2-xml", "xml"),
                                        ("inline", "brat", "brat"), ("i2b2_2006.xml", "parquet", "x.parquet"),
                                        ("notes.csv", "i2b2-2006", "x.xml"), ("physionet", "csv", "x.csv")])
def test_convert_formats(tmp_path, src, to, out, capsys):
    assert main(["convert", str(FIX / src), "-o", str(tmp_path / out), "--to", to]) == 0
    a, b = list(read_corpus(FIX / src)), list(read_corpus(tmp_path / out, to))
    assert [(d.id, d.text) for d in a] == [(d.id, d.text) for d in b]
    assert "wrote" in capsys.readouterr().err


def test_output_format_from_suffix_and_quiet(tmp_path, capsys):
    assert main(["-q", "convert", str(FIX / "i2b2"), "-o", str(tmp_path / "x.jsonl")]) == 0
    assert capsys.readouterr().err == ""
    assert len(list(read_corpus(tmp_path / "x.jsonl"))) == 2


def test_bad_input_fails_cleanly_and_writes_nothing(tmp_path, capsys):
    d = _bad_corpus(tmp_path)
    assert main(["convert", str(d), "-o", str(tmp_path / "out.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "b.ann:2" in err and "cannot parse" in err and "Diaz" not in err
    assert not (tmp_path / "out.jsonl").exists()


def test_skip_bad_lists_skipped_files(tmp_path, capsys):
    d = _bad_corpus(tmp_path)
    assert main(["convert", str(d), "-o", str(tmp_path / "out.jsonl"), "--skip-bad"]) == 1  # some input skipped
    err = capsys.readouterr().err
    assert "skipped" in err and "b.ann:2" in err and "skipped 1" in err
    assert [x.id for x in read_corpus(tmp_path / "out.jsonl")] == ["a"]


def test_encoding_option(tmp_path, capsys):
    (tmp_path / "n").mkdir()
    (tmp_path / "n" / "a.txt").write_bytes(b"Se\xf1or")
    assert main(["convert", str(tmp_path / "n"), "-o", str(tmp_path / "x.jsonl")]) == 2
    assert "--encoding" in capsys.readouterr().err
    assert main(["convert", str(tmp_path / "n"), "-o", str(tmp_path / "x.jsonl"), "--encoding", "latin-1"]) == 0
    assert [d.text for d in read_corpus(tmp_path / "x.jsonl")] == ["Señor"]


def test_mixed_directory_and_missing_to(tmp_path, capsys):
    assert main(["convert", str(FIX), "-o", str(tmp_path / "x.jsonl")]) == 2
    assert "mixes formats" in capsys.readouterr().err
    assert main(["convert", str(FIX / "i2b2"), "-o", str(tmp_path / "outdir")]) == 2
    assert "--to" in capsys.readouterr().err


def test_force_replaces_directory(tmp_path):
    assert main(["-q", "convert", str(FIX / "txt"), "-o", str(tmp_path / "o"), "--to", "txt"]) == 0
    assert main(["-q", "convert", str(FIX / "inline"), "-o", str(tmp_path / "o"), "--to", "txt"]) == 2
    assert main(["-q", "convert", str(FIX / "inline"), "-o", str(tmp_path / "o"), "--to", "txt", "--force"]) == 0
    assert sorted(p.stem for p in (tmp_path / "o").iterdir()) == ["P901-1", "P901-2", "P902-1"]


def test_help_has_examples(capsys):
    with pytest.raises(SystemExit):
        main(["convert", "--help"])
    assert "examples:" in capsys.readouterr().out
