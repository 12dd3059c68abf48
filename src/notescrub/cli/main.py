"""``notescrub`` command line: a thin edge over the library.

Sub-commands live one per module in :mod:`notescrub.cli.commands`; each module defines
``NAME``, ``HELP``, ``DESCRIPTION`` (with examples), ``add_arguments(parser)`` and
``run(args) -> int``. They are discovered here, so adding a command touches no shared file.

Errors derived from :class:`~notescrub.errors.NotescrubError` print one line
(file, line, reason — never note text) and exit with status 2.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import pkgutil
import sys
from types import ModuleType

from notescrub import __version__
from notescrub.errors import NotescrubError
from notescrub.threads import single_threaded_blas

__all__ = ["build_parser", "main"]


def _command_modules() -> list[ModuleType]:
    import notescrub.cli.commands as pkg

    mods = []
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        mods.append(importlib.import_module(f"{pkg.__name__}.{info.name}"))
    return mods


def _add_common(p: argparse.ArgumentParser, top: bool = False) -> None:
    """``-q``/``-v`` on a parser; below the top one they default to nothing, so they may go anywhere."""
    default: dict = {} if top else {"default": argparse.SUPPRESS}
    p.add_argument("-q", "--quiet", action="store_true", **default,
                   help="no progress bars or info messages (warnings and errors only)")
    p.add_argument("-v", "--verbose", action="store_true", **default,
                   help="debug logging; messages show document ids instead of keyed hashes (never note text)")


def _nested(p: argparse.ArgumentParser):
    """Every sub-parser below ``p`` (``notescrub synth generate`` ...)."""
    for action in p._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sp in action.choices.values():
                yield sp
                yield from _nested(sp)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="notescrub",
        description="De-identify clinical text: detect PHI, replace it, evaluate, train.",
        epilog="Run 'notescrub COMMAND --help' for a command's options and examples. "
               "-q and -v may be given before or after the command.",
    )
    parser.add_argument("--version", action="version", version=f"notescrub {__version__}")
    _add_common(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in _command_modules():
        p = sub.add_parser(
            mod.NAME,
            help=mod.HELP,
            description=getattr(mod, "DESCRIPTION", mod.HELP),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        _add_common(p)
        mod.add_arguments(p)
        for nested in _nested(p):
            _add_common(nested)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    single_threaded_blas()  # first: before anything imports numpy (notescrub.threads)
    from notescrub.cli.summary import WarningSummary

    parser = build_parser()
    args = parser.parse_args(argv)
    quiet, verbose = bool(getattr(args, "quiet", False)), bool(getattr(args, "verbose", False))
    args.quiet, args.verbose = quiet, verbose
    level = logging.DEBUG if verbose else (logging.WARNING if quiet else logging.INFO)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("notescrub: %(levelname)s: %(message)s"))
    summary = WarningSummary(verbose)
    handler.addFilter(summary)
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(level)
    from notescrub.docref import reveal_ids

    reveal_ids(verbose)
    try:
        if not getattr(args, "_run", None):
            parser.print_help()
            return 1
        try:
            return int(args._run(args) or 0)
        except NotescrubError as exc:
            print(f"notescrub {args.command}: error: {exc}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print("notescrub: interrupted; no partial output was kept", file=sys.stderr)
            return 130
    finally:
        for line in summary.lines():
            print(f"notescrub: WARNING: {line}", file=sys.stderr)
        root.removeHandler(handler)
        root.setLevel(old_level)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
