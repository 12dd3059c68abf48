"""Validate a folder of inline-annotated English notes (annotation guide format) and count it.

Fails (exit 1) on anything a writer must fix: malformed or nested ``<PHI>`` tags, a TYPE outside
the i2b2-2014 subtypes, file names that are not ``PNNN-K.txt``, patients outside the writer's
range, spans with leading/trailing blanks or empty spans, a title or credential inside a span, and
numbers that are not in the fictional ranges the guide asks for (555-01xx phones, SSNs starting
with 9). Prints per-type counts, notes, patients and words.

Usage::

    python scripts/check_inline_corpus.py corpora/en-writers/w01 [--patients 401-449]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

from notescrub.errors import InputFormatError
from notescrub.io.inline import parse

TYPES = {
    "PATIENT", "DOCTOR", "USERNAME", "PROFESSION", "HOSPITAL", "ORGANIZATION", "STREET", "CITY", "STATE",
    "COUNTRY", "ZIP", "LOCATION-OTHER", "AGE", "DATE", "PHONE", "FAX", "EMAIL", "URL", "IPADDR", "SSN",
    "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID", "IDNUM",
}
_NAME_RE = re.compile(r"^P(\d{3,4})-(\d{1,2})\.txt$")
_TITLE_IN_SPAN = re.compile(r"^(Dr|Mr|Mrs|Ms|Miss)\.?\s|,\s*(MD|RN|DO|NP|PA-C|LPN|MSW|LCSW|PhD)\.?$")
_TEN_DIGITS = re.compile(r"\D*(\d{3})\D*(\d{3})\D*(\d{4})\D*$")


def check_file(path: Path, lo: int, hi: int) -> tuple[list[str], list[tuple[str, str]], str]:
    """Problems found in one file, its (type, text) spans and its plain text."""
    problems: list[str] = []
    m = _NAME_RE.match(path.name)
    if not m:
        return [f"{path.name}: file name must be PNNN-K.txt"], [], ""
    if not lo <= int(m.group(1)) <= hi:
        problems.append(f"{path.name}: patient {m.group(1)} outside this writer's range {lo}-{hi}")
    raw = path.read_text(encoding="utf-8")
    try:
        doc = parse(raw, doc_id=path.stem, path=path)
    except InputFormatError as exc:
        return [f"{path.name}: {exc}"], [], ""
    spans = []
    for s in doc.layer("gold"):
        text = doc.span_text(s)
        line = doc.text.count("\n", 0, s.start) + 1
        where = f"{path.name}:{line}"
        if s.label not in TYPES:
            problems.append(f"{where}: unknown TYPE {s.label!r}")
        if not text.strip():
            problems.append(f"{where}: empty span")
        elif text != text.strip():
            problems.append(f"{where}: span {text!r} starts or ends with a blank")
        if s.label in ("PATIENT", "DOCTOR") and _TITLE_IN_SPAN.search(text):
            problems.append(f"{where}: title or credential inside name span {text!r}")
        if s.label in ("PHONE", "FAX"):
            ten = _TEN_DIGITS.match(text)
            if ten and (ten.group(2) != "555" or not ten.group(3).startswith("01")):
                problems.append(f"{where}: 10-digit phone {text!r} not in the 555-01xx range")
        if s.label == "SSN" and not re.sub(r"\D", "", text).startswith("9"):
            problems.append(f"{where}: SSN {text!r} must start with 9")
        spans.append((s.label, text))
    return problems, spans, doc.text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--patients", default="1-9999", help="allowed patient number range, e.g. 401-449")
    args = ap.parse_args(argv)
    lo, hi = (int(x) for x in args.patients.split("-"))
    files = sorted(args.folder.glob("*.txt"))
    if not files:
        print(f"{args.folder}: no .txt notes", file=sys.stderr)
        return 1
    problems: list[str] = []
    types: Counter[str] = Counter()
    patients = set()
    words = 0
    for f in files:
        p, spans, text = check_file(f, lo, hi)
        problems += p
        types.update(t for t, _ in spans)
        patients.add(f.name.split("-")[0])
        words += len(text.split())
    for p in problems:
        print("ERROR", p)
    print(f"notes {len(files)}  patients {len(patients)}  words {words}  PHI spans {sum(types.values())}")
    print("  ".join(f"{t} {n}" for t, n in types.most_common()))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
