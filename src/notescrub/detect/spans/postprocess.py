"""Post-processing rules for detector output, as validated packaged data (Dehghan et al. 2015).

The Manchester system corrected its CRF tags with hand-written rules that look at the
neighbouring tokens: *extend* a tag (a ``Hospital`` tag next to the word ``Hospital``
takes the whole window, "Barney Convalescent Hospital") or *remove* it (a ``Date`` tag
in a string with more than two ``/``, "140/4.0/107/25.7"). Here each rule is a
``[[rule]]`` table of a TOML file (``resources/postprocess/default.toml`` is packaged):

* ``name`` (unique), ``action`` (``"extend"``, ``"drop"``, ``"merge"``, ``"grow"`` or
  ``"split"``; each is its own small rule class), ``types``
  (canonical i2b2-2014 subtypes or native labels the rule applies to; empty = all),
  ``description``;
* ``extend``: ``heads`` (phrases) and/or ``lexicon`` (a lexicon name; its entries are
  heads too), ``direction`` (``"right"``, ``"left"``, ``"both"``), ``max_tokens`` (how
  many capitalised or connector tokens may separate the span from the head),
  ``head_capitalised`` (the head must start with a capital), ``require_capital`` (the
  span must start with a capital);
* ``drop``: any of ``span_pattern`` (searched in the span's text), ``chunk_pattern``
  (in the whitespace-delimited chunk around the span), ``context_pattern`` (in the
  span plus ``window`` characters on both sides, same line), ``after_pattern`` (matching
  at the start of the ``window`` characters after the span, same line), ``before_pattern`` (in the
  ``window`` characters before the span, same line), ``all_in`` (lexicons: every word of
  the span is in one of them; with ``all_in_except``, a regex, words fully matching it
  are not looked up, e.g. the model numbers of "Dexcom G7", but one word at least must
  be) -- all the given conditions must hold;
* ``merge``: ``gap_pattern`` (fully matching the text between two spans of the same
  label; they become one span);
* ``grow``: ``left_pattern`` (must match the text that ends right where the span starts,
  within ``window`` characters on the same line: the span takes it, e.g. the initial of
  "G. Pendry") and/or ``right_pattern`` (matching at the span's end, same line);
* ``column``: in a plain-text table (:mod:`notescrub.text.tables`), a column whose cells
  fully matching ``cell_pattern`` are already tagged with one of the rule's types at least
  ``min_found`` times and for at least ``min_share`` of them gets its other such cells
  tagged too, where no span touches them (the ages of a roster, the initials column of a
  log); the new span takes the label, source and lowest score of the column's tagged cells.
  Optional: ``header_pattern`` (a column whose first cell, its header, fully matches it
  counts as found even with no tagged cell: "Age", "Tech"; its new spans take
  ``header_label``, one of the rule's types, and ``header_score``) and ``complete_cells``
  (a cell that only spans of the rule's types touch, all inside it, becomes one span:
  "Desir, [Wisly]" -> "[Desir, Wisly]");
* ``add``: new spans where the detectors left a gap. ``pattern`` (its first group named
  ``phi``, ``phi2``, ... that took part in the match, else the whole match) becomes a span
  of ``label`` at ``score`` (default 0.6) wherever no span touches it. With ``anchor = "after"`` the pattern must match right at the end of a span of the
  rule's ``types`` (within ``window`` characters, same line: the state after "Batesville, "),
  with ``anchor = "before"`` it must end right where such a span starts (it ends with ``$``:
  the postcode before "Zürich"); without ``anchor`` it is searched in the whole text.
  ``line_pattern`` (optional) must be found in the match's line (a flight line for airport
  codes), ``doc_pattern`` (optional) somewhere in the document (a date written day first,
  before a short "21.02" counts as a date), ``all_in`` (lexicons: every word of the new span is
  in one of them). ``label = "@anchor"`` gives the new span the anchor span's label (a name's
  native-script form in brackets after it); ``absorb = true`` lets a match cover spans of its
  own label that lie inside it, which it replaces (a street the tagger found in part);
  ``doc_literals`` (lower-case strings, rules without anchor) is a cheap gate: the pattern is
  searched only in a document whose lower-cased text contains one of them, a superset of
  what every match needs (a month stem for a month pattern). ``phrases_from`` (a lexicon
  name) fills the placeholder ``{phrases}`` of ``pattern`` with the lexicon's entries as one
  alternation (escaped, longest first, a space matching any run of spaces, tabs and line
  breaks), less the entries listed in ``phrases_except`` (the holidays of a schedule:
  "over Diwali", "Eid al-Adha", but not "lent" the verb). The rule runs on each target's
  spans, so a match another target already covers can come twice; the resolver keeps one;
* ``split``: ``split_pattern`` cuts the span into pieces (a column gap in
  "Kalani Makoa         Date", the parenthesis of "Ann Lee (proxy for Bo Lee"); each piece
  loses a leading ``strip_left_pattern`` / trailing ``strip_right_pattern`` match, and a
  piece whose words are all in the ``all_in`` lexicons is dropped unless one of its words
  is in a ``keep_in`` lexicon (a piece without a letter or digit always is). When no piece
  is left the span is kept as it was (recall first).

Any error (bad TOML, unknown key, action, lexicon, bad regex, duplicate name) raises
:class:`~notescrub.errors.ConfigError` naming the file, the line and the rule.

>>> from notescrub.types import Document, Span
>>> pp = PostProcessor()
>>> doc = Document("d", "Seen at Barney Convalescent Hospital; K 140/4.0/107/25 today.")
>>> spans = [Span(8, 14, "HOSPITAL", 0.7, "crf"), Span(40, 47, "DATE", 0.6, "crf")]
>>> [(doc.span_text(s), s.label, s.meta.get("post")) for s in pp.apply(doc, spans)]
[('Barney Convalescent Hospital', 'HOSPITAL', 'extend-facility-head')]
"""

