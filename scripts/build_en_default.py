"""Build the packaged English model ``en-default`` (or a held-out variant for evaluation).

Training data (all fictional, see MODEL card in docs/en-default.md):

* en-dev notes (../shared/corpora/en-dev/en-dev.jsonl), minus ``--holdout`` patients;
* the same notes re-populated with surrogates (Stat De-id §5 styles ``random`` and ``oov``),
  so the CRF learns context and shape rather than the names it saw;
* synthetic notes from ``notescrub.synth.generate_corpus`` (``--synth-patients`` patients,
  1-4 notes each);
* case variants (``notescrub.synth.recase``): a lower-case copy of every ``random``
  re-populated note and an ALL-CAPS copy of a quarter of the ``oov`` ones, so names are
  found without their capital letters (nursing shorthand, upper-case headers).

Model: rules + dictionary detectors feed a stacked CRF (BIO over i2b2-2014 subtypes,
whole record as the sequence, L-BFGS with L1+L2; each token also sees the bag of the 4
nearest words on each side in its sentence, ``--context-bag``), followed by the two-pass
patient dictionary, data-driven post-processing rules (eponyms, lab ratios, facility heads)
and the ``cover`` resolver (recall-first). Four presets set the CRF's O-bias.

The recipe itself (training set, model layout, presets) lives in
``notescrub.recipes.en_default``; ``notescrub train --recipe en-default [--add NOTES]`` runs the same
code with reviewed notes added.

**The unseen test wave stays out by default.** ``corpora/en-writers/TEST_WRITERS`` names the
writers of the unseen test wave, which no released model and no rule has seen, and, between
releases, the wave the next release's bias is to be chosen on; they are kept out of training
unless ``--holdout-writers`` says otherwise (``--holdout-writers none``
trains on every writer, e.g. for a model that has no test wave left to protect).

Usage::

    python scripts/build_en_default.py -o src/notescrub/models/en-default
    python scripts/build_en_default.py --holdout P316,P317,P318,P319,P320 -o /tmp/en-heldout --evaluate
"""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Set as AbstractSet
from pathlib import Path

from notescrub.recipes.en_default import EnDefaultTrainer, training_corpus

__all__ = ["build", "test_writers", "training_corpus"]

TEST_WRITERS = Path(__file__).resolve().parents[1] / "corpora" / "en-writers" / "TEST_WRITERS"


def test_writers(path: Path = TEST_WRITERS) -> set[str]:
    """The writers kept out of training by default: the unseen test wave and the next release's choosing
    wave (one per line in ``TEST_WRITERS``; ``#`` starts a comment)."""
    if not path.is_file():
        return set()
    names = (line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return {n for n in names if n}


def build(out: Path, holdout: set[str], synth_patients: int, seed: int, iterations: int, c1: float, c2: float,
          recase: bool = True, holdout_writers: AbstractSet[str] = frozenset(), repopulate_writers: float = 0.0,
          context_bag: int = 4, min_freq: int = 3) -> Path:
    """Train the recipe (notescrub.recipes.en_default, also ``notescrub train --recipe en-default``) and save it."""
    trainer = EnDefaultTrainer(iterations=iterations, c1=c1, c2=c2, synth_patients=synth_patients, seed=seed,
                               recase=recase, holdout=",".join(sorted(holdout)),
                               holdout_writers=",".join(sorted(holdout_writers)),
                               repopulate_writers=repopulate_writers, context_bag=context_bag, min_freq=min_freq)
    trainer.fit()
    return trainer.save(out, overwrite=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--out", type=Path, required=True)
    ap.add_argument("--holdout", default="", help="comma-separated en-dev patient ids kept out of training")
    ap.add_argument("--synth-patients", type=int, default=80)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--c1", type=float, default=0.05)
    ap.add_argument("--c2", type=float, default=0.05)
    ap.add_argument("--no-recase", action="store_true", help="leave out the lower/upper-case copies (ablation)")
    ap.add_argument("--holdout-writers", default=None,
                    help="comma-separated writers (w01, ..., en-dev) kept out of training; default: the test wave "
                         "and the choosing wave of corpora/en-writers/TEST_WRITERS; 'none': hold out no writer")
    ap.add_argument("--repopulate-writers", type=float, default=0.0, metavar="SHARE",
                    help="also train on a re-populated copy of this share (0-1) of the writers' notes (experiment)")
    ap.add_argument("--context-bag", type=int, default=4, metavar="K",
                    help="featurizer context-word bag of K words each side (default 4, as shipped; 0 = none)")
    ap.add_argument("--min-freq", type=int, default=3, metavar="N",
                    help="drop CRF features seen fewer than N times in training (CRFsuite feature.minfreq; "
                         "default 3, as shipped: keeps the model under the 25 MB limit)")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    holdout = {p for p in args.holdout.split(",") if p}
    if args.holdout_writers is None:
        writers = test_writers()
    elif args.holdout_writers.strip().lower() == "none":
        writers = set()
    else:
        writers = {w for w in args.holdout_writers.split(",") if w}
    logging.info("writers kept out of training: %s", ", ".join(sorted(writers)) or "none")
    path = build(args.out, holdout, args.synth_patients, args.seed, args.iterations, args.c1, args.c2,
                 recase=not args.no_recase, holdout_writers=writers, repopulate_writers=args.repopulate_writers,
                 context_bag=args.context_bag, min_freq=args.min_freq)
    print(json.dumps({"model": str(path)}))


if __name__ == "__main__":
    main()
