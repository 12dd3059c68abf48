"""What ``deid`` and ``annotate`` share for corpus-scale runs: the fingerprint, the run folder, progress.

>>> import argparse
>>> a = argparse.Namespace(input="x", output="o.jsonl", jobs="2", resume=True, quiet=False, mode="tag", key_file="k")
>>> sorted(command_options(a))
['input', 'mode', 'output']
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from notescrub.scale.workdir import RunFolder, input_signature
from notescrub.types import Document

__all__ = ["after_failure", "command_options", "fingerprint_parts", "run", "run_folder"]

#: options that do not change the output (or are recorded otherwise: the key by its id)
_NOT_FINGERPRINTED = frozenset({"jobs", "resume", "quiet", "verbose", "force", "skip_bad", "key_file", "_run",
                                "command"})


def command_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options of a command that decide its output (paths of secrets excluded)."""
    return {k: v for k, v in sorted(vars(args).items()) if k not in _NOT_FINGERPRINTED and not callable(v)}


def fingerprint_parts(command: str, args: argparse.Namespace, fmt: str, key_id: str | None) -> dict[str, Any]:
    """What a resumed run must share with the interrupted one (the key by its public id only)."""
    from notescrub import __version__
    from notescrub.io import input_files

    return {"command": command, "version": __version__, "format": fmt,
            "input": input_signature(input_files(args.input, fmt)), "options": command_options(args),
            "key": key_id}


def run_folder(args: argparse.Namespace, to_stdout: bool = False) -> RunFolder:
    """The run folder beside ``-o`` (a private temporary one when printing to stdout)."""
    if to_stdout or not args.output:
        return RunFolder.temporary()
    return RunFolder.for_output(Path(str(args.output).rstrip("/")))


def run(command: str, args: argparse.Namespace, task: Any, read: Callable[[bool], Iterable[Document]],
        folder: RunFolder, parts: dict[str, Any], *, by_patient: bool,
        builder: Callable[[], Any] | None = None) -> Any:
    """Run the batch with ``--jobs``/``--resume``/``--chunk-size`` and a progress report (silent with -q)."""
    from notescrub.cli.progress import Progress
    from notescrub.scale.pool import parse_jobs
    from notescrub.scale.run import run_batch

    jobs = parse_jobs(getattr(args, "jobs", 1))
    with Progress(command, quiet=bool(getattr(args, "quiet", False))) as progress:
        return run_batch(task, read, folder, parts, by_patient=by_patient, jobs=jobs,
                         resume=bool(getattr(args, "resume", False)), chunk_size=getattr(args, "chunk_size", None),
                         builder=builder, progress=progress)


def after_failure(folder: RunFolder, exc: BaseException) -> None:
    """Keep the run folder for ``--resume`` after an interruption (kill, Ctrl-C, full disk, a dead
    worker); remove it when a document failed (a run that writes nothing, as without a run folder)
    or when this run made it and stopped on bad input or options. A folder of another run is
    never touched."""
    from notescrub.errors import NotescrubError
    from notescrub.scale.pool import DocumentFailure, WorkerDied

    if not folder.resumable or isinstance(exc, DocumentFailure) or (isinstance(exc, NotescrubError) and not isinstance(exc, WorkerDied) and folder.created):
        folder.remove()