from __future__ import annotations

import logging
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from notescrub.errors import ConfigError
from notescrub.text.views import TokenView, token_view
from notescrub.types import Document, Span

__all__ = ["ACTIONS", "AddRule", "ColumnRule", "DropRule", "ExtendRule", "GrowRule", "MergeRule", "PostProcessor", "PostRule", "SplitRule",
           "load_post_rules", "packaged_post_files"]

log = logging.getLogger(__name__)

ACTIONS = ("extend", "drop", "merge", "grow", "split", "column", "add")
_PACKAGE = "notescrub.resources.postprocess"
_COMMON_KEYS = {"name", "action", "types", "description"}
_KEYS = {
    "extend": _COMMON_KEYS | {"heads", "lexicon", "direction", "max_tokens", "head_capitalised", "require_capital"},
    "drop": _COMMON_KEYS | {"span_pattern", "chunk_pattern", "context_pattern", "before_pattern", "after_pattern",
                            "window", "all_in", "all_in_except"},
    "merge": _COMMON_KEYS | {"gap_pattern"},
    "grow": _COMMON_KEYS | {"left_pattern", "right_pattern", "window"},
    "split": _COMMON_KEYS | {"split_pattern", "strip_left_pattern", "strip_right_pattern", "all_in", "keep_in"},
    "column": _COMMON_KEYS | {"cell_pattern", "min_found", "min_share", "header_pattern", "header_label",
                              "header_score", "complete_cells"},
    "add": _COMMON_KEYS | {"pattern", "label", "score", "anchor", "window", "line_pattern", "doc_pattern", "absorb",
                           "all_in", "doc_literals", "phrases_from", "phrases_except"},
}
_DROP_CONDITIONS = ("span_pattern", "chunk_pattern", "context_pattern", "before_pattern", "after_pattern", "all_in")
_CONNECTORS = frozenset({"of", "and", "&", "the", "st", ".", "'", "’", "s", "-", "de", "del", "la", "el", "los",
                         "las", "y", "san", "santa"})
_WORD = re.compile(r"\w+")
_COMPOUND = re.compile(r"\w+(?:-\w+)*")
_POSSESSIVE = re.compile(r"['’]s\b|(?<=s)['’]")


@dataclass(frozen=True)
class PostRule:
    """What every post-processing rule has: a name, the types it applies to, its origin.

    Each action is its own small class (:class:`ExtendRule`, :class:`DropRule`,
    :class:`MergeRule`, :class:`GrowRule`, :class:`SplitRule`, :class:`ColumnRule`, :class:`AddRule`) with only
    its own fields and a :meth:`run` that maps one document's sorted spans to the corrected ones.
    """

    name: str
    types: frozenset[str] = frozenset()
    description: str = ""
    origin: str = ""
    action = ""  # the TOML ``action`` of the subclass

    def applies_to(self, span: Span) -> bool:
        """Whether the rule's ``types`` cover ``span`` (by native label or canonical subtype)."""
        memo = self._applies
        got = memo.get(span.label)
        if got is None:
            got = memo[span.label] = not self.types or span.label in self.types or (span.phi or "") in self.types
        return got

    @cached_property
    def _applies(self) -> dict[str, bool]:
        """label -> :meth:`applies_to` (it depends on the label only)."""
        return {}

    def run(self, doc: Document, view: TokenView, spans: list[Span]) -> list[Span]:
        """The spans after this rule (``spans`` sorted by :meth:`Span.sort_key`)."""
        raise NotImplementedError


@dataclass(frozen=True)
class ExtendRule(PostRule):
    """``extend``: a span takes a neighbouring head phrase ("Barney Convalescent" + "Hospital")."""

    heads: tuple[tuple[str, ...], ...] = ()
    direction: str = "right"
    max_tokens: int = 3
    head_capitalised: bool = True
    require_capital: bool = False
    action = "extend"

    @cached_property
    def heads_by_first(self) -> dict[str, tuple[tuple[str, ...], ...]]:
        """:attr:`heads` by their first word, in rule order (so the first match is the same)."""
        out: dict[str, list[tuple[str, ...]]] = {}
        for h in self.heads:
            out.setdefault(h[0], []).append(h)
        return {k: tuple(v) for k, v in out.items()}

    @cached_property
    def heads_by_last(self) -> dict[str, tuple[tuple[str, ...], ...]]:
        """:attr:`heads` by their last word, in rule order."""
        out: dict[str, list[tuple[str, ...]]] = {}
        for h in self.heads:
            out.setdefault(h[-1], []).append(h)
        return {k: tuple(v) for k, v in out.items()}

    def run(self, doc: Document, view: TokenView, spans: list[Span]) -> list[Span]:
        return _dedupe([_extend(self, doc, view, s) if self.applies_to(s) else s for s in spans])


@dataclass(frozen=True)
class DropRule(PostRule):
    """``drop``: a span goes when every given condition holds (patterns, lexicons)."""

    span_pattern: re.Pattern[str] | None = None
    chunk_pattern: re.Pattern[str] | None = None
    context_pattern: re.Pattern[str] | None = None
    before_pattern: re.Pattern[str] | None = None
    after_pattern: re.Pattern[str] | None = None
    window: int = 20
    all_in: tuple[str, ...] = ()
    all_in_except: re.Pattern[str] | None = None
    action = "drop"

    def run(self, doc: Document, view: TokenView, spans: list[Span]) -> list[Span]:
        return [s for s in spans if not (self.applies_to(s) and _drop(self, doc, s))]


