"""Developer script: rebuild the packaged name and place pools from Faker (MIT licence).

Run ``python -m notescrub.synth._build_resources`` (needs ``pip install faker``). The
generator itself never imports Faker: it reads the JSON files written here, so the
output is the same whatever Faker version a user has installed.
"""

from __future__ import annotations

import importlib
import json
import random
import re
import unicodedata
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "resources" / "synth"

_LATIN = re.compile(r"^[A-Za-zÀ-ÖØ-öø-ÿĀ-ž' -]{2,22}$")
_CYR = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюяієїґ",
                ["a", "b", "v", "g", "d", "e", "yo", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r",
                 "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya", "i", "ye",
                 "yi", "g"]))

# (culture, faker locale, how to read it)
LOCALES = [
    ("anglo_us", "en_US"), ("anglo_gb", "en_GB"), ("irish", "en_IE"), ("irish_ga", "ga_IE"),
    ("mexican", "es_MX"), ("spanish", "es_ES"), ("indian", "en_IN"), ("polish", "pl_PL"),
    ("french", "fr_FR"), ("german", "de_DE"), ("italian", "it_IT"), ("brazilian", "pt_BR"),
    ("yoruba", "yo_NG"), ("igbo", "ig_NG"), ("hausa", "ha_NG"), ("nigerian", "en_NG"),
    ("kenyan", "en_KE"), ("ghanaian", "tw_GH"), ("pakistani", "en_PK"), ("swahili", "sw"),
    ("zulu", "zu_ZA"), ("indonesian", "id_ID"), ("turkish", "tr_TR"), ("dutch", "nl_NL"),
    ("swedish", "sv_SE"), ("finnish", "fi_FI"), ("russian", "ru_RU"), ("ukrainian", "uk_UA"),
    ("quebecois", "fr_CA"), ("czech", "cs_CZ"), ("romanian", "ro_RO"), ("hungarian", "hu_HU"),
    ("croatian", "hr_HR"), ("vietnamese", "vi_VN"),
]


def _ascii_fold(s: str) -> str:
    s = s.replace("đ", "d").replace("Đ", "D").replace("ı", "i").replace("ł", "l").replace("Ł", "L")
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))


def _translit(s: str) -> str:
    out = []
    for ch in s:
        low = ch.lower()
        if low in _CYR:
            t = _CYR[low]
            out.append(t.capitalize() if ch != low and t else t)
        else:
            out.append(ch)
    return "".join(out)


def _clean(names, fold: bool) -> list[str]:
    seen: dict[str, None] = {}
    for n in names:
        n = _translit(str(n)).strip()
        if fold:
            n = _ascii_fold(n)
        if _LATIN.match(n) and n not in ("John", "Jane", "Doe"):
            seen[n] = None
    return list(seen)


def _attr(P, *names):
    for name in names:
        v = getattr(P, name, None)
        if v:
            return list(v.keys()) if isinstance(v, dict) else list(v)
    return []


def build_names() -> dict:
    pools: dict[str, dict[str, list[str]]] = {}
    for culture, loc in LOCALES:
        P = importlib.import_module(f"faker.providers.person.{loc}").Provider
        fold = loc in ("vi_VN", "tr_TR", "ro_RO", "hu_HU", "cs_CZ", "hr_HR", "pl_PL")
        f = _clean(_attr(P, "first_names_female", "first_names"), fold)
        m = _clean(_attr(P, "first_names_male", "first_names"), fold)
        last = _clean(_attr(P, "last_names_male", "last_names") + _attr(P, "unisex_last_names", "male_last_names"), fold)
        if loc == "vi_VN":
            f = _clean(_attr(P, "first_names_female") + _attr(P, "middle_names") + _attr(P, "first_names_unisex"), True)
            m = _clean(_attr(P, "first_names_male") + _attr(P, "first_names_unisex"), True)
        if len(f) >= 5 and len(m) >= 5 and len(last) >= 5:
            pools[culture] = {"female": f, "male": m, "last": last}
    zh = importlib.import_module("faker.providers.person.zh_CN").Provider
    ja = importlib.import_module("faker.providers.person.ja_JP").Provider
    pools["chinese"] = {"female": list(zh.first_romanized_names), "male": list(zh.first_romanized_names),
                        "last": list(zh.last_romanized_names)}
    pools["japanese"] = {"female": list(ja.first_romanized_names_female), "male": list(ja.first_romanized_names_male),
                         "last": list(ja.last_romanized_names)}
    return pools


def build_places() -> dict:
    us = importlib.import_module("faker.providers.address.en_US").Provider
    rng = random.Random(7)
    foreign: list[str] = []
    for loc, n in (("de_DE", 120), ("pl_PL", 80), ("en_IN", 120), ("nl_NL", 80), ("it_IT", 120)):
        P = importlib.import_module(f"faker.providers.address.{loc}").Provider
        cities = _clean(P.cities, loc == "pl_PL")
        foreign.extend(rng.sample(cities, min(n, len(cities))))
    return {
        "states": list(us.states),
        "states_abbr": [s for s in us.states_abbr],
        "countries": [c for c in us.countries if "," not in c and "(" not in c],
        "city_prefixes": list(us.city_prefixes),
        "city_suffixes": sorted(set(us.city_suffixes)),
        "street_suffixes": sorted(set(us.street_suffixes)),
        "foreign_cities": foreign,
    }


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in (("faker_names.json", build_names()), ("faker_places.json", build_places())):
        (OUT / name).write_text(json.dumps(data, ensure_ascii=False, sort_keys=True), encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    main()
