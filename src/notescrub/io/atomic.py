"""Atomic outputs: a file or a directory appears complete or not at all.

Writers build their output under a temporary name next to the target and rename it
into place only once everything was written, so an interrupted or failed
conversion never leaves a half-written corpus behind.

>>> import tempfile, pathlib
>>> out = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
>>> with atomic_file(out) as tmp:
...     _ = tmp.write_text("done", encoding="utf-8")
>>> out.read_text(encoding="utf-8")
'done'
>>> try:
...     with atomic_file(out) as tmp:
...         _ = tmp.write_text("half", encoding="utf-8")
...         raise RuntimeError("boom")
... except RuntimeError:
...     pass
>>> out.read_text(encoding="utf-8")
'done'
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from notescrub.errors import ConfigError

__all__ = ["atomic_dir", "atomic_file"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _publish_mode(path: Path, base: int) -> None:
    """Give a finished temporary file/directory the mode a plain ``open``/``mkdir`` would
    (``mkstemp``/``mkdtemp`` create them private: 0600/0700)."""
    os.chmod(path, base & ~_umask())


@contextmanager
def atomic_file(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path in the target's folder; ``os.replace`` it onto ``path`` on success."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        _publish_mode(tmp, 0o666)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextmanager
def atomic_dir(path: str | Path, *, overwrite: bool = False) -> Iterator[Path]:
    """Yield a fresh temporary directory that is renamed to ``path`` on success.

    An existing non-empty ``path`` is refused unless ``overwrite``; it is then
    swapped out only after the new directory is complete.
    """
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise ConfigError("output exists and is not a directory", path=target)
    if target.is_dir() and any(target.iterdir()) and not overwrite:
        raise ConfigError("output directory exists and is not empty (use --force to replace it)", path=target)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
    try:
        yield tmp
        _publish_mode(tmp, 0o777)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    old: Path | None = None
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent))
        os.replace(target, old / "d")
    try:
        os.replace(tmp, target)
    except BaseException:
        if old is not None:
            os.replace(old / "d", target)
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
