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
whole record as the sequence, L-BFGS with L1+L2), followed by the two-pass patient
dictionary, data-driven post-processing rules (eponyms, lab ratios, facility heads) and the
``cover`` resolver (recall-first). Four presets set the CRF's O-bias.

Usage::

    python scripts/build_en_default.py -o src/notescrub/models/en-default
    python scripts/build_en_default.py --holdout P316,P317,P318,P319,P320 -o /tmp/en-heldout --evaluate
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path

from notescrub.detect.crf import CRFTagger
from notescrub.detect.dictionary import DictionaryDetector
from notescrub.detect.rules import RulesDetector
from notescrub.detect.stacked import StackedCRF
from notescrub.features import Featurizer
from notescrub.io import read_corpus
from notescrub.recipes.loader import ComponentSpec, HybridModel
from notescrub.replace.repopulate import repopulate_corpus
from notescrub.synth import generate_corpus
from notescrub.synth.recase import recased_corpus

EN_DEV = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "en-dev" / "en-dev.jsonl"
#: the English notes written for this project by independent writers (corpora/en-writers/README.md)
WRITERS = Path(__file__).resolve().parents[1] / "corpora" / "en-writers"

#: O-bias of the stacked CRF at each operating point (negative = more recall)
PRESETS = {
    "precision": 0.0,
    "balanced": -1.0,
    "high-recall": -2.1,
    "max-recall": -3.0,
}
DEFAULT_PRESET = "high-recall"
#: post-processing rules applied to the CRF's spans (recall-first: no rule that drops names
#: because they are also medical words, e.g. the patient "Mr. Foley")
POST_RULES = ["extend-facility-head", "drop-date-in-slash-chain", "drop-date-in-decimal-ratio",
              "drop-date-blood-pressure", "drop-no-alphanumeric", "drop-eponym-term",
              # the model's own rules (post.toml, shipped in the model directory)
              "split-at-column-gap", "split-name-at-parenthesis", "grow-name-initial", "merge-name-particle",
              "merge-name-across-initial", "extend-facility-specialty", "drop-date-test-score",
              "drop-date-range-of-values", "drop-date-bp-range", "drop-initial-of-organism", "drop-header-keyword",
              "drop-drug-name", "split-profession-at-clause", "drop-organism-binomial",
              "grow-name-after-title", "drop-date-number-table", "drop-date-visual-acuity"]
#: the model's own post-processing rule file (copied into every build)
POST_FILE = Path(__file__).resolve().parents[1] / "src" / "notescrub" / "models" / "en-default" / "post.toml"


def writer_notes(root: Path = WRITERS, exclude: set[str] = frozenset()) -> dict[str, list]:
    """{writer: notes} of the writers' corpus (``corpora/en-writers/<writer>/PNNN-K.txt``), minus ``exclude``."""
    out = {}
    for folder in sorted(p for p in root.iterdir() if any(p.glob("P*.txt"))):
        if folder.name not in exclude:
            docs = list(read_corpus(folder, "inline"))
            for d in docs:
                d.metadata["writer"] = folder.name
            out[folder.name] = docs
    return out


