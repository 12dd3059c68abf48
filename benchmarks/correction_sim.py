#!/usr/bin/env python
"""Learning from corrections, simulated: do risk-chosen reviews teach the model more than random ones?

Protocol (issue 21 §3; figures in docs/review.md, "Learning from corrections: measured"):

* **A new site** = writers the base model never saw: by default the unseen wave named in
  ``corpora/en-writers/TEST_WRITERS``. Each site writer's patients are split into two halves
  (alternately, in sorted order): the **review pool** and the **test notes**. No test patient
  is ever reviewed, so both arms are scored on the same notes.
* **Base model**: the en-default recipe (``notescrub.recipes.en_default``) trained without the
  site's writers. To bound the cost, its writers' corpus is cut to ``--base-writers`` and the
  CRF to ``--iterations`` L-BFGS iterations (every model of a run uses the same settings).
* **Review**: the base model annotates the pool; the queue is ordered as ``notescrub review``
  orders it (``note_priority``: the note's ``risk``, with en-default's packaged calibration,
  since the base model ships none); the reviewer (the gold annotation) corrects the first
  ``N`` notes of the queue -- or ``N`` notes drawn at random (``--seeds``).
* **Retrain** the recipe with the corrected notes added (``EnDefaultTrainer.fit(added)``, what
  ``notescrub train --recipe en-default --add`` runs) and score every model on the test notes
  (default preset): binary-token precision/recall, leaked PHI tokens, notes with a leak. Also
  recorded: how many of the base model's leaks in the pool the reviewed notes held (what the
  reviewer found).

Models are trained ``--jobs`` at a time in separate processes (the base model beside the random
arms, the risk arms once the base model has ordered the queue) and reused from ``--work`` when
their directory exists (the command is deterministic: same settings, same models)::

    python benchmarks/correction_sim.py --work /tmp/corrections --sizes 10,20,40 --seeds 1,2 \\
        -o benchmarks/results/correction-sim.json --plot docs/img/correction-sim.png

``--replot JSON --plot PNG`` draws the figure again from a report without running anything.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from build_en_default import test_writers  # noqa: E402
from lowo_en_default import leaks, scores  # noqa: E402

from notescrub.assemble import build  # noqa: E402
from notescrub.io import read_corpus, write_corpus  # noqa: E402
from notescrub.recipes.en_default import DEFAULT_PRESET, WRITERS, EnDefaultTrainer, writer_notes  # noqa: E402
from notescrub.review.queue import note_priority  # noqa: E402
from notescrub.risk import assess, packaged_calibration  # noqa: E402
from notescrub.types import Document  # noqa: E402

log = logging.getLogger("correction_sim")


def split_patients(docs: list[Document]) -> tuple[list[Document], list[Document]]:
    """(pool, test) of one writer's notes: alternate patients (sorted ids) go to each side.

    >>> a = [Document(f"{p}-{k}", "x", patient_id=p) for p in ("P1", "P2", "P3") for k in (1, 2)]
    >>> [[d.id for d in side] for side in split_patients(a)]
    [['P1-1', 'P1-2', 'P3-1', 'P3-2'], ['P2-1', 'P2-2']]
    """
    patients = sorted({d.patient_id or d.id for d in docs})
    pool_ids = set(patients[0::2])
    pool = [d for d in docs if (d.patient_id or d.id) in pool_ids]
    test = [d for d in docs if (d.patient_id or d.id) not in pool_ids]
    return pool, test


def _train(out: str, holdout_writers: str, iterations: int, added_file: str | None) -> tuple[str, float]:
    """Train the recipe (in a worker process) and save it to ``out``; returns (out, seconds)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    added = list(read_corpus(Path(added_file))) if added_file else []
    t0 = time.time()
    trainer = EnDefaultTrainer(iterations=iterations, holdout_writers=holdout_writers).fit(added)
    trainer.save(out, overwrite=True)
    return out, round(time.time() - t0, 1)


def train_async(ex: ProcessPoolExecutor, out: Path, holdout: str, iterations: int, added: Path | None) -> Future | None:
    """Submit the training of ``out`` unless its model is already there (then ``None``)."""
    if (out / "model.json").exists():
        return None
    return ex.submit(_train, str(out), holdout, iterations, str(added) if added else None)


