"""The unit of work: one patient group of notes in, its de-identified (or annotated) notes out.

:class:`DeidTask` and :class:`AnnotateTask` hold what a worker loads once (the model, the
replacer with its key, the release policy, the options) and are called with one group of
``(input position, document)`` pairs. The call is a pure function of the group: it reads
no state left by other groups (the replacer's memo tables are emptied before each group;
surrogates are a function of key, patient, value and role only), so any worker may take
any group, in any order, and the output is the same. The same call serves the local
process pool and can serve a Spark ``applyInPandas`` over patient groups.

Failing closed: a note whose detection or replacement fails is never returned. Without
``skip_bad`` the call raises :class:`~notescrub.errors.ProcessingError` naming the notes
(by input position and keyed reference, never by text); with it they are listed in
:attr:`GroupResult.skipped`.

>>> from notescrub.replace import Replacer
>>> from notescrub.types import Span
>>> doc = Document("a", "Seen by Ruiz.", "P1", layers={"gold": [Span(8, 12, "DOCTOR")]})
>>> task = DeidTask(Replacer("tag", layer="gold"), spans_from_input=True)
>>> res = task([(0, doc)])
>>> [(pos, out.text) for pos, (out, _) in res.records], res.skipped
([(0, 'Seen by [**DOCTOR**].')], [])
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from notescrub.docref import doc_ref
from notescrub.errors import NotescrubError, ProcessingError
from notescrub.replace.engine import Replacer, ReplaceResult
from notescrub.replace.keys import SurrogateKey
from notescrub.replace.release import ReleasePolicy
from notescrub.types import GOLD, Document

__all__ = ["AnnotateTask", "DeidTask", "GroupResult", "annotation_record", "risk_record"]

Positioned = tuple[int, Document]


@dataclass
class GroupResult:
    """What one group produced.

    ``records`` are ``(input position, payload)`` for the notes written, in input order;
    ``skipped`` the ``(position, id)`` of notes left out by ``skip_bad``; ``report`` counts
    events (no PHI); ``labels`` and ``unexplained`` are annotate's label and explanation
    counts.
    """

    records: list[tuple[int, Any]] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)
    report: Counter = field(default_factory=Counter)

    def merge(self, other: GroupResult) -> None:
        self.records.extend(other.records)
        self.skipped.extend(other.skipped)
        self.report.update(other.report)


def _fail(items: Sequence[Positioned], exc: BaseException, skip_bad: bool, out: GroupResult, what: str) -> None:
    """Fail closed on ``items``; messages name positions and keyed references only."""
    reason = exc.reason if isinstance(exc, NotescrubError) else type(exc).__name__
    refs = ", ".join(doc_ref(d.id, position=p + 1) for p, d in items[:5]) + (" ..." if len(items) > 5 else "")
    if not skip_bad:
        raise ProcessingError(f"{refs} could not be {what} ({reason}); nothing was written "
                              "(use --skip-bad to leave failing documents out)") from exc
    import logging

    logging.getLogger("notescrub.scale").warning("%s skipped (not written): %s", refs, reason)
    out.skipped.extend((p, d.id) for p, d in items)


def _detect(pipeline: Any, group: Sequence[Positioned], skip_bad: bool, out: GroupResult,
            what: str) -> list[Positioned]:
    """Run the model over ``group`` (together when it is patient-level); the notes that passed."""
    if getattr(pipeline, "patient_level", False) and len(group) > 0:
        try:
            done = pipeline.run_group([d for _, d in group])
        except Exception as exc:  # noqa: BLE001 - fail closed on anything
            _fail(group, exc, skip_bad, out, what)
            return []
        return [(p, d) for (p, _), d in zip(group, done)]
    kept = []
    for p, d in group:
        try:
            kept.append((p, pipeline(d)))
        except Exception as exc:  # noqa: BLE001
            _fail([(p, d)], exc, skip_bad, out, what)
    return kept


def risk_record(new: Document, risk: Any, res: ReplaceResult) -> str:
    """The ``--risk`` JSON line of one de-identified note: its risk and suspects, offsets in ``res.text``.

    Suspects lie outside every replaced span, so their text is the same in the output; only
    their offsets move (:func:`notescrub.risk.shift_suspects`).
    """
    from notescrub.risk import shift_suspects

    moved = shift_suspects(risk, res.offsets.to_new)
    return json.dumps({"id": new.id, **moved.to_json()}, ensure_ascii=False)


def annotation_record(doc: Document, res: ReplaceResult, original_offsets: bool = False) -> str:
    """The ``--keep-annotations`` JSON line of one de-identified note (spans located in the new text)."""
    spans = []
    for s, o in zip(res.spans, res.original):
        item = {"start": s.start, "end": s.end, "type": s.phi or s.label, "label": s.label,
                "text": res.text[s.start:s.end]}
        if original_offsets:  # opt-in: they reveal where and how long each PHI mention was
            item.update(original_start=o.start, original_end=o.end)
        spans.append(item)
    return json.dumps({"id": doc.id, "patient": doc.patient_id, "text": res.text, "spans": spans},
                      ensure_ascii=False)


@dataclass
class DeidTask:
    """De-identify one group: detect (``pipeline``, or the input's spans) and replace.

    Records are ``(position, (output document, annotation line or None))``; the output
    document carries only what ``release`` allows (see
    :class:`~notescrub.replace.release.ReleasePolicy`).
    """

    replacer: Replacer
    release: ReleasePolicy | None = None
    pipeline: Any = None
    spans_from_input: bool = False
    input_layer: str = GOLD
    skip_bad: bool = False
    annotations: bool = False
    original_offsets: bool = False
    risk: Callable[[Document], Any] | None = None

    def __post_init__(self) -> None:
        if (self.pipeline is None) == (not self.spans_from_input):
            raise ValueError("give either a pipeline or spans_from_input=True")
        policy = (self.release or ReleasePolicy()).with_key(self.replacer.key)
        self.release = policy if policy.key is not None else policy.with_key(SurrogateKey.generate())

    def __call__(self, group: Sequence[Positioned]) -> GroupResult:
        out = GroupResult()
        self.replacer.state.caches.clear()  # nothing of earlier groups is kept (or needed)
        if self.spans_from_input:
            layer, found = self.input_layer, list(group)
        else:
            layer = getattr(self.pipeline, "output_layer", "phi")
            found = _detect(self.pipeline, group, self.skip_bad, out, "de-identified")
        for p, doc in found:
            try:
                res = self.replacer.replace(doc, layer=layer)
            except Exception as exc:  # noqa: BLE001
                _fail([(p, doc)], exc, self.skip_bad, out, "de-identified")
                continue
            assert self.release is not None
            new = res.document(doc, GOLD, self.release)
            line = annotation_record(new, res, self.original_offsets) if self.annotations else None
            if self.risk is None:
                out.records.append((p, (new, line)))
            else:  # opt-in (--risk): suspects located in the de-identified text
                out.records.append((p, (new, line, risk_record(new, self.risk(doc), res))))
            out.report.update(res.report)
            out.report["spans"] += len(res.spans)
        self.replacer.state.caches.clear()
        out.records.sort(key=lambda r: r[0])
        return out


@dataclass
class AnnotateTask:
    """Annotate one group: records are ``(position, JSON line)`` (ids and spans, never text).

    ``record`` builds the line from the annotated document and its kept spans (the
    ``annotate`` command's :func:`~notescrub.cli.commands.annotate.record`); ``keep``
    filters the model labels; ``explain`` adds per-span feature explanations. Counts of
    labels without a canonical type (``"unmapped:LABEL"``) and of spans that cannot be
    explained (``"unexplained:SOURCE"``) go to the report.
    """

    pipeline: Any
    record: Callable[..., dict[str, Any]]
    keep: frozenset[str] | None = None
    explain: bool = False
    skip_bad: bool = False
    risk: Callable[[Document], Any] | None = None
    _explainer: Any = field(default=None, init=False, repr=False)

    def _explain_fn(self, report: Counter) -> Any:
        if not self.explain:
            return None
        from notescrub.detect.crf.explain import explainable, explainer

        if self._explainer is None:
            self._explainer = set(explainable(self.pipeline))
        can = self._explainer
        crf_explain = explainer(self.pipeline)  # per group: its cache is keyed by the documents of this group

        def explain(doc: Document, span: Any) -> list[list[Any]]:
            source = span.source.split("+")[0]
            if source not in can:
                report[f"unexplained:{source}"] += 1
                return []
            return crf_explain(doc, span)

        return explain

    def __call__(self, group: Sequence[Positioned]) -> GroupResult:
        out = GroupResult()
        explain = self._explain_fn(out.report)
        # gold spans in the input are ignored: the model's own spans only
        found = _detect(self.pipeline, [(p, d.copy(layers=False)) for p, d in group], self.skip_bad, out,
                        "annotated")
        for p, doc in found:
            spans = [s for s in doc.layer(self.pipeline.output_layer) if self.keep is None or s.label in self.keep]
            for s in spans:
                if s.phi is None:
                    out.report[f"unmapped:{s.label}"] += 1
            rec = self.record(doc, spans, explain)
            if self.risk is not None:  # of the whole output (before --labels filtering)
                rec.update(self.risk(doc).to_json())
            out.records.append((p, json.dumps(rec, ensure_ascii=False)))
        out.records.sort(key=lambda r: r[0])
        return out
