"""PHI label schemes and their mapping onto the canonical i2b2/UTHealth 2014 subtypes.

The tables are packaged JSON (``resources/labels``), validated when first loaded.
Spans keep their native label; :func:`canonical` gives the i2b2-2014 subtype.

>>> canonical("NOMBRE_SUJETO_ASISTENCIA")
'PATIENT'
>>> canonical("HCPName")
'DOCTOR'
>>> canonical("LOCATION", scheme="i2b2-2006")
'LOCATION-OTHER'
>>> category_of("ZIP")
'LOCATION'
>>> "IDNUM" in hipaa_eval_subtypes(compat_official=True)
False
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from notescrub.errors import ConfigError, LabelError

__all__ = [
    "SCHEMES",
    "canonical",
    "categories",
    "category_of",
    "hipaa_eval_subtypes",
    "hipaa_identifiers",
    "native_category",
    "require_label",
    "scheme_labels",
    "subtypes",
]

SCHEMES = ("i2b2-2014", "i2b2-2006", "physionet", "meddocan")


def _load(name: str) -> dict[str, Any]:
    path = resources.files("notescrub.resources.labels").joinpath(name)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:  # pragma: no cover - packaging error
        raise ConfigError(f"label table cannot be read: {exc}", path=str(name)) from exc


@lru_cache(maxsize=1)
def _tables() -> dict[str, Any]:
    i2b2 = _load("i2b2_2014.json")
    sub_to_cat: dict[str, str] = {}
    for cat, subs in i2b2["categories"].items():
        for s in subs:
            if s in sub_to_cat:
                raise ConfigError(f"subtype {s} listed under two categories", path="i2b2_2014.json")
            sub_to_cat[s] = cat
    for key in ("hipaa_eval", "hipaa_identifiers"):
        unknown = set(i2b2[key]) - set(sub_to_cat)
        if unknown:
            raise ConfigError(f"{key} names unknown subtypes {sorted(unknown)}", path="i2b2_2014.json")

    per_scheme: dict[str, dict[str, str | None]] = {"i2b2-2014": {s: s for s in sub_to_cat}}
    native_cat: dict[str, dict[str, str]] = {"i2b2-2014": dict(sub_to_cat)}
    for fname in ("i2b2_2006.json", "physionet.json"):
        t = _load(fname)
        per_scheme[t["scheme"]] = dict(t["map"])
    med = _load("meddocan.json")
    per_scheme["meddocan"] = {k: v["phi"] for k, v in med["labels"].items()}
    native_cat["meddocan"] = {k: v["category"] for k, v in med["labels"].items()}
    for scheme, table in per_scheme.items():
        bad = {k: v for k, v in table.items() if v is not None and v not in sub_to_cat}
        if bad:
            raise ConfigError(f"scheme {scheme} maps onto unknown subtypes {bad}")
    # Global lookup: i2b2-2014 wins, then the native schemes (their names don't collide
    # except i2b2-2006 LOCATION/ID, which are 2014 *categories*, not subtypes).
    merged: dict[str, str | None] = {}
    for scheme in ("physionet", "meddocan", "i2b2-2006", "i2b2-2014"):
        merged.update(per_scheme[scheme])
    return {
        "sub_to_cat": sub_to_cat,
        "per_scheme": per_scheme,
        "native_cat": native_cat,
        "merged": merged,
        "hipaa_eval": tuple(i2b2["hipaa_eval"]),
        "hipaa_identifiers": tuple(i2b2["hipaa_identifiers"]),
    }


def canonical(label: str, scheme: str | None = None) -> str | None:
    """Canonical i2b2-2014 subtype of a native label, ``None`` if it has none.

    With ``scheme`` the label is looked up in that scheme only; otherwise in all
    schemes (i2b2-2014 names first). Unknown labels give ``None``.
    """
    t = _tables()
    if scheme is None:
        return t["merged"].get(label)
    try:
        return t["per_scheme"][scheme].get(label)
    except KeyError:
        raise LabelError(f"unknown label scheme {scheme!r}; known: {', '.join(SCHEMES)}") from None


def category_of(subtype: str) -> str:
    """i2b2-2014 category of a canonical subtype (``LabelError`` if unknown)."""
    try:
        return _tables()["sub_to_cat"][subtype]
    except KeyError:
        raise LabelError(f"unknown i2b2-2014 subtype {subtype!r}") from None


def native_category(label: str) -> str:
    """Category element name to write for ``label`` in i2b2-2014-style XML.

    MEDDOCAN labels use MEDDOCAN's own categories (e.g. ``OTHER`` for
    ``SEXO_SUJETO_ASISTENCIA``); other labels use the canonical category; labels
    without a mapping fall back to ``OTHER``.
    """
    t = _tables()
    for table in t["native_cat"].values():
        if label in table:
            return table[label]
    sub = canonical(label)
    return t["sub_to_cat"][sub] if sub else "OTHER"


def subtypes() -> tuple[str, ...]:
    """All canonical i2b2-2014 subtypes."""
    return tuple(_tables()["sub_to_cat"])


def categories() -> tuple[str, ...]:
    return tuple(dict.fromkeys(_tables()["sub_to_cat"].values()))


def scheme_labels(scheme: str) -> tuple[str, ...]:
    """Native labels of a scheme."""
    try:
        return tuple(_tables()["per_scheme"][scheme])
    except KeyError:
        raise LabelError(f"unknown label scheme {scheme!r}; known: {', '.join(SCHEMES)}") from None


def hipaa_eval_subtypes(compat_official: bool = False) -> frozenset[str]:
    """Subtypes kept by the i2b2-2014 HIPAA evaluation filter.

    ``compat_official`` reproduces the official script's quirk of never matching IDNUM.
    """
    s = set(_tables()["hipaa_eval"])
    if compat_official:
        s.discard("IDNUM")
    return frozenset(s)


def hipaa_identifiers() -> frozenset[str]:
    """Subtypes that are HIPAA Safe Harbor identifiers (for ``--types hipaa``)."""
    return frozenset(_tables()["hipaa_identifiers"])


def require_label(label: str, scheme: str | None = None) -> str:
    """Return the canonical subtype or raise ``LabelError`` naming the label."""
    sub = canonical(label, scheme)
    if sub is None and label not in _tables()["merged"]:
        raise LabelError(f"unknown PHI label {label!r}" + (f" in scheme {scheme}" if scheme else ""))
    return sub  # type: ignore[return-value]
