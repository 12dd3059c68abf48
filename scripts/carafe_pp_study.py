"""Carafe-ALL+PP on a corpus: the Carafe models at bias -1.0 and -1.5, and -1.5 with the regex post-process.

Trains Carafe once per split (as ``notescrub experiments`` does) and runs
:func:`notescrub.experiments.carafe_study.pp_study` only, without the bias sweep and
learning curve of the full Carafe section. Writes JSON (figures only, no note text).

    python scripts/carafe_pp_study.py --corpus en-dev --shared ../shared --folds 2 --crf-iterations 15 -o pp.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from notescrub.experiments.carafe_study import pp_study
from notescrub.experiments.common import Context
from notescrub.experiments.config import preset
from notescrub.experiments.data import load_dataset
from notescrub.experiments.systems import system_run
from notescrub.io.atomic import atomic_file


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--corpus", default="en-dev")
    p.add_argument("--shared", default="../shared")
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--crf-iterations", type=int, default=40)
    p.add_argument("-o", "--output", required=True)
    a = p.parse_args()
    t0 = time.perf_counter()
    ds = load_dataset(a.corpus, shared=a.shared, folds=a.folds)
    settings = preset("full", crf_iterations=a.crf_iterations, folds=a.folds)
    run = system_run(Context(settings), ds, "carafe")
    if run.error:
        raise SystemExit(f"Carafe did not train: {run.error}")
    rows = pp_study(ds, run.models)
    out = {"corpus": a.corpus, "folds": a.folds, "crf_iterations": a.crf_iterations,
           "train_seconds": round(run.train_seconds, 1), "wall_seconds": round(time.perf_counter() - t0, 1),
           "variants": {t: {k: v[k] for k in ("bias", "pp")} | {
               "strict": {m: v["strict"][m] for m in ("precision", "recall", "f1", "tp", "fp", "fn")},
               "token_f1": v["token"]["f1"], "phi_token_f1": v["binary_phi"]["f1"]} for t, v in rows.items()}}
    with atomic_file(Path(a.output)) as tmp:
        tmp.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
