"""Score rule-bearing seed systems on English notes their rules were not written from.

The English rules behind H+D and Manchester were written while reading en-dev errors
(docs/rules.md), so their en-dev figures are optimistic. The writers' corpus
(corpora/en-writers, 624 notes by 12 writers; no rule was written from it) is the
held-out English corpus. H+D has no training step and is scored on both corpora as is;
Manchester (``--systems h-d manchester``) is trained on all of en-dev with the
experiments' full settings (30 iterations per CRF) and applied to the writers' notes at
its default (F1) operating point, patients together so its second pass runs.

    python scripts/score_seeds_on_writers.py -o docs/experiments/en-writers/rule-systems.json
    python scripts/score_seeds_on_writers.py --systems h-d manchester -o /tmp/rule-systems.json

The JSON holds figures only (no note text): binary PHI token, strict and token P/R/F
with counts per system and corpus, plus the z-test of writers vs en-dev PHI token F.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from notescrub.evaluate.report import write_json
from notescrub.evaluate.stats import z_test_two_proportions
from notescrub.experiments.common import build_system, predict, score
from notescrub.experiments.config import SYSTEM_TITLES, preset
from notescrub.experiments.data import _default_shared
from notescrub.experiments.systems import pipeline_of
from notescrub.io import read_corpus

ROOT = Path(__file__).resolve().parents[1]
WRITERS = ROOT / "corpora" / "en-writers"


def writers_notes() -> list:
    return [d for f in sorted(p for p in WRITERS.iterdir() if any(p.glob("P*.txt"))) for d in read_corpus(f, "inline")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--systems", nargs="+", default=["h-d"], choices=["h-d", "manchester"])
    ap.add_argument("--shared", type=Path, default=None, help="shared data folder (default ../shared)")
    ap.add_argument("-o", "--output", type=Path, required=True)
    a = ap.parse_args()
    dev = list(read_corpus((a.shared or _default_shared()) / "corpora" / "en-dev" / "en-dev.jsonl"))
    writers = writers_notes()
    settings = preset("full")
    out: dict = {"command": "python scripts/score_seeds_on_writers.py --systems " + " ".join(a.systems),
                 "corpora": {"en-dev": {"notes": len(dev), "role": "rules written while reading its errors"},
                             "en-writers": {"notes": len(writers), "role": "no rule written from it"}},
                 "systems": {}}
    for name in a.systems:
        model = build_system(name, "en", settings)
        t0 = time.perf_counter()
        model.fit(dev, layer="gold")  # H+D: no-op; Manchester: trained on all of en-dev
        rec: dict = {"train_seconds": round(time.perf_counter() - t0, 1),
                     "trained_on": "nothing (rules)" if name == "h-d" else "all of en-dev"}
        get = pipeline_of(name)
        for cname, docs in (("en-dev", dev), ("en-writers", writers)):
            if name != "h-d" and cname == "en-dev":
                continue  # trained on en-dev: its en-dev figure is the cross-validated one in the report
            preds = predict(model, docs, pipeline=get(model) if get else None)
            sc = score(docs, preds)
            rec[cname] = {k: sc[k] for k in ("binary_phi", "binary_non_phi", "strict", "token")}
        if "en-dev" in rec:
            a_, b_ = rec["en-writers"]["binary_phi"], rec["en-dev"]["binary_phi"]
            t = z_test_two_proportions(a_["f1"], a_["tp"] + a_["fn"], b_["f1"], b_["tp"] + b_["fn"])
            rec["z_writers_vs_dev_phi_f"] = {"z": round(t.z, 2), "p_value": t.p_value, "significant": t.significant}
        out["systems"][SYSTEM_TITLES[name]] = rec
    a.output.parent.mkdir(parents=True, exist_ok=True)
    write_json(out, a.output)


if __name__ == "__main__":
    main()
