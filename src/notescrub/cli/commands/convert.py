"""``notescrub convert``: convert a corpus between formats (atomic, all or nothing)."""

from __future__ import annotations

import argparse
import itertools
import sys

from notescrub.errors import NotescrubError, ProcessingError
from notescrub.io import (
    READ_FORMATS,
    WRITE_FORMATS,
    count_documents,
    get_format,
    read_corpus,
    write_corpus,
)
from notescrub.io.detect import detect_format, output_format

NAME = "convert"
HELP = "convert a corpus between formats (i2b2 XML, brat, JSONL, CSV, Parquet...)"
DESCRIPTION = f"""\
Convert a corpus (a file or a directory) to another format. The input format is
detected from file names and content unless --format is given. The output is
written atomically: if any input file is bad, nothing is written (unless
--skip-bad, which lists every skipped file on stderr and exits with status 1;
when nothing at all could be read, it writes nothing and exits with status 2).

read formats:  {", ".join(READ_FORMATS)}
write formats: {", ".join(WRITE_FORMATS)}
(parquet needs the 'parquet' extra: pip install 'notescrub[parquet]')

examples:
  notescrub convert ../shared/corpora/meddocan/train/xml -o /tmp/train.jsonl --to jsonl
  notescrub convert /tmp/train.jsonl -o /tmp/train-xml --to i2b2-xml
  notescrub convert notes/ -o notes.parquet --to parquet --encoding latin-1 --skip-bad
  notescrub convert id.text -o physionet.jsonl          (PhysioNet deid, read only)
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", metavar="INPUT", help="input file or directory")
    p.add_argument("-o", "--output", required=True, metavar="OUTPUT", help="output file or directory")
    p.add_argument("--to", choices=WRITE_FORMATS, metavar="FORMAT",
                   help="output format (default: from the OUTPUT suffix: .jsonl, .csv, .parquet, .xml = i2b2-2006)")
    p.add_argument("--format", choices=READ_FORMATS, metavar="F", help="input format (default: detected)")
    p.add_argument("--encoding", default="utf-8", help="encoding of the input text files (default: utf-8)")
    p.add_argument("--skip-bad", action="store_true", help="skip bad files/records, listing each on stderr")
    p.add_argument("--layer", default="gold", help="span layer to write (default: gold)")
    p.add_argument("--force", action="store_true", help="replace an existing non-empty output directory")


def run(args: argparse.Namespace) -> int:
    from notescrub.cli.progress import track

    quiet = getattr(args, "quiet", False)
    src_fmt = args.format or detect_format(args.input)
    dst_fmt = args.to or output_format(args.output)
    get_format(dst_fmt).require("writing")  # a missing extra stops before anything is read
    skipped: list[NotescrubError] = []
    docs = read_corpus(args.input, src_fmt, encoding=args.encoding, skip_bad=args.skip_bad, on_skip=skipped.append)
    first = next(docs, None)  # nothing readable (every record bad with --skip-bad): write nothing, fail
    if first is None:
        for err in skipped:
            print(f"notescrub convert: skipped {err}", file=sys.stderr)
        raise ProcessingError(f"no document could be read from the input ({len(skipped)} skipped); nothing was written")
    docs = itertools.chain([first], docs)
    total = count_documents(args.input, src_fmt)
    n = write_corpus(track(docs, f"convert {src_fmt} -> {dst_fmt}", quiet=quiet, total=total),
                     args.output, dst_fmt, layer=args.layer, overwrite=args.force)
    for err in skipped:
        print(f"notescrub convert: skipped {err}", file=sys.stderr)
    if not quiet:
        extra = f", skipped {len(skipped)}" if skipped else ""
        print(f"notescrub convert: wrote {n} documents ({src_fmt} -> {dst_fmt}) to {args.output}{extra}", file=sys.stderr)
    return 1 if skipped else 0
