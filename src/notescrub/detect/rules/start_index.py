"""Where rule matches can start in a document: found once, shared by all the rules.

A :class:`~notescrub.detect.rules.prefilter.Scanner` in ``word-start`` mode still reads the
whole note once per rule (~50 ns per character): with 80 rules that floor is most of
the rules' time, although most rules (trigger words: ``lives in``, ``daughter``,
``acct #``) match nowhere in a given note. A :class:`StartIndex` reads the note once:
every position after a non-word character (or at the start) whose character is not
whitespace, keyed by its next three characters. Which rules can start with a given
three-character key is decided once per distinct key (each rule's
:attr:`~notescrub.detect.rules.prefilter.Scanner.start_filter`, a necessary condition) and
remembered across documents. A rule then runs only at its candidate positions
(:meth:`~notescrub.detect.rules.prefilter.Scanner.finditer_from`), or not at all: same
matches, in the same order, as scanning.

>>> import re
>>> from notescrub.detect.rules.prefilter import Scanner
>>> rules = [Scanner(re.compile(r"(?i:\\b(?:daughter|son))\\s+(?P<phi>[A-Z][a-z]+)")),
...          Scanner(re.compile(r"(?<![\\w])\\d{3}-\\d{4}(?![\\w-])"))]
>>> idx = StartIndex(rules)
>>> idx.starts("Son Ali called 555-1234; sonogram")  # candidates: a superset of the matches
{0: [0, 25], 1: [15, 19]}
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from notescrub.detect.rules.prefilter import Scanner

__all__ = ["StartIndex"]

# a position after a non-word character (or the text start) holding a non-space
# character; group 1 is the key (the next three characters, fewer at the end)
_STARTS = re.compile(r"(?<!\w)(?=(\S[\s\S]{0,2}))")
# three-character keys; a long run of ids, numbers and names meets ever new ones, so the memo
# starts over at this size (about 7 MiB) instead of growing with the corpus
_MEMO_MAX = 50_000


class StartIndex:
    """Candidate start positions, per scanner, of every scanner that has a ``start_filter``.

    Parameters
    ----------
    scanners:
        The scanners (their positions in this sequence are the keys of :meth:`starts`);
        those without a ``start_filter`` are not indexed.
    """

    def __init__(self, scanners: Sequence[Scanner]) -> None:
        self._filters = [(k, sc.start_filter) for k, sc in enumerate(scanners) if sc.start_filter is not None]
        self._memo: dict[str, tuple[int, ...]] = {}

    @property
    def indexed(self) -> frozenset[int]:
        """Positions (in the scanner sequence) of the scanners this index serves."""
        return frozenset(k for k, _ in self._filters)

    def _rules_for(self, key: str) -> tuple[int, ...]:
        if len(self._memo) > _MEMO_MAX:
            self._memo.clear()
        got = self._memo[key] = tuple(k for k, f in self._filters if f.match(key))
        return got

    def starts(self, text: str) -> dict[int, list[int]]:
        """For every indexed scanner, the increasing positions where one of its matches may start."""
        out: dict[int, list[int]] = {k: [] for k, _ in self._filters}
        if not out:
            return out
        memo = self._memo
        for m in _STARTS.finditer(text):
            key = m.group(1)
            ids = memo.get(key)
            if ids is None:
                ids = self._rules_for(key)
            if ids:
                p = m.start()
                for k in ids:
                    out[k].append(p)
        return out
