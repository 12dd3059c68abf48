"""Rule-based PHI detection from validated, packaged rule files (TOML).

Rules are data, not code: each ``[[rule]]`` in a ``resources/rules/*.toml`` file has

* ``name`` (unique across the loaded files), ``label`` (checked against
  :mod:`notescrub.taxonomy`), ``pattern`` (a Python regular expression; the named group
  ``phi`` marks the part that becomes the span, else the whole match), ``score``;
* ``flags`` (``"i"`` ignore case, ``"m"`` multiline, ``"x"`` verbose);
* ``context``: ``before`` / ``after`` regexes searched in a ``window`` of characters
  on that side; ``required = true`` drops matches without them, otherwise a hit adds
  ``boost`` to the score;
* ``negative``: ``before`` / ``after`` / ``match`` regexes that drop the match (negative
  cues: units after a number, ``BP`` before a ratio, eponym heads after a name), and
  ``doc``: a regex that, found anywhere in the document, disables the rule for it;
* ``validate``: named checks on named groups (``date_parts``: groups ``m``/``d``/``y``
  form a plausible date; ``ipv4``; ``age``; ``has_digit``);
* ``reject_if_in`` / ``require_in``: lexicon names (see :mod:`notescrub.lexicons`); the
  match is dropped when every word of the span is in the former, or none in the latter;
* ``propagate = true``: other occurrences of the same identifier in the document (up to
  dashes and spaces: ``HR-01938827`` / ``HR01938827``) get the same label;
* ``block = true`` (no label): a negative-cue rule; spans of other rules overlapping one
  of its matches are dropped (``Parkinson's disease``, ``Foley catheter``).

Patterns may use ``<<MACRO>>`` (from the file's ``[macros]`` table) and
``<<lex:NAME>>`` (an alternation of a small lexicon's entries; ``<<lex:NAME|title>>``
for Title/UPPER case forms only). Any error (bad TOML, bad regex, unknown label, macro
or lexicon, duplicate names, unknown keys) raises :class:`~notescrub.errors.ConfigError`
naming the file, the line and the rule.

>>> from notescrub.types import Document
>>> det = RulesDetector()
>>> doc = Document("x", "Seen 03/18/2091 by Dr. Ruiz, MD; BP 132/78. Call (617) 555-0148.")
>>> [(doc.span_text(s), s.label) for s in det.detect(doc)]
[('03/18/2091', 'DATE'), ('Ruiz', 'DOCTOR'), ('(617) 555-0148', 'PHONE')]
"""

from __future__ import annotations

import functools
import json
import logging
import re
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from notescrub.detect.base import Detector
from notescrub.detect.rules.negative_cues import NegativeCues
from notescrub.detect.rules.start_index import StartIndex
from notescrub.detect.spans.resolve import Blocks, highest_score
from notescrub.errors import ConfigError, LabelError
from notescrub.types import Document, Span

__all__ = ["VALIDATORS", "Rule", "RuleSet", "RulesDetector", "load_rules", "packaged_rule_files"]

log = logging.getLogger(__name__)

_RULES_PACKAGE = "notescrub.resources.rules"
_RULE_KEYS = {
    "name", "label", "pattern", "score", "flags", "context", "negative", "validate",
    "reject_if_in", "require_in", "propagate", "block", "group", "description",
}
_CONTEXT_KEYS = {"before", "after", "window", "required", "boost"}
_NEGATIVE_KEYS = {"before", "after", "match", "window", "doc"}
_FLAG_BITS = {"i": re.IGNORECASE, "m": re.MULTILINE, "x": re.VERBOSE, "s": re.DOTALL}
_MACRO_RE = re.compile(r"<<([A-Za-z_][\w]*|lex:[a-z_]+(?:\|(?:title|upper|lower))?)>>")
_MAX_LEXICON_MACRO = 3000
_SMALL_WORDS = frozenset({"of", "the", "and", "de", "la", "del", "y", "in", "on", "for"})


# --------------------------------------------------------------------------- validators
def _int(groups: dict[str, str | None], key: str) -> int | None:
    v = groups.get(key)
    return int(v) if v and v.isdigit() else None


