"""Atomic outputs get ordinary permissions (umask), not the private temp-file modes."""

import os
import stat

from notescrub.io.atomic import atomic_dir, atomic_file


def test_atomic_file_and_dir_follow_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        with atomic_file(tmp_path / "a.txt") as tmp:
            tmp.write_text("x", encoding="utf-8")
        with atomic_dir(tmp_path / "d") as tmp:
            (tmp / "f").write_text("y", encoding="utf-8")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.txt").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "d").stat().st_mode) == 0o755
