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
from notescrub.experiments.verdicts import z_verdict

__all__ = ["PRESETS", "TWO_PASS_TYPES", "compare_section", "run_section"]

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
    compare_section(sec)
    sec.differences += [
        "Dehghan et al. had English JAPE rules for every type and i2b2 2014's longitudinal notes (up to five per "
        "patient); on a corpus without patient ids every note is its own patient, so the second pass only "
        "re-finds names within one note.",
        "Per-type CRFs share one feature set and are capped in iterations; no cTAKES/GATE; organisations from "
        "spaCy's NER instead of Stanford's (English, only when the syntax extra is installed).",
        "On a corpus whose language has no packaged rules for a type, that type is learned by the residual CRF.",
    ]
    sec.seconds = time.perf_counter() - t0
    return sec


def _n(node: dict[str, Any], denom: str) -> int:
    return int((node.get("tp") or 0) + (node.get(denom) or 0))


def compare_section(sec: Section) -> None:
    """The paper comparisons of the Manchester study, from ``sec.data`` alone (JSON-ready)."""
    if not all(f"{k}/2pass" in sec.data for k in PRESETS):
        return
    p = {k: sec.data[f"{k}/2pass"]["strict"] for k in PRESETS}

    def top(measure: str, preset: str, denom: str, unit: str) -> dict[str, Any]:
        rival = max((k for k in PRESETS if k != preset), key=lambda k: p[k][measure])
        return z_verdict(p[preset][measure], p[rival][measure], _n(p[preset], denom), n_b=_n(p[rival], denom),
                         claim_first_higher=True, what=f"strict {measure} ({preset} vs {rival} preset)", unit=unit)

    sec.compare("The precision preset has the highest precision (the aim of submission 1)",
                DEHGHAN["submissions"] + "; " + DEHGHAN["precision_outcome"],
                f"P: precision {p['precision']['precision']:.4f}, f1 {p['f1']['precision']:.4f}, recall "
                f"{p['recall']['precision']:.4f}", top("precision", "precision", "fp", "predicted spans"))
    sec.compare("The recall preset has the highest recall", "submission 2 targeted recall",
                f"R: recall {p['recall']['recall']:.4f}, f1 {p['f1']['recall']:.4f}, precision "
                f"{p['precision']['recall']:.4f}", top("recall", "recall", "fn", "gold spans"))
    best = max(PRESETS, key=lambda k: p[k]["f1"])
    sec.compare("The F1 preset has the best F1", f"submission 3: strict F {DEHGHAN['submission3_strict_f']} %",
                f"best: {best} ({p[best]['f1']:.4f})", top("f1", "f1", "fn", "gold spans"))
    by_type = sec.data.get("by_type_f1_preset") or {}
    with2, without2 = by_type.get("with_second_pass", {}), by_type.get("without_second_pass", {})
    gains = [(t, with2[t], without2[t]) for t in TWO_PASS_TYPES if t in with2 and t in without2]
    if gains:
        tests = [z_verdict(a["f1"], b["f1"], a.get("gold") or 0, claim_first_higher=True,
                           what=f"{t} strict F (with vs without)", unit="gold spans") for t, a, b in gains]
        up = sum(1 for v in tests if v["verdict"] == "agrees")
        down = sum(1 for v in tests if v["verdict"] == "differs")
        verdict = "agrees" if up > down else "differs" if down > up else "not significant"
        if up == down and up:
            verdict = "-"
        pos = sum(1 for _, a, b in gains if a["f1"] - b["f1"] > 0)
        sec.compare("The second pass helps the two-pass types", DEHGHAN["two_pass"],
                    f"F gain > 0 on {pos} of {len(gains)} types present ("
                    + ", ".join(f"{t} {a['f1'] - b['f1']:+.3f}" for t, a, b in gains) + "); significant gains "
                    f"{up}, significant losses {down}",
                    {"verdict": verdict, "test": "per type: " + "; ".join(v["test"] for v in tests)
                     + " (agrees when significant gains outnumber significant losses)"})
