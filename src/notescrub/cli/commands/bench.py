"""``notescrub bench``: run a registered benchmark and print its figures."""

from __future__ import annotations

import argparse
import json

from notescrub.bench import discover, run_benchmark

NAME = "bench"
HELP = "measure speed and memory of a component (tokenize, ...)"
DESCRIPTION = """\
Run a benchmark target on one core and print what was measured. Targets are
registered in notescrub.bench; without --corpus the shared MEDDOCAN train+dev
and en-dev corpora (../shared/corpora) are used.

examples:
  notescrub bench tokenize
  notescrub bench tokenize --corpus notes.jsonl --repeat 10 --json
  notescrub bench pipeline --model en-default --repeat 3
  notescrub bench --list
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("target", nargs="?", metavar="TARGET", help="benchmark name (see --list)")
    p.add_argument("--corpus", action="append", metavar="PATH", help="corpus to use (repeatable)")
    p.add_argument("--repeat", type=int, default=5, help="minimum timed passes (default 5; at least 2 s in all)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--list", action="store_true", help="list the benchmark targets")
    p.add_argument("--model", metavar="NAME_OR_DIR",
                   help="model for the annotate/pipeline targets (sets $NOTESCRUB_BENCH_MODEL)")


def run(args: argparse.Namespace) -> int:
    if args.list or not args.target:
        targets = discover()
        for name in sorted(targets):
            print(f"{name:12s} {targets[name].help}")
        return 0 if args.list else 1
    if getattr(args, "model", None):
        import os

        os.environ["NOTESCRUB_BENCH_MODEL"] = args.model
    res = run_benchmark(args.target, args.corpus, repeat=max(1, args.repeat))
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        width = max(map(len, res))
        for k, v in res.items():
            print(f"{k:{width}s}  {v:,}" if isinstance(v, int) else f"{k:{width}s}  {v}")
    return 0
