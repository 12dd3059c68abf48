"""Surrogate keys: HMAC consistency, key files, and errors that never show the key."""

import os
import stat

import pytest

from notescrub.errors import KeyFileError
from notescrub.replace.keys import (
    KEY_HEADER,
    SurrogateKey,
    default_key_dir,
    normalise_value,
)


def test_digest_depends_on_every_part():
    k = SurrogateKey(bytes(32))
    base = k.digest("PATIENT", "P1", "smith")
    assert base == SurrogateKey(bytes(32)).digest("PATIENT", "P1", "smith")
    assert base != k.digest("DOCTOR", "P1", "smith")
    assert base != k.digest("PATIENT", "P2", "smith")
    assert base != k.digest("PATIENT", "P1", "smyth")
    assert base != SurrogateKey(b"\x01" * 32).digest("PATIENT", "P1", "smith")


def test_save_load_round_trip(tmp_path):
    k = SurrogateKey.generate()
    path = k.save(tmp_path / "k.key")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert path.read_text().startswith(KEY_HEADER + " ")
    assert SurrogateKey.load(path) == k
    with pytest.raises(KeyFileError, match="overwrite"):
        k.save(path)


def test_bare_hex_key_accepted(tmp_path):
    p = tmp_path / "k"
    p.write_text("ab" * 32 + "\n")
    assert SurrogateKey.load(p) == SurrogateKey(bytes.fromhex("ab" * 32))


SECRETISH = "zz" * 32


@pytest.mark.parametrize(
    "content, reason",
    [
        (SECRETISH.encode(), "hexadecimal"),
        (b"ab" * 10, "64 hex"),
        (b"\xff\xfe\x00binary", "binary"),
        (f"other-header {SECRETISH}".encode(), "expected"),
        (b"", "64 hex"),
    ],
)
def test_bad_key_files(tmp_path, content, reason):
    p = tmp_path / "bad.key"
    p.write_bytes(content)
    with pytest.raises(KeyFileError, match=reason) as err:
        SurrogateKey.load(p)
    assert str(p) in str(err.value)
    assert SECRETISH not in str(err.value)


def test_missing_and_directory(tmp_path):
    with pytest.raises(KeyFileError, match="does not exist"):
        SurrogateKey.load(tmp_path / "nope.key")
    with pytest.raises(KeyFileError, match="directory"):
        SurrogateKey.load(tmp_path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read unreadable files")
def test_unreadable(tmp_path):
    p = tmp_path / "k.key"
    SurrogateKey.generate().save(p)
    p.chmod(0)
    with pytest.raises(KeyFileError, match="permission"):
        SurrogateKey.load(p)


def test_repr_hides_secret():
    k = SurrogateKey(bytes(range(32)))
    assert bytes(range(32)).hex() not in repr(k)
    assert k.id in repr(k)


def test_short_key_rejected():
    with pytest.raises(KeyFileError):
        SurrogateKey(b"short")


def test_normalise_and_key_dir(monkeypatch, tmp_path):
    assert normalise_value("  Ｊohn\tSMITH ") == "john smith"
    monkeypatch.setenv("NOTESCRUB_KEY_DIR", str(tmp_path))
    assert default_key_dir() == tmp_path
