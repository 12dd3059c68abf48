"""Dictionary PHI detector: longest match of packaged lexicons over tokens.

Finds person names (first/last-name lexicons), health-care facilities
(``<CapWord>+ Hospital | Medical Center | Clinic | Nursing Home | Rehab ...``),
organisations (``<CapWord>+ Inc | University | Church ...``), cities, US states,
countries and professions (after an occupation cue). Candidates are filtered
against the common-word, medical-term and eponym lists and the negative cues of
``en_blocks.toml`` (``Parkinson's disease``, ``Foley catheter``) to limit false
positives. Case is handled per line: Title-case words in ordinary text, ALL-CAPS
words in ALL-CAPS lines (headers, signatures) and lower-case words in lines written
entirely in lower case (terse nursing notes).

``mode="hd"`` reproduces the heuristic + dictionary baseline of Uzuner et al. (2008):
a token is PHI when it is in a name, location or hospital dictionary and not in the
common-word list, whatever its case or context.

>>> from notescrub.types import Document
>>> doc = Document("d", "Daughter Ngozi visited from Halvorsen Memorial Hospital in Boston.")
>>> [(doc.span_text(s), s.label) for s in DictionaryDetector().detect(doc)]
[('Ngozi', 'PATIENT'), ('Halvorsen Memorial Hospital', 'HOSPITAL'), ('Boston', 'CITY')]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, cached_property, lru_cache
from typing import Any

from notescrub.detect.base import Detector
from notescrub.detect.rules.negative_cues import NegativeCues
from notescrub.detect.spans.resolve import Blocks, longest
from notescrub.errors import ConfigError
from notescrub.lexicons import lexicon
from notescrub.text.segment import lines
from notescrub.text.tokenize import _needs_camel_split, tokenize
from notescrub.text.views import TokenView, token_view
from notescrub.types import Document, Span

__all__ = ["KINDS", "DictionaryDetector", "PhraseIndex", "word_positions"]

#: What the detector can look for.
KINDS = ("names", "hospitals", "organizations", "locations", "professions")

_HOSPITAL_HEADS_EXCLUDED = {"unit", "ward", "health", "memorial", "pavilion", "snf", "ltac", "ltach", "healthcare", "health care"}
_CONNECTORS = {"of", "and", "&", "the", "st", ".", "'", "’", "s", "-", "de", "la"}
_PROFESSION_CUES = {"works", "worked", "working", "work", "retired", "former", "formerly", "occupation", "job",
                    "employed", "profession", "career", "student", "trained", "is", "as", "was"}
_LOCATION_CUES = {"in", "from", "to", "near", "at", "of", "lives", "moved", "born", "visiting",
                  "en", "de", "desde", "a", "natural", "reside", "vive"}
_DOCTOR_CUES = {"dr", "doctor", "md", "rn", "np", "pa", "attending", "surgeon", "signed", "dictated", "cc",
                "pcp", "resident", "fellow", "nurse", "provider", "referring", "physician", "do", "phd", "lcsw",
                "licsw", "aprn", "dpm", "rdms", "pa-c", "radiologist", "pathologist", "therapist", "sw"}


class PhraseIndex:
    """Longest-match index of a lexicon's (multi-word) entries over lower-cased tokens.

    >>> idx = PhraseIndex(["new york", "york", "new york city"])
    >>> idx.longest(["in", "new", "york", "city"], 1)
    3
    """

    def __init__(self, entries: Iterable[str]) -> None:
        single: set[str] = set()
        multi: dict[str, list[tuple[str, ...]]] = {}
        for e in entries:
            if e.isalpha() and not _needs_camel_split(e):  # one token (most entries): skip the tokenizer
                single.add(e.lower())
                continue
            toks = tuple(t.text.lower() for t in tokenize(e))
            if len(toks) == 1:
                single.add(toks[0])
            elif toks:
                multi.setdefault(toks[0], []).append(toks)
        self._single = frozenset(single)
        # tuples (longest first): the garbage collector stops tracking them
        self._multi: dict[str, tuple[tuple[str, ...], ...]] = {
            k: tuple(sorted(v, key=len, reverse=True)) for k, v in multi.items()}

    def longest(self, words: Sequence[str], i: int) -> int:
        """Number of tokens of the longest entry starting at ``words[i]`` (0 if none)."""
        w = words[i]
        for entry in self._multi.get(w, ()):
            n = len(entry)
            if tuple(words[i : i + n]) == entry:
                return n
        return 1 if w in self._single else 0

    def lengths(self, words: Sequence[str], where: dict[str, list[int]] | None = None) -> list[int]:
        """:meth:`longest` at every position; ``where``: :func:`word_positions` of ``words``
        (computed here when not given).

        >>> PhraseIndex(["new york", "york"]).lengths(["in", "new", "york"])
        [0, 2, 1]
        """
        out = [0] * len(words)
        if where is None:
            where = word_positions(words)
        # only the words that start an entry (both intersections iterate over the note's words)
        for w in self._single.intersection(where) | (where.keys() & self._multi.keys()):
            for i in where[w]:
                out[i] = self.longest(words, i)
        return out


def word_positions(words: Sequence[str]) -> dict[str, list[int]]:
    """``{word: [positions]}``: computed once per document, shared by the indexes' :meth:`PhraseIndex.lengths`.

    >>> word_positions(["a", "b", "a"])
    {'a': [0, 2], 'b': [1]}
    """
    where: dict[str, list[int]] = {}
    for i, w in enumerate(words):
        where.setdefault(w, []).append(i)
    return where


@cache
def _index(*names: str) -> PhraseIndex:
    entries: set[str] = set()
    for n in names:
        entries |= lexicon(n)
    return PhraseIndex(entries)


@cache
def _hospital_heads() -> PhraseIndex:
    return PhraseIndex(e for e in lexicon("hospital_words") if e not in _HOSPITAL_HEADS_EXCLUDED)


@lru_cache(maxsize=1)
def _block_rules() -> tuple[Any, ...]:  # the negative-cue rules (eponyms)
    from notescrub.detect.rules.detector import load_rules

    return tuple(r for r in load_rules(["en_blocks.toml"]).rules if r.block)


@cache
def _name_lists(lang: str) -> tuple[frozenset[str], frozenset[str]]:
    if lang == "es":
        return lexicon("es_first_names") | lexicon("first_names"), lexicon("es_last_names") | lexicon("last_names")
    return lexicon("first_names"), lexicon("last_names")


@cache
def _stop_words(lang: str) -> frozenset[str]:
    if lang == "es":
        return lexicon("es_common_words") | lexicon("es_medical_terms") | lexicon("medical_terms")
    return lexicon("common_words") | lexicon("medical_terms")


@cache
def _name_sets(lang: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(words that make a name weak, places that are never names, every known word)."""
    first, last = _name_lists(lang)
    stop = _stop_words(lang) | lexicon("titles") | lexicon("credentials") | lexicon("months") | lexicon("weekdays")
    places = lexicon("countries") | lexicon("us_states") | lexicon("nationalities")
    if lang == "es":
        stop = stop | lexicon("es_places")
    return stop, places, stop | places | first | last


