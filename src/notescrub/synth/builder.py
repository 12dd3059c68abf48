"""Build a note's text and its gold PHI spans together, so offsets are exact by construction.

A :class:`NoteBuilder` appends literal text (:meth:`~NoteBuilder.text`) and PHI mentions
(:meth:`~NoteBuilder.phi`); each PHI mention records its ``[start, end)`` at the moment it is
appended. Noise that changes lengths (double spaces, typos, fused tokens) is applied to a
piece *before* it is appended; noise applied afterwards (hard line wraps) only swaps a space
for a newline, so it never moves an offset. Nothing ever searches the text for a value.

>>> import random
>>> b = NoteBuilder(random.Random(0))
>>> b.text("Seen by Dr. "); b.phi("DOCTOR", "Jane Ruiz"); b.text(" on "); b.phi("DATE", "3/18", fuse=True)
>>> text, spans = b.build()
>>> text
'Seen by Dr. Jane Ruiz on3/18'
>>> [(text[s.start:s.end], s.label) for s in spans]
[('Jane Ruiz', 'DOCTOR'), ('3/18', 'DATE')]
>>> hard_wrap("alpha beta gamma delta", 11)
'alpha beta\\ngamma delta'
"""

from __future__ import annotations

import random
import re

from notescrub.errors import OffsetError
from notescrub.text.tokenize import tokenize
from notescrub.types import Span

__all__ = ["NoteBuilder", "hard_wrap", "token_boundary", "typo"]

_WORD = re.compile(r"[A-Za-z]{5,}")


def token_boundary(left: str, right: str) -> bool:
    """True when the clinical tokenizer splits ``left + right`` exactly at the junction, so a
    fused PHI mention (``Since6/03/04``, ``JaffreyMarital``) still starts or ends on a token edge.

    >>> token_boundary("Since", "6/03/04"), token_boundary("Jaffrey", "Marital"), token_boundary("on", "november")
    (True, True, False)
    """
    if not left or not right:
        return True
    i = len(left)
    while i > 0 and not left[i - 1].isspace():
        i -= 1
    word_left = left[i:]
    j = 0
    while j < len(right) and not right[j].isspace():
        j += 1
    joined = word_left + right[:j]
    return len(word_left) in {t.start for t in tokenize(joined)}


def typo(word: str, rng: random.Random) -> str:
    """A plausible typing slip: swap two inner letters, drop or double one.

    >>> typo("patient", random.Random(1)) != "patient"
    True
    """
    if len(word) < 4:
        return word
    i = rng.randrange(1, len(word) - 2)
    kind = rng.random()
    if kind < 0.5 and word[i] != word[i + 1]:
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    if kind < 0.8:
        return word[:i] + word[i + 1 :]
    return word[:i] + word[i] + word[i:]


class NoteBuilder:
    """Accumulates text pieces and PHI spans with exact offsets.

    Parameters
    ----------
    rng:
        The random source for noise (one per note keeps generation deterministic).
    lower:
        Lower-case every piece (terse nursing shorthand, hurried portal messages).
    upper:
        Upper-case every piece (old all-caps reports).
    double_space:
        Probability that a single space in literal text becomes two.
    typo_rate:
        Probability that a long literal word gets a typing slip.
    """

    def __init__(
        self,
        rng: random.Random,
        *,
        lower: bool = False,
        upper: bool = False,
        double_space: float = 0.0,
        typo_rate: float = 0.0,
    ) -> None:
        self.rng = rng
        self.lower = lower
        self.upper = upper
        self.double_space = double_space
        self.typo_rate = typo_rate
        self._parts: list[str] = []
        self._spans: list[Span] = []
        self.values: list[str] = []  # the intended text of each span, for self-checks and tests
        self._pos = 0
        self._fuse_next = False

    # -- appending -------------------------------------------------------------
    def _case(self, s: str) -> str:
        if self.lower:
            low = s.lower()
            return low if len(low) == len(s) else s
        if self.upper:
            up = s.upper()
            return up if len(up) == len(s) else s
        return s

    def _noise(self, s: str) -> str:
        if self.typo_rate and self.rng.random() < self.typo_rate * 4:
            s = _WORD.sub(lambda m: typo(m.group(0), self.rng) if self.rng.random() < self.typo_rate else m.group(0), s)
        if self.double_space and " " in s:
            s = re.sub(r"(?<=\S) (?=\S)", lambda m: "  " if self.rng.random() < self.double_space else " ", s)
        return s

    def _tail(self, n: int = 48) -> str:
        out, size = [], 0
        for part in reversed(self._parts):
            out.append(part)
            size += len(part)
            if size >= n:
                break
        return "".join(reversed(out))

    def _append(self, s: str) -> None:
        self._parts.append(s)
        self._pos += len(s)

    def text(self, s: str, *, noisy: bool = True) -> None:
        """Append literal (non-PHI) text."""
        if not s:
            return
        s = self._case(self._noise(s) if noisy else s)
        if self._fuse_next:
            self._fuse_next = False
            if s[0] in " \n" and len(s) > 1 and self._parts and token_boundary(self._tail(), s[1:]):
                s = s[1:]
        self._append(s)

    def nl(self, n: int = 1) -> None:
        """Append ``n`` line breaks."""
        self.text("\n" * n, noisy=False)

    def phi(self, label: str, value: str, *, fuse: bool = False, fuse_after: bool = False) -> None:
        """Append a PHI mention and record its span.

        ``fuse`` removes one space before the mention (``Since6/03/04``); ``fuse_after``
        removes the space or line break that the next literal piece starts with
        (``JaffreyMarital``).
        """
        if not value or value != value.strip():
            raise OffsetError(f"PHI value for {label} is empty or padded with whitespace")
        self._fuse_next = False
        value = self._case(value)
        if fuse and self._parts and self._parts[-1].endswith((" ", "\t")) and token_boundary(self._tail()[:-1], value):
            last = self._parts[-1]
            self._parts[-1] = last[:-1]
            self._pos -= 1
        start = self._pos
        self._append(value)
        self._spans.append(Span(start, self._pos, label, source="synth"))
        self.values.append(value)
        self._fuse_next = fuse_after

    @property
    def position(self) -> int:
        """Current length of the text."""
        return self._pos

    def ends_with_newline(self) -> bool:
        return not self._parts or self._parts[-1].endswith("\n")

    # -- finishing -------------------------------------------------------------
    def build(self, *, wrap: int | None = None) -> tuple[str, list[Span]]:
        """Return ``(text, spans)``; optionally hard-wrap lines at ``wrap`` columns."""
        text = "".join(self._parts)
        if wrap:
            text = hard_wrap(text, wrap)
        for s in self._spans:  # cheap self-check: the contract of this module
            if s.end > len(text):
                raise OffsetError(f"synthetic span [{s.start}, {s.end}) past the text end")
        return text, list(self._spans)


def hard_wrap(text: str, width: int) -> str:
    """Break lines longer than ``width`` by turning a space into a newline (length-preserving)."""
    chars = list(text)
    line_start, last_space = 0, -1
    for i, c in enumerate(chars):
        if c == "\n":
            line_start, last_space = i + 1, -1
            continue
        if i - line_start >= width and last_space > line_start:
            chars[last_space] = "\n"
            line_start, last_space = last_space + 1, -1
        if c == " ":
            last_space = i
    return "".join(chars)
