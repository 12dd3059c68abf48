#!/usr/bin/env python
"""Per-label CRF biases against the uniform O-bias: does favouring the labels that leak most buy
more recall per unit of precision than moving the ``O`` score alone?

Runs ``en-default`` at its ``high-recall`` preset with each configuration ``[o_bias, {label: b}]``
(``CRFTagger.label_bias``: ``b`` added to every tag of that label, on top of the O-bias) on the
writers named, and writes the pooled binary-token precision/recall, strict F1, leaked PHI tokens
(by type) and notes with a leak per configuration (the scoring of ``scripts/lowo_en_default.py``).
Compare each label-biased point with the uniform points of similar precision.

    python benchmarks/label_bias.py --writers w111,w112,w113,w114,w115,w116 \\
        --config='[-1.8, {}]' --config='[-2.2, {}]' --config='[-1.8, {"ORGANIZATION": 1.0}]' \\
        -o benchmarks/results/en-default-label-bias.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from lowo_en_default import scores, writer_docs  # noqa: E402

from notescrub.assemble import build  # noqa: E402
from notescrub.detect.crf.tagger import CRFTagger  # noqa: E402
from notescrub.io.atomic import atomic_file  # noqa: E402


def crf_taggers(pipe: Any) -> list[CRFTagger]:
    """The CRF taggers inside a pipeline's components (a stacked CRF's inner tagger included)."""
    out = []
    for comp in pipe.detectors:
        inner = getattr(comp, "inner", comp)
        for obj in (inner, getattr(inner, "crf", None)):
            if isinstance(obj, CRFTagger):
                out.append(obj)
    return out


def parse_config(text: str) -> tuple[float, dict[str, float]]:
    """``'[-1.8, {"ORGANIZATION": 1.0}]'`` -> ``(-1.8, {"ORGANIZATION": 1.0})``.

    >>> parse_config('[-2.2, {}]')
    (-2.2, {})
    """
    value = json.loads(text)
    if not (isinstance(value, list) and len(value) == 2 and isinstance(value[1], dict)):
        raise SystemExit(f"--config {text!r}: give [O_BIAS, {{LABEL: B, ...}}]")
    return float(value[0]), {str(k): float(v) for k, v in value[1].items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="en-default")
    ap.add_argument("--writers", required=True, help="comma-separated writers of corpora/en-writers")
    ap.add_argument("--config", action="append", required=True, help='[O_BIAS, {"LABEL": B}] (repeatable)')
    ap.add_argument("-o", "--out", type=Path, required=True)
    args = ap.parse_args()
    writers = [w.strip() for w in args.writers.split(",") if w.strip()]
    by_writer = writer_docs(only=writers)
    missing = [w for w in writers if w not in by_writer]
    if missing:
        raise SystemExit(f"unknown writers: {', '.join(missing)}")
    golds = [d for w in writers for d in by_writer[w]]
    rows = []
    for text in args.config:
        o_bias, label_bias = parse_config(text)
        pipe = build(args.model, "high-recall", None, recall_bias=-o_bias)
        taggers = crf_taggers(pipe)
        if not taggers:
            raise SystemExit(f"{args.model}: no CRF tagger in its high-recall pipeline")
        for t in taggers:
            t.label_bias = label_bias or None
        preds = []
        for p in pipe.pipe([g.copy(layers=False) for g in golds]):
            q = p.copy(layers=False)
            q.add_layer("gold", p.layer("phi"))
            preds.append(q)
        r = scores(golds, preds)
        rows.append({"o_bias": o_bias, "label_bias": label_bias, **r})
        print(f"O-bias {o_bias:+.2f} {json.dumps(label_bias, sort_keys=True)}: binary P "
              f"{r['binary_token']['precision']:.4f} R {r['binary_token']['recall']:.4f} leaked {r['leaked_tokens']} "
              f"notes with a leak {r['notes_with_leak']}/{r['notes']}", flush=True)
    with atomic_file(args.out) as tmp:
        tmp.write_text(json.dumps({"model": args.model, "preset": "high-recall", "writers": writers, "rows": rows},
                                  indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