def _line_style(view: TokenView, text: str) -> dict[int, str]:
    """Per line: 'lower' (no capitals at all), 'upper' (mostly capitals) or 'mixed'.

    Counted over the letters of the line (tokens cover every non-space character).

    >>> from notescrub.types import Document
    >>> from notescrub.text.views import token_view
    >>> t = "seen today with wife\\nHISTORY OF PRESENT ILLNESS\\nMr. Diaz"
    >>> _line_style(token_view(Document("d", t)), t)
    {0: 'lower', 1: 'upper', 2: 'mixed'}
    """
    out = {}
    isalpha, isupper = str.isalpha, str.isupper
    for i, (a, b) in enumerate(lines(text)):
        line = text[a:b]
        letters = "".join(filter(isalpha, line))
        n = len(letters)
        up = sum(map(isupper, letters))
        out[i] = "lower" if n >= 8 and up == 0 else ("upper" if n and up / n > 0.8 else "mixed")
    return out


class DictionaryDetector(Detector):
    """Longest-match lexicon detector (see the module docstring).

    Parameters
    ----------
    kinds: which of :data:`KINDS` to look for.
    mode: ``"filtered"`` (case, context and common-word filters) or ``"hd"`` (Uzuner et
        al.'s heuristic + dictionary baseline: in a dictionary and not a common word).
    lang: ``"en"`` or ``"es"`` (Spanish names and places lexicons).
    name: layer name.
    """

    def __init__(self, kinds: Sequence[str] = KINDS, mode: str = "filtered", lang: str = "en", name: str = "dictionary") -> None:
        unknown = set(kinds) - set(KINDS)
        if unknown:
            raise ConfigError(f"unknown dictionary kinds {sorted(unknown)}; known: {', '.join(KINDS)}")
        if mode not in ("filtered", "hd"):
            raise ConfigError(f"unknown dictionary mode {mode!r}; use 'filtered' or 'hd'")
        if lang not in ("en", "es"):
            raise ConfigError(f"unsupported dictionary language {lang!r}; use 'en' or 'es'")
        self.kinds = tuple(kinds)
        self.mode = mode
        self.lang = lang
        self.name = name

    @cached_property
    def negative_cues(self) -> NegativeCues:
        """The eponym block ranges (English; none in Spanish); the assembly may share a rules
        detector's (:func:`~notescrub.detect.rules.negative_cues.share_negative_cues`)."""
        return NegativeCues(_block_rules() if self.lang == "en" else ())

    # -- lexicons -----------------------------------------------------------------
    def _names(self) -> tuple[frozenset[str], frozenset[str]]:
        return _name_lists(self.lang)

    def _stop(self) -> frozenset[str]:
        return _stop_words(self.lang)

    # -- detection ----------------------------------------------------------------
    def detect(self, doc: Document) -> list[Span]:
        view = token_view(doc)
        if not view.tokens:
            return []
        words = [t.text.lower() for t in view.tokens]
        if self.mode == "hd":
            spans = self._hd(doc, view, words)
        else:
            where = word_positions(words)
            style = _line_style(view, doc.text)
            spans = []
            if "hospitals" in self.kinds:
                spans += self._headed(doc, view, words, style, _hospital_heads(), "HOSPITAL", where)
            if "organizations" in self.kinds:
                spans += self._headed(doc, view, words, style, _index("organization_words"), "ORGANIZATION", where)
            if "locations" in self.kinds:
                spans += self._locations(view, words, style, where)
            if "professions" in self.kinds:
                spans += self._professions(view, words, where)
            if "names" in self.kinds:
                spans += self._person_names(doc, view, words, style)
            blocks = Blocks(self.negative_cues.ranges(doc.text))
            if blocks:
                spans = [s for s in spans if not blocks.hits(s.start, s.end)]
        return _non_overlapping(spans)

    def _cased(self, view: TokenView, i: int, style: dict[int, str]) -> bool:
        """Is token ``i`` written the way a proper noun is written on its line?"""
        w = view.tokens[i].text
        if not w[:1].isalpha():
            return False
        st = style.get(view.line[i], "mixed")
        if st == "lower":
            return w.islower()
        if st == "upper":
            return w.isupper()
        return w[0].isupper() and (len(w) == 1 or not w.isupper() or len(w) > 3)

    def _span(self, view: TokenView, i: int, j: int, label: str, score: float, why: str) -> Span:
        return Span(view.tokens[i].start, view.tokens[j - 1].end, label, score, self.name, meta={"lexicon": why})

    def _headed(self, doc: Document, view: TokenView, words: list[str], style: dict[int, str], heads: PhraseIndex,
                label: str, where: dict[str, list[int]] | None = None) -> list[Span]:
        out = []
        n = len(words)
        lens = heads.lengths(words, where)
        i = 0
        while i < n:
            k = lens[i]
            if not k or not self._cased(view, i, style):
                i += 1
                continue
            # extend left over cased words and connectors on the same line
            j = i
            named = 0
            while j > 0 and view.line[j - 1] == view.line[i] and i - j < 6:
                w = words[j - 1]
                if self._cased(view, j - 1, style) and w not in lexicon("titles") and not (
                    view.tokens[j - 1].text.islower() and (w in lexicon("common_words") or lens[j - 1])
                ):
                    named += 1
                    j -= 1
                elif w in _CONNECTORS and j - 1 > 0 and self._cased(view, j - 2, style):
                    j -= 1
                else:
                    break
            while j < i and words[j] in _CONNECTORS:
                j += 1
            end = i + k
            # "University of Vermont", "Hospital of Saint X"
            if end + 1 < n and words[end] == "of" and self._cased(view, end + 1, style):
                end += 2
                named += 1
                while end < n and self._cased(view, end, style) and view.line[end] == view.line[i]:
                    end += 1
            if named:
                out.append(self._span(view, j, end, label, 0.8, label.lower()))
            i = end
        return out

    def _locations(self, view: TokenView, words: list[str], style: dict[int, str],
                   where: dict[str, list[int]] | None = None) -> list[Span]:
        out = []
        first, last = self._names()
        stop = self._stop()
        sets = [("COUNTRY", _index("countries"), 0.85), ("STATE", _index("us_states"), 0.8), ("CITY", _index("cities"), 0.7)]
        if self.lang == "es":
            sets.insert(0, ("CITY", _index("es_places"), 0.75))
        found = [(label, idx.lengths(words, where), score) for label, idx, score in sets]
        i = 0
        while i < len(words):
            best = (0, "", 0.0)
            for label, lens, score in found:
                k = lens[i]
                if k > best[0]:
                    best = (k, label, score)
            k, label, score = best
            if not k or not self._cased(view, i, style) or not all(
                self._cased(view, m, style) or words[m] in _CONNECTORS for m in range(i, i + k)
            ):
                i += 1
                continue
            phrase = words[i : i + k]
            cue = i > 0 and words[i - 1] in _LOCATION_CUES
            ambiguous = any(w in stop or w in first or w in last for w in phrase if w.isalpha())
            if label == "STATE" and k == 1 and len(words[i]) == 2:
                ambiguous = True  # postal codes: left to the rules (City, ST 12345)
            if ambiguous and not cue:
                i += 1
                continue
            score = score + (0.1 if cue else 0.0) - (0.15 if ambiguous else 0.0)
            out.append(self._span(view, i, i + k, label, score, label.lower()))
            i += k
        return out

    def _professions(self, view: TokenView, words: list[str], where: dict[str, list[int]] | None = None) -> list[Span]:
        out = []
        lens = _index("professions").lengths(words, where)
        i = 0
        while i < len(words):
            k = lens[i]
            if k and any(w in _PROFESSION_CUES for w in words[max(0, i - 4) : i]) and not (i > 0 and words[i - 1] in ("the", "your", "his", "her")):
                out.append(self._span(view, i, i + k, "PROFESSION", 0.6, "professions"))
                i += k
            else:
                i += 1
        return out

    def _person_names(self, doc: Document, view: TokenView, words: list[str], style: dict[int, str]) -> list[Span]:
        first, last = self._names()
        stop, places, known = _name_sets(self.lang)
        out = []
        n = len(words)
        i = 0
        while i < n:
            run: list[int] = []
            j = i
            while j < n and view.line[j] == view.line[i]:
                w = words[j]
                if w.isalpha() and (w in first or w in last) and self._cased(view, j, style) and w not in places:
                    run.append(j)
                    j += 1
                elif run and (w in (",", ".") or (len(w) == 1 and view.tokens[j].text.isupper())) and j + 1 < n:
                    j += 1  # initials and "Last, First"
                else:
                    break
            if not run:
                i += 1
                continue
            run = self._extend_oov(view, words, run, style, known)
            strong = [m for m in run if words[m] not in stop]
            has_first = any(words[m] in first for m in run)
            has_last = any(words[m] in last for m in run)
            sentence_start = run[0] == 0 or words[run[0] - 1] in (".", "\n", ":") or view.line[run[0] - 1] != view.line[run[0]]
            keep = bool(strong) and not (len(run) == 1 and sentence_start and style.get(view.line[run[0]]) == "upper")
            if not keep and len(run) >= 2 and has_first and has_last and style.get(view.line[run[0]]) == "mixed":
                keep = True
            if keep:
                a, b = run[0], run[-1] + 1
                label = self._person_label(view, words, a, b)
                score = 0.75 if strong else 0.55
                out.append(self._span(view, a, b, label, score, "names"))
            i = max(j, i + 1)
        return out

    def _extend_oov(self, view: TokenView, words: list[str], run: list[int], style: dict[int, str], known: frozenset[str]) -> list[int]:
        """Add cased, alphabetic, unknown words right next to a name run ("Oluwaseun Adeyemi")."""
        line = view.line[run[0]]

        def oov(m: int) -> bool:
            w = words[m]
            return (0 <= m < len(words) and view.line[m] == line and w.isalpha() and len(w) > 1
                    and w not in known and self._cased(view, m, style) and not view.tokens[m].text.isupper())

        a, b = run[0], run[-1]
        while a - 1 >= 0 and oov(a - 1) and a - 1 >= run[0] - 2:
            a -= 1
        while b + 1 < len(words) and oov(b + 1) and b + 1 <= run[-1] + 2:
            b += 1
        return list(range(a, run[0])) + run + list(range(run[-1] + 1, b + 1))

    def _person_label(self, view: TokenView, words: list[str], a: int, b: int) -> str:
        near = words[max(0, a - 3) : a] + words[b : b + 3]
        return "DOCTOR" if any(w in _DOCTOR_CUES for w in near) else "PATIENT"

    def _hd(self, doc: Document, view: TokenView, words: list[str]) -> list[Span]:
        """Uzuner et al.'s H+D baseline: dictionary word and not a common word."""
        first, last = self._names()
        common = lexicon("common_words") if self.lang == "en" else lexicon("es_common_words")
        out = []
        i = 0
        while i < len(words):
            hit = None
            for label, idx in (("HOSPITAL", _index("hospital_words")), ("CITY", _index("cities")),
                               ("STATE", _index("us_states")), ("COUNTRY", _index("countries"))):
                k = idx.longest(words, i)
                if k and not all(w in common for w in words[i : i + k]):
                    hit = (k, label)
                    break
            if hit is None and words[i].isalpha() and (words[i] in first or words[i] in last) and words[i] not in common:
                hit = (1, "PATIENT")
            if hit and len(words[i]) > 1:
                out.append(self._span(view, i, i + hit[0], hit[1], 0.6, "hd"))
                i += hit[0]
            else:
                i += 1
        return out


def _non_overlapping(spans: list[Span]) -> list[Span]:
    """Longest, then highest score, then earliest wins (O(n log n))."""
    return longest(spans)