def _valid_date_parts(text: str, groups: dict[str, str | None]) -> bool:
    m, d, y = _int(groups, "m"), _int(groups, "d"), groups.get("y")
    if m is not None and not 1 <= m <= 12:
        return False
    if d is not None and not 1 <= d <= 31:
        return False
    if y and y.isdigit() and len(y) == 4 and not 1880 <= int(y) <= 2130:
        return False
    return not (y and y.isdigit() and len(y) not in (2, 4))


def _valid_ipv4(text: str, groups: dict[str, str | None]) -> bool:
    parts = text.split(".")
    return len(parts) == 4 and all(p.isdigit() and int(p) <= 255 and (p == "0" or not p.startswith("0")) for p in parts)


def _valid_age(text: str, groups: dict[str, str | None]) -> bool:
    digits = "".join(c for c in text if c.isdigit())
    return not digits or int(digits) <= 125


def _has_digit(text: str, groups: dict[str, str | None]) -> bool:
    return any(c.isdigit() for c in text)


#: name -> check(span_text, named_groups) used by a rule's ``validate`` list.
VALIDATORS: dict[str, Callable[[str, dict[str, str | None]], bool]] = {
    "date_parts": _valid_date_parts,
    "ipv4": _valid_ipv4,
    "age": _valid_age,
    "has_digit": _has_digit,
}


# --------------------------------------------------------------------------- rule model
@dataclass(frozen=True)
class Rule:
    """One compiled rule (see the module docstring for the fields)."""

    name: str
    label: str
    regex: re.Pattern[str]
    score: float = 0.9
    group: str | int = 0
    before: re.Pattern[str] | None = None
    after: re.Pattern[str] | None = None
    window: int = 40
    required: bool = False
    boost: float = 0.0
    neg_before: re.Pattern[str] | None = None
    neg_after: re.Pattern[str] | None = None
    neg_match: re.Pattern[str] | None = None
    neg_doc: re.Pattern[str] | None = None
    neg_window: int = 30
    validate: tuple[str, ...] = ()
    reject_if_in: tuple[str, ...] = ()
    require_in: tuple[str, ...] = ()
    propagate: bool = False
    block: bool = False
    origin: str = ""
    # prefiltered scanners (same matches as the regexes, see notescrub.detect.rules.prefilter), built on first use
    _scanners: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def _scanner(self, which: str) -> Any:
        sc = self._scanners.get(which)
        if sc is None:
            from notescrub.detect.rules.prefilter import Scanner

            sc = self._scanners[which] = Scanner(getattr(self, which))
        return sc

    def matches(self, text: str, starts: Sequence[int] | None = None) -> Iterable[tuple[int, int, float]]:
        """Yield ``(start, end, score)`` for every accepted match in ``text``.

        ``starts``: every position where a match may start, in increasing order (from a
        :class:`~notescrub.detect.rules.start_index.StartIndex`); ``None`` scans the text.
        """
        if self.neg_doc is not None and not self.block and self._scanner("neg_doc").search(text):
            return
        sc = self._scanner("regex")
        # matching at each candidate beats scanning even with a few hundred candidates
        for m in sc.finditer(text) if starts is None else sc.finditer_from(text, starts):
            start, end = m.span(self.group)
            if start < 0 or end <= start:
                continue
            if self.block:
                yield start, end, 1.0
                continue
            score = self._accept(text, m, start, end)
            if score is not None:
                yield start, end, score

    def _accept(self, text: str, m: re.Match[str], start: int, end: int) -> float | None:
        piece = text[start:end]
        if self.neg_match is not None and self.neg_match.search(piece):
            return None
        w = self.neg_window
        if self.neg_before is not None and self.neg_before.search(text, max(0, start - w), start):
            return None
        if self.neg_after is not None and self.neg_after.search(text[end : end + w]):
            return None
        if self.validate:
            groups = m.groupdict()
            if not all(VALIDATORS[v](piece, groups) for v in self.validate):
                return None
        if (self.reject_if_in or self.require_in) and not _lexicon_ok(piece, self.reject_if_in, self.require_in):
            return None
        score = self.score
        if self.before is not None or self.after is not None:
            hit = (self.before is not None and self.before.search(text[max(0, start - self.window) : start]) is not None) or (
                self.after is not None and self.after.search(text[end : end + self.window]) is not None
            )
            if not hit and self.required:
                return None
            if hit:
                score = min(1.0, score + self.boost)
        return score


