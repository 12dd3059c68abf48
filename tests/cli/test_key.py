"""``notescrub key new`` and the messages that point to it."""

import os
import stat

from notescrub.cli.main import main
from notescrub.io import write_corpus
from notescrub.replace.keys import SurrogateKey
from notescrub.types import Document


def test_key_new_writes_a_private_key_and_never_overwrites(tmp_path, capsys):
    path = tmp_path / "private" / "site.key"
    assert main(["key", "new", str(path)]) == 0
    err = capsys.readouterr().err
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
    key = SurrogateKey.load(path)
    assert key.id in err and str(path) in err
    assert path.read_text().split()[1] not in err  # the secret is never printed
    before = path.read_bytes()
    assert main(["key", "new", str(path)]) == 2
    assert "refusing to overwrite" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_key_without_subcommand_is_a_usage_error(capsys):
    assert main(["key"]) == 2
    assert "notescrub key new PATH" in capsys.readouterr().err


def test_missing_key_file_points_to_key_new(tmp_path, capsys):
    notes = tmp_path / "n.jsonl"
    write_corpus([Document("a", "Seen by Dr. Ruiz.")], notes)
    missing = tmp_path / "site.key"
    assert main(["deid", str(notes), "-o", str(tmp_path / "o.jsonl"), "--model", "rules-en",
                 "--key-file", str(missing)]) == 2
    err = capsys.readouterr().err
    assert "key file does not exist" in err and f"notescrub key new {missing}" in err
    assert not (tmp_path / "o.jsonl").exists()


def _notes(tmp_path):
    src = tmp_path / "notes"
    src.mkdir()
    (src / "a.txt").write_text("Seen by Dr. Ruiz on 03/18/2091.", encoding="utf-8")
    return src


def test_deid_saves_no_key_when_writing_fails(tmp_path, monkeypatch):
    keys = tmp_path / "keys"
    monkeypatch.setenv("NOTESCRUB_KEY_DIR", str(keys))
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    assert main(["-q", "deid", str(_notes(tmp_path)), "-o", str(blocker / "out"), "--model", "rules-en"]) != 0
    assert not keys.exists()


def test_deid_saves_no_key_when_every_document_fails(tmp_path, monkeypatch):
    keys = tmp_path / "keys"
    monkeypatch.setenv("NOTESCRUB_KEY_DIR", str(keys))
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["-q", "deid", str(bad), "-o", str(out), "--model", "rules-en", "--skip-bad"]) != 0
    assert not keys.exists() and not out.exists()


def test_deid_saves_the_key_once_the_output_exists(tmp_path, monkeypatch, capsys):
    keys = tmp_path / "keys"
    monkeypatch.setenv("NOTESCRUB_KEY_DIR", str(keys))
    out = tmp_path / "out"
    assert main(["-q", "deid", str(_notes(tmp_path)), "-o", str(out), "--model", "rules-en"]) == 0
    [saved] = list(keys.iterdir())
    assert (out / "a.txt").is_file() and stat.S_IMODE(os.stat(saved).st_mode) == 0o600
