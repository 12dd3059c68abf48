"""``notescrub audit``: find original PHI left in de-identified output (never printing a PHI value).

The command only parses arguments; the checks are :mod:`notescrub.audit`.

>>> import argparse
>>> p = argparse.ArgumentParser(); add_arguments(p)
>>> p.parse_args(["--output-only", "out.jsonl"]).paths
['out.jsonl']
"""

from __future__ import annotations

import argparse
import json
import logging
import sys

from notescrub.errors import ConfigError

NAME = "audit"
HELP = "find original PHI left in de-identified output (by type and position, never printing it)"
DESCRIPTION = """\
Compare ORIGINAL with DEIDENTIFIED (documents paired by id) and report every PHI
string of the original that is still in the de-identified document: by PHI type,
document and offsets in the de-identified text, and how it was found. Strings are
searched as written, normalised (case-folded, accents dropped, spaces and
punctuation collapsed: "RUIZ-LOPEZ" finds "ruiz lopez") and, for numbers, by their
digits ("617-555-0199" finds "(617) 555 0199"). A string the original also has
outside PHI ("Graves" next to "Graves' disease") is a leftover only when the
output has it more often. The strings themselves are printed only with --show-text.

The original's PHI: its annotations (--layer, default gold) when it has any;
otherwise, or with --model, what the model (default en-default, --preset and
--recall-bias as for deid) finds in the ORIGINAL notes. The model never reads the
de-identified output: its surrogates look like PHI on purpose.

--patterns also flags PHI-like shapes left in the output (dates, phone/SSN/ID
shapes, e-mails, URLs, IPs, capitalised words from the name lists); on surrogate
output these are mostly the surrogates, so they are an upper bound to review. With
--output-only (no original), only that pattern check runs.

Exit status: 0 clean, 1 when original PHI strings remain (or, with --strict, when any
pattern is flagged), 2 on bad input.

examples:
  notescrub audit notes/ deid/                     # plain notes: en-default finds the PHI
  notescrub audit gold.jsonl deid.jsonl            # annotated original: its gold spans
  notescrub audit notes/ deid/ --model rules-en --json
  notescrub audit notes/ deid/ --show-text | less  # prints PHI: for your eyes only
  notescrub audit --output-only deid/ --json
"""

log = logging.getLogger("notescrub.audit")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from notescrub.cli.options import add_model_options

    p.add_argument("paths", nargs="+", metavar="PATH", help="ORIGINAL DEIDENTIFIED, or DEIDENTIFIED with --output-only")
    p.add_argument("--output-only", action="store_true", help="audit de-identified output alone (patterns only)")
    p.add_argument("--layer", default="gold", help="layer of the original holding its PHI (default: gold)")
    add_model_options(p, model_help="find the original's PHI with this model even when it has annotations "
                                    "(default: its annotations, or en-default when it has none)")
    p.add_argument("--format", metavar="F", help="format of the original (default: detected)")
    p.add_argument("--output-format", metavar="F", help="format of the de-identified output (default: detected)")
    p.add_argument("--show-text", action="store_true",
                   help="print each leftover string (it is PHI: never redirect to logs or share)")
    p.add_argument("--patterns", action="store_true", help="also flag PHI-like patterns in the output")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--max-ids", type=int, default=10, metavar="N", help="document ids listed per line (default: 10)")
    p.add_argument("--strict", action="store_true", help="exit 1 when any PHI-like pattern is flagged")


def _original_phi(args: argparse.Namespace, original: list) -> tuple[list, str, str]:
    """``(documents, layer, source)``: the original with its PHI in ``layer``, described by ``source``."""
    from notescrub.cli.options import load_model_from_args
    from notescrub.registry import DEFAULT_MODEL

    use_model = bool(args.model or args.preset is not None or args.recall_bias is not None)
    if not use_model and any(d.layer(args.layer) for d in original):
        return original, args.layer, f"annotations in layer {args.layer!r}"
    name = args.model or DEFAULT_MODEL
    if not use_model:
        log.info("the original has no spans in layer %r: finding its PHI with model %s", args.layer, name)
    pipeline = load_model_from_args(args)
    # the model reads the original notes only (annotations dropped), never the de-identified output
    found = list(pipeline.pipe(d.copy(layers=False) for d in original))
    return found, pipeline.output_layer, f"model {name} on the original"


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
        original, layer, source = _original_phi(args, list(read_corpus(args.paths[0], args.format)))
        report = audit_pair(original, read_corpus(args.paths[1], args.output_format), layer=layer,
                            patterns=args.patterns, show_text=args.show_text)
        report.source = source
    if args.json:
        sys.stdout.write(json.dumps(report.to_dict(), indent=2, sort_keys=True) + "\n")
    else:
        sys.stdout.write(report.format(args.max_ids) + "\n")
    flagged = sum(report.patterns.values())
    return 1 if report.leaked or (args.strict and flagged) else 0