_WORD_RE = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def _lexicon_ok(piece: str, reject: Sequence[str], require: Sequence[str]) -> bool:
    from notescrub.lexicons import lexicon

    words = [w.lower().replace("’", "'") for w in _WORD_RE.findall(piece)]
    if not words:
        return not require
    if reject:
        sets = [lexicon(n) for n in reject]
        if all(any(w in s for s in sets) for w in words):
            return False
    if require:
        sets = [lexicon(n) for n in require]
        if not any(any(w in s for s in sets) for w in words):
            return False
    return True


# --------------------------------------------------------------------------- loading
def packaged_rule_files(lang: str = "en") -> list[str]:
    """Names of the packaged rule files for ``lang`` (``en_*.toml``), sorted."""
    root = resources.files(_RULES_PACKAGE)
    return sorted(p.name for p in root.iterdir() if p.name.startswith(f"{lang}_") and p.name.endswith(".toml"))


def _line_of(text: str, rule_name: str, nth: int = 1) -> int | None:
    ms = list(re.finditer(r"^\s*name\s*=\s*[\"']" + re.escape(rule_name) + r"[\"']", text, re.M))
    if not ms:
        return None
    m = ms[min(nth, len(ms)) - 1]
    return text.count("\n", 0, m.start()) + 1


def _expand(pattern: str, macros: dict[str, str], where: str, depth: int = 0) -> str:
    if depth > 5:
        raise ConfigError(f"{where}: macros nested too deeply (a macro refers to itself?)")

    def sub(m: re.Match[str]) -> str:
        key = m.group(1)
        if key.startswith("lex:"):
            return _lexicon_alternation(key[4:], where)
        if key not in macros:
            raise ConfigError(f"{where}: unknown macro <<{key}>>; known: {', '.join(sorted(macros)) or 'none'}")
        return "(?:" + _expand(macros[key], macros, where, depth + 1) + ")"

    return _MACRO_RE.sub(sub, pattern)


def _lexicon_alternation(spec: str, where: str) -> str:
    from notescrub.lexicons import LEXICONS, lexicon

    name, _, case = spec.partition("|")
    if name not in LEXICONS:
        raise ConfigError(f"{where}: unknown lexicon {name!r} in <<lex:{spec}>>")
    entries = lexicon(name)
    if len(entries) > _MAX_LEXICON_MACRO:
        raise ConfigError(f"{where}: lexicon {name!r} has {len(entries)} entries, too many for a regex macro")
    forms: set[str] = set()
    for e in entries:
        if case == "title":
            words = e.split()
            forms.add(" ".join(w[:1].upper() + w[1:] for w in words))
            forms.add(" ".join(w if (i and w in _SMALL_WORDS) else w[:1].upper() + w[1:] for i, w in enumerate(words)))
            forms.add(e.upper())
        elif case == "upper":
            forms.add(e.upper())
        elif case == "lower":
            forms.add(e)
        else:
            forms.add(e)
    alts = "|".join(re.escape(f).replace(r"\ ", r"\s+") for f in sorted(forms, key=lambda f: (-len(f), f)))
    return f"(?i:{alts})" if case == "" else f"(?:{alts})"


def _compile(pattern: Any, flags: int, where: str, what: str, macros: dict[str, str]) -> re.Pattern[str] | None:
    if pattern is None:
        return None
    if not isinstance(pattern, str) or not pattern:
        raise ConfigError(f"{where}: {what} must be a non-empty string")
    expanded = _expand(pattern, macros, where)
    try:
        return re.compile(expanded, flags)
    except re.error as exc:
        raise ConfigError(f"{where}: bad regex in {what}: {exc}") from None


def _check_keys(table: Any, allowed: set[str], where: str, what: str) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: {what} must be a table")
    unknown = set(table) - allowed
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {sorted(unknown)} in {what}; allowed: {sorted(allowed)}")
    return table


