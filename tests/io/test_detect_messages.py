"""Format detection says what it detected and why; an explicit --format that the name contradicts is refused."""

import pytest

from notescrub.cli.main import main
from notescrub.errors import UnknownFormatError
from notescrub.io import read_corpus
from notescrub.io.detect import check_format_fits, detection_reason


def _brat_pair(tmp_path):
    (tmp_path / "x.txt").write_text("Seen by Dr. Ruiz.", encoding="utf-8")
    (tmp_path / "x.ann").write_text("T1\tDOCTOR 12 16\tRuiz\n", encoding="utf-8")
    return tmp_path / "x.txt"


def test_reason_for_a_txt_next_to_an_ann(tmp_path):
    assert detection_reason(_brat_pair(tmp_path)) == "x.txt was treated as brat because x.ann exists next to it"


def test_deid_explains_why_it_needs_an_output(tmp_path, capsys):
    note = _brat_pair(tmp_path)
    assert main(["deid", str(note), "--model", "rules-en"]) == 2
    err = capsys.readouterr().err
    assert "treated as brat because x.ann exists next to it" in err and "--format txt" in err
    assert "Ruiz" not in err


def test_explicit_format_contradicted_by_the_name(tmp_path, capsys):
    path = tmp_path / "n.jsonl"
    path.write_text('{"id": "a", "text": "Seen by Dr. Ruiz."}\n', encoding="utf-8")
    with pytest.raises(UnknownFormatError, match="says jsonl"):
        list(read_corpus(path, "brat"))
    assert main(["stats", str(path), "--format", "brat"]) == 2
    err = capsys.readouterr().err
    assert "--format brat does not fit this file" in err and ".txt" not in err.split("brat is")[0]
    check_format_fits(tmp_path / "x.txt", "brat")  # a brat note named by its .txt is fine
    check_format_fits(tmp_path / "x.tsv", "csv")