@dataclass(frozen=True)
class ColumnRule(PostRule):
    """``column``: fill a table column whose matching cells are mostly tagged already (see module doc)."""

    cell_pattern: re.Pattern[str] | None = None
    min_found: int = 2
    min_share: float = 0.5
    header_pattern: re.Pattern[str] | None = None
    header_label: str = ""
    header_score: float = 0.7
    complete_cells: bool = False
    action = "column"

    def run(self, doc: Document, view: TokenView, spans: list[Span]) -> list[Span]:
        from bisect import bisect_left

        from notescrub.text.tables import columns

        text = doc.text
        # every column rule of a document reads the same tables: found once, kept on the document
        cols = doc.cached("notescrub.post.table_columns", lambda d: columns(d.text)) \
            if spans or self.header_pattern is not None else []
        if not cols:
            return spans
        assert self.cell_pattern is not None
        # every cell once, in text order (cells never overlap): which spans touch it
        cells = sorted({c for col in cols for c in col})
        cell_starts = [a for a, _ in cells]
        touched = [False] * len(cells)
        foreign = [False] * len(cells)  # touched by a span of another type
        hits: dict[int, list[Span]] = {}
        for sp in spans:  # each span walks back over the cells it overlaps: linear overall
            j = bisect_left(cell_starts, sp.end)
            while j > 0 and cells[j - 1][1] > sp.start:
                j -= 1
                touched[j] = True
                if self.applies_to(sp):
                    hits.setdefault(j, []).append(sp)
                else:
                    foreign[j] = True
        at = {c: k for k, c in enumerate(cells)}
        added: dict[int, Span] = {}
        replaced: set[int] = set()  # ids of spans a completed cell replaces
        for col in cols:
            ks = [at[c] for c in col if self.cell_pattern.fullmatch(text, c[0], c[1])]
            tagged = [k for k in ks if k in hits]
            header = self.header_pattern is not None and bool(self.header_pattern.fullmatch(text, *col[0]))
            if header:  # the header cell itself ("RN", "BY") is no value of the column
                ks = [k for k in ks if cells[k] != col[0]]
            if not ks or (not header and (not tagged or len(tagged) < max(self.min_found, self.min_share * len(ks)))):
                continue
            label, score, source = self._model(tagged, hits)
            for k in ks:
                a, b = cells[k]
                if not touched[k] and k not in added:
                    added[k] = Span(a, b, label, score, source, meta={"post": self.name})
                elif self.complete_cells and k in hits and not foreign[k] and k not in added:
                    inside = hits[k]
                    if all(a <= h.start and h.end <= b for h in inside) and not any(
                            h.start == a and h.end == b for h in inside):
                        first = min(inside, key=lambda h: h.score)
                        added[k] = Span(a, b, first.label, first.score, first.source, meta={"post": self.name})
                        replaced.update(id(h) for h in inside)
        if not added:
            return spans
        kept = [sp for sp in spans if id(sp) not in replaced] if replaced else spans
        return sorted(kept + list(added.values()), key=Span.sort_key)

    def _model(self, tagged: list[int], hits: dict[int, list[Span]]) -> tuple[str, float, str]:
        """Label, score and source of a column's new spans: the majority label of its tagged
        cells with their lowest score, or for a column found by its header alone
        ``header_label`` at ``header_score``."""
        votes: dict[str, int] = {}
        for k in tagged:
            for hit in hits[k]:
                votes[hit.label] = votes.get(hit.label, 0) + 1
        if not votes:
            return self.header_label, self.header_score, "post"
        label = max(sorted(votes), key=lambda lab: votes[lab])
        model = min((h for k in tagged for h in hits[k] if h.label == label), key=lambda h: h.score)
        return label, model.score, model.source


