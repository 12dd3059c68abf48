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

import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from notescrub.errors import ConfigError

__all__ = ["TMP_PREFIX", "atomic_dir", "atomic_file", "output_lock"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _publish_mode(path: Path, base: int) -> None:
    """Give a finished temporary file/directory the mode a plain ``open``/``mkdir`` would
    (``mkstemp``/``mkdtemp`` create them private: 0600/0700)."""
    os.chmod(path, base & ~_umask())


#: temporaries start with this prefix, so that leftovers of a killed run are recognised
TMP_PREFIX = ".notescrub-tmp."
_LOCK_PREFIX = ".notescrub-lock."
_HELD: set[str] = set()


def _fsync_path(path: Path, directory: bool = False) -> None:
    flags = os.O_RDONLY | (getattr(os, "O_DIRECTORY", 0) if directory else 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems cannot sync directories
        pass
    finally:
        os.close(fd)


def _fsync_tree(root: Path) -> None:
    for folder, _, files in os.walk(root):
        for name in files:
            _fsync_path(Path(folder) / name)
        _fsync_path(Path(folder), directory=True)


def _remove_stale(target: Path) -> None:
    """Delete temporaries a killed earlier run left for ``target`` (we hold its lock: none is live)."""
    for p in target.parent.glob(f"{TMP_PREFIX}{glob_escape(target.name)}.*"):
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)


def glob_escape(name: str) -> str:
    """``name`` with glob metacharacters escaped.

    >>> glob_escape("a[1]*.txt")
    'a[[]1][*].txt'
    """
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)


@contextmanager
def output_lock(target: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``target`` for a run; a second run writing it is refused at once."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # e.g. a regular file where a folder of the path should be
        raise ConfigError(f"cannot create the output's folder ({type(exc).__name__})", path=target.parent) from None
    key = str(target.resolve())
    if key in _HELD:  # this process holds it already (a command locks its output for the whole run)
        yield
        return
    lock_path = target.parent / f"{_LOCK_PREFIX}{target.name}"
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    _HELD.add(key)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise ConfigError("another notescrub run is writing this output right now", path=target) from None
        try:
            _remove_stale(target)
            yield
        finally:
            lock_path.unlink(missing_ok=True)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        _HELD.discard(key)
        os.close(fd)


@contextmanager
def atomic_file(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path in the target's folder; ``os.replace`` it onto ``path`` on success.

    The target is locked for the duration (a concurrent run is refused), stale temporaries
    of killed runs are removed first, and the file and its folder are synced before and
    after the rename, so a crash leaves either the old or the new complete file.
    """
    target = Path(path)
    with output_lock(target):
        fd, tmp_name = tempfile.mkstemp(prefix=f"{TMP_PREFIX}{target.name}.", suffix=".tmp", dir=target.parent)
        os.close(fd)
        tmp = Path(tmp_name)
        try:
            yield tmp
            _publish_mode(tmp, 0o666)
            _fsync_path(tmp)
            os.replace(tmp, target)
            _fsync_path(target.parent, directory=True)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise


@contextmanager
def atomic_dir(path: str | Path, *, overwrite: bool = False) -> Iterator[Path]:
    """Yield a fresh temporary directory that is renamed to ``path`` on success.

    An existing non-empty ``path`` is refused unless ``overwrite``; it is then
    swapped out only after the new directory is complete. Locking, stale temporaries
    and syncing as :func:`atomic_file`.
    """
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise ConfigError("output exists and is not a directory", path=target)
    with output_lock(target):
        if target.is_dir() and any(target.iterdir()) and not overwrite:
            raise ConfigError("output directory exists and is not empty (use --force to replace it)", path=target)
        tmp = Path(tempfile.mkdtemp(prefix=f"{TMP_PREFIX}{target.name}.", suffix=".tmp", dir=target.parent))
        try:
            yield tmp
            _publish_mode(tmp, 0o777)
            _fsync_tree(tmp)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        old: Path | None = None
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f"{TMP_PREFIX}{target.name}.", suffix=".old", dir=target.parent))
            os.replace(target, old / "d")
        try:
            os.replace(tmp, target)
            _fsync_path(target.parent, directory=True)
        except BaseException:
            if old is not None:
                os.replace(old / "d", target)
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        finally:
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)