def _build_rule(raw: Any, macros: dict[str, str], path: str, text: str, index: int) -> Rule:
    if not isinstance(raw, dict):
        raise ConfigError(f"rule #{index} is not a table", path=path)
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise ConfigError(f"rule #{index} has no 'name'", path=path)
    line = _line_of(text, name)
    where = f"rule {name!r}"

    def fail(msg: str) -> ConfigError:
        return ConfigError(msg, path=path, line=line)

    try:
        _check_keys(raw, _RULE_KEYS, where, "the rule")
        block = bool(raw.get("block", False))
        label = raw.get("label", "BLOCK" if block else None)
        if not block:
            if not isinstance(label, str):
                raise ConfigError(f"{where}: missing 'label'")
            from notescrub.taxonomy import require_label

            try:
                require_label(label)
            except LabelError as exc:
                raise ConfigError(f"{where}: {exc.reason}") from None
        flags = 0
        for ch in str(raw.get("flags", "")):
            if ch not in _FLAG_BITS:
                raise ConfigError(f"{where}: unknown flag {ch!r} (use i, m, s, x)")
            flags |= _FLAG_BITS[ch]
        if raw.get("pattern") is None:
            raise ConfigError(f"{where}: pattern must be a non-empty string")
        regex = _compile(raw.get("pattern"), flags, where, "pattern", macros)
        assert regex is not None
        group: str | int = raw.get("group", "phi" if "phi" in regex.groupindex else 0)
        if isinstance(group, str) and group not in regex.groupindex:
            raise ConfigError(f"{where}: pattern has no group named {group!r}")
        score = raw.get("score", 0.9)
        if not isinstance(score, (int, float)) or not 0.0 <= float(score) <= 1.0:
            raise ConfigError(f"{where}: score must be a number in [0, 1]")
        ctx = _check_keys(raw.get("context", {}), _CONTEXT_KEYS, where, "context")
        neg = _check_keys(raw.get("negative", {}), _NEGATIVE_KEYS, where, "negative")
        validate = tuple(raw.get("validate", ()))
        for v in validate:
            if v not in VALIDATORS:
                raise ConfigError(f"{where}: unknown validator {v!r}; known: {', '.join(VALIDATORS)}")
        from notescrub.lexicons import LEXICONS

        lex_lists = {k: tuple(raw.get(k, ())) for k in ("reject_if_in", "require_in")}
        for k, names in lex_lists.items():
            for n in names:
                if n not in LEXICONS:
                    raise ConfigError(f"{where}: unknown lexicon {n!r} in {k}")
        ci = re.IGNORECASE | re.MULTILINE
        return Rule(
            name=name,
            label=label,  # type: ignore[arg-type]  # a str: checked above, or "BLOCK" for a block rule
            regex=regex,
            score=float(score),
            group=group,
            before=_compile(ctx.get("before"), ci, where, "context.before", macros),
            after=_compile(ctx.get("after"), ci, where, "context.after", macros),
            window=int(ctx.get("window", 40)),
            required=bool(ctx.get("required", False)),
            boost=float(ctx.get("boost", 0.0)),
            neg_before=_compile(neg.get("before"), ci, where, "negative.before", macros),
            neg_after=_compile(neg.get("after"), ci, where, "negative.after", macros),
            neg_match=_compile(neg.get("match"), ci, where, "negative.match", macros),
            neg_doc=_compile(neg.get("doc"), ci, where, "negative.doc", macros),
            neg_window=int(neg.get("window", 30)),
            validate=validate,
            reject_if_in=lex_lists["reject_if_in"],
            require_in=lex_lists["require_in"],
            propagate=bool(raw.get("propagate", False)),
            block=block,
            origin=f"{Path(path).name}:{line}" if line else Path(path).name,
        )
    except ConfigError as exc:
        if exc.path:
            raise
        raise fail(exc.reason) from None


