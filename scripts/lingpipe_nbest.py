"""Measure the LingPipe recipe's rescoring depth (``n_best``): strict F1 and annotation time.

Wellner et al. (2007) had LingPipe re-score the 512 best chunkings of a record; the
``lingpipe`` recipe re-scores the ``n_best`` best paths of every region where the HMM
hesitates (default 8). One chunker is trained on MEDDOCAN ``train`` (the rescoring
models do not depend on ``n_best``), then ``dev`` is annotated at each depth and scored
(MEDDOCAN subtask 1 strict micro, and binary PHI tokens; each depth's strict F1 against
depth 8 by Uzuner et al.'s z-test, n = gold spans); annotation CPU seconds are
measured with ``time.process_time`` around ``detect`` only (the model is already loaded
and its emission cache warmed by one pass at depth 1).

    python scripts/lingpipe_nbest.py --depths 1 8 512 -o /tmp/lingpipe-nbest.json

The JSON holds figures only (no note text).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from notescrub.evaluate import evaluate
from notescrub.evaluate.report import write_json
from notescrub.evaluate.stats import z_test_two_proportions
from notescrub.experiments.data import _default_shared
from notescrub.io import read_corpus
from notescrub.recipes import get_recipe
from notescrub.types import Document


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--depths", nargs="+", type=int, default=[1, 8, 512])
    ap.add_argument("--shared", type=Path, default=None, help="shared data folder (default ../shared)")
    ap.add_argument("--max-dev", type=int, default=None, help="annotate only the first N dev notes")
    ap.add_argument("-o", "--output", type=Path, required=True)
    a = ap.parse_args()
    root = (a.shared or _default_shared()) / "corpora" / "meddocan"
    train = list(read_corpus(root / "train" / "brat"))
    dev = list(read_corpus(root / "dev" / "brat"))[: a.max_dev]
    t0 = time.process_time()
    chunker = get_recipe("lingpipe")(lang="es").fit(train)
    out: dict = {"command": "python scripts/lingpipe_nbest.py --depths " + " ".join(map(str, a.depths))
                 + (f" --max-dev {a.max_dev}" if a.max_dev else ""),
                 "train_notes": len(train), "dev_notes": len(dev), "train_cpu_s": round(time.process_time() - t0, 1),
                 "depths": {}}
    chunker.n_best = 1
    for d in dev:  # warm the emission cache so every depth is timed alike
        chunker.detect(d.copy(layers=False))
    for k in a.depths:
        chunker.n_best = k
        preds = []
        c0, w0 = time.process_time(), time.perf_counter()
        for d in dev:
            preds.append(Document(d.id, d.text, layers={"gold": chunker.detect(d.copy(layers=False))}))
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        strict = evaluate(dev, preds, scheme="meddocan", bootstrap_resamples=0)
        binary = evaluate(dev, preds, scheme="binary", bootstrap_resamples=0)
        out["depths"][str(k)] = {"annotate_cpu_s": round(cpu, 1), "annotate_wall_s": round(wall, 1),
                                 "strict": strict["meddocan"]["subtask1"], "binary": binary["binary"]["phi"]}
        print(k, out["depths"][str(k)], flush=True)
    base = out["depths"].get("8")
    for k, rec in out["depths"].items():
        if base is not None and k != "8":
            n = base["strict"]["tp"] + base["strict"]["fn"]  # gold spans
            z = z_test_two_proportions(rec["strict"]["f1"], n, base["strict"]["f1"], n)
            rec["strict_f1_vs_8"] = {"z": round(z.z, 2), "p": round(z.p_value, 4), "n": n}
    write_json(out, a.output)


if __name__ == "__main__":
    main()
