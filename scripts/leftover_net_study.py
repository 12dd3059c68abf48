"""Where the leftover safety net pays: CRF O-bias alone against O-bias plus the net, on unseen writers.

For each O-bias the shipped en-default is run once on the writers' notes (net off); then, for
each threshold, the leftover tokens whose calibrated ``P(PHI)`` reaches it are added
(:class:`notescrub.risk.net.LeftoverNet` does the same inside a pipeline) and the notes are
scored as ``scripts/lowo_en_default.py`` scores them (binary-token P/R, strict F1, leaked
tokens, notes with a leak). ``--cross`` scores each writer with the calibration fitted on the
other half of the wave in ``benchmarks/results/risk-en-current.json`` (``fit_first_half`` /
``fit_second_half``), so that the choosing wave the shipped calibration was fitted on is not
scored in-sample::

    python scripts/leftover_net_study.py --writers w117,w118,w119,w120,w121,w122 --cross \\
        --biases=-1.8,-2.3,-3.0,-3.5,-4.0 --thresholds 0.03,0.05,0.1,0.2 -o net.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import lowo_en_default as lowo  # noqa: E402

from notescrub.assemble import build  # noqa: E402
from notescrub.io.atomic import atomic_file  # noqa: E402
from notescrub.risk.calibration import Calibration, packaged_calibration  # noqa: E402
from notescrub.risk.net import LeftoverNet  # noqa: E402

RISK_REPORT = ROOT / "benchmarks" / "results" / "risk-en-current.json"


def calibrations(writers: list[str], cross: bool) -> dict[str, Calibration]:
    """{writer: the calibration its notes are scored with}."""
    if not cross:
        cal = packaged_calibration("en-default")
        assert cal is not None
        return {w: cal for w in writers}
    report = json.loads(RISK_REPORT.read_text(encoding="utf-8"))
    halves = [(set(report[k]["fitted_on"]), Calibration.from_json(report[k]["calibration"]))
              for k in ("fit_first_half", "fit_second_half")]
    out = {}
    for w in writers:
        others = [c for fitted, c in halves if w not in fitted]
        if len(others) != 1:
            raise SystemExit(f"--cross: writer {w} is not in exactly one half of {RISK_REPORT}")
        out[w] = others[0]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--writers", required=True, help="comma-separated writers the model never saw")
    ap.add_argument("--biases", default="-1.8,-3.0", help="CRF O-biases (negative = more recall)")
    ap.add_argument("--thresholds", default="0.05,0.1,0.2", help="net thresholds on calibrated P(PHI)")
    ap.add_argument("--cross", action="store_true", help="score each writer with the other half's calibration")
    ap.add_argument("--extra", action="append", default=[], type=Path,
                    help="a folder of inline notes named in --writers too (hn01-dev: the read half of the hard negatives)")
    ap.add_argument("-o", "--out", type=Path, required=True)
    args = ap.parse_args()
    writers = [w.strip() for w in args.writers.split(",") if w.strip()]
    docs = lowo.writer_docs(args.extra)
    golds = [(w, d) for w in writers for d in docs[w]]
    cals = calibrations(writers, args.cross)
    nets = {t: {w: LeftoverNet(c, t, sources=["phi"]) for w, c in cals.items()}
            for t in (float(x) for x in args.thresholds.split(","))}
    runs: dict[str, dict] = {}
    for bias in (float(b) for b in args.biases.split(",")):
        pipe = build("en-default", "high-recall", {"net": {"enabled": False}}, recall_bias=-bias)
        annotated = list(pipe.pipe([g.copy(layers=False) for _, g in golds]))
        for t in [None, *nets]:
            preds = []
            for (w, _), a in zip(golds, annotated):
                q = a.copy(layers=False)
                q.add_layer("gold", list(a.layer("phi")) + ([] if t is None else nets[t][w].detect(a)))
                preds.append(q)
            key = f"O-bias {bias:+.1f}" + ("" if t is None else f" + net {t:g}")
            runs[key] = lowo.scores([g for _, g in golds], preds)
            r = runs[key]
            print(key, r["binary_token"], r["leaked_tokens"], r["notes_with_leak"], flush=True)
    report = {"command": " ".join(sys.argv), "writers": writers,
              "calibration": "cross-fitted halves (risk-en-current.json)" if args.cross else "shipped", "runs": runs}
    with atomic_file(args.out) as tmp:
        tmp.write_text(json.dumps(report, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