def _parse_file(text: str, path: str) -> tuple[dict[str, str], list[Any]]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ConfigError(f"invalid TOML: {exc}", path=path, line=int(m.group(1)) if m else None) from None
    unknown = set(data) - {"macros", "rule", "meta"}
    if unknown:
        raise ConfigError(f"unknown top-level table(s) {sorted(unknown)}; expected [macros], [meta], [[rule]]", path=path)
    macros = data.get("macros", {})
    if not isinstance(macros, dict) or not all(isinstance(v, str) for v in macros.values()):
        raise ConfigError("[macros] must map names to strings", path=path)
    rules = data.get("rule", [])
    if not isinstance(rules, list):
        raise ConfigError("'rule' must be an array of tables ([[rule]])", path=path)
    return macros, rules


@dataclass
class RuleSet:
    """An ordered, validated collection of rules (names unique)."""

    rules: list[Rule] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.rules)

    @property
    def names(self) -> list[str]:
        return [r.name for r in self.rules]

    def add_source(self, text: str, path: str, shared_macros: dict[str, str] | None = None) -> None:
        macros, raws = _parse_file(text, path)
        allm = {**(shared_macros or {}), **macros}
        seen = {r.name: r.origin for r in self.rules}
        for i, raw in enumerate(raws, 1):
            rule = _build_rule(raw, allm, path, text, i)
            if rule.name in seen:
                raise ConfigError(
                    f"duplicate rule name {rule.name!r} (first defined at {seen[rule.name]})",
                    path=path,
                    line=_line_of(text, rule.name, nth=2 if rule.origin.startswith(Path(path).name) and seen[rule.name].startswith(Path(path).name) else 1),
                )
            seen[rule.name] = rule.origin
            self.rules.append(rule)

    def select(self, labels: Iterable[str] | None = None, exclude: Iterable[str] = ()) -> RuleSet:
        """A subset: rules whose label is in ``labels`` (block rules are always kept), minus names."""
        keep = set(labels) if labels is not None else None
        ex = set(exclude)
        return RuleSet([r for r in self.rules if r.name not in ex and (r.block or keep is None or r.label in keep)])


def _read_packaged(name: str) -> str:
    try:
        return resources.files(_RULES_PACKAGE).joinpath(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"no packaged rule file {name!r}; packaged: {packaged_rule_files('en') + packaged_rule_files('es')}") from None


def load_rules(sources: Sequence[str | Path] | None = None, lang: str = "en") -> RuleSet:
    """Load and validate rule files: packaged names (``"en_dates.toml"``) or paths.

    Macros of a packaged ``<lang>_macros.toml`` are shared by every file.
    """
    rs = RuleSet()
    shared: dict[str, str] = {}
    macro_file = f"{lang}_macros.toml"
    if macro_file in packaged_rule_files(lang):
        shared, extra = _parse_file(_read_packaged(macro_file), macro_file)
        if extra:
            raise ConfigError("the macros file must not define rules", path=macro_file)
    names = list(sources) if sources is not None else [f for f in packaged_rule_files(lang) if f != macro_file]
    for src in names:
        p = Path(src)
        if p.is_file():
            try:
                text = p.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise ConfigError(f"rule file cannot be read: {exc}", path=p) from None
            before = len(rs.rules)
            rs.add_source(text, str(p), shared)
            _warn_slow_patterns(rs.rules[before:], p)
        else:
            rs.add_source(_read_packaged(str(src)), str(src), shared)
    return rs


def _warn_slow_patterns(rules: Sequence[Rule], path: Path) -> None:
    """Warn (naming file and rule, never text) about user patterns that backtrack quadratically."""
    from notescrub.detect.rules.pattern_audit import quadratic_pairs

    for rule in rules:
        pairs = quadratic_pairs(rule.regex.pattern, rule.regex.flags)
        if pairs:
            a, b = pairs[0]
            log.warning("%s: rule %r has two repeats over the same characters (%s ... %s) with only optional "
                        "items between them; its time grows with the square of a run of such characters. Make "
                        "the first possessive (e.g. \\s*+) or require a character between them.",
                        path, rule.name, a, b)


# --------------------------------------------------------------------------- detector
_ID_CHARS = re.compile(r"[\s\-./]")


