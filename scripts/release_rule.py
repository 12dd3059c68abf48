#!/usr/bin/env python
"""Apply en-default's release rule to a choice run: which O-bias, and ship or not.

The rule, fixed in advance for every release (docs/en-default.md, "This release"): on the wave
that chooses (writers neither model trained on), take the build's operating point with the most
recall among those that lose no binary precision against the shipped model's `high-recall`
preset; ship the build at that bias only if it then leaks fewer PHI tokens than the shipped
model. The input is a ``scripts/lowo_en_default.py --score BUILD --score en-default --writers
... --sweep=...`` report; the build's own `high-recall` row counts as one more point, at the
bias its ``model.json`` gives that preset (or ``--build-bias``).

    python scripts/release_rule.py choice.json --build /work/builds/en-default-w01-w92
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def preset_bias(model_dir: Path) -> float:
    """The CRF O-bias of the `high-recall` preset in a model directory's ``model.json``."""
    meta = json.loads((model_dir / "model.json").read_text(encoding="utf-8"))
    return float(meta["presets"]["high-recall"]["components"]["crf"]["bias"])


def choose(report: dict, build: str, shipped: str, build_bias: float) -> dict:
    """The rule's decision: ``{"bias", "ship", "point", "shipped"}`` (``bias`` None when no point passes).

    >>> pt = lambda p, r, leaks: {"binary_token": {"precision": p, "recall": r}, "leaked_tokens": leaks}
    >>> rep = {"models": {"old": {"pooled": {"high-recall": pt(0.921, 0.980, 392)}},
    ...                   "new": {"pooled": {"high-recall": pt(0.9214, 0.981, 390)}}},
    ...        "sweep": {"new": {"-2.00": pt(0.917, 0.982, 381), "-1.80": pt(0.926, 0.979, 401)}}}
    >>> d = choose(rep, "new", "old", -1.9); d["bias"], d["ship"]
    (-1.9, True)
    """
    ref = report["models"][shipped]["pooled"]["high-recall"]
    points = {build_bias: report["models"][build]["pooled"]["high-recall"]}
    points.update({float(b): r for b, r in report.get("sweep", {}).get(build, {}).items()})
    passing = {b: r for b, r in points.items()
               if r["binary_token"]["precision"] >= ref["binary_token"]["precision"]}
    if not passing:
        return {"bias": None, "ship": False, "point": None, "shipped": ref}
    bias, point = max(passing.items(), key=lambda kv: (kv[1]["binary_token"]["recall"], -kv[1]["leaked_tokens"]))
    return {"bias": bias, "ship": point["leaked_tokens"] < ref["leaked_tokens"], "point": point, "shipped": ref}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("report", type=Path, help="a lowo_en_default.py --score ... --sweep report")
    ap.add_argument("--build", required=True, help="the build's key in the report (its --score argument)")
    ap.add_argument("--shipped", default="en-default", help="the shipped model's key (default en-default)")
    ap.add_argument("--build-bias", type=float, help="the build's high-recall O-bias (default: from BUILD/model.json)")
    args = ap.parse_args()
    report = json.loads(args.report.read_text(encoding="utf-8"))
    for key in (args.build, args.shipped):
        if key not in report.get("models", {}):
            raise SystemExit(f"{args.report}: no model {key!r} (has {sorted(report.get('models', {}))})")
    bias = args.build_bias
    if bias is None:
        if not (Path(args.build) / "model.json").is_file():
            raise SystemExit(f"--build-bias needed: {args.build} is no model directory")
        bias = preset_bias(Path(args.build))
    d = choose(report, args.build, args.shipped, bias)
    ref = d["shipped"]
    print(f"shipped: P {ref['binary_token']['precision']:.4f} leaked {ref['leaked_tokens']}")
    if d["bias"] is None:
        print("no operating point of the build keeps the shipped precision: do not ship")
        return
    pt = d["point"]
    print(f"build at O-bias {d['bias']:+.2f}: P {pt['binary_token']['precision']:.4f} "
          f"R {pt['binary_token']['recall']:.4f} leaked {pt['leaked_tokens']} -> {'ship' if d['ship'] else 'do not ship'}")


if __name__ == "__main__":
    main()
