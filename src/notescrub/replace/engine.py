"""The replacer: a document and its final PHI spans -> new text, located spans, offset map.

Detection is never redone here: the spans come from a layer (``phi`` by default,
``gold`` for annotated corpora) and must not overlap (pass ``resolve="longest"`` or
any :mod:`notescrub.detect.spans.resolve` policy to merge them, otherwise the replacer
refuses). Each span is handed to the operator chosen for its type: by native label
first, then by canonical subtype (``span.phi``), so MEDDOCAN's
``NOMBRE_SUJETO_ASISTENCIA`` gets the PATIENT surrogate. In ``surrogate`` mode a
label without an operator falls back to a tag and is reported.

>>> from notescrub.replace.keys import SurrogateKey
>>> doc = Document("n1", "Seen by Dr. Ruiz on 3/18.", patient_id="P1")
>>> doc.add_layer("phi", [Span(12, 16, "DOCTOR"), Span(20, 24, "DATE")])
>>> res = Replacer("tag").replace(doc)
>>> res.text
'Seen by Dr. [**DOCTOR**] on [**DATE**].'
>>> [(s.label, res.text[s.start:s.end]) for s in res.spans]
[('DOCTOR', '[**DOCTOR**]'), ('DATE', '[**DATE**]')]
>>> res.offsets.to_old(res.spans[1].start)
20
>>> out = Replacer("surrogate", key=SurrogateKey(bytes(32))).replace(doc)
>>> out.text[:12], out.text[-1], "Ruiz" in out.text
('Seen by Dr. ', '.', False)
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise

from notescrub.detect.spans.resolve import Resolver, get_resolver
from notescrub.docref import doc_ref
from notescrub.errors import ConfigError, NotescrubError, OffsetError, ProcessingError
from notescrub.replace.base import Context, Operator, ReplaceState
from notescrub.replace.keys import SurrogateKey
from notescrub.replace.offsets import Edit, OffsetMap
from notescrub.replace.operators import Hash, Mask, Redact, Tag
from notescrub.replace.release import ReleasePolicy
from notescrub.replace.surrogate import surrogate_operators
from notescrub.replace.vocabulary import Vocabulary, get_vocabulary
from notescrub.taxonomy import canonical, hipaa_identifiers, scheme_labels
from notescrub.types import PHI, Document, Span

__all__ = ["MODES", "ReplaceResult", "Replacer", "parse_types"]

log = logging.getLogger(__name__)

MODES = ("surrogate", "tag", "mask", "redact", "hash")
_SPANISH = frozenset(scheme_labels("meddocan")) - frozenset(scheme_labels("i2b2-2014"))


@lru_cache(maxsize=4096)
def _phi(label: str) -> str | None:
    return canonical(label)


def parse_types(spec: str | Iterable[str] | None) -> frozenset[str] | None:
    """``"PATIENT,DATE"`` or ``"hipaa"`` (Safe Harbor identifiers) -> a set of types; ``None`` = all.

    >>> sorted(parse_types("DATE, PATIENT"))
    ['DATE', 'PATIENT']
    >>> "DOCTOR" in parse_types("hipaa"), "PATIENT" in parse_types("hipaa")
    (False, True)
    """
    if spec is None:
        return None
    items = [t.strip() for t in (spec.split(",") if isinstance(spec, str) else spec) if t.strip()]
    out: set[str] = set()
    for t in items:
        if t.lower() == "hipaa":
            out |= hipaa_identifiers()
        else:
            out.add(t)
    if not out:
        raise ConfigError("--types lists no type")
    return frozenset(out)


@dataclass
class ReplaceResult:
    """What replacing one document produced.

    ``spans`` are the replaced spans located in ``text``, in the order of ``original``
    (the input spans they replace); ``kept`` are the input spans left untouched (not
    selected by ``types``), relocated; ``report`` counts events (unknown labels,
    fallbacks) without PHI.
    """

    doc_id: str
    text: str
    spans: list[Span]
    original: list[Span]
    offsets: OffsetMap
    kept: list[Span] = field(default_factory=list)
    report: Counter = field(default_factory=Counter)

    def document(self, source: Document, layer: str = "gold", release: ReleasePolicy | None = None) -> Document:
        """The de-identified :class:`Document`: new text and all spans in ``layer``.

        Only what ``release`` allows is carried over from ``source`` (by default: the
        id, no metadata, no span extras and no patient id; see
        :class:`~notescrub.replace.release.ReleasePolicy`).
        """
        return (release or ReleasePolicy()).release(source, self.text, self.spans + self.kept, layer)


class Replacer:
    """Replace PHI spans with tags, masks, hashes or consistent surrogates.

    Parameters
    ----------
    mode:
        ``surrogate`` (default), ``tag``, ``mask``, ``redact`` or ``hash``.
    key:
        Secret :class:`~notescrub.replace.keys.SurrogateKey`; required by ``surrogate`` and ``hash``.
    operators:
        Overrides ``{type or native label: Operator}``.
    types:
        Only spans of these types (canonical or native, or ``"hipaa"``) are replaced; others stay.
    layer:
        Layer read by :meth:`replace` when no spans are given.
    resolve:
        ``None`` refuses overlapping spans; a policy name or callable merges them first.
    shift_range, age_bucket, vocabulary:
        Surrogate options: date shift range in days, age bucket width, word source
        (``dictionary``, ``ambiguous``, ``oov`` or a :class:`Vocabulary`).
    tag_template, mask_char:
        Options of the ``tag`` and ``mask`` operators.
    locale, date_order:
        ``en``/``es`` word lists and ``MDY``/``DMY`` numeric dates; MEDDOCAN labels always use ``es``/``DMY``.
    fictional_phones:
        Surrogate phone and fax numbers in the range reserved for fiction (``555-0100`` to
        ``555-0199``, default); ``False`` draws any valid North-American exchange and line.
    """

    def __init__(
        self,
        mode: str = "surrogate",
        *,
        key: SurrogateKey | None = None,
        operators: Mapping[str, Operator] | None = None,
        types: str | Iterable[str] | None = None,
        layer: str = PHI,
        resolve: str | Resolver | None = None,
        shift_range: tuple[int, int] = (-365, -30),
        age_bucket: int | None = None,
        vocabulary: str | Vocabulary = "dictionary",
        tag_template: str = "[**{type}**]",
        mask_char: str = "*",
        locale: str = "en",
        date_order: str = "MDY",
        fictional_phones: bool = True,
    ) -> None:
        if mode not in MODES:
            raise ConfigError(f"unknown replacement mode {mode!r}; known: {', '.join(MODES)}")
        if date_order not in ("MDY", "DMY"):
            raise ConfigError("date_order must be MDY or DMY")
        self.mode = mode
        self.key = key
        self.types = parse_types(types)
        self.layer = layer
        self.resolver: Resolver | None = get_resolver(resolve) if isinstance(resolve, str) else resolve
        self.locale = "es" if locale == "es" else "en"
        self.date_order = date_order
        self.fallback: Operator = Tag(tag_template)
        self.default: Operator | None = None
        table: dict[str, Operator] = {}
        if mode == "surrogate":
            vocab = vocabulary if isinstance(vocabulary, Vocabulary) else get_vocabulary(vocabulary, self.locale)
            table = surrogate_operators(vocab, shift_range=shift_range, age_bucket=age_bucket,
                                        fictional_phones=fictional_phones)
        else:
            self.default = {"tag": self.fallback, "mask": Mask(mask_char), "redact": Redact(), "hash": Hash()}[mode]
        table.update(operators or {})
        self.operators = table
        needs_key = any(op.needs_key for op in table.values()) or (self.default is not None and self.default.needs_key)
        if needs_key and key is None:
            raise ConfigError(f"mode {mode!r} needs a surrogate key (SurrogateKey.load(path) or SurrogateKey.generate())")
        self.state = ReplaceState()

    # -- choosing ------------------------------------------------------------------
    def selected(self, span: Span) -> bool:
        """True when ``span`` is to be replaced under the ``types`` filter."""
        return self.types is None or span.label in self.types or (_phi(span.label) or "") in self.types

    def operator_for(self, span: Span) -> tuple[Operator, str, bool]:
        """``(operator, type name, is_fallback)`` for a span."""
        phi = _phi(span.label)
        type_name = phi or span.label
        if span.label in self.operators:
            return self.operators[span.label], type_name, False
        if phi and phi in self.operators:
            return self.operators[phi], type_name, False
        if self.default is not None:
            return self.default, type_name, False
        return self.fallback, type_name, True

    # -- checking ------------------------------------------------------------------
    def _check(self, doc: Document, spans: Sequence[Span]) -> list[Span]:
        n = len(doc.text)
        for s in spans:
            if not isinstance(s, Span):
                raise OffsetError(f"{doc_ref(doc.id)}: expected Span objects, got {type(s).__name__}")
            for a, b in s.pieces:
                if not 0 <= a <= b <= n:
                    raise OffsetError(f"{doc_ref(doc.id)}: span [{a}, {b}) ({s.label}) lies outside the text "
                                      f"(length {n})")
        chosen = [s for s in spans if self.selected(s)]
        pieces = sorted((a, b, s) for s in chosen for a, b in s.pieces if b > a)
        for (a1, b1, s1), (a2, b2, s2) in pairwise(pieces):
            if a2 < b1:
                if self.resolver is None:
                    raise OffsetError(
                        f"{doc_ref(doc.id)}: spans [{a1}, {b1}) {s1.label} and [{a2}, {b2}) {s2.label} overlap; "
                        "resolve them first (notescrub.detect.spans.resolve, e.g. resolve='longest') or fix the input")
                merged = self.resolver(list(chosen))
                log.info("%s: resolved %d overlapping spans into %d", doc_ref(doc.id), len(chosen), len(merged))
                return merged
        return chosen

    # -- replacing -----------------------------------------------------------------
    def replace(self, doc: Document, spans: Sequence[Span] | None = None, *, layer: str | None = None) -> ReplaceResult:
        """Replace ``spans`` (default: the spans of ``layer``) in ``doc``; the document is not modified."""
        source = list(spans) if spans is not None else doc.layer(layer or self.layer)
        chosen = self._check(doc, source)
        before = Counter(self.state.report)
        patient = doc.patient_id if doc.patient_id is not None else f"doc:{doc.id}"
        self.state.new_document()  # surrogates never depend on the documents replaced before
        self._prepare(doc, chosen, patient)
        units = sorted(((a, b, i) for i, s in enumerate(chosen) for a, b in s.pieces if b > a), key=lambda u: u[0])
        parts: list[str] = []
        edits: list[Edit] = []
        pos = new_pos = 0
        for a, b, i in units:
            parts.append(doc.text[pos:a])
            new_pos += a - pos
            new = self._one(doc, chosen[i], a, b, patient)
            edits.append(Edit(a, b, new_pos, new_pos + len(new)))
            parts.append(new)
            new_pos += len(new)
            pos = b
        parts.append(doc.text[pos:])
        offsets = OffsetMap(edits)
        new_spans = [self._relocate(offsets, s) for s in chosen]
        kept_ids = {id(s) for s in chosen}
        kept = [offsets.map_span(s) for s in source if id(s) not in kept_ids and not self.selected(s)]
        report = Counter(self.state.report)
        report.subtract(before)
        return ReplaceResult(doc.id, "".join(parts), new_spans, list(chosen), offsets, kept, +report)

    def apply(self, doc: Document, *, layer: str | None = None, out_layer: str | None = None,
              release: ReleasePolicy | None = None) -> Document:
        """Replace and return a new document whose ``out_layer`` (default: the read layer) holds the relocated spans.

        The new document carries what ``release`` allows (default: nothing but the id;
        the patient id pseudonymised with this replacer's key when it has one).
        """
        res = self.replace(doc, layer=layer)
        return res.document(doc, out_layer or layer or self.layer, (release or ReleasePolicy()).with_key(self.key))

    def _prepare(self, doc: Document, chosen: Sequence[Span], patient: str) -> None:
        groups: dict[int, tuple[Operator, list[tuple[Span, str]]]] = {}
        for s in chosen:
            op, _, _ = self.operator_for(s)
            groups.setdefault(id(op), (op, []))[1].append((s, doc.span_text(s)))
        for op, items in groups.values():
            try:
                op.prepare(doc, items, self.state, patient, self.key)
            except NotescrubError:
                raise
            except Exception as exc:
                raise ProcessingError(f"{doc_ref(doc.id)}: preparing the {op.name} operator failed: "
                                      f"{type(exc).__name__}") from exc

    def _one(self, doc: Document, span: Span, a: int, b: int, patient: str) -> str:
        op, type_name, fallback = self.operator_for(span)
        if fallback:
            self.state.count(f"unknown_label:{span.label}")
            log.debug("document %s: no surrogate for label %s; replaced by a tag", doc.id, span.label)
        spanish = span.label in _SPANISH or doc.metadata.get("lang") == "es" or self.locale == "es"
        ctx = Context(doc, span, doc.text[a:b], type_name, patient, self.key, self.state, a, b,
                      "es" if spanish else "en", "DMY" if spanish else self.date_order)
        try:
            new = op.replacement(ctx)
        except NotescrubError:
            raise
        except Exception as exc:  # fail closed: the caller must not write this document
            raise ProcessingError(f"{doc_ref(doc.id)}: replacing a {type_name} span at [{a}, {b}) failed: "
                                  f"{type(exc).__name__}") from exc
        if not isinstance(new, str):
            raise ProcessingError(f"{doc_ref(doc.id)}: operator {op.name} returned {type(new).__name__}, not str")
        self.state.count(f"op:{op.name}")
        return new

    @staticmethod
    def _relocate(offsets: OffsetMap, span: Span) -> Span:
        return offsets.map_span(span)


