"""Literal strings a regex match must contain: rules skip the notes that hold none of them.

Many rules end in a fixed word list (``..., Inc.`` / ``LLC``; ``Department of ...``) yet may
start at any capitalised word, so the start-position prefilters of
:mod:`notescrub.detect.rules.prefilter` still try them at every name, date and heading of a
note. :func:`required_literals` reads the parsed pattern once and finds a set of literal
strings such that **every** match contains at least one of them (a necessary condition,
never an approximation): a run of case-sensitive literal characters, or the union of such
sets over all the alternatives of a branch, or the set of a group repeated at least once.
Of the candidate sets in a sequence it keeps the most selective (longest shortest string,
then fewest strings). A note that contains none of the strings cannot hold a match, and a
few substring searches (C speed) decide that.

Case-insensitive parts, classes and lookarounds give no requirement, and the whole answer is
``None`` when no set of strings of at least ``min_length`` characters is required.

>>> import re
>>> required_literals(re.compile(r"(?<![\\w])[A-Z][a-z]+,? (?:Inc\\.?|LLC|Corp(?:oration)?)\\b"))
('Corp', 'Inc', 'LLC')
>>> required_literals(re.compile(r"(?i:lives in) [A-Z][a-z]+")) is None
True
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["MAX_STRINGS", "required_literals"]

#: more alternatives than this are not worth checking one by one
MAX_STRINGS = 64

_REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")


def _weight(s: str) -> int:
    """How selective a literal is: its characters other than whitespace."""
    return sum(not c.isspace() for c in s)


def _best(candidates: list[frozenset[str]]) -> frozenset[str] | None:
    """The most selective candidate: longest shortest string, then fewest strings."""
    ok = [c for c in candidates if c and len(c) <= MAX_STRINGS]
    if not ok:
        return None
    return max(ok, key=lambda c: (min(map(_weight, c)), -len(c), sorted(c)))


def _required(items: list[tuple[Any, Any]], flags: int) -> frozenset[str] | None:
    candidates: list[frozenset[str]] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            candidates.append(frozenset(["".join(run)]))
            run.clear()

    for op, av in items:
        name = str(op)
        if name == "LITERAL" and not flags & re.IGNORECASE:
            run.append(chr(av))
            continue
        flush()
        sub: frozenset[str] | None = None
        if name == "SUBPATTERN":
            _group, add, delete, p = av
            sub = _required(list(p), (flags | add) & ~delete)
        elif name == "ATOMIC_GROUP":
            sub = _required(list(av), flags)
        elif name == "BRANCH":
            alts = [_required(list(alt), flags) for alt in av[1]]
            if all(a is not None for a in alts):
                sub = frozenset().union(*alts)  # type: ignore[arg-type]
        elif name in _REPEATS:
            lo, _hi, p = av
            if lo >= 1:
                sub = _required(list(p), flags)
        # classes, ANY, categories, assertions, group references: no literal is certain
        if sub is not None:
            candidates.append(sub)
    flush()
    return _best(candidates)


def required_literals(pattern: re.Pattern[str], min_length: int = 3) -> tuple[str, ...] | None:
    """Strings (sorted) of which every match of ``pattern`` contains one, or ``None``.

    ``None`` also when the shortest such string would have under ``min_length`` characters
    other than whitespace (too common to be worth a search) or the pattern cannot be analysed.

    >>> required_literals(re.compile(r"\\d+ (?:Department|Office) of [A-Z]\\w+"))
    ('Department', 'Office')
    >>> required_literals(re.compile(r"(?:US|Federal) Agency")), required_literals(re.compile(r"\\d+ of"))
    ((' Agency',), None)
    """
    if not isinstance(pattern.pattern, str):
        return None
    from notescrub.detect.rules.prefilter import _parsed  # (the parse the scanner's analysis shares)

    try:
        parsed = _parsed(pattern.pattern, pattern.flags)
        got = _required(list(parsed), parsed.state.flags)
    except (re.error, AttributeError, TypeError, ValueError, ImportError, RecursionError):
        return None
    if got is None or min(map(_weight, got)) < min_length:
        return None
    return tuple(sorted(got))
