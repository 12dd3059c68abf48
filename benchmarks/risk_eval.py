#!/usr/bin/env python
"""Measure the risk scores on held-out notes and fit the calibrations that ship.

Protocol (docs/review-risk.md): a calibration is never scored on the notes it was fitted on.

* English, held-out writers: ``en-default-w01-w08`` (trained without writers w09-w12) and
  ``en-default-w01-w10`` (without w11, w12), from ``--heldout`` (default
  /work/heldout-models). Split A: fit on w09+w10 with the 8-writer model, report on
  w11+w12 with the 8-writer and the 10-writer model. Split B: fit on w11+w12, report on
  w09+w10 with the 8-writer model. Pooled: the 8-writer model's notes of both reports.
* Spanish, MEDDOCAN dev: the shipped es-meddocan saw dev, so a model trained on train only
  (same recipe, ``scripts/train_es_meddocan.py``'s shipped form: CRF and document second
  pass) is built into ``--work``; dev is split by document order into halves; fit on one,
  report on the other, both ways (``--only spanish`` runs this part alone:
  ``python benchmarks/risk_eval.py --only spanish --ship`` refits the packaged calibration,
  its tagged-token part included).
* rules-en (no CRF) on the same English splits.
* Safety net: tag the leftovers with calibrated P(PHI) >= t (split A, 8-writer model) and
  compare with ``--recall-bias`` at the same precision.

Shipped calibrations (``--ship``): es-meddocan from the train-only model on all of dev,
rules-en from rules-en on w09-w12 (en-default's comes from the current-model protocol below,
``--ship-current``; it used to be the 8-writer model's fit on w09-w12). Results go to
``benchmarks/results/risk-*.json`` and PNG plots to ``docs/img/``.

    python benchmarks/risk_eval.py --work /tmp/risk-work --ship

**The current model** (``--current MODEL --current-writers W1,W2,...``): the model that ships,
on writers written after it was trained. The writers are split into two halves (first half
of the list, second half); a calibration fitted on one half is reported on the other, both
ways, and pooled. ``--only current`` runs this protocol alone; with ``--ship-current`` the
packaged en-default calibration is refitted on all those writers' notes with that model
(results in ``benchmarks/results/risk-en-current.json``, plot ``docs/img/risk-en-current.png``):

    python benchmarks/risk_eval.py --only current --current /tmp/en-default-w01-w32 \
        --current-writers w33,w34,w35,w36,w37,w38 --ship-current
"""

from __future__ import annotations

import argparse
import json
import logging
import pickle
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from risk_collect import Note, collect

from notescrub.assemble import build
from notescrub.io import read_corpus
from notescrub.risk import FEATURES, Calibration, expected_f1, fit_logistic

ROOT = Path(__file__).resolve().parents[1]
WRITERS = Path("/work/main/corpora/en-writers")
MEDDOCAN = Path("/work/shared/corpora/meddocan")
RESULTS = ROOT / "benchmarks" / "results"
PLOTS = ROOT / "docs" / "img"
TOP_K = 20
REVIEW_SHARE = 0.10
NO_CRF = tuple(f for f in FEATURES if not f.startswith("crf"))

log = logging.getLogger("risk_eval")


# ------------------------------------------------------------------------------- data
def cached(work: Path, key: str, make: Any) -> list[Note]:
    """Notes of ``key`` from ``work`` (computed by ``make()`` the first time)."""
    path = work / f"{key}.pkl"
    if path.is_file():
        return pickle.loads(path.read_bytes())
    t = time.perf_counter()
    notes = make()
    path.write_bytes(pickle.dumps(notes))
    log.info("%s: %d notes in %.0f s", key, len(notes), time.perf_counter() - t)
    return notes


def run_model(work: Path, model: str, label: str, group: str, golds: list, bias: float | None = None) -> list[Note]:
    def make() -> list[Note]:
        # the knob goes through build(): the pipeline's components forward no attributes
        return collect(build(model, None, recall_bias=bias), golds, group)

    suffix = "" if bias is None else f"-rb{bias:g}"
    return cached(work, f"{label}-{group}{suffix}", make)


