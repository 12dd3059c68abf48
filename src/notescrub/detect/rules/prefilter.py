"""Faster ``finditer``/``search`` for rule regexes: skip positions where no match can start.

Python's regex engine tries a pattern at every position of the text unless the pattern
begins with a literal or a plain character class; rule patterns begin with lookbehinds,
``\\b`` or case-insensitive alternations, so each of them costs ~50 ns per character of
every note. :class:`Scanner` analyses the parsed pattern once and rewrites it so that
the engine's fast C loop skips to the positions where a match can start:

* a pattern whose matches always start a word (``\\b`` before a word character, or a
  ``(?<![\\w...])`` lookbehind) becomes ``[^\\w](?=(?:PATTERN)(?P<_ns_end>))``: only the
  characters before a word are tried (about one in five);
* any other pattern becomes ``[FIRST](?<=(?=(?:PATTERN)(?P<_ns_end>))[\\s\\S])`` where
  ``FIRST`` holds every character a match can start with (a superset);
* when the first three characters of a match are much more constrained than the first
  one (case-insensitive trigger words: ``(?i:son|sister|...)``), a filter of them, written
  case-sensitively as a trie of character classes (whose alternatives the engine rejects
  on their first character), is checked before the pattern runs.

The original pattern runs, unchanged, in the lookahead at the candidate position (its
own lookbehinds still see the text before it), and :class:`Scanner` turns the
candidate matches back into exactly the matches of ``pattern.finditer`` (leftmost,
non-overlapping, same groups): results are identical, only the time changes. Patterns
it cannot analyse (back-references first, patterns that can match the empty string,
unknown opcodes) keep the plain ``finditer``.

>>> import re
>>> rx = re.compile(r"(?<![\\w])(?i:dr|mr)\\.?\\s+(?P<phi>[A-Z][a-z]+)")
>>> sc = Scanner(rx)
>>> sc.mode
'word-start'
>>> text = "Dr Vega; seen by DR. Ruiz and mr Diaz; Mr.Lee"
>>> [m.span("phi") for m in sc.finditer(text)] == [m.span("phi") for m in rx.finditer(text)]
True
>>> [m.span() for m in sc.finditer(text)]
[(0, 7), (17, 25), (30, 37)]
>>> Scanner(re.compile(r"\\d+/\\d+")).mode
'first-char'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any, NamedTuple

from notescrub.detect.rules.required import required_literals

__all__ = ["Scanner", "first_ascii_chars", "first_char_class"]

_END = "_ns_end"
_GLOBAL_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")
_ASCII = [chr(i) for i in range(128)]
_CONSUMING_SINGLE = ("LITERAL", "NOT_LITERAL", "IN", "ANY", "CATEGORY")
_REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")
# non-ASCII characters an item may match: none, only word characters (\w), or any
_NONE, _WORD, _ANY = 0, 1, 2


class _Unsupported(Exception):
    """The pattern uses something the first-character analysis does not handle."""


class _First(NamedTuple):
    chars: frozenset[str]  # ASCII characters a match may start with (exact)
    non_ascii: int  # _NONE, _WORD or _ANY
    nullable: bool  # may match the empty string
    nonword_before: bool  # every match is preceded by a non-word character (or the text start)
    boundary: bool  # every match starts at a \b


def _modules() -> tuple[Any, Any]:
    # private, but stable since 3.11 (typeshed leaves them out); failures fall back
    from re import _compiler, _parser  # type: ignore[attr-defined]

    return _parser, _compiler


def _is_word(c: str) -> bool:
    return c.isalnum() or c == "_"  # what the regex engine calls \w (str patterns)


_OP_CACHE: dict[tuple[str, str, int], tuple[frozenset[str], int]] = {}


def _op_chars(op: Any, av: Any, state: Any, flags: int) -> tuple[frozenset[str], int]:
    """(ASCII characters the single-character item matches, which non-ASCII ones it may match)."""
    key = (str(op), repr(av), flags)
    hit = _OP_CACHE.get(key)
    if hit is None:
        hit = _OP_CACHE[key] = _op_chars_uncached(op, av, state, flags)
    return hit


def _op_chars_uncached(op: Any, av: Any, state: Any, flags: int) -> tuple[frozenset[str], int]:
    parser, compiler = _modules()
    rx = compiler.compile(parser.SubPattern(state, [(op, av)]), flags)
    ascii_set = frozenset(c for c in _ASCII if rx.match(c))
    name = str(op)
    ignore = bool(flags & re.IGNORECASE)
    # case partners of a letter are letters, so "word only" survives IGNORECASE
    if name == "LITERAL":
        if av < 128 and not ignore:
            return ascii_set, _NONE
        return ascii_set, _WORD if _is_word(chr(av)) else _ANY
    if name == "IN":
        kinds = []
        for o, a in av:
            o = str(o)
            if o == "LITERAL":
                kinds.append(_NONE if a < 128 and not ignore else (_WORD if _is_word(chr(a)) else _ANY))
            elif o == "RANGE":
                if a[1] < 128 and not ignore:
                    kinds.append(_NONE)
                else:
                    kinds.append(_WORD if all(_is_word(chr(x)) for x in range(a[0], a[1] + 1)) else _ANY)
            elif o == "CATEGORY" and str(a) in ("CATEGORY_WORD", "CATEGORY_DIGIT", "CATEGORY_UNI_WORD",
                                                "CATEGORY_UNI_DIGIT"):
                kinds.append(_WORD)
            else:  # NEGATE, other categories
                kinds.append(_ANY)
        return ascii_set, max(kinds, default=_NONE)
    return ascii_set, _ANY  # NOT_LITERAL, ANY, CATEGORY


def _nonword_lookbehind(av: Any) -> bool:
    """``(?<![\\w...])`` / ``(?<!\\w)``: the previous character is not a word character."""
    direction, p = av
    items = list(p)
    if direction != -1 or len(items) != 1 or str(items[0][0]) != "IN":
        return False
    members = items[0][1]
    return all(str(o) != "NEGATE" for o, _ in members) and any(
        str(o) == "CATEGORY" and str(a) in ("CATEGORY_WORD", "CATEGORY_UNI_WORD") for o, a in members
    )


def _first(items: list[tuple[Any, Any]], state: Any, flags: int) -> _First:
    chars: frozenset[str] = frozenset()
    non_ascii = _NONE
    nonword = boundary = False
    mixed = False  # a nullable item that may consume came first: later assertions may apply elsewhere
    for op, av in items:
        name = str(op)
        if name in _CONSUMING_SINGLE:
            c, n = _op_chars(op, av, state, flags)
            return _First(chars | c, max(non_ascii, n), False, nonword, boundary)
        if name in ("AT", "ASSERT", "ASSERT_NOT"):
            # assertions only narrow the candidates; two of them tell that a word starts here
            if not mixed:
                boundary = boundary or (name == "AT" and str(av) in ("AT_BOUNDARY", "AT_UNI_BOUNDARY"))
                nonword = nonword or (name == "ASSERT_NOT" and _nonword_lookbehind(av))
            continue
        if name == "SUBPATTERN":
            _group, add, delete, p = av
            sub = _first(list(p), state, (flags | add) & ~delete)
        elif name == "ATOMIC_GROUP":
            sub = _first(list(av), state, flags)
        elif name == "BRANCH":
            alts = [_first(list(alt), state, flags) for alt in av[1]]
            sub = _First(frozenset().union(*(a.chars for a in alts)), max(a.non_ascii for a in alts),
                         any(a.nullable for a in alts), all(a.nonword_before for a in alts),
                         all(a.boundary for a in alts))
        elif name in _REPEATS:
            lo, _hi, p = av
            sub = _first(list(p), state, flags)
            if lo == 0:
                sub = sub._replace(nullable=True)
        else:  # GROUPREF, GROUPREF_EXISTS, anything new: give up
            raise _Unsupported(name)
        chars |= sub.chars
        non_ascii = max(non_ascii, sub.non_ascii)
        if not sub.nullable:
            inner = not mixed
            return _First(chars, non_ascii, False, nonword or (inner and sub.nonword_before),
                          boundary or (inner and sub.boundary))
        mixed = mixed or bool(sub.chars) or sub.non_ascii != _NONE
    return _First(chars, non_ascii, True, nonword, boundary)


@lru_cache(maxsize=64)
def _parsed(source: str, flags: int) -> Any:
    """The parsed pattern (read only: analysed, never changed), shared by the analyses."""
    parser, _ = _modules()
    return parser.parse(source, flags)


def _analyse(pattern: re.Pattern[str]) -> _First | None:
    if not isinstance(pattern.pattern, str):
        return None
    try:
        parsed = _parsed(pattern.pattern, pattern.flags)
        first = _first(list(parsed), parsed.state, parsed.state.flags)
    except (_Unsupported, re.error, AttributeError, TypeError, ValueError, ImportError, RecursionError):
        return None
    return None if first.nullable or (not first.chars and first.non_ascii == _NONE) else first


# -- prefixes of several characters ---------------------------------------------------
#: One character position of a prefix: (ASCII characters, which non-ASCII ones).
_Pos = tuple[frozenset[str], int]
#: (positions, complete): ``complete`` when the item's whole match is these characters.
_Seq = tuple[tuple[_Pos, ...], bool]
_MAX_SEQS = 256


def _concat(left: set[_Seq], right_of: Any, budget: int) -> set[_Seq]:
    """Every complete sequence of ``left`` followed by what ``right_of(room)`` allows."""
    out: set[_Seq] = set()
    for seq, complete in left:
        room = budget - len(seq)
        if not complete or room <= 0:
            out.add((seq, False))
            continue
        for tail, done in right_of(room):
            out.add((seq + tail, done))
        if len(out) > _MAX_SEQS:
            raise _Unsupported("too many prefixes")
    return out


def _items_prefixes(items: list[tuple[Any, Any]], state: Any, flags: int, budget: int) -> set[_Seq]:
    """Prefixes (at most ``budget`` characters) of every string that ``items`` match."""
    acc: set[_Seq] = {((), True)}
    for op, av in items:
        acc = _concat(acc, lambda room, op=op, av=av: _item_prefixes(op, av, state, flags, room), budget)
        if all(not c or len(s) >= budget for s, c in acc):
            break
    return acc


def _item_prefixes(op: Any, av: Any, state: Any, flags: int, budget: int) -> set[_Seq]:
    name = str(op)
    if name in _CONSUMING_SINGLE:
        return {((_op_chars(op, av, state, flags),), True)}
    if name in ("AT", "ASSERT", "ASSERT_NOT"):
        return {((), True)}  # zero width: only narrows
    if name == "SUBPATTERN":
        _group, add, delete, p = av
        return _items_prefixes(list(p), state, (flags | add) & ~delete, budget)
    if name == "ATOMIC_GROUP":
        return _items_prefixes(list(av), state, flags, budget)
    if name == "BRANCH":
        out: set[_Seq] = set()
        for alt in av[1]:
            out |= _items_prefixes(list(alt), state, flags, budget)
        return out
    if name in _REPEATS:
        lo, hi, p = av
        once = _items_prefixes(list(p), state, flags, budget)
        if any(c and not s for s, c in once):
            lo = 0  # p may match the empty string: lo repetitions may all be empty
        out = {((), True)} if lo == 0 else set()
        cur: set[_Seq] = {((), True)}
        count = 0
        # each repetition that is not empty adds a character: ``budget`` of them fill a prefix
        while count < min(hi, budget) and any(c and len(s) < budget for s, c in cur):
            count += 1
            cur = _concat(cur, lambda room: _items_prefixes(list(p), state, flags, room), budget)
            if count >= lo:
                out |= cur
        if count < lo:  # every sequence reached the budget (or stopped) before lo repetitions
            out |= {(s, False) for s, _c in cur}
        return out
    raise _Unsupported(name)


def _prefix_filter(pattern: re.Pattern[str], budget: int = 3, selective: bool = False) -> str | None:
    """A pattern (no flags) that matches, at every position where ``pattern`` can match,
    the first characters of that match (up to ``budget``): a necessary condition.

    ``None`` when the pattern cannot be analysed or is nullable, or, with ``selective``,
    when the filter is estimated to reject few more positions than the first character.

    >>> f = re.compile(_prefix_filter(re.compile(r"(?i:son|sister)")))
    >>> [bool(f.match(w)) for w in ("SONG", "Sis", "sun", "so")]
    [True, True, False, False]
    """
    if not isinstance(pattern.pattern, str):
        return None
    try:
        parsed = _parsed(pattern.pattern, pattern.flags)
        seqs = _items_prefixes(list(parsed), parsed.state, parsed.state.flags, budget)
    except (_Unsupported, re.error, AttributeError, TypeError, ValueError, ImportError, RecursionError):
        return None
    if any(not s for s, _c in seqs):
        return None
    if selective and _weight(seqs) > 0.25 * max(_weight({(s[:1], c) for s, c in seqs}), 1e-12):
        return None  # not much narrower than the first character: the check costs more than it saves
    return _render({s for s, _c in seqs})


def _char_weight(c: str) -> float:
    """A rough share of ``c`` among the characters of clinical text (to compare filters)."""
    if c.islower():
        return 0.025
    if c.isspace():
        return 0.05
    return 0.005  # capitals, digits, punctuation


_CHAR_WEIGHT = {c: _char_weight(c) for c in _ASCII}


def _weight(seqs: set[_Seq]) -> float:
    """Rough share of text positions where one of the sequences starts."""
    total = 0.0
    for seq, _c in seqs:
        p = 1.0
        for chars, non_ascii in seq:
            p *= sum(_CHAR_WEIGHT[c] for c in chars) + (0.01 if non_ascii != _NONE else 0.0)
        total += p
    return total


def _render(seqs: set[tuple[_Pos, ...]]) -> str:
    """An alternation matching the sequences (a trie: each branch starts with one class)."""
    groups: dict[str, set[tuple[_Pos, ...]]] = {}
    for seq in seqs:
        groups.setdefault(_pos_class(seq[0]), set()).add(seq[1:])
    alts = []
    for cls in sorted(groups):
        rests = groups[cls]
        alts.append(cls if any(not r for r in rests) else cls + _render(rests))
    return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"


def _pos_class(pos: _Pos) -> str:
    return _char_class(_First(pos[0], pos[1], False, False, False))


def _char_class(first: _First) -> str:
    return _class_of(first.chars, first.non_ascii)


@lru_cache(maxsize=4096)
def _class_of(chars: frozenset[str], non_ascii: int) -> str:
    if non_ascii != _NONE:  # every non-ASCII character: the complement of the other ASCII ones
        # (a range up to U+10FFFF would make the regex compiler slow)
        return "[^" + _class_body([c for c in _ASCII if c not in chars]) + "]"
    return "[" + _class_body(sorted(chars)) + "]"


def _class_body(chars: list[str]) -> str:
    """Sorted ASCII characters as class items, runs of three or more as ranges (parsed faster).

    >>> _class_body(["0", "1", "2", "3", "A", "a", "b"])
    '\\\\x30-\\\\x33\\\\x41\\\\x61\\\\x62'
    """
    out: list[str] = []
    i = 0
    while i < len(chars):
        j = i
        while j + 1 < len(chars) and ord(chars[j + 1]) == ord(chars[j]) + 1:
            j += 1
        if j - i >= 2:
            out.append(f"\\x{ord(chars[i]):02x}-\\x{ord(chars[j]):02x}")
        else:
            out.extend(f"\\x{ord(c):02x}" for c in chars[i : j + 1])
        i = j + 1
    return "".join(out)


def first_char_class(pattern: re.Pattern[str]) -> str | None:
    """A character class matching every character a match of ``pattern`` can start with.

    ``None`` when the pattern can match the empty string or cannot be analysed.

    >>> first_char_class(re.compile(r"(?<!\\d)\\b(?:ab|Cd)"))
    '[\\\\x43\\\\x61]'
    >>> first_char_class(re.compile(r"x*")) is None
    True
    """
    first = _analyse(pattern)
    return None if first is None else _char_class(first)


def first_ascii_chars(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """The ASCII characters a match of ``pattern`` can start with (``None``: any / unknown).

    >>> sorted(first_ascii_chars(re.compile(r"(?<!\\d)[+(]?\\d")))[:3]
    ['(', '+', '0']
    """
    first = _analyse(pattern)
    return None if first is None else first.chars


def _scoped(pattern: re.Pattern[str]) -> str | None:
    """The pattern's source with its global flags turned into a scoped group."""
    flags = pattern.flags & ~re.UNICODE
    letters = "".join(ch for ch, bit in (("i", re.IGNORECASE), ("m", re.MULTILINE), ("s", re.DOTALL),
                                         ("x", re.VERBOSE)) if flags & bit)
    if flags & ~(re.IGNORECASE | re.MULTILINE | re.DOTALL | re.VERBOSE):
        return None  # ASCII / LOCALE / DEBUG: keep the plain pattern
    src = pattern.pattern
    if flags & re.VERBOSE:
        src += "\n"  # a trailing comment must not swallow the closing parenthesis
    return f"(?{letters}:{src})" if letters else f"(?:{src})"


