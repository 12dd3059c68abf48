"""The fourth batch of English recall rules (resources/rules/en_service_travel.toml)."""

from __future__ import annotations

import pytest

FILE = "en_service_travel.toml"


@pytest.mark.parametrize("rule, text, phi", [
    ("org-military-unit-numbered", "Assigned 4-112 IN, Fort Carver", "4-112 IN"),
    ("org-military-unit-numbered", "Cdr C Co 1-77 FA - signed", "C Co 1-77 FA"),
    ("org-military-unit-numbered", "Unit: D/3-21 IN, 1st SBCT", "D/3-21 IN"),
    ("org-military-unit-named", "later 7th Infantry Division; Korea 1951", "7th Infantry Division"),
    ("org-military-unit-named", "Unit: A Co, 3rd Bn, 12th Marines", "A Co, 3rd Bn"),
    ("org-military-unit-named", "served with the 101st Airborne in 2004", "101st Airborne"),
    ("org-military-ship", "engineman on USS Parkhurst (DDG-140) for 3 years", "USS Parkhurst (DDG-140)"),
    ("org-military-ship", "deployed on USNS Mercy in 2071", "USNS Mercy"),
    ("location-camp", "arrived 2019 from Dadaab refugee camp via Nairobi", "Dadaab refugee camp"),
    ("location-camp", "Deployments: FOB Harlan, Helmand", "FOB Harlan"),
    ("location-airport-route", " 12/18  BOS -> JFK -> ACC  Coastal Air CA 310", "BOS"),
    ("location-airport-route-last", " 12/18  BOS -> JFK -> ACC  Coastal Air CA 310", "ACC"),
    ("location-airport-route-cued", "Flight Sat 2/3 PDX->HNL, 6 h.", "PDX->HNL"),
    ("doctor-initials-after-verb", "Two fragments, 1 cassette. (gross: MRT)\n", "MRT"),
    ("profession-with-modifier", "Pt is a retired seamstress, lives alone", "retired seamstress"),
    ("profession-with-modifier", "Retired tobacco farmer, deacon at church", "Retired tobacco farmer"),
])
def test_rule_finds(rule: str, text: str, phi: str, rule_texts) -> None:
    assert phi in rule_texts(FILE, rule, text)


@pytest.mark.parametrize("rule, text", [
    ("org-military-unit-named", "on the 2nd Co of the course"),          # a lone echelon word
    ("location-camp", "went to summer camp; boot camp 2010"),            # generic camps
    ("location-camp", "attends diabetes camp each July"),
    ("location-airport-route", "AKI -> CKD, BP 140/90 today"),           # a clinical arrow, no flight
    ("location-airport-route-last", "ALT -> AST ratio > 2"),
    ("location-airport-route-cued", "was on the flight deck; CHF -> ESRD"),  # ESRD is no airport code
    ("profession-with-modifier", "former smoker, quit 2010"),            # not an occupation
])
def test_rule_stays_quiet(rule: str, text: str, rule_texts) -> None:
    assert rule_texts(FILE, rule, text) == []