def es_train_only(work: Path) -> Path:
    """es-meddocan's recipe trained on MEDDOCAN train only, in the shipped form (built once).

    The CRF of ``scripts/train_es_meddocan.py``'s shipped variant, followed by the shipped
    document-level second pass, so that the calibration sees what the shipped model outputs.
    """
    out = work / "es-meddocan-train-only-hybrid"
    if (out / "model.json").is_file():
        return out
    sys.path.insert(0, str(ROOT / "scripts"))
    import train_es_meddocan as es

    variant, second_pass = es.SHIPPED
    tagger, timing = es.train(list(read_corpus(MEDDOCAN / "train" / "brat")), variant)
    es.hybrid(tagger, second_pass).save(out, overwrite=True, extra={
        "model_name": "es-meddocan-train-only", "language": "es",
        "data": {"train": "MEDDOCAN train (500 documents)"}, "training_time": timing})
    return out


# ---------------------------------------------------------------------------- fitting
def fit(notes: list[Note], model: str, names: tuple[str, ...], description: str, tagged: bool = False) -> Calibration:
    """The leftover calibration fitted on ``notes``; with ``tagged``, its tagged-token part too."""
    x = np.vstack([n.matrix for n in notes])
    y = np.concatenate([n.y for n in notes])
    b, w = fit_logistic(x, y, names=names)
    groups = sorted({n.group for n in notes})
    method = "L2 logistic regression (l2=1), benchmarks/risk_eval.py"
    part = None
    if tagged:
        tx = np.vstack([n.tagged_matrix for n in notes if n.tagged_matrix is not None])
        ty = np.concatenate([n.tagged_y for n in notes if n.tagged_y is not None])
        tb, tw = fit_logistic(tx, ty, names=names)
        part = Calibration(model, round(tb, 6), {k: round(v, 6) for k, v in tw.items()},
                           {"description": description + " (tagged tokens)", "tokens": len(ty),
                            "positives": int(ty.sum()), "method": method})
    return Calibration(model, round(b, 6), {k: round(v, 6) for k, v in w.items()},
                       {"description": description, "groups": groups, "notes": len(notes), "tokens": len(y),
                        "positives": int(y.sum()), "method": method}, tagged=part)


# ---------------------------------------------------------------------------- metrics
def spearman(a: Any, b: Any) -> float | None:
    """Spearman's rho, ``None`` when undefined (a constant input, e.g. the log-probability of a model without CRF)."""
    from scipy.stats import spearmanr

    if len(set(np.asarray(a).tolist())) < 2 or len(set(np.asarray(b).tolist())) < 2:
        return None
    return round(float(spearmanr(a, b)[0]), 4)


def curve(order: np.ndarray, leaks: np.ndarray) -> list[float]:
    """Cumulative share of leaked tokens found after reviewing the first 1..N notes of ``order``."""
    total = max(1, int(leaks.sum()))
    return [round(float(v), 4) for v in np.cumsum(leaks[order]) / total]


