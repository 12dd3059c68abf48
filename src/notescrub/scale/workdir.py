"""The run folder beside the output: a manifest and one atomically written file per finished chunk.

A batch run keeps its finished work in ``.notescrub-run.<output name>/`` next to the output:
``manifest.json`` (a fingerprint of the command: input files with size and modification
time, model, mode, options and the key's public id, never the key) and
``chunk-NNNNNN.pkl`` files, each written under a temporary name and renamed once complete,
so a chunk file is either absent or whole. The final output is assembled from the chunk
files in input order (:meth:`RunFolder.records`); the folder is removed once the output is
in place. After ``kill -9``, a power cut or a full disk the folder remains, and the same
command with ``--resume`` redoes only the chunks that are missing.

The folder is private (mode 700): chunk files hold de-identified notes and their
pickled form is only ever read back by the run that wrote it.

>>> import tempfile, pathlib
>>> out = pathlib.Path(tempfile.mkdtemp()) / "out.jsonl"
>>> rf = RunFolder.for_output(out)
>>> rf.path.name
'.notescrub-run.out.jsonl'
>>> rf.open({"input": "a"}, resume=False)
>>> rf.write_chunk(1, [(2, "c")], {"n": 1}); rf.write_chunk(0, [(0, "a"), (1, "b")], {"n": 2})
>>> sorted(rf.done()), list(rf.records())
([0, 1], [(0, 'a'), (1, 'b'), (2, 'c')])
>>> rf.remove(); rf.path.exists()
False
"""

from __future__ import annotations

import hashlib
import heapq
import json
import os
import pickle
import resource
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from notescrub.errors import ConfigError, ProcessingError

__all__ = ["RUN_PREFIX", "RunFolder", "fingerprint", "input_signature"]

RUN_PREFIX = ".notescrub-run."
_MANIFEST = "manifest.json"
_VERSION = 1


def input_signature(files: Iterable[Path]) -> list[list[Any]]:
    """``[[resolved path, size, mtime_ns], ...]`` of the input files (what a resumed run must find unchanged)."""
    out = []
    for f in files:
        st = f.stat()
        out.append([str(f.resolve()), st.st_size, st.st_mtime_ns])
    return out


def fingerprint(parts: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of ``parts`` (which must not contain secrets).

    >>> fingerprint({"a": 1, "b": [2]}) == fingerprint({"b": [2], "a": 1})
    True
    """
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode("utf-8")).hexdigest()


def _chunk_name(i: int) -> str:
    return f"chunk-{i:06d}.pkl"


class RunFolder:
    """The manifest and chunk files of one batch run (see the module docstring)."""

    def __init__(self, path: Path, *, resumable: bool = True) -> None:
        self.path = path
        self.resumable = resumable
        self.created = False  # made by this run (not one left by an interrupted run)

    @classmethod
    def for_output(cls, output: str | Path) -> RunFolder:
        out = Path(output)
        return cls(out.parent / f"{RUN_PREFIX}{out.name}")

    @classmethod
    def temporary(cls) -> RunFolder:
        """A private folder in the system's temporary folder (runs that print to stdout; not resumable)."""
        return cls(Path(tempfile.mkdtemp(prefix=RUN_PREFIX)), resumable=False)

    # -- opening ---------------------------------------------------------------------
    def _manifest(self) -> dict[str, Any] | None:
        try:
            data = json.loads((self.path / _MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def check(self, *, resume: bool, discard: bool = False) -> None:
        """Refuse to start over a folder a killed run left, unless resuming or discarding it."""
        if not self.resumable or not self.path.exists():
            return
        if discard:
            shutil.rmtree(self.path)
            return
        if not resume:
            raise ConfigError(
                f"an interrupted run left its finished work in {self.path}: rerun the same command with "
                "--resume to finish it, or delete that folder (or pass --force) to start again")

    def open(self, parts: dict[str, Any], *, resume: bool) -> None:
        """Create the folder (or check that the one found belongs to this very command)."""
        fp = fingerprint(parts)
        if self.path.exists() and self.resumable:
            if not resume:
                self.check(resume=False)
            old = self._manifest()
            if old is None or old.get("version") != _VERSION:
                raise ConfigError("this folder has no readable notescrub manifest; delete it to start again",
                                  path=self.path)
            if old.get("fingerprint") != fp:
                changed = sorted(k for k in set(parts) | set(old.get("parts", {}))
                                 if fingerprint({k: parts.get(k)}) != old.get("parts", {}).get(k))
                raise ConfigError(
                    f"--resume: the interrupted run in this folder was a different command ({', '.join(changed)} "
                    "changed); rerun exactly that command with --resume, or delete the folder to start this one",
                    path=self.path)
            for tmp in self.path.glob(".tmp-*"):  # half-written chunks of the killed run
                tmp.unlink(missing_ok=True)
            return
        self.path.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(self.path, 0o700)
        self.created = True
        manifest = {"version": _VERSION, "fingerprint": fp,
                    "parts": {k: fingerprint({k: v}) for k, v in parts.items()}}
        self._write_atomic(_MANIFEST, json.dumps(manifest, indent=1).encode("utf-8"))

    def _write_atomic(self, name: str, data: bytes) -> None:
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=self.path)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path / name)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _fsync_dir(self.path)

    # -- chunks ----------------------------------------------------------------------
    def write_chunk(self, index: int, records: list[tuple[int, Any]], header: dict[str, Any]) -> None:
        """Write chunk ``index``: ``header`` then ``records`` sorted by input position, atomically."""
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=self.path)
        try:
            with os.fdopen(fd, "wb") as fh:
                pickle.dump(dict(header, n=len(records)), fh, protocol=pickle.HIGHEST_PROTOCOL)
                for rec in sorted(records, key=lambda r: r[0]):
                    pickle.dump(rec, fh, protocol=pickle.HIGHEST_PROTOCOL)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path / _chunk_name(index))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _fsync_dir(self.path)

    def done(self) -> set[int]:
        """Indices of the chunks already written."""
        out = set()
        for p in self.path.glob("chunk-*.pkl"):
            try:
                out.add(int(p.stem.split("-")[1]))
            except (IndexError, ValueError):
                continue
        return out

    def header(self, index: int) -> dict[str, Any]:
        with open(self.path / _chunk_name(index), "rb") as fh:
            return _load(fh, self.path / _chunk_name(index))

    def _iter(self, index: int) -> Iterator[tuple[int, Any]]:
        path = self.path / _chunk_name(index)
        with open(path, "rb") as fh:
            n = _load(fh, path)["n"]
            for _ in range(n):
                yield _load(fh, path)

    def records(self) -> Iterator[tuple[int, Any]]:
        """Every record of every chunk, merged into input order (one open file per chunk)."""
        chunks = sorted(self.done())
        _raise_open_files(len(chunks) + 64)
        last = -1
        for rec in heapq.merge(*(self._iter(i) for i in chunks), key=lambda r: r[0]):
            if rec[0] <= last:
                raise ProcessingError("the run folder holds a note twice; delete it and run again", )
            last = rec[0]
            yield rec

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


def _load(fh: Any, path: Path) -> Any:
    try:
        return pickle.load(fh)
    except Exception as exc:  # noqa: BLE001 - a damaged chunk file
        raise ProcessingError(f"damaged chunk file ({type(exc).__name__}); delete it and rerun with --resume",
                              path=path) from None


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _raise_open_files(n: int) -> None:
    """Allow ``n`` open files if the hard limit permits (the merge keeps one per chunk open)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < n:
        new = n if hard == resource.RLIM_INFINITY else min(n, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
