"""The non-US contact and address rules (resources/rules/en_international.toml)."""

from __future__ import annotations

import pytest

from notescrub.detect.rules.detector import load_rules

RULES = {r.name: r for r in load_rules(["en_international.toml"]).rules}
FILE = "en_international.toml"


@pytest.mark.parametrize("rule, text, phi", [
    ("phone-uk", "Tel 020 7946 0958 today", "020 7946 0958"),
    ("phone-uk", "mob 07700 900123.", "07700 900123"),
    ("phone-uk", "+44 (0)20 7946 0958", "+44 (0)20 7946 0958"),
    ("phone-uk", "(01632) 960123", "(01632) 960123"),
    ("phone-au-nz", "ph (02) 5550 1234", "(02) 5550 1234"),
    ("phone-au-nz", "+61 412 345 678", "+61 412 345 678"),
    ("phone-au-nz", "+64 9 555 0123", "+64 9 555 0123"),
    ("phone-international", "cell +234 803 123 4567", "+234 803 123 4567"),
    ("postcode-uk", "London SW1A 1AA", "SW1A 1AA"),
    ("postcode-uk", "Manchester M1 1AE", "M1 1AE"),
    ("postcode-ca", "Halifax NS B3H 4R2", "B3H 4R2"),
    ("province-before-postcode", "Ottawa, ON K1A 0B1", "ON"),
    ("postcode-au", "Darwin NT 0800", "0800"),
    ("nhs-number", "NHS no. 943 476 5919", "943 476 5919"),
    ("health-card", "OHIP 1234-567-890-AB", "1234-567-890-AB"),
    ("health-card", "Medicare no. 2123 45670 1", "2123 45670 1"),
])
def test_finds(rule, text, phi, rule_texts):
    assert rule_texts(FILE, rule, text) == [phi]


@pytest.mark.parametrize("text", [
    "BP 120/80 HR 72", "dose 0.5 mg", "Stage T2 N1 M0", "ECG lead V1 2mm", "+1 617 555 0142",
    "CD4 350", "A1C 7.2", "G2P1", "1 2 3 4 5 6 7 8", "phone 555-0142", "sodium 0.9% 1000 mL",
    "MRN 0123 456 789", "on 03 04 2024 at 0900", "grade T1 2AB", "(617) 555-0142", "GCS 12 (E3V4M5)",
    "FEV1 +11.3% (+420 mL)",
])
def test_leaves_alone(text, rule_texts):
    assert [(n, hit) for n in RULES for hit in rule_texts(FILE, n, text)] == []
