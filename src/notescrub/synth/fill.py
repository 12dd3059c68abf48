"""Fill phrase-bank templates: literal text plus ``{slot}`` markers resolved against a patient world.

Phrase banks are packaged text files (``resources/synth/phrases/*.txt``): ``[key]`` headers,
one template per line, ``#`` comments, ``\\n`` for a line break inside a template. A template
mixes literal text with slots:

* ``{pt}``, ``{pt:lfm}``, ``{rel}``, ``{relword}``, ``{dr:attending}``, ``{dr:nurse:sig}`` - people;
* ``{hosp}``, ``{unit}``, ``{city}``, ``{employer}``, ``{prof}``... - places and jobs;
* ``{age}``, ``{date:adm}``, ``{date:note:partial}``, ``{rdate:-2}``, ``{weekday}``, ``{holiday}`` - ages and dates;
* ``{phone:cell}``, ``{fax}``, ``{email}``, ``{id:MEDICALRECORD}``, ``{newid:IDNUM}``... - contacts and IDs;
* ``{he}``, ``{His}``, ``{eponym}``, ``{med}``, ``{vitals}``, ``{time}``, ``{dur}``... - non-PHI filler and hard negatives;
* ``{~a|b|c}`` - pick one literal alternative.

Each PHI slot appends its value through :meth:`NoteBuilder.phi`, so offsets stay exact.

>>> import random
>>> from notescrub.synth.builder import NoteBuilder
>>> from notescrub.synth.world import PatientWorld
>>> rng = random.Random(0)
>>> ctx = NoteContext(PatientWorld.sample("SYN0001", rng), rng, NoteBuilder(rng))
>>> ctx.fill("Seen with {dr:attending:dr_last} on {date:note:mdY}.")
>>> text, spans = ctx.b.build()
>>> [s.label for s in spans]
['DOCTOR', 'DATE']
>>> all(text[s.start:s.end].strip() == text[s.start:s.end] for s in spans)
True
"""

from __future__ import annotations

import random
from datetime import date
from functools import lru_cache
from importlib import resources

from notescrub.errors import ConfigError
from notescrub.synth import dates as D
from notescrub.synth import identifiers as ids
from notescrub.synth import places
from notescrub.synth.builder import NoteBuilder
from notescrub.synth.names import Person, lexicon, render
from notescrub.synth.world import PatientWorld

__all__ = ["NoteContext", "bank", "phrases"]


_NUM_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
              "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _age_words(n: int) -> str:
    if n < 20:
        return _NUM_WORDS[n]
    if n < 100:
        t, u = divmod(n, 10)
        return _TENS[t] + (f"-{_NUM_WORDS[u]}" if u else "")
    return str(n)


@lru_cache(maxsize=1)
def phrases() -> dict[str, list[str]]:
    """All phrase banks, ``key -> templates``, from the packaged ``phrases/*.txt`` files."""
    out: dict[str, list[str]] = {}
    root = resources.files("notescrub.resources.synth").joinpath("phrases")
    for entry in sorted(root.iterdir(), key=lambda p: p.name):
        if not entry.name.endswith(".txt"):
            continue
        key = None
        for lineno, raw in enumerate(entry.read_text(encoding="utf-8").splitlines(), 1):
            line = raw.rstrip()
            if not line or line.lstrip().startswith("#"):
                continue
            if line.startswith("[") and line.endswith("]"):
                key = line[1:-1].strip()
                out.setdefault(key, [])
                continue
            if key is None:
                raise ConfigError("template before any [key] header", path=entry.name, line=lineno)
            out[key].append(line.replace("\\n", "\n"))
    return out


def bank(key: str) -> list[str]:
    try:
        return phrases()[key]
    except KeyError:
        raise ConfigError(f"no phrase bank named {key!r}", path="resources/synth/phrases") from None


_PT_FORMS = (["title_last"] * 30 + ["full"] * 15 + ["first"] * 8 + ["title_full"] * 5 + ["lfm"] * 2 + ["nickname"] * 3 + ["caps"] * 2
             + ["lower"] * 2 + ["misspelled"] * 3 + ["last"] * 4 + ["first_misspelled"] * 2 + ["fml"] * 3 + ["init_last"] * 1)
_DR_FORMS = (["dr_last"] * 30 + ["dr_full"] * 20 + ["full"] * 14 + ["sig"] * 6 + ["init_last"] * 5 + ["last"] * 6 + ["first"] * 3
             + ["initials"] * 3 + ["misspelled"] * 3 + ["caps"] * 2 + ["lower"] * 2 + ["lfm"] * 2 + ["fml"] * 2)
