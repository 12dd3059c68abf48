"""City, state and ZIP surrogates drawn together from one US geography table, so addresses agree.

The table (``resources/surrogates/us_places.tsv``) lists US cities with their state and
the 3-digit ZIP prefix of the city. A state is replaced by a state (per patient: ``OH``
and ``Ohio`` give the same surrogate state, in the written form: code or name); a city
whose state is known (from the same address, from another address of the document
naming the same city, or because the city is in the table under one state) becomes a
city *of the surrogate state*; a ZIP code gets the prefix of the surrogate city of its
address (or, alone, of a city in the surrogate of the state its own prefix belongs to),
and keyed last digits. ``Columbus, OH 43215`` thus becomes e.g. ``Tacoma, WA 98441``,
and every span of it is still a function of (key, patient, value, role): the only
context used is the document's own addresses (a document-scoped table, like initials).

>>> from notescrub.replace.base import Context, ReplaceState
>>> from notescrub.replace.keys import SurrogateKey
>>> text = "Lives in Columbus, OH 43215."
>>> doc = Document("d", text, "P1", layers={"phi": [Span(9, 17, "CITY"), Span(19, 21, "STATE"), Span(22, 27, "ZIP")]})
>>> op, state, key = Geography(), ReplaceState(), SurrogateKey(bytes(32))
>>> op.prepare(doc, [(s, doc.span_text(s)) for s in doc.layer("phi")], state, "P1", key)
>>> city, st, zip5 = (op.replacement(Context(doc, s, doc.span_text(s), s.label, "P1", key, state)) for s in doc.layer("phi"))
>>> agree(city, st, zip5), len(st), len(zip5)
(True, 2, 5)
>>> state_code("ohio"), state_code("OH"), state_code("Ontario"), zip_state("43215")
('OH', 'OH', None, 'OH')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

from notescrub.replace.base import Context, Operator, ReplaceState
from notescrub.replace.datefmt import apply_case
from notescrub.replace.keys import SurrogateKey, normalise_value
from notescrub.replace.places import City, StateSurrogate
from notescrub.replace.shapes import ShapeSurrogate
from notescrub.replace.vocabulary import DictionaryVocabulary, Vocabulary
from notescrub.taxonomy import canonical
from notescrub.types import Document, Span

__all__ = ["ZIP3", "Geography", "Place", "agree", "cities_in", "places", "state_code", "surrogate_state", "zip_state"]

#: 3-digit ZIP prefixes of each state and DC (USPS assignments), "lo-hi" ranges
ZIP3 = {"MA": "010-027", "RI": "028-029", "NH": "030-038", "ME": "039-049", "VT": "050-059", "CT": "060-069",
        "NJ": "070-089", "NY": "100-149", "PA": "150-196", "DE": "197-199", "DC": "200,202-205", "VA": "201,220-246",
        "MD": "206-219", "WV": "247-268", "NC": "270-289", "SC": "290-299", "GA": "300-319,398-399", "FL": "320-349",
        "AL": "350-369", "TN": "370-385", "MS": "386-397", "KY": "400-427", "OH": "430-459", "IN": "460-479",
        "MI": "480-499", "IA": "500-528", "WI": "530-549", "MN": "550-567", "SD": "570-577", "ND": "580-588",
        "MT": "590-599", "IL": "600-629", "MO": "630-658", "KS": "660-679", "NE": "680-693", "LA": "700-714",
        "AR": "716-729", "OK": "730-749", "TX": "750-799,885", "CO": "800-816", "WY": "820-831", "ID": "832-838",
        "UT": "840-847", "AZ": "850-865", "NM": "870-884", "NV": "889-898", "CA": "900-961", "HI": "967-968",
        "OR": "970-979", "WA": "980-994", "AK": "995-999"}
_ZIP = re.compile(r"^(\d{5})(?:([\s-])(\d{4}))?$")
#: what may separate the parts of one address: "Columbus, OH 43215", "Dearborn Heights, MI\n  48127"
_ADDRESS_GAP = re.compile(r"^[\s,.\-]{0,6}$")
_ORDER = {"CITY": 0, "STATE": 1, "ZIP": 2}


class Place(NamedTuple):
    """One row of the geography table."""

    city: str
    state: str  # two-letter code
    state_name: str
    zip3: str


@lru_cache(maxsize=1)
def places() -> tuple[Place, ...]:
    """The packaged table of US cities (``resources/surrogates/us_places.tsv``)."""
    text = resources.files("notescrub.resources.surrogates").joinpath("us_places.tsv").read_text(encoding="utf-8")
    rows = [line.split("\t") for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return tuple(Place(*row) for row in rows)


@lru_cache(maxsize=1)
def _states() -> dict[str, str]:
    return {p.state: p.state_name for p in places()}


@lru_cache(maxsize=1)
def _state_lookup() -> dict[str, str]:
    out = {}
    for code, name in _states().items():
        out[code.casefold()] = code
        out[name.casefold()] = code
    return out


def state_code(text: str) -> str | None:
    """The two-letter code of a US state written as a code or a name (``None`` otherwise)."""
    return _state_lookup().get(normalise_value(text).replace(".", "") if len(text.strip()) <= 5 else normalise_value(text))


@lru_cache(maxsize=60)
def cities_in(state: str) -> tuple[Place, ...]:
    """The table's cities of a state."""
    return tuple(p for p in places() if p.state == state)


