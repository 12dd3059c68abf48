"""LingPipe's BMEWO+ tag set: entity tags plus outside tags that know their neighbours.

An HMM tagger sees only one token per emission, so LingPipe's chunker enriches the
tags instead: an entity of type ``X`` is ``W_X`` (one token) or ``B_X M_X… E_X``; a run
of outside tokens is ``WW_O_R`` (one token) or ``BB_O_L MM_O… EE_O_R``, where ``L`` is
the type of the entity just before the run and ``R`` the type just after it (``BOS``
and ``EOS`` at the ends of the sequence). The token before a doctor's name thus has
its own state (``EE_O_DOCTOR``: ``Dr``, ``.``) and its own emission model.

:class:`Codec` enumerates the states for a set of types, says which transitions are
legal, and converts between chunks ``(first, last, type)`` over token indices and tag
sequences.

>>> c = Codec(["DATE", "DOCTOR"])
>>> tags = c.encode(5, [(1, 2, "DOCTOR")])
>>> tags
['WW_O_DOCTOR', 'B_DOCTOR', 'E_DOCTOR', 'BB_O_DOCTOR', 'EE_O_EOS']
>>> c.decode(tags)
[(1, 2, 'DOCTOR')]
>>> c.legal("E_DOCTOR", "BB_O_DOCTOR"), c.legal("E_DOCTOR", "BB_O_DATE")
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from notescrub.errors import ModelError

__all__ = ["Chunk", "Codec"]

Chunk = tuple[int, int, str]  # (first token, last token inclusive, type)

BOS, EOS = "BOS", "EOS"


class Codec:
    """BMEWO+ states for ``types`` (entity labels; ``BOS``/``EOS`` are reserved)."""

    def __init__(self, types: Iterable[str]) -> None:
        self.types = sorted(set(types))
        for t in self.types:
            if t in (BOS, EOS):
                raise ModelError(f"entity type {t!r} is reserved by the BMEWO+ codec")
        states: list[str] = []
        for t in self.types:
            states += [f"B_{t}", f"M_{t}", f"E_{t}", f"W_{t}"]
        for t in [BOS, *self.types]:
            states.append(f"BB_O_{t}")
        states.append("MM_O")
        for t in [*self.types, EOS]:
            states += [f"EE_O_{t}", f"WW_O_{t}"]
        self.states = states
        self.index = {s: i for i, s in enumerate(states)}

    def __len__(self) -> int:
        return len(self.states)

    # -- structure --------------------------------------------------------------------
    @staticmethod
    def _parts(state: str) -> tuple[str, str]:
        kind, _, typ = state.partition("_")
        if kind in ("BB", "EE", "WW"):
            typ = typ[2:]  # strip "O_"
        return kind, typ

    def legal(self, a: str, b: str) -> bool:
        """May state ``b`` follow state ``a``?"""
        ka, ta = self._parts(a)
        kb, tb = self._parts(b)
        if ka in ("B", "M"):
            return kb in ("M", "E") and tb == ta
        if ka in ("E", "W"):  # an entity ended: next is an entity or an outside run after ta
            return kb in ("B", "W") or (kb == "BB" and tb == ta) or kb == "WW"
        if ka in ("BB", "MM"):  # inside an outside run
            return kb in ("MM", "EE")
        # EE / WW: the outside run ended and announced type ta (never EOS mid-sequence)
        return kb in ("B", "W") and tb == ta

    def can_start(self, s: str) -> bool:
        k, t = self._parts(s)
        return k in ("B", "W") or (k == "BB" and t == BOS) or (k == "WW")

    def can_end(self, s: str) -> bool:
        k, t = self._parts(s)
        return k in ("E", "W") or (k in ("EE", "WW") and t == EOS)

    def transition_mask(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Boolean masks: ``legal[a, b]``, ``start[s]``, ``end[s]``."""
        n = len(self.states)
        legal = np.zeros((n, n), dtype=bool)
        for i, a in enumerate(self.states):
            for j, b in enumerate(self.states):
                legal[i, j] = self.legal(a, b)
        start = np.array([self.can_start(s) for s in self.states])
        end = np.array([self.can_end(s) for s in self.states])
        return legal, start, end

    # -- conversion -------------------------------------------------------------------
    def encode(self, n: int, chunks: Sequence[Chunk]) -> list[str]:
        """Tags of ``n`` tokens given non-overlapping, sorted ``chunks``."""
        tags: list[str | None] = [None] * n
        prev_end, prev_type = -1, BOS
        for first, last, typ in [*sorted(chunks), (n, n, EOS)]:
            if first <= prev_end or last < first:
                raise ModelError(f"chunks overlap or are empty at token {first}")
            self._outside(tags, prev_end + 1, first, prev_type, typ)
            if typ == EOS:
                break
            if f"W_{typ}" not in self.index:
                raise ModelError(f"type {typ!r} is not known to this codec")
            if first == last:
                tags[first] = f"W_{typ}"
            else:
                tags[first] = f"B_{typ}"
                for k in range(first + 1, last):
                    tags[k] = f"M_{typ}"
                tags[last] = f"E_{typ}"
            prev_end, prev_type = last, typ
        return [t for t in tags if t is not None]

    @staticmethod
    def _outside(tags: list[str | None], lo: int, hi: int, left: str, right: str) -> None:
        if hi - lo == 1:
            tags[lo] = f"WW_O_{right}"
        elif hi - lo >= 2:
            tags[lo] = f"BB_O_{left}"
            for k in range(lo + 1, hi - 1):
                tags[k] = "MM_O"
            tags[hi - 1] = f"EE_O_{right}"

    def decode(self, tags: Sequence[str]) -> list[Chunk]:
        """Chunks of a (legal) tag sequence."""
        out: list[Chunk] = []
        start = None
        for i, tag in enumerate(tags):
            kind, typ = self._parts(tag)
            if kind == "W":
                out.append((i, i, typ))
            elif kind == "B":
                start = i
            elif kind == "E" and start is not None:
                out.append((start, i, typ))
                start = None
        return out