_REL_FORMS = ["first"] * 10 + ["full"] * 6 + ["title_last"] * 3 + ["nickname"] * 2 + ["misspelled"] * 1 + ["caps"] * 1 + ["first_misspelled"] * 1
_HEADER_FORMS = ["lfm"] * 5 + ["LFM"] * 4 + ["full"] * 3 + ["caps"] * 3 + ["last_first"] * 1 + ["fml"] * 1


_DX = ["hypertension", "HTN", "type 2 diabetes", "DM2", "CHF with reduced EF", "HFpEF", "COPD", "asthma", "CKD stage 3b", "ESRD on HD",
       "atrial fibrillation", "AFib on anticoagulation", "CAD s/p PCI", "prior NSTEMI", "hyperlipidemia", "obesity", "OSA on CPAP",
       "cirrhosis (EtOH)", "hepatitis C", "HIV on ART", "depression", "bipolar disorder", "schizophrenia", "opioid use disorder",
       "alcohol use disorder", "Parkinson's disease", "Alzheimer's dementia", "prior CVA", "seizure disorder", "hypothyroidism",
       "Graves' disease", "breast cancer s/p lumpectomy", "prostate cancer", "NSCLC", "DLBCL", "sickle cell disease", "lupus", "RA",
       "gout", "BPH", "osteoporosis", "PVD", "DVT/PE", "anemia", "GERD", "Crohn's disease", "ulcerative colitis", "migraine", "anxiety", "PTSD"]


