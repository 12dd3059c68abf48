"""Fictional identifiers and contact details in many shapes (phones, MRNs, SSNs, plates...).

Phone and fax numbers mostly use the reserved 555-01xx range; SSNs start with 9 (never
issued); IP addresses come from documentation and private ranges; e-mail and web domains are
invented or ``example.*``. Shapes vary widely so a tagger learns from context and trigger words
rather than one format.

>>> import random
>>> rng = random.Random(4)
>>> ssn(rng).startswith("9")
True
>>> ip_address(rng).split(".")[0] in {"192", "198", "203", "10", "172"}
True
>>> any(c.isdigit() for c in make_id("MEDICALRECORD", rng))
True
"""

from __future__ import annotations

import random
import string

__all__ = ["ID_TRIGGERS", "email", "extension", "ip_address", "make_id", "phone", "ssn", "url", "username"]

_UP = string.ascii_uppercase


def _d(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.digits) for _ in range(n))


def _L(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(_UP) for _ in range(n))


def _area(rng: random.Random) -> str:
    return f"{rng.randint(2, 9)}{rng.randint(0, 8)}{rng.randint(0, 9)}"


def phone(rng: random.Random) -> str:
    """A telephone number in one of many written shapes."""
    area = _area(rng)
    if rng.random() < 0.6:
        ex, line = "555", f"01{_d(rng, 2)}"
    else:
        ex, line = f"{rng.randint(2, 9)}{_d(rng, 2)}", _d(rng, 4)
    shape = rng.randrange(9)
    return [
        f"({area}) {ex}-{line}", f"{area}-{ex}-{line}", f"{area}.{ex}.{line}", f"{ex}-{line}",
        f"+1 {area} {ex} {line}", f"1-{area}-{ex}-{line}", f"({area}){ex}-{line}", f"{area} {ex} {line}",
        f"{area}{ex}{line}",
    ][shape]


def extension(rng: random.Random) -> str:
    """A short internal extension or pager number (digits only)."""
    return _d(rng, rng.choice((4, 4, 5, 5, 3)))


def ssn(rng: random.Random) -> str:
    a, b, c = f"9{_d(rng, 2)}", _d(rng, 2), _d(rng, 4)
    return rng.choice((f"{a}-{b}-{c}", f"{a}-{b}-{c}", f"{a} {b} {c}", f"{a}{b}{c}"))


def ip_address(rng: random.Random) -> str:
    base = rng.choice(("192.0.2", "198.51.100", "203.0.113", f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}",
                       f"172.{rng.randint(16, 31)}.{rng.randint(0, 255)}", f"192.168.{rng.randint(0, 255)}"))
    return f"{base}.{rng.randint(1, 254)}"


def username(rng: random.Random, first: str, last: str) -> str:
    f, l_ = _ascii(first).lower(), _ascii(last).lower().replace(" ", "").replace("-", "").replace("'", "")
    shape = rng.randrange(6)
    out = [f[:1] + l_, f[:1] + l_ + str(rng.randint(1, 99)), f + "." + l_, l_[:6] + f[:2], f[:1] + l_[:7] + str(rng.randint(1, 9)),
           f[:3] + l_[:3] + _d(rng, 3)][shape]
    return out or "user" + _d(rng, 4)


def _ascii(s: str) -> str:
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", s) if c.isascii() and (c.isalnum() or c in " -'"))


def email(rng: random.Random, first: str, last: str, domain: str | None = None) -> str:
    user = username(rng, first, last) if rng.random() < 0.6 else f"{_ascii(first).lower()}{rng.randint(1, 2024)}"
    user = user.replace(" ", "") or "mail" + _d(rng, 3)
    domain = domain or rng.choice(("example.com", "example.org", "example.net", "mail.example.com", "inbox.example.org",
                                   f"{_L(rng, 3).lower()}health.example.org"))
    return f"{user}@{domain}"


def url(rng: random.Random, word: str) -> str:
    w = "".join(c for c in _ascii(word).lower() if c.isalnum()) or "clinic"
    return rng.choice((f"www.{w}.org", f"https://www.{w}.org/patients", f"http://{w}.example.com", f"https://portal.{w}.org",
                       f"mychart.{w}.org", f"{w}.org/billing", f"https://{w}health.example.org/forms/{_d(rng, 4)}"))


def _mrn(rng: random.Random) -> str:
    return rng.choice((
        _d(rng, 7), _d(rng, 8), _d(rng, 9), f"{_L(rng, 2)}-{_d(rng, 7)}", f"{_d(rng, 3)}-{_d(rng, 2)}-{_d(rng, 2)}",
        f"{_L(rng, 1)}{_d(rng, 8)}", f"{_d(rng, 2)} {_d(rng, 3)} {_d(rng, 2)}", f"00{_d(rng, 6)}", f"{_L(rng, 3)}{_d(rng, 6)}",
    ))