def evaluate_notes(notes: list[Note], cals: list[Calibration]) -> dict[str, Any]:
    """Figures over ``notes``, note ``i`` scored with ``cals[i]`` (pooled reports mix calibrations)."""
    probs = [c.probability(n.matrix) for n, c in zip(notes, cals)]
    risk = np.array([p.sum() for p in probs])
    f = np.array([n.f for n in notes])
    expected_f = None
    if all(c.tagged is not None and n.tagged_matrix is not None for n, c in zip(notes, cals)):
        qs = [c.tagged.probability(n.tagged_matrix) for n, c in zip(notes, cals)]  # type: ignore[union-attr,arg-type]
        expected_f = np.array([expected_f1(float(q.sum()), float((1 - q).sum()), r) for q, r in zip(qs, risk)])
    lp = np.array([n.logprob for n in notes])
    leaks = np.array([len(n.leaked) for n in notes], dtype=float)
    chars = np.array([n.chars for n in notes], dtype=float)
    total = int(leaks.sum())
    k = int(np.ceil(REVIEW_SHARE * len(notes)))
    by_risk = np.argsort(-risk, kind="stable")
    by_lp = np.argsort(lp, kind="stable")
    by_oracle = np.argsort(-leaks, kind="stable")
    covered = 0
    for n, p in zip(notes, probs):
        sus = [n.spans[i] for i in np.argsort(-p, kind="stable")[:TOP_K]]
        covered += sum(any(a < e and s < b for s, e in sus) for a, b in n.leaked)
    found = {name: round(float(leaks[o[:k]].sum() / max(1, total)), 4)
             for name, o in (("risk", by_risk), ("logprob", by_lp), ("oracle", by_oracle))}
    return {
        "notes": len(notes), "notes_with_leaks": int((leaks > 0).sum()), "leaked_tokens": total,
        "spearman_risk_f": spearman(-risk, f),
        "spearman_expected_f_f": spearman(expected_f, f) if expected_f is not None else None,
        "spearman_logprob_f": spearman(lp, f),
        "spearman_risk_leaks": spearman(risk, leaks),
        "spearman_oracle_leaks_f": spearman(-leaks, f),
        "reviewed_notes": k,
        "leaks_found_top10pct": found,
        "leaks_found_top10pct_random_expectation": round(k / len(notes), 4),
        "chars_reviewed_top10pct": {"risk": round(float(chars[by_risk[:k]].sum() / chars.sum()), 4),
                                    "logprob": round(float(chars[by_lp[:k]].sum() / chars.sum()), 4)},
        "top20_suspects_cover": round(covered / max(1, total), 4),
        "expected_vs_actual_leftover_phi": [round(float(risk.sum()), 1), int(sum(n.y.sum() for n in notes))],
        "curves": {"risk": curve(by_risk, leaks), "logprob": curve(by_lp, leaks), "oracle": curve(by_oracle, leaks)},
    }


#: other note scores tried for sending reviewers to the leaks (docs/review-risk.md): name -> f(probabilities
#: of the leftovers, probabilities of the tagged tokens); the shipped ``risk`` is "sum"
RANKINGS: dict[str, Any] = {
    "sum": lambda p, q: p.sum(),
    "sum of p > 0.1": lambda p, q: p[p > 0.1].sum(),
    "sum of p > 0.3": lambda p, q: p[p > 0.3].sum(),
    "top 5 leftovers": lambda p, q: np.sort(p)[::-1][:5].sum(),
    "top 20 leftovers": lambda p, q: np.sort(p)[::-1][:20].sum(),
    "tagged tokens": lambda p, q: float(len(q)),
    "sum + 0.02 x tagged tokens": lambda p, q: p.sum() + 0.02 * len(q),
    "expected false alarms among the tagged": lambda p, q: (1.0 - q).sum(),
    "1 - expected_f": lambda p, q: 1.0 - expected_f1(float(q.sum()), float((1.0 - q).sum()), float(p.sum())),
}


def note_rankings(halves: list[tuple[list[Note], Calibration]]) -> dict[str, dict[str, float]]:
    """Share of leaked tokens in the top 10 % of notes under each score of :data:`RANKINGS`, per
    reported half (each with the calibration fitted on the other half) and pooled."""
    # the calibrated probabilities once per note: (leftovers, tagged tokens)
    probs = [[(cal.probability(n.matrix), cal.tagged.probability(n.tagged_matrix))  # type: ignore[union-attr]
              for n in notes] for notes, cal in halves]
    leaks = [[len(n.leaked) for n in notes] for notes, _ in halves]
    pooled_leaks = [x for half in leaks for x in half]
    out: dict[str, dict[str, float]] = {}
    for name, score in RANKINGS.items():
        scores = [[float(score(p, q)) for p, q in half] for half in probs]
        row = {f"half {i + 1}": _top_share(s, lk) for i, (s, lk) in enumerate(zip(scores, leaks))}
        row["pooled"] = _top_share([x for half in scores for x in half], pooled_leaks)
        out[name] = row
    out["oracle"] = {"pooled": _top_share([float(x) for x in pooled_leaks], pooled_leaks)}
    return out


