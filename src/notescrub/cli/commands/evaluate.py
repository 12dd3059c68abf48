"""``notescrub evaluate GOLD PRED``: score predictions against gold, as the challenges did."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

from notescrub.errors import ConfigError

NAME = "evaluate"
HELP = "score predicted PHI spans against gold (i2b2 2014, MEDDOCAN, i2b2 2006, binary)"
DESCRIPTION = """\
Score the spans of PRED against the spans of GOLD. Both may be any format the
readers accept (a directory of i2b2 XML or brat files, a JSONL file...);
documents are paired by id (file name for one-file-per-note formats). Spans are
compared, never rendered text; gold and prediction must agree on every text.

Schemes:
  i2b2-2014  strict, relaxed (end +-2), token, HIPAA and binary variants, micro
             and macro, per category and subtype (compares canonical subtypes)
  meddocan   subtask 1 (span + label), subtask 2 strict and merged, leak
             (compares native MEDDOCAN labels)
  i2b2-2006  token, phrase, MUC partial credit, PHI/non-PHI tokens, and the
             challenge's true-negative-weighted token F (labelled as such)
  binary     PHI vs non-PHI token classification, both classes

A gold document without prediction counts as predicting nothing (the number is
reported); --compat-official skips it instead and reproduces the official i2b2
2014 script's quirks (IDNUM not in the HIPAA filter).

examples:
  notescrub evaluate gold/ system/                        # i2b2 2014 XML dirs
  notescrub evaluate gold/ run1/ --scheme meddocan --json scores.json
  notescrub evaluate gold.jsonl pred.jsonl --report report/ --csv scores.csv
  notescrub evaluate gold/ run1/ --show-errors | less     # errors with context
  notescrub evaluate gold/ run1/ --compare run2/          # is run1 better than run2?
"""

log = logging.getLogger(__name__)


def add_arguments(p: argparse.ArgumentParser) -> None:
    from notescrub.evaluate.api import SCHEMES
    from notescrub.evaluate.labels import LABEL_MODES

    p.add_argument("gold", type=Path, help="gold corpus (file or directory)")
    p.add_argument("pred", type=Path, help="predicted corpus (file or directory)")
    p.add_argument("--scheme", choices=SCHEMES, default="i2b2-2014", help="scoring scheme (default: i2b2-2014)")
    p.add_argument("--format", dest="fmt", default=None, help="input format of GOLD and PRED (default: detected)")
    p.add_argument("--pred-format", default=None, help="input format of PRED when it differs from --format")
    p.add_argument("--labels", choices=LABEL_MODES, default=None,
                   help="labels compared: canonical subtypes, native labels or categories (default: per scheme)")
    p.add_argument("--gold-layer", default="gold", help="layer holding gold spans (default: gold)")
    p.add_argument("--pred-layer", default="gold", help="layer holding predicted spans (default: gold)")
    p.add_argument("--report", type=Path, metavar="DIR",
                   help="write an HTML report to DIR/index.html (its plots need the 'reports' extra, matplotlib)")
    p.add_argument("--extra-plots", type=Path, metavar="JSON",
                   help="JSON with 'operating_points' and/or 'learning_curve' points for the HTML report")
    p.add_argument("--json", type=Path, metavar="PATH", help="write every figure as JSON")
    p.add_argument("--csv", type=Path, metavar="PATH", help="write every figure as CSV rows")
    p.add_argument("--compat-official", action="store_true",
                   help="reproduce the official scripts: skip missing documents, IDNUM out of HIPAA")
    p.add_argument("--show-errors", action="store_true",
                   help="print every error with context to stdout (contains note text: never redirect to logs)")
    p.add_argument("--compare", type=Path, metavar="PRED2",
                   help="also score a second system and test the difference (paired bootstrap, z-test)")
    p.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                   help="bootstrap resamples for the headline F1 interval (0: none; default 1000)")


def _read(path: Path, fmt: str | None, reference: list[Any] | None = None) -> list[Any]:
    """Read a corpus; span-only JSONL predictions (``notescrub annotate`` output) are
    attached to the texts of the ``reference`` (gold) documents by id."""
    from notescrub.io import read_corpus
    from notescrub.io.jsonl import is_span_only, read_span_only

    if reference is not None and path.is_file() and (fmt in (None, "jsonl")) and path.suffix == ".jsonl" \
            and is_span_only(path):
        return read_span_only(path, reference)
    return list(read_corpus(path, fmt))


def _extra_plots(path: Path | None) -> dict[str, Any] | None:
    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ConfigError(f"cannot read extra plots: {exc}", path=path) from exc
    if not isinstance(data, dict):
        raise ConfigError("extra plots must be a JSON object", path=path)
    return data


def _show_errors(gold: list[Any], pred: list[Any], args: argparse.Namespace, labels: str) -> None:
    from notescrub.evaluate.api import prepare
    from notescrub.evaluate.error_analysis import error_listing, format_listing
    from notescrub.evaluate.pairing import pair_documents

    pairing = pair_documents(gold, pred, gold_layer=args.gold_layer, pred_layer=args.pred_layer,
                             compat_official=args.compat_official)
    docs, _ = prepare(pairing.examples, args.scheme, labels)
    out = sys.stdout
    out.write("# errors with context (contains note text; for the developer's eyes only)\n")
    for line in format_listing(error_listing(docs)):
        out.write(line + "\n")


def run(args: argparse.Namespace) -> int:
    from notescrub.evaluate import evaluate
    from notescrub.evaluate.report import (
        render_terminal,
        write_csv,
        write_html_report,
        write_json,
    )

    if args.report:  # before any scoring: a base install has no matplotlib
        from notescrub.extras import require

        require("reports", "writing the HTML report (--report)")
    extra = _extra_plots(args.extra_plots)
    gold = _read(args.gold, args.fmt)
    pred = _read(args.pred, args.pred_format or args.fmt, reference=gold)
    result = evaluate(gold, pred, scheme=args.scheme, gold_layer=args.gold_layer, pred_layer=args.pred_layer,
                      compat_official=args.compat_official, labels=args.labels,
                      bootstrap_resamples=max(0, args.bootstrap))
    if args.compare:
        from notescrub.evaluate.compare import compare_systems

        other = _read(args.compare, args.pred_format or args.fmt, reference=gold)
        result["comparison"] = compare_systems(gold, pred, other, scheme=args.scheme, gold_layer=args.gold_layer,
                                               pred_layer=args.pred_layer, labels=result["labels"],
                                               n_resamples=max(1, args.bootstrap))
    if args.show_errors:
        _show_errors(gold, pred, args, result["labels"])
    render_terminal(result)
    if args.json:
        write_json(result, args.json)
        log.info("wrote %s", args.json)
    if args.csv:
        write_csv(result, args.csv)
        log.info("wrote %s", args.csv)
    if args.report:
        path = write_html_report(result, args.report, extra_plots=extra)
        log.info("wrote %s", path)
    return 0
