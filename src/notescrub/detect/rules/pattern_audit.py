"""Find the regex shape that backtracks quadratically (``X* Y? X*``) in packaged or user patterns.

regexploit reports only cubic or worse backtracking. The quadratic shape it does not report
is two unbounded repeats over overlapping characters with nothing between them that must
consume a character, as in ``\\s*:?\\s*$``: on a long run of blanks followed by a character
that makes the match fail, every split of the run between the two repeats is tried, per
starting position. A possessive first repeat (``\\s*+``) or an atomic group never backtracks
and is not reported.

>>> quadratic_pairs(r"^\\s*([A-Z]{2,9}?)\\s*:?\\s*$")
[('\\\\s', '\\\\s')]
>>> quadratic_pairs(r"^\\s*+([A-Z]{2,9}?)\\s*+:?\\s*+$")
[]
"""

from __future__ import annotations

import re
from re import _constants as C  # type: ignore[attr-defined]
from re import _parser as P  # type: ignore[attr-defined]

_ALPHABET = [chr(i) for i in range(0, 256)] + ["\u00a0", "\u2003", "\u3000", "é", "ß", "٣", "中"]
_CATEGORY = {
    C.CATEGORY_SPACE: str.isspace,
    C.CATEGORY_NOT_SPACE: lambda c: not c.isspace(),
    C.CATEGORY_DIGIT: lambda c: bool(re.match(r"\d", c)),
    C.CATEGORY_NOT_DIGIT: lambda c: not re.match(r"\d", c),
    C.CATEGORY_WORD: lambda c: bool(re.match(r"\w", c)),
    C.CATEGORY_NOT_WORD: lambda c: not re.match(r"\w", c),
}


def _variants(c: str, fold: bool) -> list[str]:
    return [c] + ([v for v in (c.lower(), c.upper()) if len(v) == 1] if fold else [])


def _chars(item, flags: int) -> frozenset[str] | None:
    """Characters (of a sample alphabet) one repeated item can match; None if not one character."""
    op, av = item
    fold = bool(flags & re.IGNORECASE)

    def lit(c: str, code: int) -> bool:
        return c.lower() == chr(code).lower() if fold else ord(c) == code

    if op is C.LITERAL:
        return frozenset(c for c in _ALPHABET if lit(c, av))
    if op is C.NOT_LITERAL:
        return frozenset(c for c in _ALPHABET if not lit(c, av))
    if op is C.ANY:
        return frozenset(c for c in _ALPHABET if c != "\n" or flags & re.DOTALL)
    if op is C.IN:
        negate = any(o is C.NEGATE for o, _ in av)
        out = set()
        for c in _ALPHABET:
            hit = False
            for o, a in av:
                if (
                    (o is C.LITERAL and lit(c, a))
                    or (o is C.RANGE and any(a[0] <= ord(v) <= a[1] for v in _variants(c, fold)))
                    or (o is C.CATEGORY and _CATEGORY.get(a, lambda _c: False)(c))
                ):
                    hit = True
            if hit != negate:
                out.add(c)
        return frozenset(out)
    return None


def _label(item) -> str:
    op, av = item
    if op is C.IN and len(av) == 1 and av[0][0] is C.CATEGORY:
        return {C.CATEGORY_SPACE: r"\s", C.CATEGORY_DIGIT: r"\d", C.CATEGORY_WORD: r"\w"}.get(av[0][1], str(av))
    if op is C.LITERAL:
        return chr(av)
    return op.name.lower()


def _can_be_empty(item) -> bool:
    op, av = item
    if op in (C.MAX_REPEAT, C.MIN_REPEAT):
        return av[0] == 0 or all(_can_be_empty(x) for x in av[2])
    if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
        return True
    if op is C.SUBPATTERN:
        return all(_can_be_empty(x) for x in av[-1])
    if op is C.BRANCH:
        return any(all(_can_be_empty(x) for x in alt) for alt in av[1])
    return False


def _walk(seq, flags: int, found: list[tuple[str, str]]) -> None:
    items = list(seq)
    for i, (op, av) in enumerate(items):
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            _walk(av[2], flags, found)
        elif op is C.SUBPATTERN:
            _walk(av[-1], flags, found)
        elif op is C.BRANCH:
            for alt in av[1]:
                _walk(alt, flags, found)
        elif op in (C.ASSERT, C.ASSERT_NOT):
            _walk(av[1], flags, found)
        elif op is C.ATOMIC_GROUP:
            _walk(av, flags, found)
        if op not in (C.MAX_REPEAT, C.MIN_REPEAT) or av[1] != C.MAXREPEAT or len(av[2]) != 1:
            continue
        first = _chars(av[2][0], flags)
        if not first:
            continue
        for op2, av2 in items[i + 1 :]:
            if op2 in (C.MAX_REPEAT, C.MIN_REPEAT) and av2[1] == C.MAXREPEAT and len(av2[2]) == 1:
                second = _chars(av2[2][0], flags)
                if second and first & second:
                    found.append((_label(av[2][0]), _label(av2[2][0])))
                    break
            if not _can_be_empty((op2, av2)):
                break


def quadratic_pairs(pattern: str, flags: int = 0) -> list[tuple[str, str]]:
    """Pairs of overlapping unbounded repeats separated only by optional items."""
    parsed = P.parse(pattern, flags)
    found: list[tuple[str, str]] = []
    _walk(parsed, parsed.state.flags, found)
    return found