def _top_share(scores: list[float], leaks: list[int]) -> float:
    k = int(np.ceil(REVIEW_SHARE * len(scores)))
    order = np.argsort(-np.asarray(scores, dtype=float), kind="stable")
    return round(float(np.asarray(leaks, dtype=float)[order[:k]].sum() / max(1, sum(leaks))), 4)


def prf(tp: float, fp: float, fn: float) -> dict[str, float]:
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(2 * p * r / (p + r) if p + r else 0.0, 4)}


def safety_net(notes: list[Note], cal: Calibration, thresholds: list[float]) -> dict[str, Any]:
    """Binary word-token P/R when the leftovers with calibrated P(PHI) >= t are tagged too."""
    tp, fp, fn = (sum(getattr(n, a) for n in notes) for a in ("tp", "fp", "fn"))
    out = {"model_output": prf(tp, fp, fn)}
    for t in thresholds:
        add_tp = add_fp = 0.0
        for n in notes:
            hit = cal.probability(n.matrix) >= t
            add_tp += float(n.y[hit].sum())
            add_fp += float((1 - n.y[hit]).sum())
        out[f"t={t:g}"] = prf(tp + add_tp, fp + add_fp, fn - add_tp)
    return out


# ------------------------------------------------------------------------------ plots
def plot(curves: dict[str, list[float]], title: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 4))
    n = len(next(iter(curves.values())))
    xs = np.arange(1, n + 1) / n
    names = {"risk": "risk (riskiest first)", "logprob": "record log-probability (lowest first)",
             "oracle": "oracle (true leak counts)"}
    for name, ys in curves.items():
        ax.plot(xs, ys, label=names.get(name, name))
    ax.plot([0, 1], [0, 1], "k--", lw=0.8, label="random (expected)")
    ax.axvline(REVIEW_SHARE, color="grey", lw=0.6)
    ax.set_xlabel("share of notes reviewed (riskiest first)")
    ax.set_ylabel("share of leaked PHI tokens found")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ------------------------------------------------------------------------------- main
def print_summary(name: str, r: dict[str, Any]) -> None:
    print(f"{name}: rho(-risk,F) {r['spearman_risk_f']} rho(E[F],F) {r['spearman_expected_f_f']} "
          f"rho(lp,F) {r['spearman_logprob_f']} top10% {r['leaks_found_top10pct']} "
          f"random {r['leaks_found_top10pct_random_expectation']} sus20 {r['top20_suspects_cover']}")


def write_results(name: str, command: str, targets: dict[str, float], data: dict[str, Any]) -> None:
    """``benchmarks/results/risk-<name>.json``: the command, the targets and the figures."""
    (RESULTS / f"risk-{name}.json").write_text(
        json.dumps({"command": command, "targets": targets, **data}, indent=1) + "\n", encoding="utf-8")


def plot_spanish(es: dict[str, Any]) -> None:
    plot(es["pooled"]["curves"], "MEDDOCAN dev, train-only es-meddocan recipe, pooled halves",
         PLOTS / "risk-es-dev.png")


def ship_spanish(es: dict[str, Any], es_notes: list[Note], es_model: str) -> None:
    """Refit the packaged es-meddocan calibration (leftover and tagged parts) on all of MEDDOCAN dev."""
    cal = fit(es_notes, "es-meddocan", FEATURES, f"the es-meddocan recipe trained on MEDDOCAN train only "
              f"({Path(es_model).name}: CRF + document second pass) on all 250 dev notes; applied to the "
              "shipped es-meddocan (train+dev)", tagged=True)
    Calibration(cal.model, cal.intercept, cal.weights, cal.fitted_on,
                {"pooled_dev_halves": summary(es["pooled"]), "results": "benchmarks/results/risk-es.json"},
                tagged=cal.tagged).save(ROOT / "src" / "notescrub" / "resources" / "risk" / "es-meddocan.json")


def summary(r: dict[str, Any]) -> dict[str, Any]:
    """A report without its curves (for the shipped calibration's ``validation``)."""
    return {k: v for k, v in r.items() if k != "curves"}


