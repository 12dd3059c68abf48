"""Corpus-level check of re-populated notes (issue 20 §4): addresses agree, phones are fictional.

A re-populated corpus (every gold PHI replaced by a surrogate) must read as real: in
at least 99 % of the addresses (a CITY, STATE and/or ZIP span next to each other) the
surrogate city is a city of the surrogate state and the ZIP is one of that state's
(with the city's prefix), and no surrogate phone or fax number lies outside the range
reserved for fiction (555-0100 to 555-0199).
"""

from __future__ import annotations

import re
from pathlib import Path

from notescrub.io import read_corpus
from notescrub.replace.geography import ZIP3, places
from notescrub.replace.keys import normalise_value
from notescrub.replace.repopulate import repopulate_corpus
from notescrub.synth import generate_corpus
from notescrub.types import Document

_GAP = re.compile(r"^[\s,.\-]{0,6}$")
_ORDER = {"CITY": 0, "STATE": 1, "ZIP": 2}
_STATE_NAMES = {p.state_name.casefold(): p.state for p in places()}


def _addresses(doc: Document) -> list[dict[str, str]]:
    spans = sorted((s for s in doc.layer("gold") if s.label in _ORDER), key=lambda s: s.start)
    groups: list[list] = []
    for s in spans:
        if groups and _ORDER[s.label] > _ORDER[groups[-1][-1].label] and _GAP.match(doc.text[groups[-1][-1].end:s.start]):
            groups[-1].append(s)
        else:
            groups.append([s])
    return [{s.label: doc.span_text(s) for s in g} for g in groups if len(g) >= 2]


def _state_of_zip(zip5: str) -> str | None:
    for state, spec in ZIP3.items():
        for part in spec.split(","):
            lo, _, hi = part.partition("-")
            if int(lo) <= int(zip5[:3]) <= int(hi or lo):
                return state
    return None


def _agrees(address: dict[str, str]) -> bool:
    state = address.get("STATE")
    code = None if state is None else (state.upper().replace(".", "") if len(state.replace(".", "")) == 2
                                       else _STATE_NAMES.get(state.casefold()))
    zip_code = address.get("ZIP")
    if zip_code is not None:
        if not re.fullmatch(r"\d{5}(?:[-\s]\d{4})?", zip_code.strip()):
            return False
        zs = _state_of_zip(zip_code.strip())
        if zs is None or (code is not None and zs != code):
            return False
        code = code or zs
    city = address.get("CITY")
    if city is not None:
        rows = [p for p in places() if normalise_value(p.city) == normalise_value(city) and p.state == code]
        if not rows or (zip_code is not None and zip_code.strip()[:3] not in {p.zip3 for p in rows}):
            return False
    return code is not None


def _phone_ok(text: str) -> bool:
    digits = re.sub(r"\D", "", text)
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    if len(digits) == 10 and re.fullmatch(r"[\s()+.\-\d]+", text.split(" ext")[0].split(" x")[0].strip() or "-"):
        return digits[3:6] == "555" and digits[6:8] == "01" and digits[0] in "23456789" and digits[1] != "9"
    main = re.match(r"^\D*(?:\+?1[\s.\-])?\(?(\d{3})\)?[\s.\-]*(\d{3})[\s.\-]*(\d{4})", text)
    if main:  # a number followed by an extension
        return main.group(2) == "555" and main.group(3).startswith("01")
    return True  # an internal extension (4-6290): not a dialable number


def check_corpus(docs: list[Document]) -> tuple[int, int, list[str]]:
    """(addresses, addresses that agree, surrogate phones outside the fictional range)."""
    out = list(repopulate_corpus(docs, "random", seed=11))
    addresses = [a for doc in out for a in _addresses(doc)]
    bad_phones = [doc.span_text(s) for doc in out for s in doc.layer("gold")
                  if s.label in ("PHONE", "FAX") and not _phone_ok(doc.span_text(s))]
    return len(addresses), sum(map(_agrees, addresses)), bad_phones


def test_repopulated_synthetic_notes_have_consistent_addresses_and_fictional_phones():
    docs = list(generate_corpus(80, 3, seed=20))
    n, ok, bad_phones = check_corpus(docs)
    assert n >= 40  # the check is not vacuous
    assert ok >= 0.99 * n, f"{n - ok} of {n} addresses disagree"
    assert bad_phones == []


def test_repopulated_en_dev_has_consistent_addresses_and_fictional_phones(en_dev_dir: Path):
    docs = list(read_corpus(en_dev_dir / "en-dev.jsonl"))
    n, ok, bad_phones = check_corpus(docs)
    assert n >= 15
    assert ok >= 0.99 * n, f"{n - ok} of {n} addresses disagree"
    assert bad_phones == []


def test_the_checks_catch_what_the_issue_saw():
    assert not _agrees({"CITY": "Gainesville", "STATE": "DC", "ZIP": "70557"})
    assert not _agrees({"CITY": "Des Moines", "STATE": "MN"})
    assert not _agrees({"CITY": "Cheyenne", "STATE": "CA", "ZIP": "27183"})
    assert _agrees({"CITY": "Cheyenne", "STATE": "WY", "ZIP": "82001"})
    assert not _phone_ok("182-284-4016") and not _phone_ok("(617) 284-4016 ext 12")
    assert _phone_ok("(617) 555-0148") and _phone_ok("+1 617.555.0199") and _phone_ok("4-6290")