_SHAPES = {
    "MEDICALRECORD": _mrn,
    "HEALTHPLAN": lambda r: r.choice((f"{_L(r, 3)}{_d(r, 9)}", f"W{_d(r, 9)}", f"{_d(r, 1)}{_L(r, 2)}{_d(r, 1)}-{_L(r, 2)}{_d(r, 1)}-{_L(r, 2)}{_d(r, 2)}",
                                      f"{_L(r, 3)}-{_d(r, 8)}", f"GRP-{_d(r, 5)}", f"{_d(r, 11)}", f"{_L(r, 2)}{_d(r, 7)}-0{_d(r, 1)}")),
    "ACCOUNT": lambda r: r.choice((_d(r, 10), _d(r, 12), f"{_d(r, 2)}-{_d(r, 3)}-{_d(r, 6)}", f"{_L(r, 1)}{_d(r, 10)}", f"{_d(r, 4)}-{_d(r, 5)}-{_d(r, 2)}",
                                   f"{_L(r, 2)}{_d(r, 2)}-{_d(r, 4)}-{_d(r, 4)}")),
    "LICENSE": lambda r: r.choice((f"{_L(r, 2)}{_d(r, 7)}", f"{_L(r, 1)}{_d(r, 8)}", f"RN{_d(r, 6)}", f"{_d(r, 6)}", f"MD{_d(r, 7)}",
                                   f"{_L(r, 4)}-{_d(r, 7)}", f"{_L(r, 1)}{_d(r, 2)}-{_d(r, 3)}-{_d(r, 3)}")),
    "VEHICLE": lambda r: r.choice((f"{_d(r, 1)}{_L(r, 3)}{_d(r, 3)}", f"{_L(r, 3)}-{_d(r, 4)}", f"{_L(r, 3)} {_d(r, 3)}",
                                   "".join(r.choice("ABCDEFGHJKLMNPRSTUVWXYZ0123456789") for _ in range(17)), f"{_d(r, 3)}-{_L(r, 3)}")),
    "DEVICE": lambda r: r.choice((f"{_L(r, 2)}{_d(r, 2)}-{_d(r, 5)}-{_d(r, 1)}{_L(r, 2)}", f"{_L(r, 3)}{_d(r, 6)}{_L(r, 1)}", f"{_d(r, 9)}",
                                  f"{_L(r, 3)}-{_d(r, 4)}-{_d(r, 2)}-{_d(r, 5)}", f"SN{_d(r, 8)}", f"{_L(r, 2)}{_d(r, 1)}-{_d(r, 4)}-{_d(r, 6)}")),
    "BIOID": lambda r: r.choice((f"PV-{_d(r, 2)}-{_d(r, 4)}-{_d(r, 4)}", f"{_L(r, 3)}-IR-{_d(r, 5)}-{_d(r, 1)}", f"IRS-{_d(r, 4)}-{_d(r, 4)}-{_L(r, 2)}",
                                 f"FP{_d(r, 9)}", f"{_L(r, 2)}{_d(r, 4)}{_L(r, 2)}{_d(r, 4)}")),
    "IDNUM": lambda r: r.choice((f"{_L(r, 1)}{_d(r, 2)}-{_d(r, 5)}", f"{_L(r, 3)}{_d(r, 2)}-{_d(r, 6)}", _d(r, 5), _d(r, 10), f"{_d(r, 2)}-{_L(r, 2)}-{_d(r, 7)}",
                                 f"{_L(r, 2)}-{_d(r, 4)}-{_d(r, 5)}", f"{_L(r, 3)}-{_d(r, 2)}-{_d(r, 7)}", _d(r, 7), f"{_L(r, 2)}{_d(r, 6)}-{_d(r, 4)}",
                                 f"{_d(r, 3)}-{_d(r, 6)}")),
}

#: Trigger phrases that introduce each identifier type in a note (the label stays outside the span).
ID_TRIGGERS: dict[str, list[str]] = {
    "MEDICALRECORD": ["MRN", "MRN:", "MRN #", "MR#", "Med Rec #", "Medical Record Number:", "Unit No:", "Unit #", "Hospital #", "Chart #", "MRN#:"],
    "HEALTHPLAN": ["Member ID:", "Insurance ID", "Policy #", "Subscriber ID:", "Medicaid #", "MBI", "Group #", "Plan ID:", "Ins ID"],
    "ACCOUNT": ["Acct #:", "Account:", "FIN:", "FIN #", "CSN:", "Encounter #", "Billing acct", "Visit #:", "Acct No."],
    "LICENSE": ["DEA #", "DEA:", "License #", "Lic#", "NPI/Lic", "RN License", "MA Lic.", "Driver's license", "State license no."],
    "VEHICLE": ["plate", "license plate", "plate #", "VIN", "tag number"],
    "DEVICE": ["serial #", "SN:", "S/N", "serial number", "device ID", "Model/SN"],
    "BIOID": ["palm-vein ID", "iris ID", "biometric ID", "fingerprint ID", "palm scan token"],
    "IDNUM": ["Accession #:", "Accession:", "Order #", "Report ID:", "Case #", "Job #", "Doc ID:", "NPI", "Interpreter ID", "Ref #", "Prior auth #",
              "Confirmation #", "Specimen #:", "Requisition:", "Incident #", "Claim #", "Provider #"],
}


def make_id(kind: str, rng: random.Random) -> str:
    """A fictional identifier of the given i2b2 subtype (MEDICALRECORD, HEALTHPLAN, ...)."""
    return _SHAPES[kind](rng)
