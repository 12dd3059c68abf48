"""Section 6: the Manchester hybrid (Dehghan et al. 2015): operating points and two-pass recognition.

The trained Manchester model of the systems table is applied at its three operating
points (``precision``, ``recall``, ``f1`` -- the paper's three submissions), each with
and without the second (patient-level dictionary) pass; per type, the two-pass gain.

>>> TWO_PASS_TYPES[:2]
('PATIENT', 'DOCTOR')
"""

from __future__ import annotations

import time
from typing import Any

from notescrub.experiments.common import Context, Section, predict, score
from notescrub.experiments.papers import DEHGHAN
from notescrub.experiments.systems import system_run

__all__ = ["PRESETS", "TWO_PASS_TYPES", "run_section"]

TWO_PASS_TYPES = ("PATIENT", "DOCTOR", "ZIP", "MEDICALRECORD", "IDNUM", "CITY", "HOSPITAL")
PRESETS = ("precision", "recall", "f1")


def _canon_f(sc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per canonical subtype strict counts summed over native labels."""
    from notescrub.taxonomy import canonical

    out: dict[str, list[int]] = {}
    for lab, v in sc["by_type"].items():
        c = canonical(lab) or lab
        acc = out.setdefault(c, [0, 0, 0])
        acc[0] += v["tp"] or 0
        acc[1] += v["fp"] or 0
        acc[2] += v["fn"] or 0
    res = {}
    for c, (tp, fp, fn) in out.items():
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        res[c] = {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0, "gold": tp + fn}
    return res


def run_section(ctx: Context, dataset: Any) -> Section:
    t0 = time.perf_counter()
    sec = Section("manchester", "Manchester: operating points and two-pass recognition",
                  intro=("The Manchester hybrid (rules, dictionaries, per-type IO-CRFs, post-processing, "
                         "patient-level second pass, priority integration) at its three operating points, each "
                         "with and without the second pass."))
    run = system_run(ctx, dataset, "manchester")
    if run.error:
        sec.notes.append(f"Manchester did not run: {run.error}")
        sec.seconds = time.perf_counter() - t0
        return sec
    results: dict[tuple[str, bool], dict[str, Any]] = {}
    rows = []
    for preset in PRESETS:
        for second in (True, False):
            preds = []
            t1 = time.perf_counter()
            for sp, m in zip(dataset.splits, run.models):
                preds += predict(None, sp.test, pipeline=m.pipeline(preset, second_pass=second))
            secs = time.perf_counter() - t1
            sc = results[(preset, second)] = score(dataset.test_docs, preds, bootstrap=0)
            rows.append([preset, "yes" if second else "no", sc["strict"]["precision"], sc["strict"]["recall"],
                         sc["strict"]["f1"], sc["token"]["f1"], sc["binary_phi"]["f1"], round(secs, 1)])
    sec.table("operating_points", "Operating points (strict / token / binary token), with and without the second "
              "pass", ["preset", "second pass", "strict P", "strict R", "strict F", "token F", "PHI token F",
                       "annotate s"], rows)
    with2, without2 = _canon_f(results[("f1", True)]), _canon_f(results[("f1", False)])
    trows = []
    for t in sorted(set(with2) | set(without2)):
        a, b = with2.get(t, {}), without2.get(t, {})
        trows.append([t, "yes" if t in TWO_PASS_TYPES else "", a.get("gold"), b.get("precision"), b.get("recall"),
                      b.get("f1"), a.get("precision"), a.get("recall"), a.get("f1"),
                      None if not a or not b else a["f1"] - b["f1"]])
    sec.table("two_pass_by_type", "Per type (canonical subtype), F1 preset: without vs with the second pass",
              ["type", "two-pass type", "gold", "P without", "R without", "F without", "P with", "R with", "F with",
               "F gain"], trows)
    plan = getattr(run.models[0], "plan_", None)
    if plan:
        sec.table("plan", "Sources per type chosen on the training notes (first split)",
                  ["type group", "labels", "usable knowledge taggers", "CRF", "precision", "recall", "f1"],
                  [[g, ", ".join(p["labels"]), ", ".join(p["knowledge"]) or "-", p["ml"] or "-",
                    " + ".join(p["sources"]["precision"]), " + ".join(p["sources"]["recall"]),
                    " + ".join(p["sources"]["f1"])] for g, p in sorted(plan.items())])
    sec.data = {f"{p}/{'2pass' if s2 else '1pass'}": {"strict": sc["strict"], "token": sc["token"],
                                                      "binary_phi": sc["binary_phi"]}
                for (p, s2), sc in results.items()}
    sec.data["by_type_f1_preset"] = {"with_second_pass": with2, "without_second_pass": without2}
    _compare(sec, results, with2, without2, dataset)
    sec.differences += [
        "Dehghan et al. had English JAPE rules for every type and i2b2 2014's longitudinal notes (up to five per "
        "patient); on a corpus without patient ids every note is its own patient, so the second pass only "
        "re-finds names within one note.",
        "Per-type CRFs share one feature set and are capped in iterations; no cTAKES/GATE/Stanford NER.",
        "On a corpus whose language has no packaged rules for a type, that type is learned by the residual CRF.",
    ]
    sec.seconds = time.perf_counter() - t0
    return sec


def _compare(sec: Section, results: dict[tuple[str, bool], dict[str, Any]], with2: dict[str, Any],
             without2: dict[str, Any], dataset: Any) -> None:
    p = {k: results[(k, True)]["strict"] for k in PRESETS}
    sec.compare("The precision preset has the highest precision", DEHGHAN["submissions"],
                f"P: precision {p['precision']['precision']:.4f}, f1 {p['f1']['precision']:.4f}, recall "
                f"{p['recall']['precision']:.4f}", p["precision"]["precision"] >= max(p["f1"]["precision"],
                                                                                  p["recall"]["precision"]))
    sec.compare("The recall preset has the highest recall", "submission 2 targeted recall",
                f"R: recall {p['recall']['recall']:.4f}, f1 {p['f1']['recall']:.4f}, precision "
                f"{p['precision']['recall']:.4f}", p["recall"]["recall"] >= max(p["f1"]["recall"],
                                                                             p["precision"]["recall"]))
    best = max(PRESETS, key=lambda k: p[k]["f1"])
    sec.compare("The F1 preset has the best F1", f"submission 3: strict F {DEHGHAN['submission3_strict_f']} %",
                f"best: {best} ({p[best]['f1']:.4f})", best == "f1")
    gains = [(t, with2[t]["f1"] - without2[t]["f1"]) for t in TWO_PASS_TYPES if t in with2 and t in without2]
    if gains:
        pos = sum(1 for _, g in gains if g > 0)
        sec.compare("The second pass helps the two-pass types", DEHGHAN["two_pass"],
                    f"F gain > 0 on {pos} of {len(gains)} types present ("
                    + ", ".join(f"{t} {g:+.3f}" for t, g in gains) + ")",
                    pos > len(gains) / 2 if pos or any(g < 0 for _, g in gains) else None)
