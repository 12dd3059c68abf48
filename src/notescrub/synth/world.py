"""A patient's world: the people, places, numbers and dates that recur across their notes.

One :class:`PatientWorld` is sampled per synthetic patient; every note of that patient draws
from it, so the same relatives, doctors, hospital, phone numbers and dates come back (sometimes
by surname, initials, nickname or a misspelling), as they do in real records.

>>> import random
>>> w = PatientWorld.sample("SYN0001", random.Random(1))
>>> w.patient.role, w.doctors["attending"].role
('PATIENT', 'DOCTOR')
>>> w.note_dates(3, random.Random(2))[0] >= w.anchor
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date

from notescrub.synth import identifiers as ids
from notescrub.synth import places
from notescrub.synth.dates import shift
from notescrub.synth.names import Person, lexicon, make_person

__all__ = ["DOCTOR_ROLES", "PatientWorld"]

#: Care-provider roles and the credential family of each.
DOCTOR_ROLES = {
    "attending": "physician", "pcp": "physician", "resident": "physician", "consultant": "physician", "surgeon": "physician",
    "radiologist": "physician", "pathologist": "physician", "referring": "physician", "psychiatrist": "physician",
    "anesthesiologist": "physician", "nurse": "nurse", "nurse2": "nurse", "np": "nurse", "sw": "other", "pa": "other",
    "therapist": "other", "pharmacist": "other", "case_manager": "nurse",
}


@dataclass
class PatientWorld:
    """Everything identifying about one fictional patient (sampled once, reused by every note)."""

    pid: str
    patient: Person
    age: int
    dob: date
    anchor: date
    surrogate_years: bool
    relatives: list[Person]
    doctors: dict[str, Person]
    hospital: places.Hospital
    other_hospitals: list[places.Hospital]
    units: list[str]
    street: str
    city: str
    state: str
    zip: str
    birthplace: str
    origin_country: str
    other_countries: list[str]
    location_other: tuple[str, str]
    employer: str
    school: str
    church: str
    agency: str
    insurer: str
    profession: str
    relative_profession: str
    language: str
    nationality: str
    phones: dict[str, str]
    fax: str
    email: str
    relative_email: str
    url: str
    ip: str
    usernames: list[str]
    ids: dict[str, str]
    events: dict[str, date]
    extra: dict[str, str] = field(default_factory=dict)

    @classmethod
    def sample(cls, pid: str, rng: random.Random) -> PatientWorld:
        lex = lexicon()
        surrogate = rng.random() < 0.5
        year = rng.randint(2070, 2110) if surrogate else rng.randint(2012, 2025)
        anchor = date(year, rng.randint(1, 12), rng.randint(1, 28))
        age_band = rng.random()
        if age_band < 0.06:
            age = rng.randint(0, 17)
        elif age_band < 0.12:
            age = rng.randint(90, 104)
        else:
            age = rng.randint(18, 89)
        dob = date(max(anchor.year - age, 1), rng.randint(1, 12), rng.randint(1, 28))
        if (anchor.month, anchor.day) < (dob.month, dob.day):
            dob = dob.replace(year=max(dob.year - 1, 1))
        patient = make_person(rng, role="PATIENT")
        relatives = []
        for _ in range(rng.randint(2, 4)):
            same_family = rng.random() < 0.6
            rel = make_person(rng, role="PATIENT", culture=patient.culture if same_family and patient.culture not in ("word",) else None,
                              last=patient.last if same_family and rng.random() < 0.7 else None)
            rel.extras["rel"] = rng.choice(lex["relations"][rel.sex])
            relatives.append(rel)
        doctors = {role: make_person(rng, role="DOCTOR", kind=kind) for role, kind in DOCTOR_ROLES.items()}
        hosp = places.hospital(rng, acute=True)
        others = [places.hospital(rng, acute=rng.random() < 0.7), places.hospital(rng, kind="snf"), places.hospital(rng, kind="clinic")]
        first, last = patient.first, patient.last
        w = cls(
            pid=pid, patient=patient, age=age, dob=dob, anchor=anchor, surrogate_years=surrogate, relatives=relatives,
            doctors=doctors, hospital=hosp, other_hospitals=others, units=[places.unit_name(rng) for _ in range(2)],
            street=places.street(rng), city=places.city(rng), state=places.state(rng), zip=places.zip_code(rng),
            birthplace=places.foreign_city(rng) if rng.random() < 0.5 else places.city(rng), origin_country=places.country(rng),
            other_countries=[places.country(rng) for _ in range(2)], location_other=places.location_other(rng),
            employer=places.organization(rng, "employer" if rng.random() < 0.8 else "real"), school=places.organization(rng, "school"),
            church=places.organization(rng, "church"), agency=places.organization(rng, "agency"), insurer=places.organization(rng, "insurer"),
            profession=places.profession(rng), relative_profession=places.profession(rng), language=rng.choice(lex["languages"]),
            nationality=rng.choice(lex["nationalities"]),
            phones={"home": ids.phone(rng), "cell": ids.phone(rng), "relative": ids.phone(rng), "clinic": ids.phone(rng),
                    "pager": ids.extension(rng), "ext": ids.extension(rng), "pharmacy": ids.phone(rng), "callback": ids.phone(rng)},
            fax=ids.phone(rng), email=ids.email(rng, first, last), relative_email=ids.email(rng, relatives[0].first, relatives[0].last),
            url=ids.url(rng, hosp.abbrev if rng.random() < 0.5 else hosp.name.split()[0]), ip=ids.ip_address(rng),
            usernames=[ids.username(rng, p.first, p.last) for p in (doctors["nurse"], doctors["resident"], patient)],
            ids={k: ids.make_id(k, rng) for k in ("MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID", "IDNUM")}
            | {"SSN": ids.ssn(rng), "MRN2": ids.make_id("MEDICALRECORD", rng), "DEA": ids.make_id("LICENSE", rng), "NPI": ids.make_id("IDNUM", rng)},
            events={"prior_surgery": shift(anchor, -rng.randint(200, 4000)), "prior_admit": shift(anchor, -rng.randint(30, 700)),
                    "last_visit": shift(anchor, -rng.randint(7, 180)), "diagnosis": shift(anchor, -rng.randint(60, 3000)),
                    "follow_up": shift(anchor, rng.randint(7, 60)), "onset": shift(anchor, -rng.randint(1, 10)),
                    "next_appt": shift(anchor, rng.randint(60, 200))},
        )
        return w

    def note_dates(self, n: int, rng: random.Random) -> list[date]:
        """Ascending service dates for ``n`` notes, starting at the anchor."""
        out, d = [], self.anchor
        for _ in range(n):
            out.append(d)
            d = shift(d, rng.choice((0, 1, 1, 2, 3, 5, 7, 14, 30, 90)))
        return out

    @property
    def he(self) -> str:
        return "she" if self.patient.sex == "F" else "he"

    @property
    def his(self) -> str:
        return "her" if self.patient.sex == "F" else "his"

    @property
    def him(self) -> str:
        return "her" if self.patient.sex == "F" else "him"
