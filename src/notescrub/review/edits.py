"""The reviewer's actions on a note's spans, as pure functions on plain span records.

A review span is a dict: ``sid`` (stable id within the note), ``start``, ``end``,
``type`` (an i2b2-2014 subtype), ``score`` (the model's, ``None`` for added spans),
``source``, ``state`` (``proposed``, ``accepted`` or ``rejected``), ``origin``
(``model`` or ``reviewer``) and ``orig_type`` (the type the model gave).
:func:`apply_action` returns the new spans, the new status and a summary for the
edit log (offsets, types and counts only: never text).

>>> spans = [{"sid": 1, "start": 8, "end": 12, "type": "DOCTOR", "score": 0.9, "source": "crf",
...           "state": "proposed", "origin": "model", "orig_type": "DOCTOR"}]
>>> text = "Seen by Ruiz on 3/18."
>>> out, status, summary = apply_action(text, spans, "open", "retype", {"sid": 1, "type": "PATIENT"})
>>> out[0]["type"], out[0]["state"], summary
('PATIENT', 'accepted', {'sid': 1, 'from': 'DOCTOR', 'to': 'PATIENT'})
>>> out, status, summary = apply_action(text, out, status, "add", {"start": 16, "end": 20, "type": "DATE"})
>>> [(s["sid"], text[s["start"]:s["end"]], s["origin"]) for s in out]
[(1, 'Ruiz', 'model'), (2, '3/18', 'reviewer')]
>>> apply_action(text, out, status, "add", {"start": 9, "end": 14, "type": "DATE"})
Traceback (most recent call last):
...
notescrub.review.edits.EditError: the new span overlaps span 1 (DOCTOR/PATIENT): reject it or change its extent first
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from notescrub.errors import NotescrubError
from notescrub.taxonomy import subtypes

__all__ = ["ACTIONS", "EditError", "apply_action", "live_spans", "new_span"]

#: actions the page can send (``undo`` is handled by the store: it needs the log)
ACTIONS = ("accept", "reject", "retype", "add", "extent", "reviewed", "reopen")

ReviewSpan = dict[str, Any]


class EditError(NotescrubError, ValueError):
    """An edit that cannot be applied (bad offsets, unknown type or span, overlap)."""


def new_span(sid: int, start: int, end: int, type_: str, *, score: float | None = None, source: str = "review",
             origin: str = "reviewer", state: str = "accepted") -> ReviewSpan:
    """A review span record."""
    return {"sid": sid, "start": start, "end": end, "type": type_, "score": score, "source": source,
            "state": state, "origin": origin, "orig_type": type_}


def live_spans(spans: list[ReviewSpan]) -> list[ReviewSpan]:
    """The spans not rejected (what an export writes), in text order."""
    return sorted((s for s in spans if s["state"] != "rejected"), key=lambda s: (s["start"], s["end"]))


def _find(spans: list[ReviewSpan], args: Mapping[str, Any]) -> ReviewSpan:
    sid = args.get("sid")
    for s in spans:
        if s["sid"] == sid:
            return s
    raise EditError(f"this note has no span {sid!r} (reload the note)")


def _type(args: Mapping[str, Any]) -> str:
    t = args.get("type")
    if t not in subtypes():
        raise EditError(f"unknown PHI type {t!r}; use an i2b2-2014 subtype ({', '.join(subtypes())})")
    return str(t)


def _extent(text: str, args: Mapping[str, Any]) -> tuple[int, int]:
    start, end = args.get("start"), args.get("end")
    if not (isinstance(start, int) and isinstance(end, int)) or isinstance(start, bool) or isinstance(end, bool):
        raise EditError("start and end must be integers")
    if not 0 <= start < end <= len(text):
        raise EditError(f"offsets {start}-{end} are outside the note (0-{len(text)}) or empty")
    while start < end and text[start].isspace():  # a selection often takes a blank along
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start == end:
        raise EditError("the selection holds only white space")
    return start, end


def _no_overlap(spans: list[ReviewSpan], start: int, end: int, skip: int | None, what: str) -> None:
    for s in spans:
        if s["sid"] != skip and s["state"] != "rejected" and s["start"] < end and start < s["end"]:
            shown = s["type"] if s["type"] == s["orig_type"] else f"{s['orig_type']}/{s['type']}"
            raise EditError(f"{what} overlaps span {s['sid']} ({shown}): reject it or change its extent first")


def apply_action(text: str, spans: list[ReviewSpan], status: str, action: str,
                 args: Mapping[str, Any]) -> tuple[list[ReviewSpan], str, dict[str, Any]]:
    """Apply ``action`` (one of :data:`ACTIONS`) with ``args``; ``spans`` is not modified.

    Returns ``(new spans, new status, summary)``; raises :class:`EditError` when the
    action does not apply.
    """
    out = copy.deepcopy(spans)
    if action in ("accept", "reject"):
        s = _find(out, args)
        s["state"] = "accepted" if action == "accept" else "rejected"
        return out, status, {"sid": s["sid"], "type": s["type"]}
    if action == "retype":
        s = _find(out, args)
        old, s["type"] = s["type"], _type(args)
        s["state"] = "accepted"
        return out, status, {"sid": s["sid"], "from": old, "to": s["type"]}
    if action == "add":
        t = _type(args)
        start, end = _extent(text, args)
        _no_overlap(out, start, end, None, "the new span")
        sid = max((s["sid"] for s in out), default=0) + 1
        out.append(new_span(sid, start, end, t))
        out.sort(key=lambda s: (s["start"], s["end"], s["sid"]))
        return out, status, {"sid": sid, "type": t, "start": start, "end": end}
    if action == "extent":
        s = _find(out, args)
        start, end = _extent(text, args)
        _no_overlap(out, start, end, s["sid"], "the new extent")
        before = (s["start"], s["end"])
        s["start"], s["end"] = start, end
        if s["state"] == "proposed":
            s["state"] = "accepted"
        out.sort(key=lambda x: (x["start"], x["end"], x["sid"]))
        return out, status, {"sid": s["sid"], "from": list(before), "to": [start, end]}
    if action == "reviewed":
        implicit = 0
        for s in out:
            if s["state"] == "proposed":  # what the reviewer left alone is taken as right
                s["state"] = "accepted"
                implicit += 1
        return out, "reviewed", {"accepted": implicit, "spans": len(live_spans(out))}
    if action == "reopen":
        return out, "open", {}
    raise EditError(f"unknown action {action!r}; known: {', '.join((*ACTIONS, 'undo'))}")
