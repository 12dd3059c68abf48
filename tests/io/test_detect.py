"""Format detection."""

import pytest

from notescrub.errors import InputFormatError, UnknownFormatError
from notescrub.io import detect_format
from notescrub.io.detect import output_format


@pytest.mark.parametrize(
    "rel,fmt",
    [
        ("i2b2", "i2b2-xml"), ("i2b2/220-03.xml", "i2b2-xml"), ("i2b2_2006.xml", "i2b2-2006"), ("brat", "brat"),
        ("brat/visit-7.txt", "brat"), ("brat/visit-7.ann", "brat"), ("inline", "inline"), ("physionet", "physionet"),
        ("physionet/id.text", "physionet"), ("txt", "txt"), ("notes.jsonl", "jsonl"), ("notes.csv", "csv"),
    ],
)
def test_fixture_formats(fixtures, rel, fmt):
    assert detect_format(fixtures / rel) == fmt


def test_inline_dir_with_untagged_notes_is_inline(fixtures):
    assert detect_format(fixtures / "inline") == "inline"  # P902-1.txt has no tag


def test_mixed_directory(fixtures):
    with pytest.raises(UnknownFormatError, match="mixes formats") as info:
        detect_format(fixtures)
    assert info.value.path == str(fixtures)


def test_unknown_and_missing(tmp_path):
    (tmp_path / "README.md").write_text("x")
    with pytest.raises(UnknownFormatError, match="no file of a known format"):
        detect_format(tmp_path)
    with pytest.raises(UnknownFormatError, match="pass --format"):
        detect_format(tmp_path / "README.md")
    with pytest.raises(InputFormatError, match="no such file"):
        detect_format(tmp_path / "nope")


def test_hidden_files_ignored(tmp_path):
    (tmp_path / "a.jsonl").write_text('{"text": "x"}\n')
    (tmp_path / ".cache").mkdir()
    (tmp_path / ".cache" / "b.csv").write_text("text\nx\n")
    assert detect_format(tmp_path) == "jsonl"


@pytest.mark.parametrize("name,fmt", [("a.jsonl", "jsonl"), ("a.csv", "csv"), ("a.parquet", "parquet"), ("a.xml", "i2b2-2006")])
def test_output_format(name, fmt):
    assert output_format(name) == fmt


def test_output_format_needs_to():
    with pytest.raises(UnknownFormatError, match="--to"):
        output_format("outdir")
