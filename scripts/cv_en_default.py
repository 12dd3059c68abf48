"""Score a patient cross-validation of the en-default recipe.

Each fold's CRF is built first with ``scripts/build_en_default.py --holdout <5 patients> -o DIR``;
this script combines every fold's CRF with the shipped ``model.json``/``post.toml``, runs each
preset on the fold's en-dev notes, scores all notes together and writes
``benchmarks/results/en-default-cv4.json``.

    python scripts/cv_en_default.py P301=/tmp/cv/P301 P306=/tmp/cv/P306 P311=/tmp/cv/P311 P316=/tmp/cv/P316
"""
import collections
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

from notescrub.assemble import build
from notescrub.evaluate import evaluate
from notescrub.io import read_corpus
from notescrub.taxonomy import canonical, category_of

ROOT = Path(__file__).resolve().parents[1]
SHIP = ROOT / "src" / "notescrub" / "models" / "en-default"
folds = dict(a.split("=", 1) for a in sys.argv[1:])
work = Path(tempfile.mkdtemp(prefix="en-default-cv-"))
allg = list(read_corpus(ROOT.parent / "shared" / "corpora" / "en-dev" / "en-dev.jsonl"))
res = {}
for preset in ("precision", "balanced", "high-recall", "max-recall"):
    golds, preds = [], []
    for first, crfdir in folds.items():
        k = int(first[1:])
        pats = {f"P{k+i}" for i in range(5)}
        d = work / first
        d.mkdir(parents=True, exist_ok=True)
        if not (d / "crf").exists():
            shutil.copytree(Path(crfdir) / "crf", d / "crf")
        for f in ("model.json", "post.toml"):
            shutil.copy(SHIP / f, d / f)
        m = build(str(d), preset)
        docs = [g for g in allg if g.patient_id in pats]
        for p in m.pipe([g.copy(layers=False) for g in docs]):
            q = p.copy(layers=False)
            q.add_layer("gold", p.layer("phi"))
            preds.append(q)
        golds += docs
    r = evaluate(golds, preds, scheme="i2b2-2014", bootstrap_resamples=0)["i2b2_2014"]
    row = {m: {k: round(r[m]["micro"][k], 4) for k in ("precision", "recall", "f1")} for m in ("binary_token", "strict", "token", "hipaa_strict")}
    # type-blind token recall by category
    tot, hit = collections.Counter(), collections.Counter()
    for g, p in zip(golds, preds):
        cov = set()
        for s in p.layer("gold"):
            cov.update(range(s.start, s.end))
        for s in g.layer("gold"):
            cat = category_of(canonical(s.label) or s.label)
            for mm in re.finditer(r"\w+", g.text[s.start:s.end]):
                tot[cat] += 1
                hit[cat] += (s.start + mm.start()) in cov
    row["recall_by_category"] = {c: [hit[c], tot[c]] for c in sorted(tot)}
    row["by_category_strict_f1"] = {c: round(v["f1"], 3) for c, v in r["strict"]["by_category"].items()}
    res[preset] = row
    print(preset, json.dumps(row))
with open(ROOT / "benchmarks" / "results" / "en-default-cv4.json", "w") as out:
    json.dump({"folds": {k: sorted(f"P{int(k[1:])+i}" for i in range(5)) for k in folds}, "documents": len(golds), "results": res},
              out, indent=2)
