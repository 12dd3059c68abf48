"""``notescrub stats``: documents, patients, tokens and PHI spans by type of a corpus."""

from __future__ import annotations

import argparse
import json
import sys

from notescrub.io import READ_FORMATS, count_documents, read_corpus
from notescrub.io.detect import detect_format
from notescrub.io.stats import CorpusStats, corpus_stats

NAME = "stats"
HELP = "count documents, patients, tokens and PHI by type in a corpus"
DESCRIPTION = """\
Print corpus statistics: documents, distinct patients, characters, tokens (the
clinical tokenizer) and annotated spans by native label, canonical i2b2-2014
subtype and category. Never prints note text.

examples:
  notescrub stats ../shared/corpora/meddocan/train/brat
  notescrub stats ../shared/corpora/en-dev/en-dev.jsonl --json
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("corpus", metavar="CORPUS", help="corpus file or directory")
    p.add_argument("--format", choices=READ_FORMATS, metavar="F", help="input format (default: detected)")
    p.add_argument("--encoding", default="utf-8", help="encoding of the input text files (default: utf-8)")
    p.add_argument("--layer", default="gold", help="span layer to count (default: gold)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")


def run(args: argparse.Namespace) -> int:
    from notescrub.cli.progress import track

    quiet = getattr(args, "quiet", False) or args.json
    fmt = args.format or detect_format(args.corpus)
    docs = read_corpus(args.corpus, fmt, encoding=args.encoding)
    st = corpus_stats(track(docs, "reading", quiet=quiet, total=count_documents(args.corpus, fmt)), layer=args.layer)
    if args.json:
        print(json.dumps({"corpus": str(args.corpus), "format": fmt, **st.to_dict()}, indent=2))
    else:
        _print_tables(st, fmt)
    return 0


def patients_cell(st: CorpusStats) -> str:
    """The patients figure in words: "no patient ids" rather than a misleading 0.

    >>> patients_cell(CorpusStats(documents=3)), patients_cell(CorpusStats(documents=3, patients=2))
    ('no patient ids', '2')
    >>> patients_cell(CorpusStats(documents=3, patients=1, without_patient=1))
    '1 (1 document without a patient id)'
    """
    if st.documents and not st.patients:
        return "no patient ids"
    if st.without_patient:
        s = "" if st.without_patient == 1 else "s"
        return f"{st.patients:,} ({st.without_patient:,} document{s} without a patient id)"
    return f"{st.patients:,}"


def _print_tables(st: CorpusStats, fmt: str) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(file=sys.stdout)
    summary = Table(title=f"corpus ({fmt})", show_header=False)
    summary.add_row("documents", f"{st.documents:,}")
    summary.add_row("patients", patients_cell(st))
    for k, v in (("characters", st.characters), ("tokens", st.tokens), (f"spans ({st.layer})", st.spans),
                 ("discontinuous spans", st.discontinuous)):
        summary.add_row(k, f"{v:,}")
    console.print(summary)
    for title, counts in (("PHI by native label", st.by_native), ("PHI by canonical subtype", st.by_canonical),
                          ("PHI by category", st.by_category)):
        if not counts:
            continue
        t = Table(title=title)
        t.add_column("type")
        t.add_column("spans", justify="right")
        t.add_column("%", justify="right")
        for k, v in counts.items():
            t.add_row(k, f"{v:,}", f"{100 * v / max(st.spans, 1):.1f}")
        console.print(t)