def wait_all(futures: dict[str, Future | None]) -> dict[str, float]:
    """Seconds of each training that ran (in the order submitted)."""
    seconds = {}
    for name, f in futures.items():
        if f is not None:
            out, seconds[name] = f.result()
            log.info("trained %s in %.0f s", out, seconds[name])
    return seconds


def annotate(model: Path, golds: list[Document]) -> tuple[Any, list[Document], list[Document]]:
    """(pipeline, annotated copies, prediction copies in layer ``gold`` for the scorer)."""
    pipe = build(str(model), DEFAULT_PRESET)
    annotated = list(pipe.pipe([g.copy(layers=False) for g in golds]))
    preds = []
    for a in annotated:
        q = a.copy(layers=False)
        q.add_layer("gold", a.layer("phi"))
        preds.append(q)
    return pipe, annotated, preds


def review_queue(model: Path, pool: list[Document]) -> list[dict[str, Any]]:
    """The pool in review order (highest priority first) with each note's base-model leaks."""
    cal = packaged_calibration("en-default")
    pipe, annotated, preds = annotate(model, pool)
    rows = []
    for g, a, p in zip(pool, annotated, preds):
        r = assess(a, pipe, calibration=cal)
        rows.append({"id": g.id, "priority": note_priority({"risk": r.risk}),
                     "expected_f": r.expected_f, "leaked_tokens": sum(leaks(g, p).values())})
    return sorted(rows, key=lambda r: (-r["priority"], r["id"]))


def arm_points(results: dict[str, Any], prefix: str, key: str) -> list[tuple[int, float]]:
    """(reviewed notes, figure) of every model of one arm, the base model at 0.

    >>> r = {"base": {"r": 0.9}, "risk-10": {"r": 0.95}, "random-10-s1": {"r": 0.93}}
    >>> arm_points(r, "risk", "r"), arm_points(r, "random", "r")
    ([(0, 0.9), (10, 0.95)], [(0, 0.9), (10, 0.93)])
    """
    pts = [(0, results["base"][key])]
    for name, r in results.items():
        if name.startswith(prefix + "-"):
            pts.append((int(name.split("-")[1]), r[key]))
    return sorted(pts)