def _parse(template: str) -> list[tuple[bool, str]]:
    """Split a template into ``(is_slot, text)`` pieces; slots may contain nested braces."""
    out: list[tuple[bool, str]] = []
    i, n, lit = 0, len(template), []
    while i < n:
        c = template[i]
        if c != "{":
            lit.append(c)
            i += 1
            continue
        depth, j = 0, i
        while j < n:
            if template[j] == "{":
                depth += 1
            elif template[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        if j >= n:
            raise ConfigError("unbalanced braces in a phrase template", path="resources/synth/phrases")
        if lit:
            out.append((False, "".join(lit)))
            lit = []
        out.append((True, template[i + 1 : j]))
        i = j + 1
    if lit:
        out.append((False, "".join(lit)))
    return out


def _split_alternatives(body: str) -> list[str]:
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for c in body:
        if c == "|" and depth == 0:
            parts.append("".join(cur))
            cur = []
            continue
        depth += c == "{"
        depth -= c == "}"
        cur.append(c)
    parts.append("".join(cur))
    return parts


class NoteContext:
    """Resolves slots for one note of one patient, writing into a :class:`NoteBuilder`."""

    def __init__(self, world: PatientWorld, rng: random.Random, builder: NoteBuilder, *, note_date: date | None = None,
                 fuse_rate: float = 0.02) -> None:
        self.w = world
        self.rng = rng
        self.b = builder
        self.note_date = note_date or world.anchor
        self.fuse_rate = fuse_rate

    # -- public ---------------------------------------------------------------
    def fill(self, template: str) -> None:
        """Append ``template`` with its slots resolved (``{~a|b}`` alternatives may nest slots)."""
        for is_slot, piece in _parse(template):
            if not is_slot:
                self.b.text(piece)
            elif piece.startswith("~"):
                self.fill(self.rng.choice(_split_alternatives(piece[1:])))
            else:
                self.slot(piece)

    def pick(self, key: str) -> None:
        """Append one random template of bank ``key``."""
        self.fill(self.rng.choice(bank(key)))

    def picks(self, key: str, k: int, sep: str = " ") -> None:
        """Append ``k`` distinct templates of bank ``key`` separated by ``sep``."""
        items = bank(key)
        chosen = self.rng.sample(items, min(k, len(items)))
        for i, t in enumerate(chosen):
            if i:
                self.b.text(sep, noisy=False)
            self.fill(t)

    # -- helpers ---------------------------------------------------------------
    def _fuse(self) -> bool:
        return self.rng.random() < self.fuse_rate

    def person(self, p: Person, form: str, label: str) -> None:
        prefix, value, suffix = render(p, form, self.rng)
        # a rendered form can carry blanks at its edges (an empty middle name): they belong to
        # the text around the span, which must start and end on the name itself
        core = value.strip()
        lead, trail = value[: len(value) - len(value.lstrip())], value[len(value.rstrip()) :]
        prefix, suffix = prefix + (lead if core else ""), (trail if core else "") + suffix
        if prefix:
            self.b.text(prefix)
        if core:
            self.b.phi(label, core)
        if suffix:
            self.b.text(suffix)

    def date(self, d: date, style: str) -> None:
        if style == "full":
            v = D.random_full(d, self.rng)
        elif style == "partial":
            v = D.random_partial(d, self.rng)
        elif style == "any":
            v = D.random_full(d, self.rng) if self.rng.random() < 0.6 else D.random_partial(d, self.rng)
        else:
            v = D.format_date(d, style)
        self.b.phi("DATE", v, fuse=self._fuse())

    def age(self, n: int, form: str | None = None) -> None:
        r = self.rng
        if form == "adj":
            form = r.choice(["hyphen"] * 6 + ["yo"] * 3 + ["y/o"] * 2 + ["year old"] * 2 + ["yo_fused"] + ["words"])
        form = form or r.choice(["hyphen"] * 5 + ["yo"] * 4 + ["y/o"] * 2 + ["sex"] * 3 + ["year old"] * 2 + ["yo_fused"] + ["words"] + ["y"])
        sexl = self.w.patient.sex
        if form == "words" and n < 100:
            self.b.phi("AGE", _age_words(n))
            self.b.text(r.choice(("-year-old", " year old", " years old")))
            return
        self.b.phi("AGE", str(n))
        tail = {"hyphen": "-year-old", "yo": " yo", "y/o": " y/o", "sex": sexl if r.random() < 0.7 else " " + sexl, "year old": " year old",
                "yo_fused": r.choice(("yo", "y.o.", "yoM" if sexl == "M" else "yoF")), "y": " y", "num": "", "years": " years"}
        self.b.text(tail.get(form, ""))

    # -- the slot table ---------------------------------------------------------
    def slot(self, spec: str) -> None:
        r, w, b = self.rng, self.w, self.b
        if spec.startswith("~"):
            b.text(r.choice(spec[1:].split("|")))
            return
        name, _, arg = spec.partition(":")
        arg2 = ""
        if ":" in arg:
            arg, _, arg2 = arg.partition(":")
        # people
        if name == "pt":
            form = {"": r.choice(_PT_FORMS), "header": r.choice(_HEADER_FORMS)}.get(arg, arg)
            if form == "nickname" and not w.patient.nickname:
                form = "first"
            self.person(w.patient, form, "PATIENT")
            if arg == "header" and r.random() < 0.04:
                b._fuse_next = True  # "JaffreyMarital": the extraction lost the line break
        elif name in ("rel", "rel2", "rel3"):
            p = w.relatives[{"rel": 0, "rel2": 1, "rel3": -1}[name]]
            form = arg or r.choice(_REL_FORMS)
            if form == "nickname" and not p.nickname:
                form = "first"
            self.person(p, form, "PATIENT")
        elif name in ("relword", "relword2", "relword3"):
            b.text(w.relatives[{"relword": 0, "relword2": 1, "relword3": -1}[name]].extras["rel"])
        elif name == "relage":
            self.b.phi("AGE", str(r.randint(2, 60)))
        elif name == "dr":
            p = w.doctors[arg or "attending"]
            form = arg2 or r.choice(_DR_FORMS)
            if form == "dr_last" and not p.title:
                form = r.choice(("full", "first", "init_last", "last"))
            self.person(p, form, "DOCTOR")
        elif name == "newdr":  # a one-off provider (covering resident, on-call)
            from notescrub.synth.names import make_person

            self.person(make_person(r, role="DOCTOR", kind=arg or "physician"), arg2 or r.choice(_DR_FORMS), "DOCTOR")
        elif name == "newpt":  # a one-off non-provider (police officer, neighbour)
            from notescrub.synth.names import make_person

            self.person(make_person(r, role="PATIENT"), arg or r.choice(("full", "first", "title_last")), "PATIENT")
        # places
        elif name == "hosp":
            h = w.hospital
            which = arg or r.choice(("name", "name", "name", "short", "abbrev"))
            b.phi("HOSPITAL", {"name": h.name, "short": h.short, "abbrev": h.abbrev, "caps": h.name.upper()}[which])
        elif name in ("ohosp", "snf", "clinicname"):
            h = w.other_hospitals[{"ohosp": 0, "snf": 1, "clinicname": 2}[name]]
            b.phi("HOSPITAL", h.abbrev if arg == "abbrev" else h.name)
        elif name == "anyhosp":
            b.phi("HOSPITAL", places.hospital(r).name)
        elif name in ("unit", "unit2"):
            b.phi("HOSPITAL", w.units[0 if name == "unit" else 1])
        elif name == "street":
            b.phi("STREET", w.street)
        elif name == "city":
            b.phi("CITY", w.city if arg != "caps" else w.city.upper())
        elif name == "city2":
            b.phi("CITY", places.city(r))
        elif name == "fcity":
            b.phi("CITY", places.foreign_city(r))
        elif name == "birthplace":
            b.phi("CITY", w.birthplace)
        elif name == "state":
            b.phi("STATE", w.state if not arg else places.state(r, abbrev=arg == "abbr"))
        elif name == "state2":
            b.phi("STATE", places.state(r))
        elif name == "zip":
            b.phi("ZIP", w.zip)
        elif name in ("country", "country2"):
            b.phi("COUNTRY", w.origin_country if name == "country" else r.choice(w.other_countries))
        elif name == "locother":
            art, val = w.location_other
            b.text(art)
            b.phi("LOCATION-OTHER", val)
        elif name in ("employer", "school", "church", "agency", "insurer"):
            b.phi("ORGANIZATION", getattr(w, name))
        elif name == "org":
            b.phi("ORGANIZATION", places.organization(r, arg or None))
        elif name == "prof":
            b.phi("PROFESSION", w.profession)
        elif name == "relprof":
            b.phi("PROFESSION", w.relative_profession)
        # ages and dates
        elif name == "age":
            self.age(w.age, arg or None)
        elif name == "decade":
            b.phi("AGE", f"{max(w.age // 10, 2) * 10}s")
        elif name == "date":
            d = {"note": self.note_date, "adm": w.anchor, "dob": w.dob}.get(arg) or w.events.get(arg, self.note_date)
            self.date(d, arg2 or "any")
        elif name == "rdate":
            off = int(arg or 0)
            self.date(D.shift(self.note_date, off), arg2 or r.choice(("md", "md", "md0", "mdY", "mdy", "month_day", "abbr_day")))
        elif name == "weekday":
            b.phi("DATE", D.weekday(D.shift(self.note_date, int(arg or 0))))
        elif name == "holiday":
            b.phi("DATE", r.choice(lexicon()["holidays"]))
        elif name == "ordday":
            b.phi("DATE", D.ordinal(D.shift(self.note_date, int(arg or 0)).day))
        elif name == "year":
            b.phi("DATE", str(w.events.get(arg, w.events["diagnosis"]).year))
        # contacts
        elif name == "phone":
            b.phi("PHONE", w.phones.get(arg or "home", w.phones["home"]), fuse=self._fuse())
        elif name == "newphone":
            b.phi("PHONE", ids.phone(r))
        elif name in ("pager", "ext"):
            b.phi("PHONE", w.phones[name], fuse=r.random() < 0.3)
        elif name == "fax":
            b.phi("FAX", w.fax)
        elif name == "newfax":
            b.phi("FAX", ids.phone(r))
        elif name == "email":
            b.phi("EMAIL", w.email)
        elif name == "relemail":
            b.phi("EMAIL", w.relative_email)
        elif name == "dremail":
            p = w.doctors[arg or "attending"]
            b.phi("EMAIL", ids.email(r, p.first, p.last, domain=f"{w.hospital.abbrev.lower()}.example.org"))
        elif name == "url":
            b.phi("URL", w.url)
        elif name == "ip":
            b.phi("IPADDR", w.ip)
        elif name == "user":
            b.phi("USERNAME", w.usernames[int(arg or 0)])
        # identifiers
        elif name == "id":
            key = arg or "MEDICALRECORD"
            label = {"MRN2": "MEDICALRECORD", "DEA": "LICENSE", "NPI": "IDNUM"}.get(key, key)
            b.phi(label, w.ids[key], fuse=self._fuse())
        elif name == "newid":
            b.phi(arg, ids.make_id(arg, r), fuse=self._fuse())
        elif name == "idtrig":
            b.text(r.choice(ids.ID_TRIGGERS[arg]))
        elif name == "ssn":
            b.phi("SSN", w.ids["SSN"])
        # pronouns and words
        elif name in ("he", "his", "him"):
            b.text(getattr(w, name))
        elif name in ("He", "His", "Him"):
            b.text(getattr(w, name.lower()).capitalize())
        elif name == "man":
            if w.age < 18:
                words = ("girl", "female", "girl") if w.patient.sex == "F" else ("boy", "male", "boy")
            else:
                words = ("woman", "female", "lady") if w.patient.sex == "F" else ("man", "male", "gentleman")
            b.text(words[r.randrange(3) if arg else 0])
        elif name == "sexl":
            b.text(w.patient.sex)
        elif name == "title":
            b.text(w.patient.title)
        else:
            self._filler(name, arg)

    def _filler(self, name: str, arg: str) -> None:
        r, b = self.rng, self.b
        lex = lexicon()
        if name == "eponym":
            b.text(r.choice(lex["eponyms"]))
        elif name == "brand":
            b.text(r.choice(lex["brands"]))
        elif name == "spec":
            b.text(r.choice(lex["specialties"]))
        elif name == "gplace":
            b.text(r.choice(lex["generic_places"]))
        elif name == "lang":
            b.text(self.w.language if arg != "any" else r.choice(lex["languages"]))
        elif name == "nat":
            b.text(self.w.nationality)
        elif name == "time":
            h, m = r.randint(0, 23), r.choice((0, 5, 10, 15, 20, 22, 30, 35, 40, 45, 50, 55))
            b.text(r.choice((f"{h:02d}:{m:02d}", f"{h:02d}{m:02d}", f"{h}:{m:02d}", f"{(h % 12) or 12}:{m:02d} {'AM' if h < 12 else 'PM'}",
                             f"{(h % 12) or 12}{'am' if h < 12 else 'pm'}", f"{h:02d}{m:02d}h")))
        elif name == "dur":
            n = r.randint(1, 12)
            b.text(r.choice((f"{n} days", f"{n} weeks", f"{n} months", f"{n} hours", f"x{n}d", f"{n}-day", f"{n} yrs", f"{n} years", f"the past {n} days")))
        elif name == "bp":
            b.text(f"{r.randint(88, 188)}/{r.randint(44, 110)}")
        elif name == "vitals":
            b.text(self._vitals())
        elif name == "labs":
            b.text(self._labs())
        elif name == "abg":
            b.text(f"{r.choice(('7.2', '7.3', '7.4'))}{r.randint(0, 9)}/{r.randint(25, 75)}/{r.randint(55, 140)}")
        elif name == "score":
            b.text(r.choice((f"GCS {r.randint(3, 15)}", f"{r.randint(1, 4)}/6 systolic murmur", f"strength {r.randint(3, 5)}/5", f"pain {r.randint(0, 10)}/10",
                             f"NIHSS {r.randint(0, 24)}", f"PHQ-9 {r.randint(0, 27)}", f"MoCA {r.randint(14, 30)}/30", f"CIWA {r.randint(0, 20)}",
                             f"{r.randint(1, 3)}/{r.randint(3, 4)} blood cultures", f"Wells {r.randint(0, 6)}", f"APGAR {r.randint(6, 9)}/{r.randint(8, 10)}")))
        elif name == "med":
            b.text(self._med())
        elif name == "num":
            b.text(str(r.randint(int(arg or 1), int(arg or 1) * 10)))
        elif name == "room":
            b.text(r.choice((f"Rm {r.randint(100, 999)}", f"room {r.randint(1, 60)}", f"bed {r.randint(1, 30)}", f"Bed {r.randint(1, 24)}{r.choice('AB')}",
                             f"bay {r.randint(1, 20)}", f"room {r.randint(2, 9)}{r.randint(10, 40)}")))
        elif name == "dx":
            b.text(r.choice(_DX))
        elif name == "wordneg":
            b.text(self._word_negative())
        elif name in phrases():
            self.pick(name)
        else:
            raise ConfigError(f"unknown template slot {{{name}}}", path="resources/synth/phrases")

    # -- non-PHI generators ------------------------------------------------------
    def _vitals(self) -> str:
        r = self.rng
        t = r.choice((f"T {r.randint(36, 39)}.{r.randint(0, 9)}", f"Temp {r.randint(97, 102)}.{r.randint(0, 9)}F", f"Tmax {r.randint(36, 39)}.{r.randint(0, 9)}"))
        parts = [t, f"HR {r.randint(48, 140)}", f"BP {r.randint(84, 196)}/{r.randint(40, 112)}", f"RR {r.randint(10, 34)}",
                 f"SpO2 {r.randint(84, 100)}% {r.choice(('RA', 'on 2L', '4L NC', 'on room air', 'NRB', 'on 40% FiO2'))}"]
        if r.random() < 0.4:
            parts.append(f"Wt {r.randint(40, 160)}.{r.randint(0, 9)} kg")
        sep = r.choice(("  ", ", ", " | ", "   ", "; "))
        return sep.join(parts)

    def _labs(self) -> str:
        r = self.rng
        items = [f"Na {r.randint(124, 149)}", f"K {r.randint(2, 6)}.{r.randint(0, 9)}", f"Cl {r.randint(92, 112)}", f"HCO3 {r.randint(14, 32)}",
                 f"BUN {r.randint(6, 90)}", f"Cr {r.randint(0, 5)}.{r.randint(1, 9)}", f"Glu {r.randint(60, 420)}", f"WBC {r.randint(2, 24)}.{r.randint(0, 9)}",
                 f"Hgb {r.randint(6, 16)}.{r.randint(0, 9)}", f"Plt {r.randint(40, 520)}", f"INR {r.randint(1, 4)}.{r.randint(0, 9)}",
                 f"Trop {r.choice(('<0.01', '0.04', '0.32', '1.2'))}", f"lactate {r.randint(0, 8)}.{r.randint(0, 9)}", f"BNP {r.randint(20, 3400)}",
                 f"A1c {r.randint(5, 13)}.{r.randint(0, 9)}%", f"TSH {r.randint(0, 9)}.{r.randint(10, 99)}", f"Mg {r.randint(1, 3)}.{r.randint(0, 9)}"]
        k = r.randint(3, 8)
        return r.choice((", ", "  ", " / ", "; ")).join(r.sample(items, k))

    def _med(self) -> str:
        r = self.rng
        drugs = ["metoprolol succinate", "lisinopril", "atorvastatin", "apixaban", "metformin", "insulin glargine", "furosemide", "amlodipine",
                 "levothyroxine", "sertraline", "gabapentin", "pantoprazole", "tamsulosin", "carvedilol", "sacubitril/valsartan", "albuterol",
                 "prednisone", "warfarin", "clopidogrel", "aspirin", "oxycodone", "acetaminophen", "ondansetron", "lorazepam", "quetiapine",
                 "levetiracetam", "spironolactone", "hydrochlorothiazide", "losartan", "empagliflozin", "semaglutide", "donepezil", "carbidopa/levodopa",
                 "methimazole", "tiotropium", "montelukast", "enoxaparin", "heparin", "vancomycin", "ceftriaxone", "piperacillin-tazobactam", "lactulose",
                 "rifaximin", "buprenorphine-naloxone", "naltrexone", "lithium", "olanzapine", "trazodone", "mirtazapine", "allopurinol", "colchicine"]
        brand = r.random() < 0.15
        name = r.choice(lexicon()["brands"][:23]) if brand else r.choice(drugs)
        dose = r.choice(("5 mg", "10 mg", "12.5 mg", "20 mg", "25 mg", "40 mg", "50 mg", "81 mg", "100 mg", "250 mg", "500 mg", "1 g", "2 mg",
                         "0.5 mg", "24/26 mg", "49/51 mg", "10 units", "18 mcg", "2 puffs", "1 tab", "30 mL", "88 mcg", "5/325 mg"))
        sig = r.choice(("PO daily", "PO BID", "po qd", "BID", "TID", "q6h PRN pain", "qHS", "daily", "q8h", "IV q12h", "SC qHS", "PO qAM", "weekly",
                        "q4h prn", "PO TID with meals", "daily x 5 days", "1 tab PO BID", "IV once", "SL prn chest pain"))
        return f"{name} {dose} {sig}"

    def _word_negative(self) -> str:
        wn = lexicon()["word_names"]
        names = {self.w.patient.last, self.w.patient.first, *(p.last for p in self.w.doctors.values()), *(p.first for p in self.w.relatives)}
        own = [wn["last"].get(n) or wn["first"].get(n) for n in names]
        own = [x for x in own if x]
        if own and self.rng.random() < 0.7:
            return self.rng.choice(own)
        pool = [v for v in list(wn["last"].values()) + list(wn["first"].values()) if v]
        return self.rng.choice(pool)
