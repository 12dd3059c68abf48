"""``notescrub audit``: count PHI left in de-identified output (never printing a PHI value).

The command only parses arguments; the checks are :mod:`notescrub.audit`.

>>> import argparse
>>> p = argparse.ArgumentParser(); add_arguments(p)
>>> p.parse_args(["--output-only", "out.jsonl"]).paths
['out.jsonl']
"""

from __future__ import annotations

import argparse
import json
import sys

from notescrub.errors import ConfigError

NAME = "audit"
HELP = "count original PHI strings and PHI-like patterns left in de-identified output"
DESCRIPTION = """\
Compare ORIGINAL with DEIDENTIFIED (documents paired by id) and report, without ever
printing a PHI value, how many PHI strings of the original still occur in the output
(by PHI type, with document ids), and which PHI-like patterns (dates, phone/SSN/ID
shapes, e-mails, URLs, IPs, capitalised words from the name lists) remain. The
original's PHI are its annotations (--layer, default gold) or, with --model, the
model's predictions. With --output-only, only the pattern check runs.

Exit status: 0 clean, 1 when original PHI strings remain (or, with --strict, when any
pattern is flagged), 2 on bad input.

examples:
  notescrub audit gold.jsonl deid.jsonl
  notescrub audit notes/ deid/ --model rules-en
  notescrub audit --output-only deid/ --json
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH", help="ORIGINAL DEIDENTIFIED, or DEIDENTIFIED with --output-only")
    p.add_argument("--output-only", action="store_true", help="audit de-identified output alone (patterns only)")
    p.add_argument("--layer", default="gold", help="layer of the original holding its PHI (default: gold)")
    p.add_argument("--model", metavar="M", help="find the original's PHI with this model instead of its annotations")
    p.add_argument("--format", metavar="F", help="format of the original (default: detected)")
    p.add_argument("--output-format", metavar="F", help="format of the de-identified output (default: detected)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--max-ids", type=int, default=10, metavar="N", help="document ids listed per line (default: 10)")
    p.add_argument("--strict", action="store_true", help="exit 1 when any PHI-like pattern is flagged")


def run(args: argparse.Namespace) -> int:
    from notescrub.audit import audit_output, audit_pair
    from notescrub.io import read_corpus

    if args.output_only:
        if len(args.paths) != 1:
            raise ConfigError("--output-only takes exactly one path (the de-identified output)")
        report = audit_output(read_corpus(args.paths[0], args.output_format))
    else:
        if len(args.paths) != 2:
            raise ConfigError("give ORIGINAL and DEIDENTIFIED (or one path with --output-only)")
        original = list(read_corpus(args.paths[0], args.format))
        layer = args.layer
        if args.model:
            from notescrub.registry import load_model

            pipeline = load_model(args.model)
            original = list(pipeline.pipe(original))
            layer = pipeline.output_layer
        elif not any(d.layer(layer) for d in original):
            raise ConfigError(f"the original has no spans in layer {layer!r}; pass --model M to audit against a "
                              "model's predictions, or --output-only")
        report = audit_pair(original, read_corpus(args.paths[1], args.output_format), layer=layer)
    if args.json:
        sys.stdout.write(json.dumps(report.to_dict(), indent=2, sort_keys=True) + "\n")
    else:
        sys.stdout.write(report.format(args.max_ids) + "\n")
    flagged = sum(report.patterns.values())
    return 1 if report.leaked or (args.strict and flagged) else 0
