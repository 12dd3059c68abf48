"""Two-pass recognition (Dehghan et al. 2015): a run-time, per-patient PHI dictionary.

First-pass detectors find PHI with some confidence. This detector gathers, for each
patient, the confidently detected strings from earlier layers across *all* of that
patient's notes, drops ambiguous entries (too short, medical terms, eponyms), restricts
ordinary words ("Rose", "Hope") to capitalised occurrences, and matches the remaining entries again over
every note of the patient with longest match over tokens, case-insensitively. A surname
seen once in "Dr. Ruiz" is thereby also found in "Ruiz agreed" two notes later.

With ``derived_forms=True`` the dictionary also holds the short forms people write for
what was found (not part of the Manchester system):

* the acronym of a facility or organisation name ("Kessler Transplant Institute" ->
  ``KTI``) and an acronym given in parentheses right after it ("... Facility (TCF)"),
  matched only as a whole token in capitals. A parenthesis that goes on after the acronym
  ("... Transport (ACCT unit CC-4)"), or that follows a name found with less confidence
  (down to ``declared_min_score``), counts when the acronym spells the initials of
  consecutive words of the name ("Supplier Badger Home Medical Equipment (BHME)": the
  tagger's span took one word too many, the declaration still fits);
* the initials of a person's name ("Eilidh Baker" -> ``EB``/``eb``), matched only where
  initials are written: next to a slash ("EB/tk", "typed tk/eb"), after a dash ("-JHP")
  or alone on a line (a signature);
* a nickname a note declares for a found name, in quotes right after it ('Landon "Bug"
  Perry' when the tagger stopped at "Landon", 'PERRY, LANDON "BUG"', 'Margaret ("Peg")'),
  in quotes right before it ('"deuce" = dashawn pryor-banks', 'uncle "PEE WEE" (COMBS,
  ERNEST)') or after "aka"/"goes by"/"known as" ('Rosa Alvarado, goes by River'): entered
  like a found name (an ordinary word then only matches where capitalised). A quoted
  phrase with an ordinary lower-case word ('Hall "feels fine"') is speech, not a nickname;
* initials a note declares for a found name, in a staff key or legend ("TK = Trudy Kolb",
  "RB: Roland Begay") or in parentheses after it ("Rhonda Wahnee, LPN (RW)"), when they are
  that name's initials: matched like an acronym, wherever written in capitals (the initials
  columns of flowsheets and logs), even when they are also a medical abbreviation.

It runs inside a :class:`~notescrub.pipeline.Pipeline` *after* the detectors whose
layers it reads (``patient_level = True``, so the pipeline hands it each patient's
notes together). Reading earlier layers of the same documents is its only input; it
writes nothing.

>>> from notescrub.types import Document, Span
>>> a = Document("n1", "Seen by Dr. Qolvanek today.", "P1", layers={"rules": [Span(12, 20, "DOCTOR", 0.95, "rules")]})
>>> b = Document("n2", "qolvanek agrees with plan.", "P1")
>>> det = PatientDictionary(sources=["rules"])
>>> [[(s.start, s.end, s.label) for s in spans] for spans in det.detect_many([a, b])]
[[(12, 20, 'DOCTOR')], [(0, 8, 'DOCTOR')]]
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from functools import lru_cache

from notescrub.detect.base import Detector
from notescrub.errors import ConfigError
from notescrub.text.views import token_view
from notescrub.types import Document, Span

__all__ = ["DEFAULT_TYPES", "PatientDictionary"]

#: Types whose surface strings recur verbatim across a patient's notes.
DEFAULT_TYPES = frozenset(
    {"PATIENT", "DOCTOR", "HOSPITAL", "ORGANIZATION", "CITY", "STREET", "LOCATION-OTHER",
     "MEDICALRECORD", "ACCOUNT", "HEALTHPLAN", "PHONE", "FAX", "EMAIL", "USERNAME", "PROFESSION"}
)
_NAME_TYPES = frozenset({"PATIENT", "DOCTOR"})


class PatientDictionary(Detector):
    """Match confident first-pass PHI strings across all notes of a patient.

    Parameters
    ----------
    sources:
        Layer names to harvest (the names of earlier detectors in the pipeline).
    min_score:
        Only spans scoring at least this much enter the dictionary.
    types:
        Canonical subtypes (or native labels) eligible for the dictionary.
    min_chars:
        Entries shorter than this are ambiguous and dropped.
    max_zipf:
        Single-word entries that are medical terms or eponyms are dropped; those that
        are common English words (the ``common_words`` lexicon, or a Zipf frequency
        above ``max_zipf`` while not a known name) only match where capitalised.
        ``None`` disables the frequency check.
    split_names:
        Also add each part of a multi-word name (surname-only and first-name-only repeats).
    derived_forms:
        Also add acronyms of facility/organisation names and initials of person names
        (see the module docstring); off by default (the Manchester recipe's two-pass has none).
    declared_min_score:
        With ``derived_forms``: an acronym declared in parentheses after a facility or
        organisation span scoring below ``min_score`` but at least this much is still
        added when it spells the initials of consecutive words of the span.
    lang:
        Language of the ambiguity checks: ``"en"`` (English medical terms, common words and
        word frequencies) or ``"es"`` (``es_medical_terms``, ``es_common_words``, Spanish
        frequencies, Spanish name lexicons). Eponyms are dropped in both.

    >>> a = Document("n1", "Seen at Kessler Transplant Institute by Dr. Eilidh Baker.", "P1",
    ...              layers={"crf": [Span(8, 36, "HOSPITAL", 0.95, "crf"), Span(44, 56, "DOCTOR", 0.95, "crf")]})
    >>> b = Document("n2", "Listed at KTI on 4/2.\\nEB/tk", "P1")
    >>> det = PatientDictionary(sources=["crf"], derived_forms=True)
    >>> [(b.text[s.start:s.end], s.label) for s in det.detect_many([a, b])[1]]
    [('KTI', 'HOSPITAL'), ('EB', 'DOCTOR')]
    """

    name = "two_pass"
    patient_level = True
    takes_post = False

    def __init__(
        self,
        sources: Sequence[str],
        min_score: float = 0.5,
        types: Iterable[str] = DEFAULT_TYPES,
        min_chars: int = 3,
        max_zipf: float | None = 4.0,
        split_names: bool = True,
        derived_forms: bool = False,
        lang: str = "en",
        name: str = "two_pass",
        declared_min_score: float = 0.5,
    ) -> None:
        if lang not in _LANG_LEXICONS:
            raise ConfigError(f"two-pass dictionary: no lexicons for language {lang!r}; known: {', '.join(_LANG_LEXICONS)}")
        self.sources = list(sources)
        self.min_score = min_score
        self.types = frozenset(types)
        self.min_chars = min_chars
        self.max_zipf = max_zipf
        self.split_names = split_names
        self.derived_forms = derived_forms
        self.lang = lang
        self.name = name
        self.declared_min_score = declared_min_score

    # -- harvesting -------------------------------------------------------------------
    def _eligible(self, s: Span) -> bool:
        return s.score >= self.min_score and (s.label in self.types or (s.phi or "") in self.types)

    def _kind(self, words: tuple[str, ...]) -> str:
        """``"drop"`` (unusable), ``"capitalised"`` (an ordinary word: match only when
        written with a capital, so "Rose" but not "BP rose") or ``"any"``."""
        text = " ".join(words)
        if sum(len(w) for w in words) < self.min_chars or not any(c.isalnum() for c in text):
            return "drop"
        if len(words) == 1 and words[0].isalpha():
            w = words[0]
            medical, common, first, last = _LANG_LEXICONS[self.lang]
            if w in _lex(medical) or w in _lex("eponyms"):
                return "drop"
            if w in _lex(common) or (self.max_zipf is not None and _zipf(w, self.lang) > self.max_zipf
                                     and w not in _names(first, last)):
                return "capitalised"
        return "any"

    def build(self, docs: Sequence[Document]) -> dict[tuple[str, ...], tuple[str, bool]]:
        """The patient dictionary: lower-cased token tuple -> (majority label, needs capital)."""
        return self._build(docs)[0]

    def _build(self, docs: Sequence[Document]) -> tuple[dict[tuple[str, ...], tuple[str, bool]], dict[tuple[str, str], str]]:
        """The patient dictionary and the derived forms: (kind, form) -> majority label."""
        votes: dict[tuple[str, ...], Counter[str]] = defaultdict(Counter)
        derived: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
        for doc in docs:
            view = token_view(doc)
            for layer in self.sources:
                for s in doc.layer(layer):
                    if not self._eligible(s):
                        if self.derived_forms and self.declared_min_score <= s.score:
                            weak = [view.tokens[i].text for i in view.tokens_in(s.start, s.end)]
                            if (s.phi or s.label) in _ORG_TYPES:
                                self._declared_acronym(doc, s, weak, derived)
                            elif (s.phi or s.label) in _NAME_TYPES:
                                _declared_name_initials(doc.text, s, _content_words(weak), derived)
                        continue
                    words = tuple(view.tokens[i].text.lower() for i in view.tokens_in(s.start, s.end))
                    if not words:
                        continue
                    votes[words][s.label] += 1
                    if self.derived_forms:
                        self._derive(doc, s, [view.tokens[i].text for i in view.tokens_in(s.start, s.end)], derived)
                    if self.split_names and (s.phi in _NAME_TYPES) and len(words) > 1:
                        for w in words:
                            if w.isalpha() and len(w) > 1:
                                votes[(w,)][s.label] += 1
                    if self.derived_forms and (s.phi or s.label) in _NAME_TYPES:
                        for nick in _declared_nicknames(doc.text, s.start, s.end):
                            votes[nick][s.label] += 1
        out: dict[tuple[str, ...], tuple[str, bool]] = {}
        for k, c in votes.items():
            kind = self._kind(k)
            label = c.most_common(1)[0][0]
            if kind != "drop" and not (label in _NAME_TYPES and _credentials_only(k)):
                out[k] = (label, kind == "capitalised")
        return out, {k: c.most_common(1)[0][0] for k, c in derived.items()}

    def _derive(self, doc: Document, s: Span, words: list[str], derived: dict[tuple[str, str], Counter[str]]) -> None:
        """Add the acronym or initials of span ``s`` (its tokens ``words``) to ``derived``."""
        phi = s.phi or s.label
        if phi in _ORG_TYPES:
            acro = _acronym(words)
            if acro:
                derived[("acronym", acro)][s.label] += 1
            m = _PAREN_ACRONYM.match(doc.text, s.end)
            if m and not _ambiguous(m.group(1)):
                derived[("acronym", m.group(1))][s.label] += 1
            elif not m:
                self._declared_acronym(doc, s, words, derived)
        elif phi in _NAME_TYPES:
            parts = _content_words(words)
            initials = "".join(w[0] for w in parts)
            if 2 <= len(parts) <= 3 and all(w[0].isupper() for w in parts) and not _ambiguous(initials):
                derived[("initials", initials)][s.label] += 1
            _declared_name_initials(doc.text, s, parts, derived)

    def _declared_acronym(self, doc: Document, s: Span, words: list[str],
                          derived: dict[tuple[str, str], Counter[str]]) -> None:
        """An acronym in a parenthesis right after facility/organisation span ``s`` (possibly
        followed by more words) that spells the initials of consecutive words of the span."""
        if (s.phi or s.label) not in _ORG_TYPES:
            return
        m = _PAREN_ACRONYM_OPEN.match(doc.text, s.end, min(len(doc.text), s.end + 16))
        if m and _spells_consecutive_initials(m.group(1), words) and not _ambiguous(m.group(1)):
            derived[("acronym", m.group(1))][s.label] += 1

    def _match_derived(self, doc: Document, derived: dict[tuple[str, str], str], taken: list[Span]) -> list[Span]:
        """Acronym and initials matches of ``doc`` outside the spans already ``taken``."""
        covered = {i for sp in taken for i in range(sp.start, sp.end)}
        out = []
        for t in token_view(doc).tokens:
            if t.start in covered:
                continue
            label = derived.get(("acronym", t.text))
            if label is None and (t.text.isupper() or t.text.islower()):
                label = derived.get(("initials", t.text.upper()))
                if label is not None and not _initials_context(doc.text, t.start, t.end):
                    label = None
            if label is not None and _whole_word(doc.text, t.start, t.end):
                out.append(Span(t.start, t.end, label, 0.8, self.name))
        return out

    # -- matching ---------------------------------------------------------------------
    def _match(self, doc: Document, entries: dict[tuple[str, ...], tuple[str, bool]], max_len: int) -> list[Span]:
        view = token_view(doc)
        toks = view.tokens
        lowered = [t.text.lower() for t in toks]
        out: list[Span] = []
        firsts = {k[0] for k in entries}  # a token that starts no entry is skipped at once
        i = 0
        while i < len(toks):
            if lowered[i] not in firsts:
                i += 1
                continue
            hit = None
            for n in range(min(max_len, len(toks) - i), 0, -1):
                entry = entries.get(tuple(lowered[i : i + n]))
                if entry is None or not _whole_word(doc.text, toks[i].start, toks[i + n - 1].end):
                    continue
                if entry[1] and not toks[i].text[0].isupper():
                    continue
                hit = (n, entry[0])
                break
            if hit:
                n, label = hit
                out.append(Span(toks[i].start, toks[i + n - 1].end, label, 0.8, self.name))
                i += n
            else:
                i += 1
        return out

    def detect_many(self, docs: Iterable[Document]) -> list[list[Span]]:
        docs = list(docs)  # indexed below
        by_patient: dict[object, list[int]] = defaultdict(list)
        for idx, d in enumerate(docs):
            by_patient[d.patient_id if d.patient_id is not None else ("\0", d.id)].append(idx)
        results: list[list[Span]] = [[] for _ in docs]
        for idxs in by_patient.values():
            group = [docs[i] for i in idxs]
            entries, derived = self._build(group)
            if not entries and not derived:
                continue
            max_len = max((len(k) for k in entries), default=1)
            for i in idxs:
                results[i] = self._match(docs[i], entries, max_len) if entries else []
                if derived:
                    results[i] += self._match_derived(docs[i], derived, results[i])
                    results[i].sort(key=lambda sp: sp.start)
        return results

    def detect(self, doc: Document) -> list[Span]:
        return self.detect_many([doc])[0]


_ORG_TYPES = frozenset({"HOSPITAL", "ORGANIZATION"})
#: language -> lexicon names (medical terms, common words, first names, last names)
_LANG_LEXICONS: dict[str, tuple[str, str, str, str]] = {
    "en": ("medical_terms", "common_words", "first_names", "last_names"),
    "es": ("es_medical_terms", "es_common_words", "es_first_names", "es_last_names"),
}
#: words left out of acronyms and initials ("Arkansas Division of Correction" -> ADC)
_PARTICLES = frozenset({"of", "the", "and", "for", "at", "in", "on", "a", "an", "de", "del", "du", "la", "le",
                        "van", "von", "der", "da", "di", "dos", "y", "st", "mc"})
_PAREN_ACRONYM = re.compile(r"[ \t]*\(([A-Z][A-Z&]{1,7})\)")
#: the same, where more may follow the acronym inside the parenthesis: "(ACCT unit CC-4)"
_PAREN_ACRONYM_OPEN = re.compile(r"[ \t]*\(([A-Z][A-Z&]{2,7})(?=[)\s,;:])")
#: characters looked at on each side of a candidate's line (a longer line is no signature line)
_CONTEXT = 120
_LINE_ALONE = re.compile(r"[ \t]*+[-–—]{0,2}[ \t]*$")
#: a legend entry right before a name: "TK = ", "RB: ", "MC - ", "PAG = Dr. " (at a line start or after , ; ( or space)
_LEGEND_BEFORE = re.compile(r"(?<![\w.])([A-Z]{2,3})[ \t]*+(?:=|:|--?|–)[ \t]*+"
                            r"(?:(?:Dr|Mr|Mrs|Ms|Miss|Mx|Nurse|Prof)\.?[ \t]++)?\Z")
#: initials in parentheses after a name, past up to two credentials: ", LPN (RW)", " MA (MC)"
_PAREN_AFTER_NAME = re.compile(r"(?:,?[ \t]+[A-Z][A-Za-z]{0,5}(?:-[A-Z]{1,3})?\.?){0,2}[ \t]*\(([A-Z]{2,3})\)")


def _content_words(words: Sequence[str]) -> list[str]:
    """The words of a name that count for its acronym or initials: alphabetic, not particles."""
    return [w for w in words if w.isalpha() and w.lower() not in _PARTICLES]


def _acronym(words: Sequence[str]) -> str | None:
    """The capital-letter acronym of a name of three or more words (particles skipped), or None."""
    parts = _content_words(words)
    if len(parts) < 3 or not all(w[0].isupper() for w in parts):
        return None
    acro = "".join(w[0] for w in parts).upper()
    return None if len(acro) > 7 or _ambiguous(acro) else acro


def _spells_consecutive_initials(acro: str, words: Sequence[str]) -> bool:
    """``acro`` is the initials (capitals) of two or more consecutive words of ``words``, particles skipped.

    >>> _spells_consecutive_initials("BHME", ["Supplier", "Badger", "Home", "Medical", "Equipment"])
    True
    >>> _spells_consecutive_initials("BME", ["Badger", "Home", "Medical", "Equipment"])
    False
    """
    letters = acro.replace("&", "")
    initials = "".join(w[0] for w in _content_words(words)).upper()
    return len(letters) >= 2 and letters in initials


def _ambiguous(token: str) -> bool:
    """A short form that is also a medical term, credential or ordinary word (MRI, ICU, RN)."""
    low = token.lower()
    return any(low in _lex(n) for n in ("medical_terms", "credentials", "eponyms", "common_words"))


def _declared_name_initials(text: str, s: Span, parts: list[str], derived: dict[tuple[str, str], Counter[str]]) -> None:
    """Add the initials the note declares for the name span ``s`` (its content words ``parts``,
    :func:`_content_words`) to ``derived``, when they are its initials (of every word, or first
    and last; the parts of a hyphenated surname are tokens of their own: "PAG" for "Perpetua
    Adeyemi-Grant")."""
    if not 2 <= len(parts) <= 3 or not all(w[0].isupper() for w in parts):
        return
    declared = _declared_initials(text, s.start, s.end)
    if declared is None:
        return
    initials = "".join(w[0] for w in parts)
    if declared in (initials, initials[0] + initials[-1]):
        derived[("acronym", declared)][s.label] += 1


def _declared_initials(text: str, start: int, end: int) -> str | None:
    """Initials written for the name at ``text[start:end]``: a legend entry before it on its line
    ("TK = Trudy Kolb", "RB: ...", "MC - ...") or a parenthesis after it, past up to two
    credentials ("Rhonda Wahnee, LPN (RW)"). Whether they fit the name is the caller's check.

    >>> t = "Staff key: TK = Trudy Kolb RRT; Maribel Cota, MA (MC)"
    >>> _declared_initials(t, 16, 26), _declared_initials(t, 32, 44)
    ('TK', 'MC')
    """
    lo = max(0, start - 20)  # bounded look-behind: linear on hostile input
    m = _LEGEND_BEFORE.search(text, lo, start)
    if m:
        return m.group(1)
    m = _PAREN_AFTER_NAME.match(text, end, min(len(text), end + 40))
    return m.group(1) if m else None


_QUOTE_OPEN, _QUOTE_CLOSE = "\"“'‘", "\"”'’"
_NICK = r"([A-Za-z][A-Za-z'’-]{1,14}(?:[ \t][A-Za-z][A-Za-z'’-]{1,14})?)"
#: a quoted nickname right after a name: ' "Bug"', ' ("Peg")', ', "Goose"'
_NICK_AFTER = re.compile(r",?[ \t]*+\(?[ \t]*[" + _QUOTE_OPEN + r"]" + _NICK + r"[" + _QUOTE_CLOSE + r"]")
#: a quoted nickname right before a name: '"deuce" = ', '"PEE WEE" (', '"Cricket" - '
_NICK_BEFORE = re.compile(r"[" + _QUOTE_OPEN + r"]" + _NICK + r"[" + _QUOTE_CLOSE + r"][ \t]*+(?:=|\(|--?|–|:)?[ \t]*\Z")
#: an alias announced after a name: ', goes by River', ' (a.k.a. Kumari)', ' aka "Tiny"'
_NICK_ALIAS = re.compile(r"[ \t]*+,?[ \t]*+\(?(?:a\.k\.a\.?|aka|AKA|goes by|known as|nicknamed|prefers)[ \t]+[" + _QUOTE_OPEN
                         + r"]?([A-Z][A-Za-z'’-]{1,14}(?:[ \t][A-Z][A-Za-z'’-]{1,14})?)")


def _declared_nicknames(text: str, start: int, end: int) -> list[tuple[str, ...]]:
    """Nicknames declared next to the name at ``text[start:end]`` (lower-cased word tuples):
    quoted right after or right before it, or announced by "aka"/"goes by"/"known as".

    >>> t = 'PERRY, LANDON "BUG"  9 M; client: "deuce" = dashawn pryor-banks; Rosa Alvarado, goes by River'
    >>> _declared_nicknames(t, 0, 13), _declared_nicknames(t, 44, 63), _declared_nicknames(t, 65, 78)
    ([('bug',)], [('deuce',)], [('river',)])
    >>> _declared_nicknames('Mr. Hall "feels fine" today', 4, 8)
    []
    """
    found = []
    for m in (_NICK_AFTER.match(text, end, min(len(text), end + 40)),
              _NICK_ALIAS.match(text, end, min(len(text), end + 50)),
              _NICK_BEFORE.search(text, max(0, start - 40), start)):
        if m is None:
            continue
        words = m.group(1).split()
        # speech, not a nickname: an ordinary or medical word written in lower case
        if any(w.islower() and (w in _lex("common_words") or w in _lex("medical_terms")) for w in words):
            continue
        found.append(tuple(w.lower() for w in words))
    return found


def _credentials_only(words: tuple[str, ...]) -> bool:
    """A name span that is only credentials is no name to look for everywhere: the tagger took
    the "M.D." after a signer's name (", M.D., F.A.C.C."). Initials ("P.S.") and facility
    acronyms that are also credentials ("RPH", a hospital; "RPh", a pharmacist) stay.

    >>> _credentials_only(("m", ".", "d", ".")), _credentials_only(("m", ".", "d", ".", ",", "ph", ".", "d", "."))
    (True, True)
    >>> _credentials_only(("p", ".", "s", ".")), _credentials_only(("j", ".", "moreau"))
    (False, False)
    """
    creds = _lex("credentials")
    parts = [p for p in "".join(words).split(",") if p]
    return bool(parts) and all(p in creds for p in parts)


def _initials_context(text: str, start: int, end: int) -> bool:
    """Initials are written next to a slash ("EB/tk"), after a dash ("-JHP", "- JHP") at a line's end,
    as the last cell of a log row (after a table bar or a gap of two or more spaces) or alone on a line."""
    lo, hi = max(0, start - _CONTEXT), min(len(text), end + _CONTEXT)  # bounded: linear on hostile input
    line_start = text.rfind("\n", lo, start) + 1 or lo
    line_end = text.find("\n", end, hi)
    line_end = hi if line_end < 0 else line_end
    before, after = text[line_start:start], text[end:line_end]
    if before.rstrip().endswith("/") or after.lstrip().startswith("/"):
        return True
    if not after.strip():
        stripped = before.rstrip(" \t")
        if before.endswith(("-", "--", "—")) or (stripped.endswith(("-", "–", "—")) and before.endswith(" ")):
            return True
        # the last cell of a log row: after a table bar or a wide gap ("... CNA        DA", "| DA")
        if stripped.endswith("|") or (before.endswith(("  ", "\t")) and stripped):
            return True
    return bool(_LINE_ALONE.fullmatch(before)) and not after.strip()


def _whole_word(text: str, start: int, end: int) -> bool:
    """Reject matches glued to letters on either side (``Rose`` inside ``Roseanne``)."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return not (before.isalpha() and text[start].isalpha()) and not (after.isalpha() and text[end - 1].isalpha())


def _zipf(word: str, lang: str = "en") -> float:
    from notescrub.lexicons import zipf

    return zipf(word, lang)


def _lex(name: str) -> frozenset[str]:
    from notescrub.lexicons import lexicon

    return lexicon(name)


@lru_cache(maxsize=4)
def _names(first: str = "first_names", last: str = "last_names") -> frozenset[str]:
    # cached: the union of two large lexicons took ~4 ms per call
    return _lex(first) | _lex(last)
