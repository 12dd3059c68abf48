"""Fictional places for synthetic notes: hospitals and units, organisations, addresses, other places.

Real city, state and country names are used as location surrogates (as i2b2 did); hospital,
organisation, street and landmark names are invented from word parts, surnames and saints, with
many head words (Hospital, Medical Center, Clinic, Health, Nursing Home, Rehab, Infirmary...).

>>> import random
>>> rng = random.Random(2)
>>> h = hospital(rng)
>>> h.name == h.name.strip() and len(h.abbrev) >= 2
True
>>> street(rng)[0].isdigit()
True
>>> len(zip_code(rng)) in (5, 10)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from notescrub.synth.names import _load, _pools, lexicon, oov_name

__all__ = [
    "Hospital",
    "city",
    "country",
    "foreign_city",
    "hospital",
    "location_other",
    "organization",
    "place_word",
    "profession",
    "state",
    "street",
    "unit_name",
    "zip_code",
]


@lru_cache(maxsize=1)
def _places() -> dict[str, Any]:
    return _load("faker_places.json")


def _surname(rng: random.Random) -> str:
    pools = _pools()
    if rng.random() < 0.15:
        return oov_name(rng)
    culture = rng.choice(("anglo_us", "anglo_us", "anglo_gb", "irish", "german", "italian", "polish", "dutch", "french", "swedish"))
    name = rng.choice(pools[culture]["last"])
    return name if " " not in name and "'" not in name else rng.choice(pools["anglo_us"]["last"])


def place_word(rng: random.Random) -> str:
    """An invented place-like name: ``Briar Hill``, ``Oakmere``, ``Wandzelton``, ``Lake Qolva``."""
    lex = lexicon()
    r = rng.random()
    if r < 0.35:
        return f"{rng.choice(lex['place_first'])} {rng.choice(lex['place_second_sep'])}"
    if r < 0.6:
        return rng.choice(lex["place_first"]) + rng.choice(lex["place_second"])
    if r < 0.75:
        return _surname(rng) + rng.choice(("ton", "ville", "field", "burg", "wood", " Falls", " Springs", "ford"))
    if r < 0.9:
        return city(rng, invented_ok=False)
    return oov_name(rng)


@dataclass(frozen=True)
class Hospital:
    """A facility: its full name, a short form used in later mentions and its abbreviation."""

    name: str
    short: str
    abbrev: str


def _fill(form: str, rng: random.Random) -> str:
    lex = lexicon()
    out = form
    for key, fn in (
        ("{SAINT}", lambda: rng.choice(lex["saints"])),
        ("{STATE}", lambda: rng.choice(_places()["states"])),
        ("{S2}", lambda: _surname(rng)),
        ("{S}", lambda: _surname(rng)),
        ("{P}", lambda: place_word(rng)),
        ("{N}", lambda: str(rng.choice((2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 21)))),
        ("{W}", lambda: rng.choice(("A", "B", "E", "W", "N"))),
    ):
        while key in out:
            out = out.replace(key, fn(), 1)
    return out


_ACUTE = ("Hospital", "Medical Center", "Health", "Infirmary", "Memorial", "Institute")


_SNF = ("Nursing", "Rehab", "Manor", "House", "Senior", "Assisted", "Care Center", "Skilled", "Hospice")
_CLINIC = ("Clinic", "Health Center", "Family", "Primary Care", "Associates", "Internal Medicine", "Pediatrics", "Orthopedics", "Practice", "Urgent")


def hospital(rng: random.Random, *, acute: bool = False, kind: str | None = None) -> Hospital:
    """A facility with its head word: any kind, or ``acute`` (a hospital), ``kind="snf"``
    (nursing home / rehab) or ``kind="clinic"``."""
    forms = lexicon()["hospital_forms"]
    if acute:
        forms = [f for f in forms if f.endswith(_ACUTE) and "Rehabilitation" not in f and "Psychiatric" not in f]
    elif kind == "snf":
        forms = [f for f in forms if any(k in f for k in _SNF)]
    elif kind == "clinic":
        forms = [f for f in forms if any(k in f for k in _CLINIC)]
    name = _fill(rng.choice(forms), rng)
    words = [w for w in name.replace("-", " ").split() if w[0].isalpha()]
    abbrev = "".join(w[0] for w in words if w[0].isupper())
    generic = {"Hospital", "Medical", "Center", "Clinic", "Health", "Memorial", "General", "Regional", "Community"}
    core = [w for w in name.split() if w not in generic]
    short = " ".join(core[:2]) if core and rng.random() < 0.5 else name
    return Hospital(name=name, short=short if short else name, abbrev=abbrev if len(abbrev) >= 2 else name[:3].upper())


def unit_name(rng: random.Random) -> str:
    """A named ward of a facility (``Ellison 11``): HOSPITAL in the i2b2 scheme."""
    return _fill(rng.choice(lexicon()["unit_forms"]), rng)


def organization(rng: random.Random, kind: str | None = None) -> str:
    """An employer, school, church, agency or insurer."""
    forms = lexicon()["org_forms"]
    kind = kind or rng.choice(("employer", "employer", "employer", "school", "church", "agency", "real"))
    form = rng.choice(forms[kind])
    return _fill(form, rng)


def city(rng: random.Random, *, invented_ok: bool = True) -> str:
    """A US city name, real or invented."""
    lex = lexicon()
    r = rng.random()
    if invented_ok and r < 0.3:
        p = _places()
        if rng.random() < 0.5:
            return f"{rng.choice(p['city_prefixes'])} {_surname(rng)}"
        return _surname(rng) + rng.choice(p["city_suffixes"])
    if r < 0.45:
        return rng.choice(lex["us_cities_multi"])
    return rng.choice(lex["us_cities"])


def foreign_city(rng: random.Random) -> str:
    return rng.choice(_places()["foreign_cities"])


def state(rng: random.Random, *, abbrev: bool | None = None) -> str:
    p = _places()
    use_abbr = rng.random() < 0.6 if abbrev is None else abbrev
    return rng.choice(p["states_abbr"] if use_abbr else p["states"])


def country(rng: random.Random) -> str:
    return rng.choice(_places()["countries"])


def street(rng: random.Random) -> str:
    """A street address line (number, name, suffix, sometimes a unit)."""
    p = _places()
    lex = lexicon()
    num = str(rng.choice((rng.randint(1, 99), rng.randint(100, 999), rng.randint(1000, 19999))))
    r = rng.random()
    if r < 0.4:
        name = _surname(rng)
    elif r < 0.6:
        name = rng.choice(lex["place_first"]) + rng.choice(("", "wood", " Hill", "dale", " Ridge"))
    elif r < 0.72:
        n = rng.randint(1, 99)
        name = f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
    elif r < 0.85:
        name = rng.choice(lex["saints"])
    else:
        name = place_word(rng)
    suffix = rng.choice(p["street_suffixes"][:60] + ["Street", "Street", "Road", "Avenue", "Ave", "St", "Rd", "Dr", "Ln", "Way", "Ct", "Blvd", "Pl"])
    line = f"{num} {rng.choice(('', '', '', 'N ', 'S ', 'E ', 'W ', 'Old ', 'North '))}{name} {suffix}"
    u = rng.random()
    if u < 0.12:
        line += f", Apt {rng.randint(1, 40)}{rng.choice(('', 'A', 'B', 'C'))}"
    elif u < 0.18:
        line += f" #{rng.randint(1, 500)}"
    elif u < 0.22:
        line += f", Unit {rng.randint(1, 30)}"
    if rng.random() < 0.05:
        line = f"PO Box {rng.randint(10, 9999)}"
    return line


def zip_code(rng: random.Random) -> str:
    z = f"{rng.randint(1000, 99950):05d}"
    return z + f"-{rng.randint(0, 9999):04d}" if rng.random() < 0.15 else z


def location_other(rng: random.Random) -> tuple[str, str]:
    """A named landmark, lake, park, beach... as ``(article, name)``; the article is not PHI."""
    out = _fill(rng.choice(lexicon()["location_other_forms"]), rng)
    if out.startswith("the "):
        return "the ", out[4:]
    return "", out


def profession(rng: random.Random) -> str:
    return rng.choice(lexicon()["professions"])
