"""De-identify a stream of documents, failing closed.

:func:`deidentify` runs detection (a :class:`~notescrub.pipeline.Pipeline`, or the
spans the input already carries) and replacement for every document. A document
whose detection or replacement fails is never returned unredacted: the whole batch
fails with a :class:`~notescrub.errors.ProcessingError` naming the document, or,
with ``skip_bad``, that document is left out and listed in
:attr:`BatchResult.skipped`.

>>> from notescrub.replace import Replacer
>>> docs = [Document("a", "Seen by Ruiz.", layers={"gold": [Span(8, 12, "DOCTOR")]})]
>>> out = deidentify(docs, Replacer("tag", layer="gold"), spans_from_input=True)
>>> [d.text for d in out.documents], out.skipped
(['Seen by [**DOCTOR**].'], [])
>>> bad = Document("b", "Hi.", layers={"gold": [Span(0, 3, "DATE"), Span(1, 2, "AGE")]})
>>> deidentify([bad], Replacer("tag", layer="gold"), spans_from_input=True, skip_bad=True).skipped
['b']
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from notescrub.docref import doc_ref
from notescrub.errors import NotescrubError, ProcessingError
from notescrub.replace.engine import Replacer, ReplaceResult
from notescrub.replace.keys import SurrogateKey
from notescrub.replace.release import ReleasePolicy
from notescrub.types import GOLD, Document, Span  # noqa: F401 (Span: doctest)

__all__ = ["BatchResult", "deidentify"]

log = logging.getLogger(__name__)


@dataclass
class BatchResult:
    """De-identified documents (spans in layer ``gold``), per-document results and skipped ids."""

    documents: list[Document] = field(default_factory=list)
    results: list[ReplaceResult] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    report: Counter = field(default_factory=Counter)


def _fail(docs: list[tuple[int, str]], exc: Exception, skip_bad: bool, out: BatchResult) -> None:
    """Fail closed on ``docs`` (``(input position, id)`` pairs); messages never quote ids or note text."""
    reason = exc.reason if isinstance(exc, NotescrubError) else type(exc).__name__
    refs = ", ".join(doc_ref(i, position=p) for p, i in docs[:5]) + (" ..." if len(docs) > 5 else "")
    if not skip_bad:
        raise ProcessingError(f"{refs} could not be de-identified ({reason}); nothing was written "
                              "(use --skip-bad to leave failing documents out)") from exc
    log.warning("%s skipped (not written): %s", refs, reason)
    out.skipped.extend(i for _, i in docs)


def _detected(docs: Iterable[Document], pipeline: Any, skip_bad: bool, out: BatchResult,
              pos: dict[int, int]) -> Iterator[Document]:
    if not getattr(pipeline, "patient_level", False):
        for doc in docs:
            try:
                yield pipeline(doc)
            except Exception as exc:  # noqa: BLE001 - fail closed on anything
                _fail([(pos.get(id(doc), 0), doc.id)], exc, skip_bad, out)
        return
    groups: dict[str, list[Document]] = defaultdict(list)
    for doc in docs:
        groups[doc.patient_id if doc.patient_id is not None else "\0" + doc.id].append(doc)
    # pop each group once processed: the input documents and their derived views (tokens,
    # features) are freed as the batch goes on instead of living until its end
    for key in list(groups):
        group = groups.pop(key)
        try:
            yield from pipeline.run_group(group)
        except Exception as exc:  # noqa: BLE001
            _fail([(pos.get(id(d), 0), d.id) for d in group], exc, skip_bad, out)


def deidentify(
    docs: Iterable[Document],
    replacer: Replacer,
    *,
    pipeline: Any = None,
    spans_from_input: bool = False,
    input_layer: str = GOLD,
    skip_bad: bool = False,
    release: ReleasePolicy | None = None,
) -> BatchResult:
    """Detect (or take the input's spans) and replace, for every document.

    Exactly one of ``pipeline`` and ``spans_from_input`` must be given. Output
    documents carry the replaced and the kept spans, re-located, in layer ``gold``,
    and only what ``release`` allows of the input (default: the id; patient ids as
    pseudonyms keyed by the replacer's key, or by a key made for this batch).
    """
    if (pipeline is None) == (not spans_from_input):
        raise ValueError("give either a pipeline or spans_from_input=True")
    policy = (release or ReleasePolicy()).with_key(replacer.key)
    if policy.key is None:
        policy = policy.with_key(SurrogateKey.generate())
    out = BatchResult()
    layer = input_layer if spans_from_input else getattr(pipeline, "output_layer", "phi")
    pos: dict[int, int] = {}  # id(document) -> 1-based input position, for messages

    def numbered(items: Iterable[Document]) -> Iterator[Document]:
        for n, d in enumerate(items, 1):
            pos[id(d)] = n
            yield d

    stream = numbered(docs) if spans_from_input else _detected(numbered(docs), pipeline, skip_bad, out, pos)
    for doc in stream:
        try:
            res = replacer.replace(doc, layer=layer)
        except Exception as exc:  # noqa: BLE001
            _fail([(pos.get(id(doc), 0), doc.id)], exc, skip_bad, out)
            continue
        finally:
            pos.pop(id(doc), None)
        out.results.append(res)
        out.documents.append(res.document(doc, GOLD, policy))
        out.report.update(res.report)
    return out