@dataclass(frozen=True)
class AddRule(PostRule):
    """``add``: a new span where ``pattern`` matches and no span is (see module doc)."""

    pattern: re.Pattern[str] | None = None
    label: str = ""
    score: float = 0.6
    anchor: str = ""
    window: int = 20
    line_pattern: re.Pattern[str] | None = None
    doc_pattern: re.Pattern[str] | None = None
    absorb: bool = False
    all_in: tuple[str, ...] = ()
    doc_literals: tuple[str, ...] = ()
    action = "add"

    def run(self, doc: Document, view: TokenView, spans: list[Span]) -> list[Span]:
        from bisect import bisect_left, bisect_right

        assert self.pattern is not None
        text, pat = doc.text, self.pattern
        groups = self._phi_groups
        found: list[tuple[int, int, str]] = []  # (start, end, label) of each match's new span
        if not self.anchor:
            # the matches depend on the text alone: searched once per document, whichever
            # target's spans the rule runs on (one post-processor serves several targets)
            found = doc.cached(f"notescrub.post.add:{self.name}:{id(self)}", self._free_matches)
        elif self.doc_pattern is not None and self.doc_pattern.search(text) is None:
            return spans
        else:
            for s in spans:
                if not self.applies_to(s):
                    continue
                if self.anchor == "after":  # from the span's end to the window's or the line's end
                    stop = text.find("\n", s.end, s.end + self.window)
                    m = pat.match(text, s.end, s.end + self.window if stop < 0 else stop)
                else:  # ends at the span's start, from the window's or the line's start
                    lo = max(0, s.start - self.window)
                    lo = text.rfind("\n", lo, s.start) + 1 or lo
                    m = pat.search(text, lo, s.start)
                if m is not None:
                    found.append((*_phi_extent(m, groups), s.label if self.label == "@anchor" else self.label))
        if not found:
            return spans
        # merged extents of the spans there are: a new span may touch none of them (or, with
        # absorb, only spans of its own label lying inside it, which it replaces)
        starts: list[int] = []
        ends: list[int] = []
        for s in spans:
            if ends and s.start <= ends[-1]:
                ends[-1] = max(ends[-1], s.end)
            else:
                starts.append(s.start)
                ends.append(s.end)
        span_starts = [s.start for s in spans]
        lines: dict[int, bool] = {}
        added: list[Span] = []
        absorbed: set[int] = set()
        seen, line_start = 0, 0  # candidates come in text order: a line's start is found once
        for a, b, label in sorted(found):
            if a < 0 or a >= b or (added and a < added[-1].end):
                continue
            k = bisect_right(starts, b) - 1  # the last merged extent starting at or before b
            if k >= 0 and ends[k] >= a:
                inside = spans[bisect_left(span_starts, a):bisect_left(span_starts, b)]
                j = bisect_right(starts, a) - 1  # the merged extent at a, if one runs across it
                crossing = j >= 0 and starts[j] < a < ends[j]
                if not (self.absorb and inside and not crossing and ends[k] <= b
                        and all(x.label == label and x.end <= b for x in inside)):
                    continue
                absorbed.update(id(x) for x in inside)
            if self.line_pattern is not None:
                nl = text.rfind("\n", seen, a)
                line_start = nl + 1 if nl >= 0 else line_start
                ls, seen = line_start, a
                if ls not in lines:
                    le = text.find("\n", b)
                    lines[ls] = self.line_pattern.search(text, ls, len(text) if le < 0 else le) is not None
                if not lines[ls]:
                    continue
            if self.all_in and not _all_in(text[a:b], self.all_in):
                continue
            added.append(Span(a, b, label, self.score, "post", meta={"post": self.name}))
        if not added:
            return spans
        kept = [x for x in spans if id(x) not in absorbed] if absorbed else spans
        return sorted(kept + added, key=Span.sort_key)

    def _free_matches(self, doc: Document) -> list[tuple[int, int, str]]:
        """(start, end, label) of the pattern's matches in the whole text (none when the
        ``doc_pattern`` is not found)."""
        assert self.pattern is not None
        if self.doc_literals:  # a cheap gate: none of the literals, no match possible
            low = doc.cached("notescrub.post.lower_text", lambda d: d.text.lower())
            if not any(lit in low for lit in self.doc_literals):
                return []
        if self.doc_pattern is not None and self.doc_pattern.search(doc.text) is None:
            return []
        groups = self._phi_groups
        return [(*_phi_extent(m, groups), self.label) for m in self.pattern.finditer(doc.text)]

    @cached_property
    def _phi_groups(self) -> list[str]:
        """The pattern's groups named ``phi``, ``phi2``, ... in pattern order."""
        assert self.pattern is not None
        index = self.pattern.groupindex
        return sorted((g for g in index if g.startswith("phi")), key=index.__getitem__)


def _phi_extent(m: re.Match[str], groups: list[str]) -> tuple[int, int]:
    """The extent of the first of ``groups`` (``phi``, ``phi2``, ...) that took part in ``m``, else of ``m``."""
    for g in groups:
        if m.start(g) >= 0:
            return m.span(g)
    return (m.span() if not groups else (-1, -1))


@dataclass(frozen=True)
class MergeRule(PostRule):
    """``merge``: two spans of one label with only ``gap_pattern`` between them become one."""

    gap_pattern: re.Pattern[str] | None = None
    action = "merge"

    def run(self, doc: Document, view: TokenView, spans: list[Span]) -> list[Span]:
        return _merge(self, doc, spans)


@dataclass(frozen=True)
class GrowRule(PostRule):
    """``grow``: a span takes the text its ``left_pattern``/``right_pattern`` match next to it."""

    left_pattern: re.Pattern[str] | None = None
    right_pattern: re.Pattern[str] | None = None
    window: int = 20
    action = "grow"

    def run(self, doc: Document, view: TokenView, spans: list[Span]) -> list[Span]:
        return _dedupe([_grow(self, doc, s) if self.applies_to(s) else s for s in spans])


@dataclass(frozen=True)
class SplitRule(PostRule):
    """``split``: a span is cut at ``split_pattern``; pieces made of ``all_in`` words go."""

    split_pattern: re.Pattern[str] | None = None
    strip_left_pattern: re.Pattern[str] | None = None
    strip_right_pattern: re.Pattern[str] | None = None
    all_in: tuple[str, ...] = ()
    keep_in: tuple[str, ...] = ()
    action = "split"

    def run(self, doc: Document, view: TokenView, spans: list[Span]) -> list[Span]:
        return sorted((p for s in spans for p in (_split(self, doc, s) if self.applies_to(s) else [s])),
                      key=Span.sort_key)


# --------------------------------------------------------------------------- loading
def packaged_post_files() -> list[str]:
    """Names of the packaged post-processing rule files."""
    root = resources.files(_PACKAGE)
    return sorted(p.name for p in root.iterdir() if p.name.endswith(".toml"))


def _line_of(text: str, name: str) -> int | None:
    for i, line in enumerate(text.splitlines(), 1):
        if re.search(r'name\s*=\s*["\']' + re.escape(name) + r'["\']', line):
            return i
    return None


def _regex(raw: Any, key: str, fail: Any) -> re.Pattern[str] | None:
    if raw is None:
        return None
    if not isinstance(raw, str) or not raw:
        raise fail(f"{key} must be a non-empty string")
    try:
        return re.compile(raw)
    except re.error as exc:
        raise fail(f"{key} is not a valid regular expression: {exc}") from exc


def _heads(raw: dict[str, Any], fail: Any) -> tuple[tuple[str, ...], ...]:
    from notescrub.lexicons import lexicon
    from notescrub.text.tokenize import tokenize

    phrases = raw.get("heads", [])
    if not isinstance(phrases, list) or not all(isinstance(p, str) and p.strip() for p in phrases):
        raise fail("heads must be a list of non-empty strings")
    entries = set(phrases)
    if "lexicon" in raw:
        try:
            entries |= lexicon(str(raw["lexicon"]))
        except ConfigError as exc:
            raise fail(exc.reason) from exc
    out = {tuple(t.text.lower() for t in tokenize(p)) for p in entries}
    out.discard(())
    if not out:
        raise fail("an extend rule needs heads or a lexicon")
    return tuple(sorted(out, key=lambda h: (-len(h), h)))