class _Match:
    """The parts of :class:`re.Match` the rules use, for a match found by a :class:`Scanner`."""

    __slots__ = ("_end", "_m", "_start")

    def __init__(self, m: re.Match[str], start: int, end: int) -> None:
        self._m, self._start, self._end = m, start, end

    def span(self, group: int | str = 0) -> tuple[int, int]:
        return (self._start, self._end) if group == 0 else self._m.span(group)

    def start(self, group: int | str = 0) -> int:
        return self.span(group)[0]

    def end(self, group: int | str = 0) -> int:
        return self.span(group)[1]

    def group(self, group: int | str = 0) -> str | None:
        if group == 0:
            return self._m.string[self._start : self._end]
        return self._m.group(group)

    def groupdict(self) -> dict[str, str | None]:
        d = self._m.groupdict()
        d.pop(_END, None)
        return d


class Scanner:
    """``finditer`` / ``search`` of a compiled pattern, with a start-position prefilter.

    ``mode`` is ``"word-start"``, ``"first-char"`` or ``"plain"`` (no prefilter applies).
    """

    __slots__ = ("_plan", "_wrapped", "mode", "pattern", "required", "start_filter")

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        #: strings of which every match contains one (``None``: no such set is known); a text
        #: holding none of them is not scanned (:mod:`notescrub.detect.rules.required`)
        self.required = required_literals(pattern)
        self.mode = "plain"
        self._wrapped: re.Pattern[str] | None = None
        self._plan: tuple[str, _First] | None = None  # (scoped body, first) until compiled
        #: in "word-start" mode, when no match starts with whitespace: a pattern that matches
        #: (``.match``) the first three characters of every match (see :meth:`finditer_from`)
        self.start_filter: re.Pattern[str] | None = None
        first = None if _END in pattern.groupindex else _analyse(pattern)
        body = _scoped(pattern)
        if first is None or body is None or _GLOBAL_FLAGS.match(pattern.pattern):
            return  # (a global inline flag cannot be scoped inside the wrapper)
        word_only = first.non_ascii != _ANY and all(_is_word(c) for c in first.chars)
        # a word-start pattern is wrapped on first use (a rule served by a StartIndex may never need it)
        self._plan = (body, first)
        if first.nonword_before or (first.boundary and word_only):
            self.mode = "word-start"  # the character before a match is never a word character
            # an index serves a rule whose matches start at few word starts: not one that may start
            # at any lower-case word (``email``, ``url-domain``), where scanning is cheaper
            everywhere = sum(c.islower() for c in first.chars) >= 20 and _prefix_filter(pattern, selective=True) is None
            if first.non_ascii != _ANY and not any(c.isspace() for c in first.chars) and not everywhere:
                try:
                    self.start_filter = re.compile(_prefix_filter(pattern) or _char_class(first))
                except (re.error, RecursionError, OverflowError):
                    self.start_filter = None
        else:
            self.mode = "first-char"
            self._wrapped_pattern()  # every scan needs it: compile now (mode "plain" if it cannot be)

    def _wrapped_pattern(self) -> re.Pattern[str] | None:
        """The rewritten pattern (see the module docstring); ``None``: scan plainly."""
        if self._wrapped is None and self._plan is not None:
            body, first = self._plan
            self._plan = None
            cls = _char_class(first)
            # the first few characters of a match, checked before the pattern itself runs
            pre = _prefix_filter(self.pattern, selective=True) or cls
            look = f"(?={body}(?P<{_END}>))"
            try:
                if self.mode == "word-start":  # scan for the characters before a word
                    self._wrapped = re.compile(f"[^\\w](?={pre}){look}")
                else:
                    self._wrapped = re.compile(f"{cls}(?<=(?={pre}){look}[\\s\\S])")
            except (re.error, RecursionError, OverflowError):
                self._wrapped, self.mode, self.start_filter = None, "plain", None
        return self._wrapped

    def _candidates(self, text: str, pos: int) -> Iterator[tuple[re.Match[str] | Any, int, int]]:
        """(match, start, end) of the pattern at every candidate start >= ``pos``, in order."""
        wrapped = self._wrapped_pattern()
        assert wrapped is not None
        if self.mode == "first-char":
            for m in wrapped.finditer(text, pos):
                yield m, m.start(), m.start(_END)
            return
        # word-start: the wrapped match is the character before the start; the first
        # position has no such character inside the searched range, so try it directly
        m0 = self.pattern.match(text, pos)
        if m0 is not None:
            yield m0, m0.start(), m0.end()
        for m in wrapped.finditer(text, pos):
            yield m, m.end(), m.start(_END)

    def may_match(self, text: str) -> bool:
        """False when ``text`` holds none of the :attr:`required` strings: no match is possible."""
        req = self.required
        return req is None or any(s in text for s in req)

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None) -> Iterator[Any]:
        """Same matches as ``pattern.finditer(text, pos, endpos)``."""
        if not self.may_match(text):
            return
        if self._wrapped_pattern() is None or (endpos is not None and endpos < len(text)):
            # an endpos would cut the lookahead short differently: keep the exact semantics
            yield from self.pattern.finditer(text, pos, len(text) if endpos is None else endpos)
            return
        last = pos
        for m, start, end in self._candidates(text, pos):
            if start < last:  # inside the previous match: finditer would not look here
                continue
            last = end
            yield m if isinstance(m, re.Match) and m.re is self.pattern else _Match(m, start, end)

    def finditer_from(self, text: str, starts: Iterable[int]) -> Iterator[re.Match[str]]:
        """Same matches as :meth:`finditer` given, in increasing order, every position where a
        match can start (a superset: those of a :class:`~notescrub.detect.rules.start_index.StartIndex`).

        The pattern runs only there (``pattern.match(text, pos)`` sees the text before
        ``pos``, so lookbehinds and ``\\b`` behave as in a scan); a candidate inside the
        previous match is skipped, as ``finditer`` would.

        >>> sc = Scanner(re.compile(r"(?<![\\w])(?i:dr)\\.?\\s+[A-Z][a-z]+"))
        >>> [m.group() for m in sc.finditer_from("Dr Vega, dr. Ruiz", [0, 3, 9, 13])]
        ['Dr Vega', 'dr. Ruiz']
        """
        if not self.may_match(text):
            return
        match = self.pattern.match
        last = 0
        for p in starts:
            if p < last:
                continue
            m = match(text, p)
            if m is not None:
                last = m.end()
                yield m

    def search(self, text: str, pos: int = 0) -> Any:
        """Same as ``pattern.search(text, pos)`` (a match-like object, or ``None``)."""
        for m in self.finditer(text, pos):
            return m
        return None