def _id_key(s: str) -> str:
    return _ID_CHARS.sub("", s).upper()


_ASCII_ALNUM = re.compile(r"[A-Za-z0-9]+")
#: identifiers longer than this (without separators) are not propagated
_MAX_ID_KEY = 40


def _key_occurrences(text: str, keys: set[str] | frozenset[str] | Any) -> list[tuple[int, int, str]]:
    """``(start, end, key)`` of every spelling of a key in ``text``: consecutive ASCII letter/digit
    runs joined by single non-newline separators (``\\s - . /``), bounded by non-alphanumerics.

    Each start extends over at most ``max(len(key))`` characters: linear in the text.

    >>> _key_occurrences("MRN 123-456-78, again 12345678; not 9123456789", {"12345678"})
    [(4, 14, '12345678'), (22, 30, '12345678')]
    """
    keys = set(keys)
    if not keys:
        return []
    maxlen = max(map(len, keys))
    units = [(m.start(), m.end()) for m in _ASCII_ALNUM.finditer(text)]
    out = []
    for i, (a, b) in enumerate(units):
        acc = text[a:b].upper()
        j = i
        while len(acc) <= maxlen:
            if acc in keys:
                out.append((a, units[j][1], acc))
            if j + 1 >= len(units):
                break
            gap_start, nxt = units[j][1], units[j + 1][0]
            if nxt - gap_start != 1 or text[gap_start] == "\n" or not (text[gap_start].isspace() or text[gap_start] in "-./"):
                break
            j += 1
            acc += text[units[j][0] : units[j][1]].upper()
    return out


class RulesDetector(Detector):
    """Apply a :class:`RuleSet` to a document; returns non-overlapping spans.

    Parameters
    ----------
    rules: a RuleSet, a list of rule file names/paths, or ``None`` (all packaged rules of ``lang``).
    lang: language of the packaged rules.
    labels: keep only rules producing these labels (``None``: all).
    name: layer name.
    propagate: copy the label of triggered identifiers to their other occurrences.
    """

    def __init__(
        self,
        rules: RuleSet | Sequence[str | Path] | None = None,
        lang: str = "en",
        labels: Iterable[str] | None = None,
        name: str = "rules",
        propagate: bool = True,
    ) -> None:
        self.rules = rules
        self.lang = lang
        self.labels = labels
        self.name = name
        self.propagate = propagate
        rs = rules if isinstance(rules, RuleSet) else load_rules(rules, lang)
        self._ruleset = rs.select(labels) if labels is not None else rs
        self._blocks = [r for r in self._ruleset.rules if r.block]
        self._positive = [r for r in self._ruleset.rules if not r.block]
        #: the block ranges (may be shared with other detectors, see negative_cues.share_negative_cues)
        self.negative_cues = NegativeCues(self._blocks)

    @property
    def ruleset(self) -> RuleSet:
        return self._ruleset

    def blocks(self, text: str) -> list[tuple[int, int]]:
        """Character ranges matched by the negative-cue (block) rules (``self.negative_cues``)."""
        return self.negative_cues.ranges(text)

    @cached_property
    def start_index(self) -> StartIndex:
        """Where the positive rules can start in a note (built on first use, kept)."""
        return StartIndex([r._scanner("regex") for r in self._positive])

    def candidates(self, doc: Document) -> list[Span]:
        """Every accepted rule match (overlapping), blocks applied."""
        text = doc.text
        blocks = Blocks(self.blocks(text))
        out: list[Span] = []
        starts = self.start_index.starts(text)
        for k, r in enumerate(self._positive):
            for a, b, sc in r.matches(text, starts.get(k)):
                if blocks and blocks.hits(a, b):
                    continue
                if r.label in _NAME_LABELS:
                    a, b = _trim_name(text, a, b)
                    if b <= a:
                        continue
                out.append(Span(a, b, r.label, sc, self.name, meta={"rule": r.name}))
        if self.propagate:
            out.extend(self._propagated(text, out))
        return out

    def _propagated(self, text: str, found: list[Span]) -> list[Span]:
        """Other occurrences of triggered identifiers, found in one pass over the text (linear).

        An occurrence is a run of ASCII letters/digits, possibly split by single separators
        (space, ``-``, ``.``, ``/``; never a line break), that spells the identifier's key.
        """
        rules = {r.name: r for r in self._positive}
        keys: dict[str, tuple[str, float, str]] = {}
        odd: list[str] = []  # keys with other characters (rare): matched by a regex each
        for s in found:
            rule = rules.get(s.meta.get("rule", ""))
            if rule is None or not rule.propagate:
                continue
            key = _id_key(text[s.start : s.end])
            if key in keys or not 5 <= len(key) <= _MAX_ID_KEY or sum(c.isdigit() for c in key) < 3:
                continue
            keys[key] = (s.label, s.score * 0.95, rule.name + "+propagated")
            if not _ASCII_ALNUM.fullmatch(key):
                odd.append(key)
        if not keys:
            return []
        extra: list[Span] = []
        for a, b, key in _key_occurrences(text, keys.keys() - set(odd)):
            label, score, name = keys[key]
            extra.append(Span(a, b, label, score, self.name, meta={"rule": name}))
        for key in odd:
            label, score, name = keys[key]
            pat = re.compile(
                r"(?<![A-Za-z0-9])" + r"[\s\-./]?".join(re.escape(c) for c in key) + r"(?![A-Za-z0-9])", re.IGNORECASE
            )
            for m in pat.finditer(text):
                if "\n" not in m.group(0):
                    extra.append(Span(m.start(), m.end(), label, score, self.name, meta={"rule": name}))
        return extra

    def detect(self, doc: Document) -> list[Span]:
        return _resolve(self.candidates(doc))