def _build_rule(raw: Any, path: str, text: str, index: int) -> PostRule:
    name = raw.get("name") if isinstance(raw, dict) else None
    line = _line_of(text, name) if isinstance(name, str) else None

    def fail(msg: str) -> ConfigError:
        return ConfigError(f"post-processing rule {name or f'#{index + 1}'!r}: {msg}", path=path, line=line)

    if not isinstance(raw, dict):
        raise fail("each [[rule]] must be a table")
    if not isinstance(name, str) or not name:
        raise fail("missing 'name'")
    action = raw.get("action")
    if action not in ACTIONS:
        raise fail(f"unknown action {action!r}; known: {', '.join(ACTIONS)}")
    unknown = set(raw) - _KEYS[action]
    if unknown:
        raise fail(f"unknown keys {sorted(unknown)} for action {action!r}")
    types = raw.get("types", [])
    if not isinstance(types, list) or not all(isinstance(t, str) and t for t in types):
        raise fail("types must be a list of labels")
    common: dict[str, Any] = {"name": name, "types": frozenset(types),
                              "description": str(raw.get("description", "")), "origin": f"{Path(path).name}:{line}"}
    if action == "extend":
        direction = raw.get("direction", "right")
        if direction not in ("right", "left", "both"):
            raise fail(f"direction must be 'right', 'left' or 'both', got {direction!r}")
        max_tokens = raw.get("max_tokens", 3)
        if not isinstance(max_tokens, int) or not 0 <= max_tokens <= 10:
            raise fail("max_tokens must be an integer in 0..10")
        return ExtendRule(**common, heads=_heads(raw, fail), direction=direction, max_tokens=max_tokens,
                        head_capitalised=bool(raw.get("head_capitalised", True)),
                        require_capital=bool(raw.get("require_capital", False)))
    if action == "grow":
        left = _regex(raw.get("left_pattern"), "left_pattern", fail)
        right = _regex(raw.get("right_pattern"), "right_pattern", fail)
        if left is None and right is None:
            raise fail("a grow rule needs left_pattern and/or right_pattern")
        if left is not None and not left.pattern.endswith("$"):
            raise fail("left_pattern must end with '$' (it matches the text right before the span)")
        return GrowRule(**common, left_pattern=left, right_pattern=right, window=_window(raw, fail))
    if action == "split":
        split = _regex(raw.get("split_pattern"), "split_pattern", fail)
        if split is None:
            raise fail("a split rule needs split_pattern")
        left = _regex(raw.get("strip_left_pattern"), "strip_left_pattern", fail)
        right = _regex(raw.get("strip_right_pattern"), "strip_right_pattern", fail)
        if right is not None and not right.pattern.endswith("$"):
            raise fail("strip_right_pattern must end with '$'")
        return SplitRule(**common, split_pattern=split, strip_left_pattern=left, strip_right_pattern=right,
                        all_in=_lexicon_names(raw, fail), keep_in=_lexicon_names(raw, fail, "keep_in"))
    if action == "column":
        return _column_rule(raw, common, fail)
    if action == "add":
        return _add_rule(raw, common, fail)
    if action == "drop":
        if not any(k in raw for k in _DROP_CONDITIONS):
            raise fail(f"a drop rule needs at least one of {', '.join(_DROP_CONDITIONS)}")
        all_in = _lexicon_names(raw, fail)
        window = _window(raw, fail)
        return DropRule(**common, span_pattern=_regex(raw.get("span_pattern"), "span_pattern", fail),
                        chunk_pattern=_regex(raw.get("chunk_pattern"), "chunk_pattern", fail),
                        context_pattern=_regex(raw.get("context_pattern"), "context_pattern", fail),
                        before_pattern=_regex(raw.get("before_pattern"), "before_pattern", fail),
                        after_pattern=_regex(raw.get("after_pattern"), "after_pattern", fail),
                        window=window, all_in=all_in,
                        all_in_except=_regex(raw.get("all_in_except"), "all_in_except", fail))
    gap = _regex(raw.get("gap_pattern"), "gap_pattern", fail)
    if gap is None:
        raise fail("a merge rule needs gap_pattern")
    return MergeRule(**common, gap_pattern=gap)


def _column_rule(raw: dict[str, Any], common: dict[str, Any], fail: Any) -> ColumnRule:
    cell = _regex(raw.get("cell_pattern"), "cell_pattern", fail)
    if cell is None:
        raise fail("a column rule needs cell_pattern")
    min_found = raw.get("min_found", 2)
    if not isinstance(min_found, int) or not 1 <= min_found <= 100:
        raise fail("min_found must be an integer in 1..100")
    share = raw.get("min_share", 0.5)
    if not isinstance(share, (int, float)) or not 0.0 < float(share) <= 1.0:
        raise fail("min_share must be a number in (0, 1]")
    header = _regex(raw.get("header_pattern"), "header_pattern", fail)
    label = raw.get("header_label", "")
    if header is not None and (not isinstance(label, str) or label not in common["types"]):
        raise fail("a column rule with header_pattern needs header_label, one of its types")
    if header is None and label:
        raise fail("header_label needs header_pattern")
    header_score = raw.get("header_score", 0.7)
    if not isinstance(header_score, (int, float)) or not 0.0 < float(header_score) <= 1.0:
        raise fail("header_score must be a number in (0, 1]")
    complete = raw.get("complete_cells", False)
    if not isinstance(complete, bool):
        raise fail("complete_cells must be true or false")
    return ColumnRule(**common, cell_pattern=cell, min_found=min_found, min_share=float(share), header_pattern=header,
                      header_label=label, header_score=float(header_score), complete_cells=complete)


