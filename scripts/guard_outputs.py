"""Record, then compare, what every shipped model outputs (the refactoring guard).

A refactoring that promises "behaviour unchanged" (the assembly redesign) must leave every
model's output identical. ``record`` writes, for each shipped model and each of its presets,
every span (start, end, type, source) with its score rounded to 6 decimals and each
document's metadata numbers (CRF record log-probability where the model stores one), over
en-dev and MEDDOCAN dev; ``compare`` recomputes them and lists the first differences.

    python scripts/guard_outputs.py record -o /tmp/guard.json
    python scripts/guard_outputs.py compare /tmp/guard.json     # exit 1 on any difference
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from notescrub.assemble import build
from notescrub.io import read_corpus
from notescrub.registry import model_dir, read_model_meta

SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpora"
CORPORA = {"en-dev": SHARED / "en-dev" / "en-dev.jsonl", "meddocan-dev": SHARED / "meddocan" / "dev" / "brat"}
MODELS = {"en-default": "en-dev", "rules-en": "en-dev", "es-meddocan": "meddocan-dev"}
#: run-time knobs (model, preset, --recall-bias, --threshold) recorded on top of every preset
KNOBS = [("en-default", "balanced", 1.5, None), ("en-default", None, None, 0.6), ("es-meddocan", None, -0.5, 0.4)]


def _numbers(meta: dict) -> dict:
    """The numeric metadata of a document (record log-probabilities, risk...), rounded."""
    out = {}
    for k, v in sorted(meta.items()):
        if isinstance(v, bool):
            continue
        if isinstance(v, (int, float)):
            out[k] = round(float(v), 6)
    return out


def outputs(model: str, preset: str | None, docs: list, recall_bias: float | None = None,
            threshold: float | None = None) -> list:
    pipe = build(model, preset, recall_bias=recall_bias, threshold=threshold)
    rows = []
    for d in pipe.pipe([x.copy(layers=False) for x in docs]):
        spans = [[s.start, s.end, s.label, s.source, round(float(s.score), 6)] for s in d.layer("phi")]
        rows.append({"doc": hashlib.sha256(d.id.encode()).hexdigest()[:12], "spans": spans,
                     "numbers": _numbers(dict(d.metadata))})
    return rows


def record() -> dict:
    corpora = {name: list(read_corpus(path)) for name, path in CORPORA.items() if path.exists()}
    out: dict = {}
    for model, corpus in MODELS.items():
        if corpus not in corpora:
            continue
        meta = read_model_meta(model_dir(model))
        presets = sorted(meta.get("presets", {})) or [None]
        for preset in presets:
            out[f"{model}/{preset or '-'}/{corpus}"] = outputs(model, preset, corpora[corpus])
            print(f"recorded {model} / {preset or '-'} on {corpus}", file=sys.stderr, flush=True)
    for model, preset, bias, threshold in KNOBS:
        corpus = MODELS[model]
        if corpus in corpora:
            key = f"{model}/{preset or '-'}/recall-bias={bias}/threshold={threshold}/{corpus}"
            out[key] = outputs(model, preset, corpora[corpus], bias, threshold)
            print(f"recorded {key}", file=sys.stderr, flush=True)
    return out


def compare(old: dict, new: dict, limit: int = 20) -> list[str]:
    diffs = []
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a is None or b is None:
            diffs.append(f"{key}: only in the {'new' if a is None else 'recorded'} outputs")
            continue
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                diffs.append(f"{key}: document {i + 1} ({x['doc']}) differs")
                if len(diffs) >= limit:
                    return diffs
        if len(a) != len(b):
            diffs.append(f"{key}: {len(a)} documents recorded, {len(b)} now")
    return diffs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("-o", "--out", type=Path, required=True)
    c = sub.add_parser("compare")
    c.add_argument("recorded", type=Path)
    args = ap.parse_args()
    if args.cmd == "record":
        args.out.write_text(json.dumps(record()) + "\n", encoding="utf-8")
        return 0
    diffs = compare(json.loads(args.recorded.read_text(encoding="utf-8")), record())
    print("\n".join(diffs) if diffs else "identical")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
