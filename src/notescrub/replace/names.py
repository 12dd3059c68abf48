"""Person-name surrogates that keep the name's form and stay consistent per patient.

A name span is split into words and separators. Each word gets a role (given name,
surname, initial, title/credential) from its position (``First M Last``,
``Last, First M``, ``J. Smith``) and, for a lone word, from a preceding title or the
first-name lists. Given names and surnames are replaced word by word through the
keyed HMAC of (role, patient, word), so a surname seen alone maps like the same
surname in a full name, and a nickname maps like its full name (``Bob`` ->
the short form of ``Robert``'s surrogate). Initials become the initial of the
surrogate given name they abbreviate (when the document has that full name) or a
different letter. Case (ALL CAPS, lower, Title), punctuation and spacing are kept;
titles and credentials (``Dr``, ``MD``, ``Jr``) are left alone. Given names keep the
gender of the name's own list (else a keyed draw): never the mention's context, so a
name gets the same surrogate in every note whatever was processed before.

>>> from notescrub.replace.base import Context, ReplaceState
>>> from notescrub.replace.keys import SurrogateKey
>>> op, state, key = NameSurrogate(), ReplaceState(), SurrogateKey(bytes(32))
>>> def rep(text, span_text):
...     doc = Document("d", text, "P1")
...     i = text.index(span_text)
...     return op.replacement(Context(doc, Span(i, i + len(span_text), "PATIENT"), span_text, "PATIENT", "P1", key, state))
>>> full, last, caps = rep("Mr. John Smith", "John Smith"), rep("Mr. Smith", "Smith"), rep("SMITH, JOHN", "SMITH, JOHN")
>>> full.split()[1] == last, caps == (last + ", " + full.split()[0]).upper()
(True, True)
>>> rep("Seen by J. Smith", "J. Smith") == full[0] + ". " + last
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from notescrub.replace.base import Context, Operator, ReplaceState
from notescrub.replace.datefmt import apply_case
from notescrub.replace.keys import SurrogateKey, normalise_value
from notescrub.replace.shapes import same_shape
from notescrub.replace.vocabulary import (
    DictionaryVocabulary,
    Vocabulary,
    gender_of_name,
    nickname_canonical,
    nicknames_of,
)
from notescrub.types import Document, Span

__all__ = ["NameSurrogate", "NameWord", "name_units", "split_name"]

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_TITLES = frozenset(
    ["dr", "dra", "doctor", "mr", "mrs", "ms", "miss", "mister", "prof", "professor", "sr", "sra", "srta", "don", "dona", "doña", "md", "do", "rn", "np", "pa", "phd", "dds", "dmd", "jr", "jnr", "sen", "iii", "ii", "iv", "mba", "mph", "facp", "facs", "pharmd", "lpn", "cnm", "crna", "pac", "dpm", "od"]
)
#: title/credential words that are also given or family names
_NAME_LIKE_TITLES = frozenset(["don", "dona", "doña", "do", "pa", "sen", "od", "sr", "sra"])
_CREDENTIAL_EXTRA = frozenset(["md", "do", "rn", "np", "pa", "phd", "dds", "dmd", "mba", "mph", "facp", "facs", "pharmd",
                               "lpn", "cnm", "crna", "pac", "dpm", "od", "jr", "sr", "ii", "iii", "iv", "esq"])
_ANY_TITLE = re.compile(r"\b(?:mr|mrs|ms|miss|mister|dr|dra|prof|sr|sra|srta|don|doña)\.?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class NameWord:
    """A word of a name span: offsets within the span, its text and its role."""

    start: int
    end: int
    text: str
    role: str  # "given", "family", "initial", "title"


def _is_initial(word: str) -> bool:
    return len(word) == 1


@lru_cache(maxsize=1)
def _credentials() -> frozenset[str]:
    """Credentials written after a name (``MD``, ``M.D.``, ``RN``, ``PhD``), dots removed, lower case."""
    from notescrub.lexicons import lexicon

    return frozenset(c.replace(".", "").replace("-", "") for c in lexicon("credentials")) | _CREDENTIAL_EXTRA


def _trailing_credentials(text: str, words: list[tuple[int, int, str]]) -> set[int]:
    """Indices of the words forming credentials at the end of a name (``, M.D.``, ``RN, PhD``).

    Dotted credentials (``M.D.``, ``Ph.D.``) are read as one word. A credential needs a
    comma or a dot to be told from a name, except an all-capitals one after a name in
    mixed case (``John Smith RN``); the last word of a name is never taken when no word
    before it could be a name.
    """
    groups: list[list[int]] = []  # words glued by dots, no space: M.D. -> [M, D]
    for i, (a, _b, _w) in enumerate(words):
        if groups and text[words[i - 1][1] : a] == "." and len(groups[-1]) < 4:
            groups[-1].append(i)
        else:
            groups.append([i])
    found: set[int] = set()
    creds = _credentials()
    for g in reversed(groups):
        if g[0] == 0:
            break
        joined = "".join(words[i][2] for i in g).casefold()
        a, b = words[g[0]][0], words[g[-1]][1]
        before = text[: a].rstrip()
        dotted = len(g) > 1 or text[b : b + 1] == "."
        mixed_case_name = any(w[2][:1].isupper() and not w[2].isupper() for w in words[: g[0]])
        upper_after_mixed = words[g[-1]][2].isupper() and mixed_case_name and len(joined) >= 2
        if joined not in creds or not (before.endswith(",") or dotted or upper_after_mixed):
            break
        found.update(g)
    return found


def split_name(text: str, *, lone_role: str = "family", spanish: bool = False) -> list[NameWord]:
    """Words of a name with their roles.

    >>> [(w.text, w.role) for w in split_name("Smith, John K.")]
    [('Smith', 'family'), ('John', 'given'), ('K', 'initial')]
    >>> [(w.text, w.role) for w in split_name("Dr. Mary-Ann O'Neil")]
    [('Dr', 'title'), ('Mary', 'given'), ('Ann', 'given'), ("O'Neil", 'family')]
    >>> [(w.text, w.role) for w in split_name("KATHERINE NGUYEN, M.D.")]
    [('KATHERINE', 'given'), ('NGUYEN', 'family'), ('M', 'title'), ('D', 'title')]
    """
    words = [(m.start(), m.end(), m.group()) for m in _WORD.finditer(text)]
    creds = _trailing_credentials(text, words)
    body_end = words[min(creds)][0] if creds else len(text)
    roles: dict[int, str] = {}
    names: list[int] = []
    for i, (a, b, w) in enumerate(words):
        if i in creds:
            roles[i] = "title"
            continue
        title = w.lower() in _TITLES and len(words) > 1 and not (w.isupper() and len(w) > 3)
        if title and w.lower() in _NAME_LIKE_TITLES:  # "Don Smith", "Pa Lee": names unless "Don." / ", PA"
            title = text[b : b + 1] == "." or text[:a].rstrip().endswith(",")
        if title:
            roles[i] = "title"
        elif _is_initial(w):
            roles[i] = "initial"
        else:
            names.append(i)
    # hyphen-joined words form one unit with one role
    units: list[list[int]] = []
    for i in names:
        if units and units[-1][-1] == i - 1 and text[words[i - 1][1] : words[i][0]] in ("-", "‐"):
            units[-1].append(i)
        else:
            units.append([i])
    comma = text.find(",", 0, body_end)
    if comma > 0 and units and words[units[0][-1]][1] <= comma and words[units[-1][0]][0] > comma:
        before = [u for u in units if words[u[-1]][1] <= comma]
        for u in units:
            for i in u:
                roles[i] = "family" if u in before else "given"
    elif len(units) == 1:
        for i in units[0]:
            roles[i] = lone_role if not any(r == "initial" for r in roles.values()) else "family"
    elif units:
        n_family = 2 if spanish and len(units) >= 3 else 1
        for k, u in enumerate(units):
            for i in u:
                roles[i] = "family" if k >= len(units) - n_family else "given"
    return [NameWord(a, b, w, roles[i]) for i, (a, b, w) in enumerate(words)]


def name_units(text: str, words: list[NameWord]) -> list[list[NameWord]]:
    """Given-name and surname units of a split name: hyphen-joined words (``Marsh-Whitaker``) form one unit.

    >>> [[w.text for w in u] for u in name_units("Helena Marsh-Whitaker", split_name("Helena Marsh-Whitaker"))]
    [['Helena'], ['Marsh', 'Whitaker']]
    """
    units: list[list[NameWord]] = []
    for w in words:
        if w.role not in ("given", "family"):
            continue
        if units and units[-1][-1].role == w.role and text[units[-1][-1].end : w.start] in ("-", "‐"):
            units[-1].append(w)
        else:
            units.append([w])
    return units


_DIGITS = re.compile(r"\d+")


def _scrub_digits(text: str, ctx: Context) -> str:
    """Digits inside a name span (an MRN or pager swallowed with the name) replaced by other digits.

    The name words are replaced one by one; everything else of the span was kept so far,
    so a span that is not a clean name (``99887766 Ana Ruiz``) would keep its numbers.
    """
    if not any(c.isdigit() for c in text):
        return text
    key = ctx.key
    assert key is not None
    return _DIGITS.sub(lambda m: same_shape(m.group(), key.rng("NAME-digits", ctx.patient, m.group())), text)


class NameSurrogate(Operator):
    """Realistic, consistent person-name surrogates (PATIENT, DOCTOR)."""

    name = "name"
    needs_key = True

    def __init__(self, vocabulary: Vocabulary | None = None) -> None:
        self.vocabulary = vocabulary or DictionaryVocabulary("en")

    def _vocab(self, ctx: Context) -> Vocabulary:
        return self.vocabulary.for_locale(ctx.locale)

    def prepare(self, doc: Document, items: Sequence[tuple[Span, str]], state: ReplaceState, patient: str,
                key: SurrogateKey | None) -> None:
        """Remember which given names go with which surnames in this document, to resolve initials,
        and the name words it holds (for e-mail addresses and user names built from them)."""
        table = state.cache("name-pairs").setdefault(patient, {})
        vocabulary = state.cache("name-words").setdefault(patient, {})
        for _, text in items:
            words = split_name(text)
            for unit in name_units(text, words):
                vocabulary.setdefault("".join(c for c in "".join(w.text for w in unit).casefold() if c.isalpha()),
                                      (unit[0].role, [w.text for w in unit]))
            fams = [w.text for w in words if w.role == "family"]
            givens = [w.text for w in words if w.role == "given"]
            if fams and givens:
                table.setdefault(normalise_value(fams[-1]), []).append(givens[0])

    def replacement(self, ctx: Context) -> str:
        words = split_name(ctx.text, lone_role=self._lone_role(ctx), spanish=ctx.locale == "es")
        if not any(w.role != "title" for w in words):
            assert ctx.key is not None
            return same_shape(ctx.text, ctx.key.rng("NAME-shape", ctx.patient, normalise_value(ctx.text)))
        surnames = [w.text for w in words if w.role == "family"]
        givens = [w.text for w in words if w.role == "given"]
        if surnames and givens:
            pairs = ctx.state.cache("name-pairs").setdefault(ctx.patient, {})
            known = pairs.setdefault(normalise_value(surnames[-1]), [])
            if givens[0] not in known:
                known.append(givens[0])
        lead = self._first_initial(words)
        out = ctx.text
        for w in reversed(words):
            if w.role == "title":
                continue
            if w.role == "initial":
                new = self._initial(ctx, w.text, surnames, givens, first_given=w is lead)
            elif w.role == "given":
                new = self._given(ctx, w.text, surnames)
            else:
                new = self._family(ctx, w.text)
            out = out[: w.start] + new + out[w.end :]
        return _scrub_digits(out, ctx)

    @staticmethod
    def _first_initial(words: list[NameWord]) -> NameWord | None:
        for w in words:
            if w.role in ("given", "initial"):
                return w if w.role == "initial" else None
        return None

    def _lone_role(self, ctx: Context) -> str:
        if _ANY_TITLE.search(ctx.left(14)):
            return "family"
        word = ctx.text.strip()
        if gender_of_name(word) is not None or nickname_canonical(word):
            from notescrub.lexicons import lexicon

            surnames = lexicon("es_last_names" if ctx.locale == "es" else "last_names")
            return "family" if word.lower() in surnames and gender_of_name(word) is None else "given"
        return "family"

    def _pick(self, ctx: Context, role: str, norm: str, draw) -> str:
        cache = ctx.state.cache("names")
        k = (ctx.patient, role, norm, ctx.locale)
        if k not in cache:
            assert ctx.key is not None
            rng = ctx.key.rng("NAME-" + role, ctx.patient, norm)
            cand = draw(rng)
            for _ in range(20):
                if normalise_value(cand) != norm:
                    break
                cand = draw(rng)
            cache[k] = cand
        return str(cache[k])

    def _given(self, ctx: Context, word: str, surnames: Sequence[str] = ()) -> str:
        canon = nickname_canonical(word)
        norm = canon or normalise_value(word)
        # the gender comes from the name alone (its list, else a keyed draw), never from the
        # context of this mention: a given name maps to the same surrogate in every note
        gender = gender_of_name(canon or word)
        if gender is None:
            assert ctx.key is not None
            gender = "MF"[ctx.key.rng("NAME-gender", ctx.patient, norm).randrange(2)]
        vocab = self._vocab(ctx)
        sur = self._pick(ctx, "given", norm, lambda rng: vocab.given_name(rng, gender))
        if canon:
            short = nicknames_of(sur)
            if short:
                sur = short[0].capitalize()
        return apply_case(word, sur)

    def _family(self, ctx: Context, word: str) -> str:
        vocab = self._vocab(ctx)
        return apply_case(word, self._pick(ctx, "family", normalise_value(word), vocab.surname))

    def _initial(self, ctx: Context, letter: str, surnames: list[str], givens: list[str], first_given: bool) -> str:
        if first_given and surnames and not givens:
            known = ctx.state.cache("name-pairs").get(ctx.patient, {}).get(normalise_value(surnames[-1]), [])
            for g in known:
                if g[:1].casefold() == letter.casefold():
                    first = self._given(ctx, g)[:1]
                    return first.upper() if letter.isupper() else first.lower()
        norm = f"{letter.casefold()}|{normalise_value(surnames[-1]) if surnames else ''}"
        alphabet = "ABCDEFGHIJKLMNOPRSTW"

        def draw(rng):
            return alphabet[rng.randrange(len(alphabet))]

        new = self._pick(ctx, "initial", norm, draw)
        if new.casefold() == letter.casefold():
            new = alphabet[(alphabet.find(new) + 1) % len(alphabet)]
        return new if letter.isupper() else new.lower()
