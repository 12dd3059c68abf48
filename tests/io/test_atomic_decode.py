"""Atomic writes and strict decoding."""

import pytest

from notescrub.errors import ConfigError, EncodingError, InputFormatError
from notescrub.io.atomic import atomic_dir, atomic_file
from notescrub.io.decode import decode_bytes, iter_lines, read_text


def test_atomic_dir_success_and_failure(tmp_path):
    out = tmp_path / "out"
    with atomic_dir(out) as tmp:
        (tmp / "a.txt").write_text("1")
    assert (out / "a.txt").read_text() == "1"
    with pytest.raises(ConfigError, match="not empty"), atomic_dir(out):
        pass
    with pytest.raises(RuntimeError), atomic_dir(out, overwrite=True) as tmp:
        (tmp / "b.txt").write_text("2")
        raise RuntimeError("boom")
    assert sorted(p.name for p in out.iterdir()) == ["a.txt"]
    with atomic_dir(out, overwrite=True) as tmp:
        (tmp / "b.txt").write_text("2")
    assert sorted(p.name for p in out.iterdir()) == ["b.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no temporary left behind


def test_atomic_file_no_leftovers(tmp_path):
    with pytest.raises(ValueError), atomic_file(tmp_path / "x.jsonl") as tmp:
        tmp.write_text("half")
        raise ValueError
    assert list(tmp_path.iterdir()) == []


def test_decode_errors_name_line_never_text(tmp_path):
    f = tmp_path / "a.txt"
    f.write_bytes("Sra. Peña\n".encode() + b"Se\xf1or\n")
    with pytest.raises(EncodingError) as info:
        read_text(f)
    assert info.value.line == 2 and "--encoding" in str(info.value) and "Se" not in info.value.reason
    assert read_text(f, "latin-1").endswith("Señor\n")


def test_bom_is_kept_in_text(tmp_path):
    f = tmp_path / "a.txt"
    f.write_bytes(b"\xef\xbb\xbfNombre")
    assert read_text(f) == "\ufeffNombre"  # MEDDOCAN counts it in offsets


def test_unknown_encoding(tmp_path):
    with pytest.raises(EncodingError, match="unknown encoding"):
        decode_bytes(b"x", "no-such-codec", path="a")


def test_iter_lines_utf16(tmp_path):
    f = tmp_path / "a.jsonl"
    f.write_bytes("a\r\nb\n".encode("utf-16"))
    assert list(iter_lines(f, "utf-16")) == [(1, "a\r\n"), (2, "b\n")]


def test_empty_and_missing(tmp_path):
    (tmp_path / "e.txt").write_bytes(b"  \n")
    with pytest.raises(InputFormatError, match="empty file"):
        read_text(tmp_path / "e.txt")
    with pytest.raises(InputFormatError, match="cannot read"):
        read_text(tmp_path / "missing.txt")
