#!/usr/bin/env python
"""Per-rule precision of the packaged (or given) rules on annotated English notes.

For every rule: how many spans it proposes, how many of them overlap a gold span of the
same category (``hit``), overlap a gold span of another category (``other``) or no gold span
at all (``false``). Use it before adding a rule: a rule that feeds the stacked CRF may be
imprecise (the CRF learns how far to trust it), but a rule whose spans are mostly ``false``
on the writers' notes only adds noise.

Counts only by default (no note text). ``--show false`` prints the false matches of the
selected rules with a little context, for the fictional corpora of this repository only.

    python scripts/rule_precision.py --writers w01,w02 --rules en_recall.toml
    python scripts/rule_precision.py --writers all --only org-corporate-suffix --show false
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lowo_en_default import writer_docs

from notescrub.detect.rules.detector import RulesDetector
from notescrub.taxonomy import canonical, category_of


def category(label: str) -> str:
    sub = canonical(label)
    return category_of(sub) if sub else label


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--writers", default="all", help="comma-separated writers (en-dev counts as one), or 'all'")
    ap.add_argument("--extra", action="append", type=Path, default=[], help="another folder of inline notes")
    ap.add_argument("--rules", action="append", default=None, help="rule file (packaged name or path; repeatable)")
    ap.add_argument("--only", default="", help="comma-separated rule names to report")
    ap.add_argument("--show", choices=["false", "other", "hit"], help="print these matches with context")
    args = ap.parse_args()

    by_writer = writer_docs(args.extra)
    names = list(by_writer) if args.writers == "all" else args.writers.split(",")
    det = RulesDetector(args.rules)
    only = set(filter(None, args.only.split(",")))
    counts: dict[str, Counter] = defaultdict(Counter)
    for w in names:
        for doc in by_writer[w]:
            gold = doc.layer("gold")
            for s in det.candidates(doc):
                rule = s.meta.get("rule", "?").split("+")[0]
                if only and rule not in only:
                    continue
                over = [g for g in gold if g.start < s.end and s.start < g.end]
                kind = "false" if not over else ("hit" if any(category(g.label) == category(s.label) for g in over) else "other")
                counts[rule][kind] += 1
                if args.show == kind:
                    ctx = doc.text[max(0, s.start - 50) : s.end + 50].replace("\n", " | ")
                    got = ",".join(sorted({g.label for g in over})) or "-"
                    print(f"{rule}\t{w}\t[{doc.text[s.start:s.end]}]\tgold={got}\t{ctx}")
    print(f"{'rule':40s} {'spans':>6s} {'hit':>6s} {'other':>6s} {'false':>6s} {'prec':>6s}")
    for rule, c in sorted(counts.items()):
        n = sum(c.values())
        print(f"{rule:40s} {n:6d} {c['hit']:6d} {c['other']:6d} {c['false']:6d} {c['hit'] / n:6.3f}")


if __name__ == "__main__":
    main()
