"""One summary line per kind of per-document warning, instead of one line per document.

Library code logs a per-document warning with ``extra={"summary": (singular, plural)}``;
the CLI installs :class:`WarningSummary` on its log handler, which counts such records
(showing each one only with ``-v``) and, at the end of the run, :meth:`lines` gives one
line per kind, so a ``-q`` run over a large corpus stays short.

>>> import logging
>>> s = WarningSummary(verbose=False)
>>> rec = logging.LogRecord("x", logging.WARNING, __file__, 1, "doc 1 is odd", None, None)
>>> rec.summary = ("document is odd", "documents are odd")
>>> s.filter(rec), s.filter(rec)
(False, False)
>>> s.lines()
['2 documents are odd; their ids with -v']
"""

from __future__ import annotations

import logging
from collections import Counter

__all__ = ["WarningSummary"]


class WarningSummary(logging.Filter):
    """Count log records carrying a ``summary`` attribute; let them through only when ``verbose``."""

    def __init__(self, verbose: bool = False) -> None:
        super().__init__()
        self.verbose = verbose
        self.counts: Counter[tuple[str, str]] = Counter()

    def filter(self, record: logging.LogRecord) -> bool:
        summary = getattr(record, "summary", None)
        if summary is None:
            return True
        self.counts[tuple(summary)] += 1
        return self.verbose

    def lines(self) -> list[str]:
        """``"N <plural>"`` (or ``"1 <singular>"``) per kind, in first-seen order."""
        hint = "" if self.verbose else ("; their ids with -v", "; its id with -v")
        out = []
        for (one, many), n in self.counts.items():
            text = f"1 {one}" if n == 1 else f"{n} {many}"
            out.append(text + (hint[1] if n == 1 else hint[0]) if hint else text)
        return out