def _phrase_alternation(raw: dict[str, Any], fail: Any) -> str | None:
    """The regex alternation of the ``phrases_from`` lexicon's entries (less ``phrases_except``), or None."""
    name = raw.get("phrases_from")
    skip = raw.get("phrases_except", [])
    if name is None:
        if skip:
            raise fail("phrases_except needs phrases_from")
        return None
    if not isinstance(skip, list) or not all(isinstance(x, str) and x for x in skip):
        raise fail("phrases_except must be a list of non-empty strings")
    from notescrub.lexicons import lexicon
    try:
        entries = lexicon(str(name))
    except ConfigError as exc:
        raise fail(exc.reason) from exc
    unknown = sorted(x for x in skip if x not in entries)
    if unknown:
        raise fail(f"phrases_except names entries the lexicon {name!r} lacks: {', '.join(unknown)}")
    kept = entries - set(skip)
    if not kept:
        raise fail(f"phrases_from {name!r} leaves no phrase")
    return _trie_alternation(" ".join(e.split()) for e in kept)


def _trie_alternation(phrases: Iterable[str]) -> str:
    """One regex matching any of ``phrases``, longest first, written as a trie (shared prefixes
    are matched once, so a long list costs little more per position than a short one); a
    space matches any run of spaces, tabs and line breaks, an apostrophe either apostrophe.

    >>> print(_trie_alternation(["eid", "eid al-fitr", "easter"]))
    e(?:aster|id(?:[ \\t\\n]+al\\-fitr)?)
    """
    trie: dict[str, Any] = {}
    for phrase in phrases:
        node = trie
        for ch in phrase:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        alts = [(r"[ \t\n]+" if ch == " " else "['’]" if ch == "'" else re.escape(ch)) + emit(node[ch])
                for ch in sorted(k for k in node if k)]
        if not alts:
            return ""
        if len(alts) == 1 and "" not in node:
            return alts[0]
        return "(?:" + "|".join(alts) + ")" + ("?" if "" in node else "")

    return emit(trie)


def _add_rule(raw: dict[str, Any], common: dict[str, Any], fail: Any) -> AddRule:
    raw_pattern = raw.get("pattern")
    phrases = _phrase_alternation(raw, fail)
    if isinstance(raw_pattern, str) and (phrases is not None) != ("{phrases}" in raw_pattern):
        raise fail("phrases_from and the placeholder {phrases} in pattern go together")
    if phrases is not None and isinstance(raw_pattern, str):
        raw = {**raw, "pattern": raw_pattern.replace("{phrases}", phrases)}
    pattern = _regex(raw.get("pattern"), "pattern", fail)
    if pattern is None:
        raise fail("an add rule needs pattern")
    label = raw.get("label")
    if not isinstance(label, str) or not label:
        raise fail("an add rule needs label, the new spans' label")
    score = raw.get("score", 0.6)
    if not isinstance(score, (int, float)) or not 0.0 < float(score) <= 1.0:
        raise fail("score must be a number in (0, 1]")
    anchor = raw.get("anchor", "")
    if anchor not in ("", "after", "before"):
        raise fail(f"anchor must be 'after' or 'before', got {anchor!r}")
    if anchor and not common["types"]:
        raise fail("an anchored add rule needs types, the labels of the spans it is anchored to")
    if not anchor and common["types"]:
        raise fail("types needs anchor ('after' or 'before')")
    if anchor == "before" and not pattern.pattern.endswith("$"):
        raise fail("with anchor 'before', pattern must end with '$' (it ends where the span starts)")
    if label == "@anchor" and not anchor:
        raise fail("label '@anchor' (the anchor span's label) needs anchor")
    absorb = raw.get("absorb", False)
    if not isinstance(absorb, bool):
        raise fail("absorb must be true or false")
    literals = raw.get("doc_literals", [])
    if not isinstance(literals, list) or not all(isinstance(x, str) and x and x == x.lower() for x in literals):
        raise fail("doc_literals must be a list of non-empty lower-case strings")
    if literals and anchor:
        raise fail("doc_literals only applies to a rule without anchor")
    return AddRule(**common, pattern=pattern, label=label, score=float(score), anchor=anchor,
                   window=_window(raw, fail), line_pattern=_regex(raw.get("line_pattern"), "line_pattern", fail),
                   doc_pattern=_regex(raw.get("doc_pattern"), "doc_pattern", fail), absorb=absorb,
                   all_in=_lexicon_names(raw, fail), doc_literals=tuple(literals))


def _lexicon_names(raw: dict[str, Any], fail: Any, key: str = "all_in") -> tuple[str, ...]:
    all_in = raw.get(key, [])
    if not isinstance(all_in, list):
        raise fail(f"{key} must be a list of lexicon names")
    from notescrub.lexicons import lexicon

    for lex in all_in:
        try:
            lexicon(str(lex))
        except ConfigError as exc:
            raise fail(exc.reason) from exc
    return tuple(str(x) for x in all_in)


def _window(raw: dict[str, Any], fail: Any) -> int:
    window = raw.get("window", 20)
    if not isinstance(window, int) or not 0 <= window <= 200:
        raise fail("window must be an integer in 0..200")
    return window


def _parse(text: str, path: str) -> list[PostRule]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"invalid TOML: {exc}", path=path) from None
    unknown = set(data) - {"rule"}
    if unknown:
        raise ConfigError(f"unknown top-level keys {sorted(unknown)} (only [[rule]] tables)", path=path)
    raw = data.get("rule", [])
    if not isinstance(raw, list):
        raise ConfigError("'rule' must be an array of tables ([[rule]])", path=path)
    return [_build_rule(r, path, text, i) for i, r in enumerate(raw)]


