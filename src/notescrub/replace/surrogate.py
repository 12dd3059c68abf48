"""The table of surrogate operators: which realistic replacement each PHI type gets.

>>> ops = surrogate_operators()
>>> type(ops["PATIENT"]).__name__, type(ops["DATE"]).__name__, type(ops["MEDICALRECORD"]).__name__
('NameSurrogate', 'DateShift', 'ShapeSurrogate')
>>> ops["PATIENT"] is ops["DOCTOR"]
True
>>> sorted(set(SURROGATE_TYPES) ^ set(ops))
['OTROS_SUJETO_ASISTENCIA', 'SEXO_SUJETO_ASISTENCIA']
"""

from __future__ import annotations

from notescrub.replace.ages import AgeSurrogate
from notescrub.replace.base import Operator
from notescrub.replace.contacts import EmailSurrogate, UsernameSurrogate
from notescrub.replace.dates import DateShift
from notescrub.replace.geography import Geography
from notescrub.replace.names import NameSurrogate
from notescrub.replace.phones import PhoneSurrogate
from notescrub.replace.places import (
    Country,
    Facility,
    Profession,
    Street,
)
from notescrub.replace.shapes import (
    IPSurrogate,
    RoomSurrogate,
    ShapeSurrogate,
    UrlSurrogate,
)
from notescrub.replace.spanish import spanish_operators
from notescrub.replace.vocabulary import DictionaryVocabulary, Vocabulary

__all__ = ["SURROGATE_TYPES", "surrogate_operators"]

#: Canonical i2b2-2014 subtypes that have a dedicated surrogate operator.
SURROGATE_TYPES = (
    "PATIENT", "DOCTOR", "USERNAME", "PROFESSION", "HOSPITAL", "ORGANIZATION", "DEPARTMENT", "LOCATION-OTHER",
    "STREET", "CITY", "STATE", "COUNTRY", "ZIP", "ROOM", "AGE", "DATE", "PHONE", "FAX", "EMAIL", "URL", "IPADDR",
    "SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID", "IDNUM",
)


def surrogate_operators(
    vocabulary: Vocabulary | None = None,
    *,
    shift_range: tuple[int, int] = (-365, -30),
    age_bucket: int | None = None,
    fictional_phones: bool = True,
) -> dict[str, Operator]:
    """One operator per canonical subtype; operators shared between types share their caches.

    ``fictional_phones`` (default) gives phone and fax numbers in the 555-0100..0199 range.
    """
    vocab = vocabulary or DictionaryVocabulary("en")
    names = NameSurrogate(vocab)
    shape = ShapeSurrogate()
    phone = PhoneSurrogate(fictional_phones)
    facility = Facility(vocab)
    geography = Geography(vocab)
    table: dict[str, Operator] = {
        "PATIENT": names,
        "DOCTOR": names,
        "USERNAME": UsernameSurrogate(names),
        "PROFESSION": Profession(vocab),
        "HOSPITAL": facility,
        "ORGANIZATION": facility,
        "DEPARTMENT": facility,
        "LOCATION-OTHER": facility,
        "STREET": Street(vocab),
        "CITY": geography,
        "STATE": geography,
        "COUNTRY": Country(vocab),
        "ZIP": geography,
        "ROOM": RoomSurrogate(),
        "AGE": AgeSurrogate(age_bucket),
        "DATE": DateShift(shift_range),
        "PHONE": phone,
        "FAX": phone,
        "EMAIL": EmailSurrogate(names),
        "URL": UrlSurrogate(),
        "IPADDR": IPSurrogate(),
    }
    for t in ("SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID", "IDNUM"):
        table[t] = shape
    table.update(spanish_operators())  # MEDDOCAN labels without an i2b2 type (notescrub.replace.spanish)
    return table