_NAME_LABELS = frozenset({"PATIENT", "DOCTOR"})
_TRIM_WORD = re.compile(r"[^\s,;:()]+")


@functools.cache
def _trim_lexicons() -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    """(leading words, trailing words, medical terms, common words) of :func:`_trim_name`, built once."""
    from notescrub.lexicons import lexicon

    lead = lexicon("titles") | lexicon("credentials")
    tail = lead | lexicon("months") | lexicon("weekdays")
    return frozenset(lead), frozenset(tail), lexicon("medical_terms"), lexicon("common_words")


def _trim_name(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink a name span past leading/trailing titles, credentials, dates and ALL-CAPS jargon."""
    words = [(m.start(), m.end()) for m in _TRIM_WORD.finditer(text, start, end)]
    lead, tail, med, common = _trim_lexicons()

    def norm(a: int, b: int) -> str:
        return text[a:b].lower().rstrip(".")

    while words and (norm(*words[0]) in lead or text[words[0][0] : words[0][1]].rstrip(".").lower() in lead):
        words.pop(0)
    mixed = any(not text[a:b].isupper() for a, b in words)

    def jargon(a: int, b: int) -> bool:  # ALL-CAPS word inside a mixed-case name: FROM, PGY, MRN
        w = text[a:b].rstrip(".")
        return mixed and w.isupper() and len(w) > 1 and (norm(a, b) in common or norm(a, b) in med or len(w) <= 3)

    while words and jargon(*words[0]):
        words.pop(0)
    while words:
        w = text[words[-1][0] : words[-1][1]]
        n = norm(*words[-1])
        if n in tail or (w.isupper() and len(w) > 1 and n in med) or jargon(*words[-1]):
            words.pop()
        else:
            break
    if not words:
        return start, start
    a, b = words[0][0], words[-1][1]
    for suffix in ("'s", "’s"):
        if text[a:b].endswith(suffix):
            b -= len(suffix)
    while b > a and text[b - 1] in ",-'’" :
        b -= 1
    return a, b


def _resolve(spans: list[Span]) -> list[Span]:
    """Highest score, then longest, then earliest wins; exact duplicates collapse (O(n log n))."""
    return highest_score(spans)


# --------------------------------------------------------------------------- packaged model
def rules_summary(rs: RuleSet) -> str:
    """A JSON summary (name, label, origin) of a rule set, for docs and debugging."""
    return json.dumps([{"name": r.name, "label": r.label, "origin": r.origin} for r in rs.rules], indent=1)
