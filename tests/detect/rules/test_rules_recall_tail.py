"""The third batch of English recall rules (resources/rules/en_recall_tail.toml)."""

from __future__ import annotations

import pytest

FILE = "en_recall_tail.toml"


@pytest.mark.parametrize("rule, text, phi", [
    ("org-corporate-suffix", "Employer was Halvard Fabrication, Inc. since 2019", "Halvard Fabrication, Inc."),
    ("org-corporate-suffix", "cc: Moreau & Tilden, P.C.", "Moreau & Tilden, P.C."),
    ("org-corporate-suffix", "LAKESIDE MEDICAL EVALUATIONS, LLC\n", "LAKESIDE MEDICAL EVALUATIONS, LLC"),
    ("org-union-local", "member of Pipefitters Local 212 for years", "Pipefitters Local 212"),
    ("org-union-local", "business agent at Local 77.", "Local 77"),
    ("org-union-local-lower", "union said send it to local 1193 hall", "local 1193"),
    ("org-union-acronym", "He is a UAW member", "UAW"),
    ("org-veterans-fraternal", "goes to American Legion Post 12 Fridays", "American Legion Post 12"),
    ("org-government-prefixed", "Iowa Department of Human Services caseworker", "Iowa Department of Human Services"),
    ("org-government-prefixed", "Marlow County Office of Services for the Aging", "Marlow County Office of Services for the Aging"),
    ("org-government-prefixed", "NEVADA DEPARTMENT OF MOTOR VEHICLES form", "NEVADA DEPARTMENT OF MOTOR VEHICLES"),
    ("org-government-department", "report to the Department of Children and Families today", "Department of Children and Families"),
    ("org-county-agency", "reported to Yolo County Public Health TB Control as LTBI", "Yolo County Public Health TB Control"),
    ("org-county-agency", "Fairbrook County Children's Bureau caseworker", "Fairbrook County Children's Bureau"),
    ("org-religious", "parish: Our Lady of the Bayou parish; requests communion", "Our Lady of the Bayou parish"),
    ("org-religious", "deacon at Greater Zion Hill Baptist Church in town", "Greater Zion Hill Baptist Church"),
    ("org-masjid", "attends Masjid Al-Huda East on Fridays", "Masjid Al-Huda East"),
    ("org-employer-field", "Employer: Corvane Logistics\n", "Corvane Logistics"),
    ("profession-field", "Occupation: unemployed roofer\n", "unemployed roofer"),
    ("profession-modified", "Summary: retired CTA bus mechanic, T2DM", "CTA bus mechanic"),
    ("profession-modified", "husband (laid-off iron-ore miner) drives", "iron-ore miner"),
    ("date-season-year", "numbness since summer 2087, worse", "summer 2087"),
    ("date-season-year", "plan for early spring 2019.", "early spring 2019"),
    ("date-mid-month", "Rad Onc 6 wk (mid-Oct) with PSA", "Oct"),
    ("date-apostrophe-year", "sober since '88 per AA", "'88"),
    ("date-ordinal-day", "I'm out until the 23rd - then ask for Dev", "23rd"),
    ("date-spanish", "diálisis mañana lun 10/abr 11:00", "lun 10/abr"),
    ("date-spanish", "cita martes 13 de mayo 9:40 AM", "martes 13 de mayo"),
    ("date-spanish", "nació el 3 de junio de 2024 en Ponce", "3 de junio de 2024"),
    ("date-spanish-weekday", "Sí, el viernes tuvo calambres", "viernes"),
    ("date-holiday-lower", "triggers: memorial day cookout", "memorial day"),
    ("date-feast-new-year", "after the feast of St. Francis trip", "feast of St. Francis"),
    ("date-feast-new-year", "family going to hmong new year at the fairgrounds", "hmong new year"),
    ("age-years-months", "DOB 05-30-2084  Age 9 y 5 m\n", "9 y 5 m"),
    ("age-years-months", "Age: 6 yrs 7 mos", "6 yrs 7 mos"),
    ("age-months-person", "HPI: 25 mo M referred after lead screen", "25"),
    ("age-visit-name", "1. 12 mo WCC, growth slowing", "12"),
    ("age-visit-name", "4 mo vaccines due at PCP", "4"),
    ("age-at-field", "Age at injury: 38\n", "38"),
    ("country-us-bare", "Served 1969-1973 US Navy Seabees", "US"),
    ("country-us-bare", "from Oaxaca; in US since 2009.", "US"),
    ("country-us-migration", "Date arrived US: 2016 (COFA)", "US"),
    ("country-abbr-context", "grandma went back to DR in Sept", "DR"),
    ("country-republic-of", "Country of birth: Republic of the Marshall Islands (Majuro)", "Republic of the Marshall Islands"),
    ("state-abbr-regulatory", "studying for CA DMV test", "CA"),
    ("state-abbr-regulatory", "Also holds MN DL # L-214", "MN"),
    ("state-abbr-movement", "Dx 09/2024 in IA by Dr. Bill", "IA"),
    ("state-lower", "INR while on vacation in iowa", "iowa"),
    ("street-lower", "addr 3325 e grant ave fresno", "3325 e grant ave"),
    ("street-rural-box", "HC 1 BOX 417^^SELLS^AZ", "HC 1 BOX 417"),
    ("street-spanish", "ships to calle 14 bloque 22 #9, urb", "calle 14 bloque 22 #9"),
    ("phone-short-extension", "Intake & Billing Specialist, ext 118", "118"),
    ("healthplan-group", "Member ID LTW-5570913   Group WCTD-01", "WCTD-01"),
    ("idnum-store-number", "Farmacia Boriquen #047 (Caguas)", "047"),
])
def test_finds(rule, text, phi, rule_texts):
    assert rule_texts(FILE, rule, text) == [phi]


@pytest.mark.parametrize("rule, text", [
    ("street-lower", "given 1655 per dr osei-whitfield"),
    ("street-lower", "came from Helper (20 min drive); last cigarette"),
    ("street-lower", "35 min each way."),
    ("phone-short-extension", "C-ROM flex 30 (nl 50), ext 25 (60) painful"),
    ("org-religious", "No drugs. Attends church Sunday and Wednesday"),
    ("org-religious", "Catholic church on Sundays"),
    ("org-employer-field", "faxed to employer HR (fax 313-555-0199)"),
    ("state-abbr-movement", "88F from NH admitted 5/14 with fever"),
    ("state-abbr-regulatory", "Document ID DOC-22-6619034"),
    ("profession-field", "Position: prone."),
    ("date-ordinal-day", "stairs to the 3rd floor lab"),
    ("date-holiday-lower", "she lent him the car"),
    ("age-visit-name", "RTC 2 wk f/u"),
    ("country-abbr-context", "seen by DR Smith today"),
    ("idnum-store-number", "Room #312 on 4 West"),
])
def test_leaves(rule, text, rule_texts):
    assert rule_texts(FILE, rule, text) == []