def plot(report: dict[str, Any], png: Path) -> None:
    """Recall and precision on the test notes against notes reviewed, risk-chosen vs random."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    res = {k: {"recall": v["binary_token"]["recall"], "precision": v["binary_token"]["precision"],
               "found": v.get("pool_leaks_in_reviewed", 0)} for k, v in report["results"].items()}
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
    for ax, key, title in zip(axes, ("found", "recall", "precision"),
                              ("base model's pool leaks in the reviewed notes", "binary-token recall, test notes",
                               "binary-token precision, test notes")):
        for prefix, style in (("risk", "o-"), ("random", "s")):
            pts = arm_points(res, prefix, key)
            ax.plot([x for x, _ in pts], [y for _, y in pts], style, label=f"{prefix}-chosen", alpha=0.8)
        if key == "found":
            ax.set_ylabel(f"of {report['protocol']['base_leaks_in_pool']} tokens")
        ax.set_xlabel("notes reviewed")
        ax.set_title(title, fontsize=9)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.suptitle(f"Learning from corrections: site {', '.join(report['protocol']['site_writers'])}, "
                 f"{report['protocol']['iterations']} L-BFGS iterations", fontsize=10)
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=110)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=Path, help="folder of the models and added-note files (reused)")
    ap.add_argument("--site", default="", help="comma-separated site writers (default: TEST_WRITERS)")
    ap.add_argument("--base-writers", default=",".join(f"w{i:02d}" for i in range(1, 9)),
                    help="writers' corpus writers the base model trains on (en-dev always)")
    ap.add_argument("--iterations", type=int, default=30)
    ap.add_argument("--sizes", default="20", help="comma-separated numbers of reviewed notes")
    ap.add_argument("--seeds", default="1,2", help="comma-separated seeds of the random-review arm")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("-o", "--out", type=Path)
    ap.add_argument("--plot", type=Path, help="also draw the figure to this PNG")
    ap.add_argument("--replot", type=Path, help="only draw --plot from this earlier report")
    a = ap.parse_args(argv)
    if a.replot:
        if not a.plot:
            ap.error("--replot needs --plot")
        plot(json.loads(a.replot.read_text(encoding="utf-8")), a.plot)
        return 0
    if not a.work or not a.out:
        ap.error("--work and -o are required (unless --replot)")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    t_start = time.time()

    by_writer = writer_notes(WRITERS)
    site = [w for w in a.site.split(",") if w] or sorted(test_writers())
    base = [w for w in a.base_writers.split(",") if w]
    if set(site) & set(base):
        raise SystemExit(f"site writers {sorted(set(site) & set(base))} are also base writers")
    holdout = ",".join(sorted(w for w in by_writer if w not in base))
    pool: list[Document] = []
    test: list[Document] = []
    for w in site:
        p, t = split_patients(by_writer[w])
        pool += p
        test += t
    a.work.mkdir(parents=True, exist_ok=True)
    by_id = {d.id: d for d in pool}
    sizes = [int(x) for x in a.sizes.split(",")]
    arms: dict[str, list[str]] = {}
    for n in sizes:
        for s in (int(x) for x in a.seeds.split(",") if x):
            arms[f"random-{n}-s{s}"] = random.Random(s).sample(sorted(by_id), n)

    def added_file(name: str) -> Path:
        path = a.work / f"{name}.jsonl"
        if not path.exists():
            write_corpus([by_id[i] for i in arms[name]], path)
        return path

    with ProcessPoolExecutor(max_workers=a.jobs) as ex:
        # the base model and the random arms need nothing from each other: train them side by side
        futures = {"base": train_async(ex, a.work / "base", holdout, a.iterations, None)}
        futures.update({name: train_async(ex, a.work / name, holdout, a.iterations, added_file(name))
                        for name in list(arms)})
        timings = wait_all({"base": futures.pop("base")})
        queue = review_queue(a.work / "base", pool)  # the risk arms need the base model's queue
        for n in sizes:
            arms[f"risk-{n}"] = [r["id"] for r in queue[:n]]
            futures[f"risk-{n}"] = train_async(ex, a.work / f"risk-{n}", holdout, a.iterations,
                                               added_file(f"risk-{n}"))
        timings.update(wait_all(futures))
    pool_leaks = sum(r["leaked_tokens"] for r in queue)

    leaks_of = {r["id"]: r["leaked_tokens"] for r in queue}
    results: dict[str, Any] = {"base": scores(test, annotate(a.work / "base", test)[2])}
    for name, ids in arms.items():
        results[name] = scores(test, annotate(a.work / name, test)[2])
        results[name]["reviewed"] = ids
        results[name]["pool_leaks_in_reviewed"] = sum(leaks_of[i] for i in ids)
    report = {
        "command": "python benchmarks/correction_sim.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "protocol": {"site_writers": site, "base_writers": base, "iterations": a.iterations,
                     "preset": DEFAULT_PRESET, "calibration": "packaged en-default (the base model ships none)",
                     "pool_notes": len(pool), "test_notes": len(test),
                     "pool_patients": len({d.patient_id for d in pool}),
                     "test_patients": len({d.patient_id for d in test}),
                     "base_leaks_in_pool": pool_leaks},
        "training_seconds": timings,
        "results": results,
        "wall_seconds": round(time.time() - t_start, 1),
    }
    a.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    if a.plot:
        plot(report, a.plot)
    for name, r in results.items():
        print(f"{name:16s} R {r['binary_token']['recall']:.4f} P {r['binary_token']['precision']:.4f} "
              f"F1 {r['binary_token']['f1']:.4f} "
              f"leaked {r['leaked_tokens']:4d} notes {r['notes_with_leak']:3d}/{r['notes']}"
              + (f"  reviewed leaks {r['pool_leaks_in_reviewed']}/{pool_leaks}" if "reviewed" in r else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
