"""Markdown tables describing the writers' corpus (corpora/en-writers): per writer, note type, PHI type.

    python scripts/describe_writers_corpus.py > /tmp/tables.md
"""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

from notescrub.io import read_corpus

ROOT = Path(__file__).resolve().parents[1] / "corpora" / "en-writers"


def writer_order(folder: Path) -> tuple[int, str]:
    """Sort key putting w99 before w100 (numbered writers in number order, then any other folder).

    >>> sorted(["w100", "w99", "w09"], key=lambda n: writer_order(Path(n)))
    ['w09', 'w99', 'w100']
    """
    name = folder.name
    return (int(name[1:]), name) if name[:1] == "w" and name[1:].isdigit() else (10**9, name)


def main() -> None:
    writers = sorted((p for p in ROOT.iterdir() if any(p.glob("P*.txt"))), key=writer_order)
    types: Counter[str] = Counter()
    note_types: Counter[str] = Counter()
    rows = []
    for w in writers:
        docs = list(read_corpus(w, "inline"))
        with open(w / "index.tsv", encoding="utf-8") as f:
            idx = {r["file"]: r["note_type"] for r in csv.DictReader(f, delimiter="\t")}
        nt = Counter(idx.values())
        note_types.update(nt)
        spans = [s for d in docs for s in d.layer("gold")]
        types.update(s.label for s in spans)
        words = sum(len(d.text.split()) for d in docs)
        rows.append((w.name, len(docs), len({d.patient_id for d in docs}), words, len(spans), len(nt)))
    print("| writer | notes | patients | words | PHI spans | note types |\n|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(str(x) for x in r) + " |")
    tot = [sum(r[i] for r in rows) for i in range(1, 5)]
    print(f"| **all** | {tot[0]} | {tot[1]} | {tot[2]:,} | {tot[3]:,} | {len(note_types)} |\n")
    print("| PHI type | spans |\n|---|---|")
    for t, n in types.most_common():
        print(f"| {t} | {n} |")
    print("\n| note type | notes |\n|---|---|")
    for t, n in sorted(note_types.items(), key=lambda x: (-x[1], x[0].lower())):
        print(f"| {t} | {n} |")


if __name__ == "__main__":
    main()
