"""``notescrub synth``: generate synthetic annotated English notes, re-populate or recase a corpus."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from notescrub.errors import ConfigError

NAME = "synth"
HELP = "generate synthetic annotated English clinical notes; re-populate a corpus with new surrogates"
DESCRIPTION = """\
generate    write N synthetic clinical notes (about 20 note types) with exact gold PHI
            spans (i2b2-2014 subtypes) for fictional patients whose names, places,
            numbers and dates recur across their notes. Deterministic for a seed.
repopulate  replace every gold PHI mention of a corpus with new surrogates
            (random, ambiguous or out-of-vocabulary), keeping the offsets consistent.
recase      write lower-case or ALL-CAPS copies of (a share of) a corpus's notes with
            their annotations, for training taggers that must not rely on case.

The output format follows the output name (.jsonl, .parquet, .csv, a directory for
brat / i2b2 XML with --to). Outputs are written atomically.

examples:
  notescrub synth generate -n 500 --seed 1 -o synth.jsonl
  notescrub synth generate -n 50 --per-patient 2-4 --types ed,icu_nursing,portal -o small.jsonl
  notescrub synth generate --list-types
  notescrub synth repopulate ../shared/corpora/en-dev/en-dev.jsonl -o endev-oov.jsonl --style oov --seed 3
  notescrub synth recase endev-oov.jsonl -o endev-oov-upper.jsonl --case upper --share 0.25
