#!/usr/bin/env python
"""Score the rules layer, a dictionary layer or a packaged pipeline against en-dev gold.

Prints per-type recall/precision (strict: same extent and type; overlap: any overlap with
the same type; binary: any overlapping predicted span) and binary token P/R/F. Never
prints note text.

Usage::

    python scripts/score_rules.py                       # RulesDetector alone
    python scripts/score_rules.py --pipeline h-d        # the H+D recipe (phi layer)
    python scripts/score_rules.py --model rules-en      # a packaged model (phi layer)
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

from notescrub.text.tokenize import tokenize
from notescrub.types import Document, Span

STRUCTURED = ["DATE", "AGE", "PHONE", "FAX", "EMAIL", "URL", "IPADDR", "SSN", "ZIP",
              "MEDICALRECORD", "ACCOUNT", "IDNUM", "HEALTHPLAN", "LICENSE", "DEVICE", "VEHICLE", "BIOID"]


def load(path: Path) -> list[Document]:
    docs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        spans = [Span(s["start"], s["end"], s["type"], source="gold") for s in r["spans"]]
        docs.append(Document(r["id"], r["text"], r.get("patient"), layers={"gold": spans}))
    return docs


def token_sets(doc: Document, spans: list[Span]) -> set[int]:
    toks = tokenize(doc.text)
    out = set()
    for i, t in enumerate(toks):
        for s in spans:
            if s.start < t.end and t.start < s.end:
                out.add(i)
                break
    return out


def score(docs: list[Document], layer: str) -> dict:
    tp_s, tp_o, tp_b, n_gold = Counter(), Counter(), Counter(), Counter()
    ptp_s, ptp_o, n_pred = Counter(), Counter(), Counter()
    tok = Counter()
    for d in docs:
        gold, pred = d.layer("gold"), d.layer(layer)
        for g in gold:
            n_gold[g.label] += 1
            if any(p.start == g.start and p.end == g.end and p.phi == g.phi for p in pred):
                tp_s[g.label] += 1
            if any(p.overlaps(g) and p.phi == g.phi for p in pred):
                tp_o[g.label] += 1
            if any(p.overlaps(g) for p in pred):
                tp_b[g.label] += 1
        for p in pred:
            lab = p.phi or p.label
            n_pred[lab] += 1
            if any(p.start == g.start and p.end == g.end and p.phi == g.phi for g in gold):
                ptp_s[lab] += 1
            if any(p.overlaps(g) and p.phi == g.phi for g in gold):
                ptp_o[lab] += 1
        gt, pt = token_sets(d, gold), token_sets(d, pred)
        tok["tp"] += len(gt & pt)
        tok["fp"] += len(pt - gt)
        tok["fn"] += len(gt - pt)
    types = sorted(set(n_gold) | set(n_pred), key=lambda t: -n_gold[t])
    rows = {}
    for t in types:
        rows[t] = {
            "gold": n_gold[t], "pred": n_pred[t],
            "recall_strict": tp_s[t] / n_gold[t] if n_gold[t] else None,
            "recall_overlap": tp_o[t] / n_gold[t] if n_gold[t] else None,
            "recall_any_label": tp_b[t] / n_gold[t] if n_gold[t] else None,
            "precision_strict": ptp_s[t] / n_pred[t] if n_pred[t] else None,
            "precision_overlap": ptp_o[t] / n_pred[t] if n_pred[t] else None,
        }
    g = sum(n_gold[t] for t in STRUCTURED)
    struct = {
        "gold": g,
        "recall_strict": sum(tp_s[t] for t in STRUCTURED) / g,
        "recall_overlap": sum(tp_o[t] for t in STRUCTURED) / g,
        "recall_any_label": sum(tp_b[t] for t in STRUCTURED) / g,
        "precision_strict": sum(ptp_s[t] for t in STRUCTURED) / max(1, sum(n_pred[t] for t in STRUCTURED)),
        "precision_overlap": sum(ptp_o[t] for t in STRUCTURED) / max(1, sum(n_pred[t] for t in STRUCTURED)),
    }
    p = tok["tp"] / max(1, tok["tp"] + tok["fp"])
    r = tok["tp"] / max(1, tok["tp"] + tok["fn"])
    return {"types": rows, "structured": struct,
            "binary_token": {"precision": p, "recall": r, "f1": 2 * p * r / max(1e-9, p + r), **tok}}


def fmt(v: float | None) -> str:
    return "   -  " if v is None else f"{v:6.3f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="../shared/corpora/en-dev/en-dev.jsonl", type=Path)
    ap.add_argument("--pipeline", choices=["rules", "h-d"], default="rules")
    ap.add_argument("--model", default=None, help="packaged model name or directory (scores its phi layer)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    docs = load(args.corpus)
    t0 = time.perf_counter()
    if args.model:
        from notescrub.registry import load_model

        pipe = load_model(args.model)
        docs = list(pipe.pipe(docs))
        layer = pipe.output_layer
    elif args.pipeline == "h-d":
        from notescrub.recipes.h_d import build_pipeline

        pipe = build_pipeline()
        docs = list(pipe.pipe(docs))
        layer = pipe.output_layer
    else:
        from notescrub.detect.rules.detector import RulesDetector

        det = RulesDetector()
        for d in docs:
            d.add_layer("rules", det.detect(d))
        layer = "rules"
    secs = time.perf_counter() - t0
    res = score(docs, layer)
    n_tok = sum(len(tokenize(d.text)) for d in docs)
    res["speed"] = {"documents": len(docs), "tokens": n_tok, "seconds": secs, "tokens_per_s": n_tok / secs}
    if args.json:
        print(json.dumps(res, indent=1))
        return
    print(f"{'type':15} {'gold':>5} {'pred':>5}  R-strict R-overlap R-anylab  P-strict P-overlap")
    for t, row in res["types"].items():
        print(f"{t:15} {row['gold']:5} {row['pred']:5}  {fmt(row['recall_strict'])}   {fmt(row['recall_overlap'])}   "
              f"{fmt(row['recall_any_label'])}   {fmt(row['precision_strict'])}   {fmt(row['precision_overlap'])}")
    s = res["structured"]
    print(f"{'STRUCTURED':15} {s['gold']:5}        {fmt(s['recall_strict'])}   {fmt(s['recall_overlap'])}   "
          f"{fmt(s['recall_any_label'])}   {fmt(s['precision_strict'])}   {fmt(s['precision_overlap'])}")
    b = res["binary_token"]
    print(f"binary token P={b['precision']:.4f} R={b['recall']:.4f} F1={b['f1']:.4f}")
    sp = res["speed"]
    print(f"speed: {sp['tokens']} tokens in {sp['seconds']:.2f}s = {sp['tokens_per_s']:.0f} tokens/s")


if __name__ == "__main__":
    main()