def english(work: Path, heldout: Path, rules: bool = False) -> tuple[dict[str, Any], dict[str, list[Note]]]:
    gold = {w: list(read_corpus(WRITERS / w, "inline")) for w in ("w09", "w10", "w11", "w12")}
    if rules:
        n8 = {w: run_model(work, "rules-en", "rules-en", w, g) for w, g in gold.items()}
        n10: dict[str, list[Note]] = {}
        names, model = NO_CRF, "rules-en"
    else:
        m8, m10 = str(heldout / "en-default-w01-w08"), str(heldout / "en-default-w01-w10")
        n8 = {w: run_model(work, m8, "en8", w, g) for w, g in gold.items()}
        n10 = {w: run_model(work, m10, "en10", w, gold[w]) for w in ("w11", "w12")}
        names, model = FEATURES, "en-default"
    a_fit, b_fit = n8["w09"] + n8["w10"], n8["w11"] + n8["w12"]
    cal_a = fit(a_fit, model, names, "split A: fitted on w09+w10")
    cal_b = fit(b_fit, model, names, "split B: fitted on w11+w12")
    out: dict[str, Any] = {"split_A_fit_w09_w10": {"calibration": cal_a.to_json()},
                           "split_B_fit_w11_w12": {"calibration": cal_b.to_json()}}
    tag = "rules-en" if rules else "8-writer model"
    out["split_A_fit_w09_w10"][f"report_w11_w12_{'rules' if rules else 'model_w01_w08'}"] = evaluate_notes(
        b_fit, [cal_a] * len(b_fit))
    if n10:
        ten = n10["w11"] + n10["w12"]
        out["split_A_fit_w09_w10"]["report_w11_w12_model_w01_w10"] = evaluate_notes(ten, [cal_a] * len(ten))
    out["split_B_fit_w11_w12"][f"report_w09_w10_{'rules' if rules else 'model_w01_w08'}"] = evaluate_notes(
        a_fit, [cal_b] * len(a_fit))
    out[f"pooled_{tag.replace(' ', '_')}_w09_w12"] = evaluate_notes(b_fit + a_fit,
                                                                     [cal_a] * len(b_fit) + [cal_b] * len(a_fit))
    return out, n8


def english_current(work: Path, model: str, writers: list[str],
                    check_writers: Sequence[str] = ()) -> tuple[dict[str, Any], list[Note]]:
    """Cross-fitted halves of ``writers`` (unseen by ``model``): fit on one half, report on the other.

    With ``check_writers`` (a newer wave, unseen by the model and by every calibration fitted
    here), a calibration fitted on all of ``writers`` is also reported on them (``new_wave``).
    """
    if len(writers) < 2:
        raise SystemExit("--current-writers needs at least two writers (two halves)")
    label = "current-" + Path(model).name
    notes = {w: run_model(work, model, label, w, list(read_corpus(WRITERS / w, "inline"))) for w in writers}
    half = len(writers) // 2
    first, second = writers[:half], writers[half:]
    a = [n for w in first for n in notes[w]]
    b = [n for w in second for n in notes[w]]
    cal_a = fit(a, "en-default", FEATURES, f"fitted on {'+'.join(first)}", tagged=True)
    cal_b = fit(b, "en-default", FEATURES, f"fitted on {'+'.join(second)}", tagged=True)
    out = {"model": model, "writers": writers,
           "fit_first_half": {"calibration": cal_a.to_json(), "fitted_on": first, "reported_on": second,
                              "report": evaluate_notes(b, [cal_a] * len(b))},
           "fit_second_half": {"calibration": cal_b.to_json(), "fitted_on": second, "reported_on": first,
                               "report": evaluate_notes(a, [cal_b] * len(a))},
           "pooled": evaluate_notes(b + a, [cal_a] * len(b) + [cal_b] * len(a)),
           "other_note_rankings_top10pct": note_rankings([(b, cal_a), (a, cal_b)])}
    if check_writers:
        both = fit(a + b, "en-default", FEATURES, f"fitted on {'+'.join(writers)}", tagged=True)
        new = [n for w in check_writers for n in run_model(work, model, label, w,
                                                         list(read_corpus(WRITERS / w, "inline")))]
        out["new_wave"] = {"fitted_on": writers, "reported_on": list(check_writers),
                           "report": evaluate_notes(new, [both] * len(new))}
    return out, a + b