"""

log = logging.getLogger("notescrub.synth")


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="synth_command", metavar="SUBCOMMAND")
    g = sub.add_parser("generate", help="generate synthetic annotated notes", formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Generate synthetic annotated English clinical notes.")
    g.add_argument("-n", "--notes", type=int, default=None, metavar="N", help="number of notes to write")
    g.add_argument("--patients", type=int, default=None, metavar="P", help="number of patients instead of -n (all their notes)")
    g.add_argument("--per-patient", default="1-4", metavar="K|MIN-MAX", help="notes per patient (default: 1-4)")
    g.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    g.add_argument("--types", default=None, metavar="T1,T2", help="only these note types (see --list-types)")
    g.add_argument("--prefix", default="SYN", help="document id prefix (default: SYN -> SYN0001-1)")
    g.add_argument("-o", "--output", metavar="OUT", help="output file or directory")
    g.add_argument("--to", dest="format", default=None, metavar="F", help="output format (default: from the output name)")
    g.add_argument("--force", action="store_true", help="replace an existing non-empty output directory")
    g.add_argument("--list-types", action="store_true", help="print the note types and exit")
    g.set_defaults(_synth=_generate)
    r = sub.add_parser("repopulate", help="replace gold PHI with new surrogates", formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Replace every gold PHI mention with a new surrogate, keeping spans exact.")
    r.add_argument("corpus", metavar="CORPUS", help="annotated corpus (file or directory)")
    r.add_argument("-o", "--output", required=True, metavar="OUT", help="output file or directory")
    r.add_argument("--style", choices=("random", "ambiguous", "oov"), default="random", help="surrogate style (default: random)")
    r.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    r.add_argument("--layer", default="gold", help="layer holding the PHI (default: gold)")
    r.add_argument("--format", default=None, metavar="F", help="input format (default: detected)")
    r.add_argument("--to", dest="out_format", default=None, metavar="F", help="output format (default: from the output name)")
    r.add_argument("--force", action="store_true", help="replace an existing non-empty output directory")
    r.set_defaults(_synth=_repopulate)
    c = sub.add_parser("recase", help="lower-case or ALL-CAPS copies of annotated notes",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Write notes in one case with their annotations (offsets unchanged); "
                                   "ids get '~lower' or '~upper'.")
    c.add_argument("corpus", metavar="CORPUS", help="annotated corpus (file or directory)")
    c.add_argument("-o", "--output", required=True, metavar="OUT", help="output file or directory")
    c.add_argument("--case", choices=("lower", "upper"), required=True, help="the case to write")
    c.add_argument("--share", type=float, default=1.0, help="share of the notes to copy, 0-1 (default: 1)")
    c.add_argument("--seed", type=int, default=0, help="random seed for the share (default: 0)")
    c.add_argument("--format", default=None, metavar="F", help="input format (default: detected)")
    c.add_argument("--to", dest="out_format", default=None, metavar="F", help="output format (default: from the output name)")
    c.add_argument("--force", action="store_true", help="replace an existing non-empty output directory")
    c.set_defaults(_synth=_recase)


def run(args: argparse.Namespace) -> int:
    fn = getattr(args, "_synth", None)
    if fn is None:
        raise ConfigError("missing sub-command: use 'notescrub synth generate', 'repopulate' or 'recase' (see --help)")
    return fn(args)


def parse_per_patient(value: str) -> int | tuple[int, int]:
    """``"3"`` -> 3, ``"1-4"`` -> (1, 4).

    >>> parse_per_patient("1-4"), parse_per_patient("2")
    ((1, 4), 2)
    """
    try:
        if "-" in value:
            lo, hi = (int(x) for x in value.split("-", 1))
            return (lo, hi)
        return int(value)
    except ValueError:
        raise ConfigError(f"--per-patient must be K or MIN-MAX, got {value!r}") from None


def _generate(args: argparse.Namespace) -> int:
    from notescrub.cli.progress import track
    from notescrub.synth import generate_corpus, generate_notes
    from notescrub.synth.notes import NOTE_TYPES

    if args.list_types:
        for name, (_, weight, style) in NOTE_TYPES.items():
            print(f"{name:<24} weight {weight:<4g} {style}")
        return 0
    if not args.output:
        raise ConfigError("-o/--output is required")
    per = parse_per_patient(args.per_patient)
    types = [t.strip() for t in args.types.split(",") if t.strip()] if args.types else None
    if args.patients is not None:
        docs = generate_corpus(args.patients, per, args.seed, note_types=types, prefix=args.prefix)
        total = None
    else:
        n = 100 if args.notes is None else args.notes
        if n < 1:
            raise ConfigError(f"-n must be >= 1, got {n}")
        docs = generate_notes(n, args.seed, notes_per_patient=per, note_types=types, prefix=args.prefix)
        total = n
    quiet = getattr(args, "quiet", False)
    written = _write(track(docs, "generating", quiet=quiet, total=total), args.output, args.format, args.force)
    log.info("wrote %d synthetic notes to %s", written, args.output)
    return 0


def _repopulate(args: argparse.Namespace) -> int:
    from notescrub.cli.progress import track
    from notescrub.io import count_documents, read_corpus

    try:
        from notescrub.replace.repopulate import repopulate_corpus
    except ImportError as exc:
        raise ConfigError(f"re-population is not available in this installation ({exc})") from None
    docs = read_corpus(args.corpus, args.format)
    out = repopulate_corpus(docs, style=args.style, seed=args.seed, layer=args.layer)
    quiet = getattr(args, "quiet", False)
    written = _write(track(out, "re-populating", quiet=quiet, total=count_documents(args.corpus, args.format)), args.output,
                     args.out_format, args.force, layer=args.layer)
    log.info("wrote %d re-populated documents to %s", written, args.output)
    return 0


def _recase(args: argparse.Namespace) -> int:
    from notescrub.io import read_corpus
    from notescrub.synth.recase import recased_corpus

    out = recased_corpus(read_corpus(args.corpus, args.format), args.case, share=args.share, seed=args.seed)
    written = _write(out, args.output, args.out_format, args.force)
    log.info("wrote %d %s-case documents to %s", written, args.case, args.output)
    return 0


def _write(docs, output: str, fmt: str | None, force: bool, *, layer: str = "gold") -> int:
    from notescrub.io import write_corpus

    return write_corpus(docs, Path(output), fmt, layer=layer, overwrite=force)
