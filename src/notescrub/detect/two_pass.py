"""Two-pass recognition (Dehghan et al. 2015): a run-time, per-patient PHI dictionary.

First-pass detectors find PHI with some confidence. This detector gathers, for each
patient, the confidently detected strings from earlier layers across *all* of that
patient's notes, drops ambiguous entries (too short, medical terms, eponyms), restricts
ordinary words ("Rose", "Hope") to capitalised occurrences, and matches the remaining entries again over
every note of the patient with longest match over tokens, case-insensitively. A surname
seen once in "Dr. Ruiz" is thereby also found in "Ruiz agreed" two notes later.

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

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from functools import lru_cache

from notescrub.detect.base import Detector
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
    """

    name = "two_pass"
    patient_level = True

    def __init__(
        self,
        sources: Sequence[str],
        min_score: float = 0.5,
        types: Iterable[str] = DEFAULT_TYPES,
        min_chars: int = 3,
        max_zipf: float | None = 4.0,
        split_names: bool = True,
        name: str = "two_pass",
    ) -> None:
        self.sources = list(sources)
        self.min_score = min_score
        self.types = frozenset(types)
        self.min_chars = min_chars
        self.max_zipf = max_zipf
        self.split_names = split_names
        self.name = name

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
            if w in _lex("medical_terms") or w in _lex("eponyms"):
                return "drop"
            if w in _lex("common_words") or (self.max_zipf is not None and _zipf(w) > self.max_zipf and w not in _names()):
                return "capitalised"
        return "any"

    def build(self, docs: Sequence[Document]) -> dict[tuple[str, ...], tuple[str, bool]]:
        """The patient dictionary: lower-cased token tuple -> (majority label, needs capital)."""
        votes: dict[tuple[str, ...], Counter[str]] = defaultdict(Counter)
        for doc in docs:
            view = token_view(doc)
            for layer in self.sources:
                for s in doc.layer(layer):
                    if not self._eligible(s):
                        continue
                    words = tuple(view.tokens[i].text.lower() for i in view.tokens_in(s.start, s.end))
                    if not words:
                        continue
                    votes[words][s.label] += 1
                    if self.split_names and (s.phi in _NAME_TYPES) and len(words) > 1:
                        for w in words:
                            if w.isalpha() and len(w) > 1:
                                votes[(w,)][s.label] += 1
        out: dict[tuple[str, ...], tuple[str, bool]] = {}
        for k, c in votes.items():
            kind = self._kind(k)
            if kind != "drop":
                out[k] = (c.most_common(1)[0][0], kind == "capitalised")
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
            entries = self.build(group)
            if not entries:
                continue
            max_len = max(len(k) for k in entries)
            for i in idxs:
                results[i] = self._match(docs[i], entries, max_len)
        return results

    def detect(self, doc: Document) -> list[Span]:
        return self.detect_many([doc])[0]


def _whole_word(text: str, start: int, end: int) -> bool:
    """Reject matches glued to letters on either side (``Rose`` inside ``Roseanne``)."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return not (before.isalpha() and text[start].isalpha()) and not (after.isalpha() and text[end - 1].isalpha())


def _zipf(word: str) -> float:
    from notescrub.lexicons import zipf

    return zipf(word)


def _lex(name: str) -> frozenset[str]:
    from notescrub.lexicons import lexicon

    return lexicon(name)


@lru_cache(maxsize=1)
def _names() -> frozenset[str]:  # cached: the union of two large lexicons took ~4 ms per call
    return _lex("first_names") | _lex("last_names")