@lru_cache(maxsize=1)
def _city_states() -> dict[str, str]:
    seen: dict[str, set[str]] = {}
    for p in places():
        seen.setdefault(normalise_value(p.city), set()).add(p.state)
    return {c: next(iter(s)) for c, s in seen.items() if len(s) == 1}


@lru_cache(maxsize=1)
def _zip3_states() -> dict[str, str]:
    out = {}
    for state, spec in ZIP3.items():
        for part in spec.split(","):
            lo, _, hi = part.partition("-")
            for n in range(int(lo), int(hi or lo) + 1):
                out[f"{n:03d}"] = state
    return out


def zip_state(zip_code: str) -> str | None:
    """The state a US ZIP code belongs to, from its first three digits (``None`` when not a US ZIP)."""
    m = _ZIP.match(zip_code.strip())
    return _zip3_states().get(m.group(1)[:3]) if m else None


def agree(city: str | None, state: str | None, zip_code: str | None) -> bool:
    """True when the parts given of an address fit the table: the city is in the state, the ZIP in the state
    (and has the prefix of the city when the city is in the table under that state only)."""
    code = state_code(state) if state else None
    if state and code is None:
        return False
    if city is not None:
        rows = [p for p in places() if normalise_value(p.city) == normalise_value(city)]
        if not rows or (code and code not in {p.state for p in rows}):
            return False
        code = code or (rows[0].state if len({p.state for p in rows}) == 1 else None)
        if zip_code and code:
            m = _ZIP.match(zip_code.strip())
            if not m or m.group(1)[:3] not in {p.zip3 for p in rows if p.state == code}:
                return False
    if zip_code is not None:
        zs = zip_state(zip_code)
        return zs is not None and (code is None or zs == code)
    return True


def surrogate_state(ctx: Context, code: str) -> str:
    """The surrogate state (two-letter code) of a patient's state ``code``: keyed, never the same state."""
    assert ctx.key is not None
    cache = ctx.state.cache("places")
    k = (ctx.patient, "geo-state", code)
    if k not in cache:
        rng = ctx.key.rng("GEO-state", ctx.patient, code)
        codes = sorted(_states())
        cand = codes[rng.randrange(len(codes))]
        while cand == code:
            cand = codes[rng.randrange(len(codes))]
        cache[k] = cand
    return str(cache[k])