def load_post_rules(sources: Sequence[str | Path] | None = None) -> list[PostRule]:
    """Load and validate rule files: packaged names (``"default.toml"``) or paths."""
    rules: list[PostRule] = []
    seen: dict[str, str] = {}
    for src in (list(sources) if sources is not None else packaged_post_files()):
        p = Path(src)
        if p.is_file():
            try:
                text = p.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise ConfigError(f"post-processing rule file cannot be read: {exc}", path=p) from None
            where = str(p)
        else:
            try:
                text = resources.files(_PACKAGE).joinpath(str(src)).read_text(encoding="utf-8")
            except (FileNotFoundError, IsADirectoryError):
                raise ConfigError(f"no post-processing rule file {str(src)!r}; packaged: {packaged_post_files()}") from None
            where = str(src)
        for r in _parse(text, where):
            if r.name in seen:
                raise ConfigError(f"post-processing rule {r.name!r} is defined twice (also in {seen[r.name]})",
                                  path=where, line=_line_of(text, r.name))
            seen[r.name] = r.origin
            rules.append(r)
    return rules


# --------------------------------------------------------------------------- applying
class PostProcessor:
    """Apply post-processing rules, in file order, to one document's spans.

    Parameters
    ----------
    rules:
        A list of :class:`PostRule`, rule file names/paths, or ``None`` (packaged rules).
    only:
        Keep only the rules with these names (``None``: all).
    """

    def __init__(self, rules: Sequence[PostRule] | Sequence[str | Path] | None = None,
                 only: Iterable[str] | None = None) -> None:
        loaded: list[PostRule]
        if rules is not None and all(isinstance(r, PostRule) for r in rules):
            loaded = [r for r in rules if isinstance(r, PostRule)]  # all of them (the filter narrows the type)
        else:
            loaded = load_post_rules(rules)  # type: ignore[arg-type]  # file names or paths here
        if only is not None:
            wanted = list(only)
            known = {r.name for r in loaded}
            missing = [n for n in wanted if n not in known]
            if missing:
                raise ConfigError(f"unknown post-processing rules {missing}; known: {sorted(known)}")
            loaded = [r for r in loaded if r.name in set(wanted)]
        self.rules = loaded
        # an add rule without anchor can add spans to a document that has none yet
        self._adds_to_empty = any(isinstance(r, AddRule) and not r.anchor for r in loaded)

    @property
    def names(self) -> list[str]:
        return [r.name for r in self.rules]

    def apply(self, doc: Document, spans: Sequence[Span]) -> list[Span]:
        """The corrected spans (new :class:`Span` objects; ``meta["post"]`` names the rule)."""
        out = sorted(spans, key=Span.sort_key)
        if not self.rules or not (out or self._adds_to_empty):
            return list(out)
        view = token_view(doc)
        for rule in self.rules:
            out = rule.run(doc, view, out)
        return out

    def __repr__(self) -> str:
        return f"PostProcessor({self.names!r})"


def _capitalised(text: str) -> bool:
    return text[:1].isupper()


def _line_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    a = text.rfind("\n", 0, start) + 1
    b = text.find("\n", end)
    return a, len(text) if b < 0 else b


def _bridge_ok(view: TokenView, lo: int, hi: int, line: int) -> bool:
    """Tokens ``lo..hi-1`` may be absorbed: same line, capitalised words or connectors."""
    for k in range(lo, hi):
        t = view.tokens[k].text
        if view.line[k] != line or not (_capitalised(t) or t.lower() in _CONNECTORS):
            return False
    return True


def _lower_tokens(doc: Document, view: TokenView) -> list[str]:
    """The lower-cased token texts of ``view`` (the document's default view), computed once per document."""
    return doc.cached("notescrub.post.lower_tokens", lambda d: [t.text.lower() for t in view.tokens])


def _extend(rule: ExtendRule, doc: Document, view: TokenView, s: Span) -> Span:
    idx = view.tokens_in(s.start, s.end)
    if not len(idx) or (rule.require_capital and not _capitalised(doc.text[s.start : s.end])):
        return s
    i, j = idx[0], idx[-1] + 1
    low = _lower_tokens(doc, view)
    n = len(low)
    line = view.line[i]
    new_start, new_end = s.start, s.end
    if rule.direction in ("right", "both") and not _ends_with_head(rule, low, i, j):
        for p in range(j, min(n, j + rule.max_tokens + 1)):
            head = _head_at(rule, view, low, p)
            if head and _bridge_ok(view, j, p, line) and view.line[p + head - 1] == line:
                new_end = view.tokens[p + head - 1].end
                break
    if rule.direction in ("left", "both") and not _starts_with_head(rule, low, i, j):
        for q in range(i, max(-1, i - rule.max_tokens - 1), -1):
            for phrase in (rule.heads_by_last.get(low[q - 1], ()) if q > 0 else ()):
                p = q - len(phrase)
                if p >= 0 and tuple(low[p:q]) == phrase and _head_case_ok(rule, view, p) \
                        and _bridge_ok(view, q, i, line) and view.line[p] == line:
                    new_start = view.tokens[p].start
                    break
            if new_start != s.start:
                break
    if (new_start, new_end) == (s.start, s.end):
        return s
    return s.with_(start=new_start, end=new_end, meta={**s.meta, "post": rule.name})


def _head_case_ok(rule: ExtendRule, view: TokenView, p: int) -> bool:
    return not rule.head_capitalised or _capitalised(view.tokens[p].text)


def _head_at(rule: ExtendRule, view: TokenView, low: list[str], p: int) -> int:
    for head in rule.heads_by_first.get(low[p], ()):
        if tuple(low[p : p + len(head)]) == head and _head_case_ok(rule, view, p):
            return len(head)
    return 0


def _ends_with_head(rule: ExtendRule, low: list[str], i: int, j: int) -> bool:
    return j > i and any(j - len(h) >= i and tuple(low[j - len(h) : j]) == h for h in rule.heads_by_last.get(low[j - 1], ()))


