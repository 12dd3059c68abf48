"""Aramaki's recipe (PROPOSED) on one en-dev fold, at the experiments' caps.

Trains ``get_recipe("aramaki")`` with 40 L-BFGS iterations per CRF and label consistency
cross-fitted on 2 folds (the ``full`` experiments settings) on the training notes of
fold K of ``patient_kfold(en-dev, 5, seed=0)``, annotates that fold's test notes and
prints one JSON line: strict and binary PHI-token figures, training CPU seconds.
Used to compare the label-consistency stage before and after a change (run it with
each version's ``src`` first on ``PYTHONPATH``)::

    PYTHONPATH=src python scripts/aramaki_lc_fold.py --shared ../shared --fold 0
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from notescrub.evaluate.splits import patient_kfold
from notescrub.experiments.common import predict, score
from notescrub.experiments.data import _default_shared
from notescrub.io import read_corpus
from notescrub.recipes import get_recipe


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", type=Path, default=None, help="shared data folder (default ../shared)")
    ap.add_argument("--fold", type=int, default=0)
    a = ap.parse_args()
    docs = list(read_corpus((a.shared or _default_shared()) / "corpora" / "en-dev" / "en-dev.jsonl"))
    fold = patient_kfold(docs, 5, seed=0)[a.fold]
    t0 = time.process_time()
    model = get_recipe("aramaki")(lang="en", max_iterations=40, folds=2).fit(fold.train)
    t1 = time.process_time()
    s = score(fold.test, predict(model, fold.test), bootstrap=0)
    print(json.dumps({"fold": a.fold, "train": len(fold.train), "test": len(fold.test),
                      "train_cpu_s": round(t1 - t0, 1),
                      "strict": {k: s["strict"][k] for k in ("precision", "recall", "f1")},
                      "binary_phi": {k: s["binary_phi"][k] for k in ("precision", "recall", "f1", "tp", "fn")}}))


if __name__ == "__main__":
    main()
