"""notescrub PHI types (i2b2-2014 subtypes) ↔ Presidio entity names.

Presidio names entities ``PERSON``, ``DATE_TIME``, ``LOCATION``, ``PHONE_NUMBER`` ...;
notescrub's canonical scheme is finer (``PATIENT`` and ``DOCTOR`` are both ``PERSON``).
Subtypes with no Presidio counterpart get a descriptive upper-case name of their own
(``AGE``, ``MEDICAL_RECORD_NUMBER``), which Presidio accepts as a custom entity type.

>>> presidio_entity("PATIENT"), presidio_entity("DATE"), presidio_entity("SSN")
('PERSON', 'DATE_TIME', 'US_SSN')
>>> presidio_entity("NOMBRE_SUJETO_ASISTENCIA")   # native labels go through their subtype
'PERSON'
>>> sorted(subtypes_of("PERSON"))
['DOCTOR', 'PATIENT']
>>> entity_filter(["PHONE_NUMBER", "person"]) == {"PHONE_NUMBER", "PERSON"}
True
"""

from __future__ import annotations

from collections.abc import Iterable

from notescrub.taxonomy import canonical

__all__ = ["PRESIDIO_ENTITY", "entity_filter", "presidio_entities", "presidio_entity", "subtypes_of"]

#: i2b2-2014 subtype -> Presidio entity name (every subtype has one)
PRESIDIO_ENTITY: dict[str, str] = {
    "PATIENT": "PERSON",
    "DOCTOR": "PERSON",
    "USERNAME": "USERNAME",
    "PROFESSION": "PROFESSION",
    "HOSPITAL": "LOCATION",
    "ORGANIZATION": "ORGANIZATION",
    "STREET": "LOCATION",
    "CITY": "LOCATION",
    "STATE": "LOCATION",
    "COUNTRY": "LOCATION",
    "ZIP": "LOCATION",
    "LOCATION-OTHER": "LOCATION",
    "ROOM": "LOCATION",
    "DEPARTMENT": "LOCATION",
    "AGE": "AGE",
    "DATE": "DATE_TIME",
    "PHONE": "PHONE_NUMBER",
    "FAX": "PHONE_NUMBER",
    "EMAIL": "EMAIL_ADDRESS",
    "URL": "URL",
    "IPADDR": "IP_ADDRESS",
    "SSN": "US_SSN",
    "MEDICALRECORD": "MEDICAL_RECORD_NUMBER",
    "HEALTHPLAN": "HEALTH_PLAN_NUMBER",
    "ACCOUNT": "ACCOUNT_NUMBER",
    "LICENSE": "MEDICAL_LICENSE",
    "VEHICLE": "VEHICLE_ID",
    "DEVICE": "DEVICE_ID",
    "BIOID": "BIOMETRIC_ID",
    "IDNUM": "ID_NUMBER",
}


def presidio_entity(label: str) -> str:
    """The Presidio entity name of a native label or canonical subtype.

    A label with no canonical subtype keeps its own name, upper-cased.
    """
    sub = canonical(label) or label
    return PRESIDIO_ENTITY.get(sub, sub.upper())


def presidio_entities() -> list[str]:
    """Every Presidio entity name notescrub can produce, sorted.

    >>> "PERSON" in presidio_entities() and "US_SSN" in presidio_entities()
    True
    """
    return sorted(set(PRESIDIO_ENTITY.values()))


def subtypes_of(entity: str) -> set[str]:
    """The notescrub subtypes reported as Presidio ``entity``."""
    return {sub for sub, ent in PRESIDIO_ENTITY.items() if ent == entity.upper()}


def entity_filter(entities: Iterable[str] | None) -> set[str] | None:
    """Normalise a requested entity list (``None`` or empty = every entity)."""
    if not entities:
        return None
    return {str(e).strip().upper() for e in entities if str(e).strip()}