def _starts_with_head(rule: ExtendRule, low: list[str], i: int, j: int) -> bool:
    return j > i and any(i + len(h) <= j and tuple(low[i : i + len(h)]) == h for h in rule.heads_by_first.get(low[i], ()))


def _drop(rule: DropRule, doc: Document, s: Span) -> bool:
    text = doc.text
    piece = text[s.start : s.end]
    if rule.span_pattern is not None and not rule.span_pattern.search(piece):
        return False
    if rule.chunk_pattern is not None:
        a, b = s.start, s.end
        while a > 0 and not text[a - 1].isspace():
            a -= 1
        while b < len(text) and not text[b].isspace():
            b += 1
        if not rule.chunk_pattern.search(text[a:b]):
            return False
    if rule.context_pattern is not None or rule.before_pattern is not None or rule.after_pattern is not None:
        la, lb = _line_bounds(text, s.start, s.end)
        lo = max(la, s.start - rule.window)
        if rule.context_pattern is not None and not rule.context_pattern.search(
                text[lo : min(lb, s.end + rule.window)]):
            return False
        if rule.before_pattern is not None and not rule.before_pattern.search(text[lo : s.start]):
            return False
        if rule.after_pattern is not None and not rule.after_pattern.match(text[s.end : min(lb, s.end + rule.window)]):
            return False
    if rule.all_in and not _all_in(piece, rule.all_in, rule.all_in_except):
        return False
    return True


def _all_in(piece: str, names: Sequence[str], skip: re.Pattern[str] | None = None) -> bool:
    """Every word of ``piece`` (possessives removed) is in one of the lexicons ``names``; a
    hyphenated compound counts when the whole compound is listed ("kayser-fleischer") or
    each of its parts is. Words fully matching ``skip`` are not looked up (one word at
    least must be).

    >>> _all_in("Dexcom G7", ["device_makers"]), _all_in("Dexcom G7", ["device_makers"], re.compile(r"[A-Z][0-9]"))
    (False, True)
    """
    from notescrub.lexicons import lexicon

    lexica = [lexicon(n) for n in names]
    compounds = [c.lower() for c in _COMPOUND.findall(_POSSESSIVE.sub("", piece))
                 if skip is None or not skip.fullmatch(c)]

    def listed(w: str) -> bool:
        return any(w in lx for lx in lexica)

    return bool(compounds) and all(listed(c) or all(listed(w) for w in _WORD.findall(c)) for c in compounds)


def _any_in(piece: str, names: Sequence[str]) -> bool:
    """Some word of ``piece`` is in one of the lexicons ``names``."""
    from notescrub.lexicons import lexicon

    lexica = [lexicon(n) for n in names]
    return any(w.lower() in lx for w in _WORD.findall(_POSSESSIVE.sub("", piece)) for lx in lexica)


def _grow(rule: GrowRule, doc: Document, s: Span) -> Span:
    text = doc.text
    la, lb = _line_bounds(text, s.start, s.end)
    start, end = s.start, s.end
    if rule.left_pattern is not None:
        m = rule.left_pattern.search(text, max(la, s.start - rule.window), s.start)
        if m is not None and m.start() < s.start:
            start = m.start()
    if rule.right_pattern is not None:
        m = rule.right_pattern.match(text, s.end, min(lb, s.end + rule.window))
        if m is not None and m.end() > s.end:
            end = m.end()
    if (start, end) == (s.start, s.end):
        return s
    return s.with_(start=start, end=end, meta={**s.meta, "post": rule.name})


def _split(rule: SplitRule, doc: Document, s: Span) -> list[Span]:
    assert rule.split_pattern is not None
    text = doc.text
    cuts = [m for m in rule.split_pattern.finditer(text, s.start, s.end) if m.end() > m.start()]
    if not cuts:
        return [s]
    bounds, a = [], s.start
    for m in cuts:
        bounds.append((a, m.start()))
        a = m.end()
    bounds.append((a, s.end))
    out: list[Span] = []
    for a, b in bounds:
        if rule.strip_left_pattern is not None:
            strip = rule.strip_left_pattern.match(text, a, b)
            if strip is not None:
                a = strip.end()
        if rule.strip_right_pattern is not None:
            strip = rule.strip_right_pattern.search(text, a, b)
            if strip is not None:
                b = strip.start()
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        piece = text[a:b]
        if not any(c.isalnum() for c in piece):
            continue
        if rule.all_in and _all_in(piece, rule.all_in) and not (rule.keep_in and _any_in(piece, rule.keep_in)):
            continue
        out.append(s.with_(start=a, end=b, meta={**s.meta, "post": rule.name}))
    return out or [s]  # nothing left that looks like PHI: keep the span whole rather than lose it


def _merge(rule: MergeRule, doc: Document, spans: list[Span]) -> list[Span]:
    assert rule.gap_pattern is not None
    out: list[Span] = []
    for s in spans:
        prev = out[-1] if out else None
        if (prev is not None and rule.applies_to(s) and prev.label == s.label and prev.end <= s.start
                and rule.gap_pattern.fullmatch(doc.text[prev.end : s.start])):
            out[-1] = prev.with_(end=s.end, score=min(prev.score, s.score), meta={**prev.meta, "post": rule.name})
        else:
            out.append(s)
    return out


def _dedupe(spans: list[Span]) -> list[Span]:
    """Extended spans may now coincide or contain each other: keep the containing one."""
    spans = sorted(spans, key=lambda s: (s.start, -s.end))
    out: list[Span] = []
    for s in spans:
        if out and out[-1].label == s.label and out[-1].start <= s.start and s.end <= out[-1].end:
            continue
        out.append(s)
    return sorted(out, key=Span.sort_key)