def spanish(work: Path) -> tuple[dict[str, Any], list[Note], str]:
    model = es_train_only(work)
    dev = sorted(read_corpus(MEDDOCAN / "dev" / "brat"), key=lambda d: d.id)
    half = len(dev) // 2
    notes = run_model(work, str(model), "es-train-only", "dev", dev)
    h1, h2 = notes[:half], notes[half:]
    c1 = fit(h1, "es-meddocan", FEATURES, "fitted on MEDDOCAN dev, first half (document id order)", tagged=True)
    c2 = fit(h2, "es-meddocan", FEATURES, "fitted on MEDDOCAN dev, second half (document id order)", tagged=True)
    out = {"model": "es-meddocan recipe (CRF + document second pass) trained on MEDDOCAN train only",
           "fit_half1_report_half2": {"calibration": c1.to_json(), "report": evaluate_notes(h2, [c1] * len(h2))},
           "fit_half2_report_half1": {"calibration": c2.to_json(), "report": evaluate_notes(h1, [c2] * len(h1))},
           "pooled": evaluate_notes(h2 + h1, [c1] * len(h2) + [c2] * len(h1))}
    return out, notes, str(model)


def recall_net(work: Path, heldout: Path, n8: dict[str, list[Note]], biases: list[float],
               thresholds: list[float]) -> dict[str, Any]:
    gold = {w: list(read_corpus(WRITERS / w, "inline")) for w in ("w11", "w12")}
    m8 = str(heldout / "en-default-w01-w08")
    cal = fit(n8["w09"] + n8["w10"], "en-default", FEATURES, "split A")
    test = n8["w11"] + n8["w12"]
    out: dict[str, Any] = {"protocol": "8-writer model on w11+w12, calibration fitted on w09+w10; binary word-token "
                                       "P/R/F (a word-like token is PHI when a span overlaps it)",
                           "risk_threshold": safety_net(test, cal, thresholds), "recall_bias": {}}
    for b in biases:
        notes = [n for w in ("w11", "w12") for n in run_model(work, m8, "en8", w, gold[w], bias=b)]
        tp, fp, fn = (sum(getattr(n, a) for n in notes) for a in ("tp", "fp", "fn"))
        out["recall_bias"][f"{b:g}"] = prf(tp, fp, fn)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", default="/tmp/risk-work", help="cache of model runs (reused when present)")
    ap.add_argument("--heldout", default="/work/heldout-models", help="folder of the held-out-writer models")
    ap.add_argument("--ship", action="store_true", help="write the calibrations into src/notescrub/resources/risk/")
    ap.add_argument("--biases", default="2.5,3,4,5", help="--recall-bias values to compare with the safety net")
    ap.add_argument("--thresholds", default="0.9,0.7,0.5,0.3,0.2,0.1,0.05")
    ap.add_argument("--current", help="the model that ships (a directory), for the current-model protocol")
    ap.add_argument("--current-writers", default="", help="comma-separated writers the --current model never saw")
    ap.add_argument("--check-writers", default="",
                    help="a newer wave: report the calibration fitted on all --current-writers on these writers")
    ap.add_argument("--ship-current", action="store_true",
                    help="refit the packaged en-default calibration on all --current-writers with --current")
    ap.add_argument("--only", choices=("all", "current", "spanish"), default="all",
                    help="'current': run the current-model protocol alone; 'spanish': MEDDOCAN dev alone")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    work, heldout = Path(args.work), Path(args.heldout)
    work.mkdir(parents=True, exist_ok=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    command = "python benchmarks/risk_eval.py " + " ".join(argv if argv is not None else sys.argv[1:])
    targets = {"spearman_risk_f": 0.65, "leaks_found_top10pct": 0.40, "top20_suspects_cover": 0.60}
    if args.current:
        writers = [w for w in args.current_writers.split(",") if w]
        cur, cur_notes = english_current(work, args.current, writers,
                                         [w for w in args.check_writers.split(",") if w])
        (RESULTS / "risk-en-current.json").write_text(
            json.dumps({"command": command, "targets": targets, **cur}, indent=1) + "\n", encoding="utf-8")
        plot(cur["pooled"]["curves"], f"{Path(args.current).name} on unseen {writers[0]}-{writers[-1]}, cross-fitted halves",
             PLOTS / "risk-en-current.png")
        r = cur["pooled"]
        print(f"current pooled: rho(-risk,F) {r['spearman_risk_f']} rho(E[F],F) {r['spearman_expected_f_f']} "
              f"rho(lp,F) {r['spearman_logprob_f']} "
              f"top10% {r['leaks_found_top10pct']} random {r['leaks_found_top10pct_random_expectation']} "
              f"sus20 {r['top20_suspects_cover']}")
        if args.ship_current:
            cal = fit(cur_notes, "en-default", FEATURES,
                      f"{Path(args.current).name} (the shipped en-default's recipe and training writers) on the notes "
                      f"of {', '.join(writers)}, written after it was trained", tagged=True)
            from notescrub.risk.calibration import crf_fingerprint

            # the CRF it was fitted with: the leftover net warns when it runs with another one
            fitted_on = {**cal.fitted_on, "crf_sha256": crf_fingerprint(Path(args.current))}
            Calibration(cal.model, cal.intercept, cal.weights, fitted_on,
                        {"pooled_cross_fitted_halves": summary(cur["pooled"]),
                         "results": "benchmarks/results/risk-en-current.json"}, tagged=cal.tagged).save(
                ROOT / "src" / "notescrub" / "resources" / "risk" / "en-default.json")
    if args.only == "current":
        return 0
    if args.only == "spanish":
        es, es_notes, es_model = spanish(work)
        write_results("es", command, targets, es)
        plot_spanish(es)
        if args.ship:
            ship_spanish(es, es_notes, es_model)
        print_summary("es pooled", es["pooled"])
        return 0

    en, n8 = english(work, heldout)
    rules, rn = english(work, heldout, rules=True)
    es, es_notes, es_model = spanish(work)
    net = recall_net(work, heldout, n8, [float(x) for x in args.biases.split(",")],
                     [float(x) for x in args.thresholds.split(",")])
    for name, data in (("en", en), ("rules-en", rules), ("es", es), ("recall-net", net)):
        write_results(name, command, targets, data)
    plot(en["pooled_8-writer_model_w09_w12"]["curves"], "en-default without w09-w12, pooled held-out writers",
         PLOTS / "risk-en-heldout.png")
    plot(en["split_A_fit_w09_w10"]["report_w11_w12_model_w01_w10"]["curves"],
         "en-default without w11, w12 (fit w09+w10), on w11+w12", PLOTS / "risk-en-10writers.png")
    plot_spanish(es)
    if args.ship:
        out = ROOT / "src" / "notescrub" / "resources" / "risk"
        # (en-default's shipped calibration comes from the current-model protocol: --ship-current)
        ship_spanish(es, es_notes, es_model)
        allr = [n for w in ("w09", "w10", "w11", "w12") for n in rn[w]]
        cal = fit(allr, "rules-en", NO_CRF, "rules-en on the notes of writers w09-w12 (no CRF: weaker signals only)")
        Calibration(cal.model, cal.intercept, cal.weights, cal.fitted_on,
                    {"pooled_held_out": summary(rules["pooled_rules-en_w09_w12"]),
                     "results": "benchmarks/results/risk-rules-en.json"}).save(out / "rules-en.json")
    for name, r in (("en pooled", en["pooled_8-writer_model_w09_w12"]),
                    ("en A 10w", en["split_A_fit_w09_w10"]["report_w11_w12_model_w01_w10"]),
                    ("rules pooled", rules["pooled_rules-en_w09_w12"]), ("es pooled", es["pooled"])):
        print_summary(name, r)
    print(json.dumps(net, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
