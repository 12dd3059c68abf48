"""``notescrub experiments``: rerun the seed papers' studies on a corpus, write one report."""

from __future__ import annotations

import argparse
import logging
import shlex
import sys

NAME = "experiments"
HELP = "reproduce the seed papers' experiments (systems table, ablations, curves) as one report"
DESCRIPTION = """\
Train every seed system (Stat De-id, CRFD, H+D, Carafe, LingPipe, WI-deId,
Manchester, Aramaki) and the product model on the same data and write one report
(REPORT_DIR/index.html, report.md, results.json, one CSV per table) with six sections:

  systems     binary token / strict / token P/R/F, per type, z-test against
              Stat De-id, training and annotation wall times
  corpora     Stat De-id's random / ambiguous / OoV re-populated corpora, recall
              on OoV PHI only, each feature group alone
  carafe      P/R over the O-bias, learning curve, record confidence (Spearman),
              error table
  wi-deid     with/without fused-token preprocessing; Lex / Lex+Ort / Lex+Ort+Dic
  aramaki     BASELINE / +SF / +EX / +LC / all
  manchester  three operating points, with and without the second pass

Corpora: meddocan (train on train, test on dev), en-dev (patient-disjoint k-fold
CV), or a PATH (a folder with train/ and dev/ is split that way; anything else is
cross-validated by patient). Each section states how our data and resources
differ from the paper's and whether its conclusions agree.

--quick is the smoke run (2 folds, small subsets, few iterations: minutes).
The default settings train on all notes with capped CRF iterations; on two cores
a full run takes hours. Every setting is recorded in the report.
Needs the 'reports' and 'svm' extras: pip install 'notescrub[reports,svm]'
(English Stat De-id also uses 'syntax'; 'all' installs every extra).

examples:
  notescrub experiments --corpus meddocan --quick -o /tmp/exp-quick
  notescrub experiments --corpus en-dev -o docs/experiments/en-dev
  notescrub experiments --corpus meddocan --sections systems carafe --max-train-docs 150 -o rep/
  notescrub experiments --corpus my-notes.jsonl --folds 10 --crf-iterations 200 -o rep/
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    from notescrub.experiments.config import SECTIONS, SYSTEMS

    p.add_argument("--corpus", default="meddocan", metavar="meddocan|en-dev|PATH", help="corpus (default: meddocan)")
    p.add_argument("--shared", metavar="DIR", help="shared data folder holding corpora/ (default: ../shared)")
    p.add_argument("--quick", action="store_true", help="reduced smoke run (minutes)")
    p.add_argument("--sections", nargs="+", choices=SECTIONS, metavar="S",
                   help=f"sections to run (default: all): {', '.join(SECTIONS)}")
    p.add_argument("--systems", nargs="+", choices=SYSTEMS, metavar="NAME", help="seed systems of the systems table")
    p.add_argument("--jobs", type=int, default=1, help="parallel CRF trainings inside Manchester (default 1)")
    p.add_argument("--lang", choices=("en", "es"), help="language (default: from the labels)")
    p.add_argument("--folds", type=int, help="cross-validation folds for corpora without a train/dev split")
    p.add_argument("--max-train-docs", type=int, metavar="N", help="random subset of each training set")
    p.add_argument("--max-test-docs", type=int, metavar="N", help="random subset of each test set")
    p.add_argument("--crf-iterations", type=int, metavar="N", help="L-BFGS iteration cap of the CRF recipes")
    p.add_argument("--curve-repeats", type=int, metavar="N", help="draws per learning-curve fraction")
    p.add_argument("--no-product", action="store_true", help="leave the product model's row out")
    p.add_argument("--pos", choices=("auto", "on", "off"),
                   help="POS features in WI-deId and Aramaki (as in their papers): auto (default: on for English "
                        "when spaCy's English pipeline is installed), on, off")
    p.add_argument("--seed", type=int, default=0, help="seed of subsets, folds, surrogates (default 0)")
    p.add_argument("-o", "--output", required=True, metavar="REPORT_DIR", help="report folder to write")


def settings_from_args(args: argparse.Namespace):  # -> Settings
    from notescrub.experiments.config import preset

    over = {"jobs": max(1, args.jobs), "seed": args.seed}
    for key, attr in (("sections", "sections"), ("systems", "systems"), ("folds", "folds"),
                      ("max_train_docs", "max_train_docs"), ("max_test_docs", "max_test_docs"),
                      ("crf_iterations", "crf_iterations"), ("curve_repeats", "curve_repeats")):
        v = getattr(args, attr)
        if v is not None:
            over[key] = tuple(v) if isinstance(v, list) else v
    if args.no_product:
        over["product_models"] = False
    if getattr(args, "pos", None):
        over["pos"] = args.pos
    return preset("quick" if args.quick else "full", **over)


def run(args: argparse.Namespace) -> int:
    from notescrub.extras import require

    require("reports", "the experiments report (plots)")  # before hours of training, not after
    require("svm", "the experiments (Stat De-id's SVM)")
    from notescrub.experiments import load_dataset, run_experiments

    log = logging.getLogger("notescrub.experiments")
    settings = settings_from_args(args)
    ds = load_dataset(args.corpus, shared=args.shared, folds=settings.folds, lang=args.lang, seed=settings.seed)
    command = "notescrub " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:] else ""
    out = run_experiments(ds, settings, args.output, command=command, progress=log.info)
    log.info("report written to %s", out / "index.html")
    return 0