class Geography(Operator):
    """CITY, STATE and ZIP surrogates that agree with each other (see the module doc).

    Spanish spans (MEDDOCAN ``TERRITORIO``), non-US states and non-US postal codes are
    handled as before: a city or region from the vocabulary, a same-shape code. With a
    vocabulary other than the dictionary (re-populated ``ambiguous``/``oov`` corpora)
    cities come from that vocabulary, and states and ZIPs still agree with each other.
    """

    name = "geography"
    needs_key = True

    def __init__(self, vocabulary: Vocabulary | None = None) -> None:
        self.vocabulary = vocabulary or DictionaryVocabulary("en")
        self._city = City(self.vocabulary)
        self._state = StateSurrogate(self.vocabulary)
        self._code = ShapeSurrogate()

    # -- evidence of the document ----------------------------------------------------
    def prepare(self, doc: Document, items: Sequence[tuple[Span, str]], state: ReplaceState, patient: str,
                key: SurrogateKey | None) -> None:
        """Group the document's CITY/STATE/ZIP spans into addresses (adjacent, in that order)."""
        table = state.cache("addresses").setdefault(patient, {})
        seq = sorted(((s, t, canonical(s.label) or s.label) for s, t in items), key=lambda x: x[0].start)
        groups: list[list[tuple[Span, str, str]]] = []
        for s, t, typ in seq:
            if typ not in _ORDER:
                continue
            if groups:
                ps, _, ptyp = groups[-1][-1]
                if _ORDER[typ] > _ORDER[ptyp] and _ADDRESS_GAP.match(doc.text[ps.end : s.start]):
                    groups[-1].append((s, t, typ))
                    continue
            groups.append([(s, t, typ)])
        cities = table.setdefault("city-state", {})
        for g in groups:
            parts = {typ: t for _, t, typ in g}
            city = normalise_value(parts["CITY"]) if "CITY" in parts else None
            code = state_code(parts["STATE"]) if "STATE" in parts else None
            zip5 = _ZIP.match(parts["ZIP"].strip()) if "ZIP" in parts else None
            if code is None and zip5 is not None:
                code = zip_state(zip5.group(1))
            for s, _, _ in g:
                table[s.start] = (city, code)
            if city and code:
                cities.setdefault(city, code)

    def _evidence(self, ctx: Context) -> tuple[str | None, str | None]:
        table = ctx.state.cache("addresses").get(ctx.patient, {})
        return table.get(ctx.span.start, (None, None))

    def _known_state(self, ctx: Context, city: str) -> str | None:
        table = ctx.state.cache("addresses").get(ctx.patient, {})
        return table.get("city-state", {}).get(city) or _city_states().get(city)

    # -- draws (pure functions of key, patient and values) ------------------------------
    def _state_for(self, ctx: Context, code: str) -> str:
        return surrogate_state(ctx, code)

    def _place_for(self, ctx: Context, city: str | None, code: str | None, salt: str = "") -> Place:
        """The surrogate place of an original (city, state): a city of the surrogate state when the state is known."""
        assert ctx.key is not None
        cache = ctx.state.cache("places")
        k = (ctx.patient, "geo-place", city, code, salt)
        if k not in cache:
            pool = cities_in(self._state_for(ctx, code)) if code else places()
            rng = ctx.key.rng("GEO-city" + salt, ctx.patient, f"{city or ''}|{code or ''}")
            cand = pool[rng.randrange(len(pool))]
            for _ in range(20):
                if normalise_value(cand.city) != city:
                    break
                cand = pool[rng.randrange(len(pool))]
            cache[k] = cand
        return cache[k]

    # -- replacing ----------------------------------------------------------------------
    def replacement(self, ctx: Context) -> str:
        if ctx.locale == "es":
            return {"STATE": self._state, "ZIP": self._code}.get(ctx.type, self._city).replacement(ctx)
        if ctx.type == "STATE":
            return self._state_span(ctx)
        if ctx.type == "ZIP":
            return self._zip_span(ctx)
        return self._city_span(ctx)

    def _city_span(self, ctx: Context) -> str:
        stripped = ctx.text.strip()
        if not stripped or not any(c.isalpha() for c in stripped) or self.vocabulary.name != "dictionary":
            return self._city.replacement(ctx)
        city = normalise_value(stripped)
        _, code = self._evidence(ctx)
        place = self._place_for(ctx, city, code or self._known_state(ctx, city))
        i = ctx.text.index(stripped)
        return ctx.text[:i] + apply_case(stripped, place.city) + ctx.text[i + len(stripped):]

    def _state_span(self, ctx: Context) -> str:
        stripped = ctx.text.strip()
        code = state_code(stripped) if stripped else None
        if code is None:
            return self._state.replacement(ctx)
        new = self._state_for(ctx, code)
        letters = stripped.replace(".", "")
        out = new if len(letters) == 2 else _states()[new]
        if "." in stripped and len(letters) == 2:
            out = f"{out[0]}.{out[1]}."
        i = ctx.text.index(stripped)
        return ctx.text[:i] + apply_case(letters if len(letters) == 2 else stripped, out) + ctx.text[i + len(stripped):]

    def _zip_span(self, ctx: Context) -> str:
        stripped = ctx.text.strip()
        m = _ZIP.match(stripped)
        if not m:
            return self._code.replacement(ctx)
        assert ctx.key is not None
        zip5 = m.group(1)
        city, code = self._evidence(ctx)
        if city is not None and self.vocabulary.name == "dictionary":
            place = self._place_for(ctx, city, code or self._known_state(ctx, city))
        else:
            place = self._place_for(ctx, None, code or zip_state(zip5), salt=":" + zip5[:3])
        rng = ctx.key.rng("GEO-zip", ctx.patient, zip5 + (m.group(3) or ""))
        new = zip5
        for _ in range(20):
            new = place.zip3 + f"{rng.randint(0, 99):02d}"
            if new != zip5:
                break
        if m.group(3):
            new += m.group(2) + f"{rng.randint(0, 9999):04d}"
        i = ctx.text.index(stripped)
        return ctx.text[:i] + new + ctx.text[i + len(stripped):]