def training_corpus(holdout: set[str], synth_patients: int, seed: int, recase: bool = True,
                    holdout_writers: set[str] = frozenset(), writers_root: Path | None = WRITERS) -> tuple[list, dict]:
    """Training documents and a record of what went in.

    ``holdout`` removes en-dev patients; ``holdout_writers`` removes whole writers of the
    writers' corpus (``"en-dev"`` names the en-dev notes themselves).
    """
    dev = [] if "en-dev" in holdout_writers else [d for d in read_corpus(EN_DEV) if d.patient_id not in holdout]
    by_writer = writer_notes(writers_root, set(holdout_writers)) if writers_root and writers_root.is_dir() else {}
    written = [d for docs in by_writer.values() for d in docs]
    rep: dict[str, list] = {}
    for style, s in (("random", seed + 1), ("oov", seed + 2)):
        rep[style] = list(repopulate_corpus([d.copy() for d in dev], style=style, seed=s))
    cased = []
    if recase:
        cased = list(recased_corpus(rep["random"], "lower", share=1.0, seed=seed + 3))
        cased += recased_corpus(rep["oov"], "upper", share=0.25, seed=seed + 4)
    syn = list(generate_corpus(synth_patients, (1, 4), seed=seed))
    data = {
        "writers": {w: len(docs) for w, docs in by_writer.items()},
        "heldout_writers": sorted(holdout_writers),
        "writer_notes": len(written),
        "en_dev_notes": len(dev),
        "en_dev_patients": sorted({d.patient_id for d in dev}),
        "repopulated_notes": sum(len(v) for v in rep.values()),
        "repopulation_styles": ["random", "oov"],
        "recased_notes": {"lower (all random)": sum(d.metadata.get("recased") == "lower" for d in cased),
                          "upper (25% of oov)": sum(d.metadata.get("recased") == "upper" for d in cased)},
        "synthetic_notes": len(syn),
        "synthetic_patients": synth_patients,
        "seed": seed,
        "heldout_patients": sorted(holdout),
    }
    # the writers' notes go in as written: eight writers bring the variety of names and
    # contexts that re-population adds to en-dev, at a quarter of the training cost
    return dev + rep["random"] + rep["oov"] + cased + written + syn, data


def build(out: Path, holdout: set[str], synth_patients: int, seed: int, iterations: int, c1: float, c2: float,
          recase: bool = True, holdout_writers: set[str] = frozenset()) -> Path:
    docs, data = training_corpus(holdout, synth_patients, seed, recase, holdout_writers)
    logging.info("training on %d documents", len(docs))
    crf = CRFTagger(Featurizer(), scheme="BIO", sequence="record", c1=c1, c2=c2, max_iterations=iterations)
    t0 = time.time()
    StackedCRF(crf, [RulesDetector(), DictionaryDetector()]).fit(docs)
    seconds = round(time.time() - t0, 1)
    comps = [
        ComponentSpec("rules", "rules", options={"enabled": False}),
        ComponentSpec("dictionary", "dictionary", options={"enabled": False}),
        ComponentSpec("crf", "stacked", dir="crf", options={"feeders": ["rules", "dictionary"],
                                                           "bias": PRESETS[DEFAULT_PRESET]}),
        ComponentSpec("two_pass", "two_pass", options={"sources": ["crf"], "min_score": 0.9, "derived_forms": True}),
        ComponentSpec("post", "postprocess", options={"targets": ["crf", "two_pass"], "rules": POST_RULES,
                                                      "files": ["default.toml", POST_FILE.name]}),
    ]
    presets = {name: {"description": f"stacked CRF O-bias {b:+.1f}", "components": {"crf": {"bias": b}}}
               for name, b in PRESETS.items()}
    model = HybridModel(
        comps, objects={"crf": crf}, resolver={"name": "cover", "base": {"name": "longest"}},
        presets=presets, default_preset=DEFAULT_PRESET,
    )
    extra = {
        "model_name": "en-default",
        "description": "English clinical de-identifier: rules + dictionaries feeding a stacked CRF, "
                       "two-pass patient dictionary, recall-first cover resolution (i2b2-2014 subtypes).",
        "lang": "en",
        "data": data,
        "training_seconds": seconds,
        "training": {"iterations": iterations, "c1": c1, "c2": c2, "documents": len(docs)},
    }
    # read before saving: ``out`` may be the packaged model directory itself
    return model.save(out, overwrite=True, extra=extra, files={POST_FILE.name: POST_FILE.read_bytes()})


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
    ap.add_argument("--holdout-writers", default="", help="comma-separated writers (w01, ..., en-dev) kept out of training")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    holdout = {p for p in args.holdout.split(",") if p}
    path = build(args.out, holdout, args.synth_patients, args.seed, args.iterations, args.c1, args.c2,
                 recase=not args.no_recase, holdout_writers={w for w in args.holdout_writers.split(",") if w})
    print(json.dumps({"model": str(path)}))


if __name__ == "__main__":
    main()
