#!/usr/bin/env python
"""Train the packaged Spanish model ``es-meddocan`` (CRF, native MEDDOCAN labels).

Two steps, same configuration (``CONFIG`` below):

  python scripts/train_es_meddocan.py validate   # train on train, score dev -> benchmarks/es-meddocan-dev.json
  python scripts/train_es_meddocan.py ship       # train on train+dev -> src/notescrub/models/es-meddocan/

The corpus (MEDDOCAN, CC BY 4.0, Marimon et al. 2019) is read from ../shared/corpora/meddocan
(override with --corpus). Timing is reported both as wall clock and CPU time, with the
load average, because the training machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from pathlib import Path

from notescrub.detect.crf import CRFTagger
from notescrub.evaluate import evaluate
from notescrub.io import read_corpus
from notescrub.recipes import carafe

ROOT = Path(__file__).resolve().parents[1]
MODEL_DIR = ROOT / "src" / "notescrub" / "models" / "es-meddocan"
REPORT = ROOT / "benchmarks" / "es-meddocan-dev.json"

#: Featurizer and tagger settings (chosen on the dev split, see docs/crf.md).
FEATURES = {"groups": ("lexical", "orthographic", "dictionary", "sentence", "position"), "window": (2, 2), "affixes": 4,
                "window_affixes": False, "bigrams": True, "window_groups": ("lexical", "orthographic", "dictionary")}
TAGGER = {"scheme": "BIO", "sequence": "record", "algorithm": "lbfgs", "c1": 0.3, "c2": 0.05, "max_iterations": 100, "bias": 0.0}

CREDIT = {
    "corpus": "MEDDOCAN (SPACCC_MEDDOCAN) train and dev splits",
    "license": "CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)",
    "attribution": "Marimon M, Gonzalez-Agirre A, Intxaurrondo A, et al. Automatic De-identification of Medical "
                   "Texts in Spanish: the MEDDOCAN Track, Corpus, Guidelines, Methods and Evaluation of Results. "
                   "IberLEF 2019. Copyright (c) 2019 Secretaría de Estado para el Avance Digital (SEAD).",
    "source": "PlanTL-GOB-ES/SPACCC_MEDDOCAN, commit 783a6df385c975b328c99bcffb54196a9ba4078a",
    "changes": "the model's weights are learned from the corpus; no corpus text is distributed with the model "
               "except as feature strings (words, affixes) inside the CRFsuite weight file",
}


README = """\
# es-meddocan

Spanish clinical de-identification model for notescrub (`--model es-meddocan`): a CRF
(python-crfsuite weights + notescrub decoding) predicting the native MEDDOCAN labels
(NOMBRE_SUJETO_ASISTENCIA, FECHAS, TERRITORIO, ...; `phi` gives the i2b2-2014 subtype).
Trained by `scripts/train_es_meddocan.py ship`; configuration and figures in docs/crf.md
and model.json.

## Credit and licence of the training data

Trained on the train and dev splits of MEDDOCAN (SPACCC_MEDDOCAN), licensed under
Creative Commons Attribution 4.0 (CC BY 4.0, https://creativecommons.org/licenses/by/4.0/).
Marimon M, Gonzalez-Agirre A, Intxaurrondo A, et al. Automatic De-identification of Medical
Texts in Spanish: the MEDDOCAN Track, Corpus, Guidelines, Methods and Evaluation of Results.
IberLEF 2019. Copyright (c) 2019 Secretaría de Estado para el Avance Digital (SEAD).
Changes: only learned feature weights are distributed (feature strings include words and
affixes seen in the corpus); no document text is included.
"""


def build() -> CRFTagger:
    return carafe.build(lang="es", features=FEATURES, **{**TAGGER, "name": "crf"})


def train(docs: list) -> tuple[CRFTagger, dict]:
    load0 = os.getloadavg()[0]
    w0, c0 = time.perf_counter(), time.process_time()
    model = build().fit(docs)
    timing = {"wall_s": round(time.perf_counter() - w0, 1), "cpu_s": round(time.process_time() - c0, 1),
              "load_average_1min_start": round(load0, 2), "load_average_1min_end": round(os.getloadavg()[0], 2),
              "cpus": os.cpu_count()}
    return model, timing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("step", choices=("validate", "ship"))
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpora" / "meddocan"))
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    corpus = Path(args.corpus)
    train_docs = list(read_corpus(corpus / "train" / "brat"))
    dev_docs = list(read_corpus(corpus / "dev" / "brat"))
    if args.step == "validate":
        model, timing = train(train_docs)
        preds = []
        for d in dev_docs:
            p = d.copy(layers=False)
            p.add_layer("gold", model.detect(p))
            preds.append(p)
        res = evaluate(dev_docs, preds, scheme="meddocan", bootstrap_resamples=0)
        s1 = res["meddocan"]["subtask1"]
        report = {"config": {"features": FEATURES, "tagger": TAGGER}, "train_documents": len(train_docs),
                  "dev_documents": len(dev_docs), "training": timing,
                  "dev_strict_micro": {k: s1[k] for k in ("precision", "recall", "f1", "tp", "fp", "fn")},
                  "model_bytes": len(model.model_bytes_)}
        REPORT.parent.mkdir(exist_ok=True)
        REPORT.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        print(json.dumps(report, indent=2))
        return 0
    model, timing = train(train_docs + dev_docs)
    extra = {"model_name": "es-meddocan", "language": "es", "recipe": "carafe (tuned, see scripts/train_es_meddocan.py)",
             "data": {"train": "MEDDOCAN train + dev (750 documents)", "credit": CREDIT},
             "training_time": timing}
    if REPORT.is_file():
        extra["metrics"] = {"dev_train_only_model": json.loads(REPORT.read_text(encoding="utf-8"))["dev_strict_micro"]}
    model.save(MODEL_DIR, overwrite=True, extra=extra)
    (MODEL_DIR / "README.md").write_text(README, encoding="utf-8")
    size = sum(f.stat().st_size for f in MODEL_DIR.iterdir())
    print(json.dumps({"model_dir": str(MODEL_DIR), "bytes": size, "training": timing}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
