"""Negative cues: the ranges that block rules match in a note, computed once per note.

Block rules (``block = true`` in a rule file, e.g. the eponyms of ``en_blocks.toml``:
``Parkinson's disease``, ``Foley catheter``) mark text where a name is not a name. Both
:class:`~notescrub.detect.rules.detector.RulesDetector` and the dictionary detector need these ranges
for the same note, so they are an object of their own, :class:`NegativeCues`, that each
detector holds (``detector.negative_cues``) and that the model assembly may give to several
detectors: :func:`share_negative_cues` lets detectors with the same block rules read one
object, which remembers the ranges of the note it saw last (by the text object itself,
held, so a later note can never be mistaken for it).

>>> import re
>>> class Rule:   # what a cue needs of a rule: regex, group and matches(text)
...     regex, group = re.compile(r"Foley catheter"), 0
...     def matches(self, text): return [(m.start(), m.end(), 1.0) for m in self.regex.finditer(text)]
>>> cues = NegativeCues([Rule()])
>>> cues.ranges("Foley catheter placed by Dr. Foley.")
[(0, 14)]
>>> class Det:
...     def __init__(self): self.negative_cues = NegativeCues([Rule()])
>>> a, b = Det(), Det()
>>> share_negative_cues([a, b]), b.negative_cues is a.negative_cues
(1, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["NegativeCues", "share_negative_cues"]

Ranges = tuple[tuple[int, int], ...]


class NegativeCues:
    """The block ranges of ``rules`` (objects with ``regex``, ``group`` and ``matches(text)``).

    :meth:`ranges` remembers the last text it was asked about (a one-note memo: the rules
    detector and the dictionary ask about the same note one after the other).
    """

    def __init__(self, rules: Sequence[Any]) -> None:
        self.rules = tuple(rules)
        #: what the ranges depend on: equal signatures give equal ranges
        self.signature = tuple((r.regex.pattern, r.regex.flags, r.group) for r in self.rules)
        self._last: tuple[str, Ranges] | None = None

    def ranges(self, text: str) -> list[tuple[int, int]]:
        """Sorted ``(start, end)`` of every block-rule match in ``text`` (a fresh list)."""
        if not self.rules:
            return []
        last = self._last
        if last is not None and last[0] is text:
            return list(last[1])
        found = sorted((a, b) for r in self.rules for a, b, _ in r.matches(text))
        self._last = (text, tuple(found))
        return found

    def clear(self) -> None:
        """Forget the remembered note."""
        self._last = None


def share_negative_cues(detectors: Iterable[Any]) -> int:
    """Give detectors whose ``negative_cues`` have the same signature one object (the first
    one's), so a note's block ranges are computed once; returns how many were changed."""
    first: dict[tuple[Any, ...], NegativeCues] = {}
    changed = 0
    for det in detectors:
        cues = getattr(det, "negative_cues", None)
        if not isinstance(cues, NegativeCues) or not cues.rules:
            continue
        shared = first.setdefault(cues.signature, cues)
        if shared is not cues:
            det.negative_cues = shared
            changed += 1
    return changed
