"""Atomic outputs after crashes and under concurrent runs."""

import pytest

from notescrub.errors import ConfigError
from notescrub.io.atomic import TMP_PREFIX, atomic_dir, atomic_file, output_lock


def test_stale_temporaries_of_a_killed_run_are_removed(tmp_path):
    target = tmp_path / "out"
    # what a run killed with -9 leaves behind: a half-written temporary folder and file
    (tmp_path / f"{TMP_PREFIX}out.abc123.tmp").mkdir()
    (tmp_path / f"{TMP_PREFIX}out.abc123.tmp" / "n1.txt").write_text("half", encoding="utf-8")
    (tmp_path / f"{TMP_PREFIX}out.def456.old").mkdir()
    (tmp_path / f"{TMP_PREFIX}other.zzz.tmp").write_text("not ours", encoding="utf-8")
    with atomic_dir(target) as tmp:
        (tmp / "n1.txt").write_text("done", encoding="utf-8")
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == [f"{TMP_PREFIX}other.zzz.tmp", "out"]
    assert (target / "n1.txt").read_text(encoding="utf-8") == "done"


def test_a_second_run_on_the_same_output_is_refused(tmp_path):
    target = tmp_path / "out.jsonl"
    with output_lock(target):
        # another process (simulated by a second open file description) cannot take it
        import fcntl
        import os

        fd = os.open(tmp_path / ".notescrub-lock.out.jsonl", os.O_RDWR)
        try:
            with pytest.raises(OSError):
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(fd)
        # the same process may write it (the command holds the lock for the whole run)
        with atomic_file(target) as tmp:
            tmp.write_text("ok", encoding="utf-8")
    assert target.read_text(encoding="utf-8") == "ok"
    assert not (tmp_path / ".notescrub-lock.out.jsonl").exists()


def test_two_runs_into_one_folder(tmp_path):
    target = tmp_path / "brat"
    with atomic_dir(target) as tmp:
        (tmp / "a.txt").write_text("first", encoding="utf-8")
    with pytest.raises(ConfigError, match="not empty"), atomic_dir(target) as tmp:
        (tmp / "a.txt").write_text("second", encoding="utf-8")
    assert (target / "a.txt").read_text(encoding="utf-8") == "first"
