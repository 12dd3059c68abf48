"""Fictional people for synthetic notes: names from many cultures, invented names, and renderings.

Name pools come from packaged data (``resources/synth``): given and family names taken from
Faker's person providers (MIT) for ~35 locales, romanised where needed, plus hand-written
pools (Arabic, Haitian, Korean, Filipino, Somali/Ethiopian...), names that are also ordinary
words or eponyms (Baker, Rose, Foley...), and out-of-vocabulary names invented from syllables.

A :class:`Person` is sampled once per patient world and then *rendered* many ways
(``"Last, First M"``, initials, nickname, ALL CAPS, a misspelling...). :func:`render`
returns ``(prefix, value, suffix)``: only ``value`` is PHI, so titles and credentials stay
outside the span as the annotation guide asks.

>>> import random
>>> rng = random.Random(3)
>>> p = make_person(rng, role="DOCTOR")
>>> prefix, value, suffix = render(p, "sig", rng)
>>> suffix.startswith(",") and value == p.full
True
>>> render(Person("Ana", "Ruiz", "F", "mexican", middle="L"), "lfm", rng)[1].rstrip(".")
'Ruiz, Ana L'
>>> len(oov_name(random.Random(0))) >= 3
True
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from typing import Any

__all__ = ["CULTURE_WEIGHTS", "NAME_FORMS", "Person", "lexicon", "make_person", "misspell", "oov_name", "render"]


@cache
def _load(name: str) -> Any:
    return json.loads(resources.files("notescrub.resources.synth").joinpath(name).read_text(encoding="utf-8"))


def lexicon() -> dict[str, Any]:
    """The hand-written word lists (places, professions, hard negatives...)."""
    return _load("lexicon.json")


@lru_cache(maxsize=1)
def _pools() -> dict[str, dict[str, list[str]]]:
    pools: dict[str, dict[str, list[str]]] = {k: dict(v) for k, v in _load("faker_names.json").items()}
    for culture, v in lexicon()["extra_names"].items():
        base = culture.replace("_extra", "")
        if base in pools:
            pools[base] = {k: sorted(set(pools[base][k]) | set(v[k])) for k in ("female", "male", "last")}
        else:
            pools[base] = dict(v)
    return pools


#: Relative weight of each naming culture (anglophone names are common, but far from all).
CULTURE_WEIGHTS: dict[str, float] = {
    "anglo_us": 14, "anglo_gb": 4, "irish": 4, "irish_ga": 1, "mexican": 6, "spanish": 3, "indian": 5,
    "polish": 3, "french": 2, "german": 3, "italian": 3, "brazilian": 2, "yoruba": 2, "igbo": 2, "hausa": 1,
    "nigerian": 1, "kenyan": 2, "ghanaian": 1, "pakistani": 2, "swahili": 1, "zulu": 1, "indonesian": 1,
    "turkish": 1, "dutch": 1, "swedish": 1, "finnish": 1, "russian": 2, "ukrainian": 1, "quebecois": 1,
    "czech": 1, "romanian": 1, "hungarian": 1, "croatian": 1, "vietnamese": 4, "chinese": 4, "japanese": 1,
    "arabic": 4, "haitian": 3, "korean": 2, "filipino": 2, "somali_ethiopian": 2, "oov": 5, "word": 6,
}

_ONSETS = ["b", "br", "c", "ch", "cl", "d", "dr", "f", "fl", "g", "gr", "h", "j", "k", "kh", "kl", "l", "m", "n", "p", "pr", "q", "qu", "r", "s", "sh", "st", "t", "tr", "v", "vr", "w", "y", "z", "zh", "x"]
_VOWELS = ["a", "e", "i", "o", "u", "y", "ae", "ai", "ea", "ia", "io", "ou", "oa"]
_CODAS = ["", "", "", "n", "r", "l", "k", "s", "m", "th", "x", "nd", "rk", "lt", "g", "v", "z"]
_ENDINGS = ["", "", "ek", "ani", "ovic", "ez", "son", "ski", "ena", "ura", "ine", "ou", "ith", "ak", "ey", "ari", "olu", "emi", "ashi", "eau"]

_TITLES = {"F": ["Ms.", "Mrs.", "Ms", "Mrs", "Miss"], "M": ["Mr.", "Mr"]}
_CREDENTIALS = {
    "physician": ["MD", "MD", "MD", "DO", "M.D.", "MD, PhD", "MD, MPH", "MBBS"],
    "nurse": ["RN", "RN", "BSN, RN", "RN, CCRN", "LPN", "NP", "ANP-BC", "APRN"],
    "other": ["PA-C", "LICSW", "LCSW", "MSW", "PT, DPT", "OTR/L", "RD", "PharmD", "RRT", "CNM", "PsyD", "PhD"],
}


def oov_name(rng: random.Random) -> str:
    """An invented, pronounceable name that no dictionary lists (``Qolvanek``)."""
    n = rng.choice((1, 2, 2, 3))
    s = "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) for _ in range(n))
    s += rng.choice(_CODAS) + rng.choice(_ENDINGS)
    return s[:14].capitalize()


def misspell(name: str, rng: random.Random) -> str:
    """A plausible misspelling of a name (doubled/dropped letter, vowel swap, letter swap)."""
    if len(name) < 4:
        return name + name[-1]
    for _ in range(6):
        i = rng.randrange(1, len(name) - 1)
        c = name[i]
        kind = rng.randrange(4)
        if kind == 0 and c.isalpha():
            out = name[:i] + c + name[i:]
        elif kind == 1 and c.isalpha():
            out = name[:i] + name[i + 1 :]
        elif kind == 2 and c.lower() in "aeiouy":
            out = name[:i] + rng.choice([v for v in "aeiouy" if v != c.lower()]) + name[i + 1 :]
        elif name[i + 1 :] and c.islower() and name[i + 1].islower() and c != name[i + 1]:
            out = name[:i] + name[i + 1] + c + name[i + 2 :]
        else:
            continue
        if out != name and out.strip() == out:
            return out
    return name[:-1] + ("e" if name[-1] != "e" else "a")


@dataclass
class Person:
    """A fictional person and the ways a note may refer to them."""

    first: str
    last: str
    sex: str  # "F" / "M"
    culture: str
    middle: str = ""
    nickname: str = ""
    title: str = ""
    credential: str = ""
    misspelled_last: str = ""
    misspelled_first: str = ""
    role: str = "PATIENT"  # PATIENT or DOCTOR (the gold label)
    extras: dict[str, str] = field(default_factory=dict)

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"

    @property
    def initials(self) -> str:
        return (self.first[0] + (self.middle[:1] if self.middle else "") + self.last[0]).upper()


def _pick_culture(rng: random.Random) -> str:
    cultures = list(CULTURE_WEIGHTS)
    return rng.choices(cultures, weights=[CULTURE_WEIGHTS[c] for c in cultures])[0]


def _given(rng: random.Random, culture: str, sex: str) -> str:
    key = "female" if sex == "F" else "male"
    return rng.choice(_pools()[culture][key])


def make_person(rng: random.Random, *, role: str = "PATIENT", sex: str | None = None, culture: str | None = None,
                last: str | None = None, kind: str = "physician") -> Person:
    """Sample a person. ``role`` is the gold label (``PATIENT`` for patients and their
    relatives and contacts, ``DOCTOR`` for any care provider); ``kind`` picks credentials."""
    sex = sex or rng.choice("FM")
    culture = culture or _pick_culture(rng)
    lex = lexicon()
    if culture == "oov":
        first, surname = oov_name(rng), last or oov_name(rng)
        base_culture = "oov"
    elif culture == "word":
        base_culture = _pick_culture(rng)
        while base_culture in ("oov", "word"):
            base_culture = _pick_culture(rng)
        wn = lex["word_names"]
        if rng.random() < 0.6:
            first, surname = _given(rng, base_culture, sex), last or rng.choice(sorted(wn["last"]))
        else:
            first = rng.choice(sorted(wn["first"]))
            surname = last or rng.choice(_pools()[base_culture]["last"])
    else:
        base_culture = culture
        first, surname = _given(rng, culture, sex), last or rng.choice(_pools()[culture]["last"])
    if last is None:
        r = rng.random()
        if culture in ("mexican", "spanish") and r < 0.35:
            surname = f"{surname} {rng.choice(_pools()[culture]['last'])}"
        elif r < 0.07 and base_culture != "oov":
            other = rng.choice(_pools()[base_culture]["last"])
            if other != surname and " " not in other:
                surname = f"{surname}-{other}"
    middle = ""
    if rng.random() < 0.45 and base_culture in _pools():
        middle = _given(rng, base_culture, sex)
    nick_table = lex["nicknames"]
    nickname = ""
    if nick_table.get(first):
        nickname = rng.choice(nick_table[first])
    elif rng.random() < 0.12 and len(first) > 4:
        nickname = first[: rng.choice((3, 4))]
    if role == "DOCTOR":
        title = "Dr." if kind == "physician" else ""
        credential = rng.choice(_CREDENTIALS[kind])
    else:
        title = rng.choice(_TITLES[sex])
        credential = ""
    return Person(first=first, last=surname, sex=sex, culture=culture, middle=middle, nickname=nickname, title=title,
                  credential=credential, misspelled_last=misspell(surname, rng), misspelled_first=misspell(first, rng), role=role)


#: Forms accepted by :func:`render`.
NAME_FORMS = (
    "full", "first", "last", "title_last", "title_full", "lfm", "LFM", "fml", "init_last", "initials", "nickname",
    "caps", "lower", "sig", "sig_lfm", "misspelled", "first_misspelled", "last_first", "dr_full", "dr_last",
)


def render(p: Person, form: str, rng: random.Random) -> tuple[str, str, str]:
    """Render ``p`` as ``(prefix, value, suffix)``; ``value`` is the PHI span."""
    cred = f", {p.credential}" if p.credential else ""
    dr = "Dr. " if p.title == "Dr." else ""
    mi = (p.middle[0] + rng.choice((".", "", "."))) if p.middle else ""
    if form == "full":
        return "", p.full, ""
    if form == "first":
        return "", p.first, ""
    if form == "last":
        return "", p.last, ""
    if form == "title_last":
        t = p.title or ("Dr." if p.role == "DOCTOR" else "")
        return (t + " ") if t else "", p.last, ""
    if form == "title_full":
        t = p.title or ""
        return (t + " ") if t else "", p.full, ""
    if form == "dr_full":
        return dr, p.full, ""
    if form == "dr_last":
        return dr, p.last, ""
    if form in ("lfm", "LFM"):
        v = f"{p.last}, {p.first}" + (f" {mi}" if mi else "")
        return "", (v.upper() if form == "LFM" else v), ""
    if form == "last_first":
        return "", f"{p.last} {p.first}", ""
    if form == "fml":
        return "", f"{p.first} {mi} {p.last}" if mi else p.full, ""
    if form == "init_last":
        sep = rng.choice((". ", ". ", " ", "."))
        return "", f"{p.first[0]}{sep}{p.last}", ""
    if form == "initials":
        return "", p.initials if rng.random() < 0.7 else ".".join(p.initials) + ".", ""
    if form == "nickname":
        return "", p.nickname or p.first, ""
    if form == "caps":
        return "", p.full.upper(), ""
    if form == "lower":
        return "", p.full.lower(), ""
    if form == "sig":
        return dr if rng.random() < 0.15 else "", p.full, cred
    if form == "sig_lfm":
        return "", f"{p.last}, {p.first}", cred
    if form == "misspelled":
        return "", p.misspelled_last, ""
    if form == "first_misspelled":
        return "", f"{p.misspelled_first} {p.last}", ""
    raise ValueError(f"unknown name form {form!r}")
