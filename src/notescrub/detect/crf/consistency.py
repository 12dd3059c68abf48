"""Label consistency (Aramaki et al. 2006): a second CRF fed the first CRF's majority labels.

The same PHI tends to recur in a record ("Dr. ROOM" ... "ROOM"), and a first-pass CRF
labels its occurrences inconsistently. Following Krishnan & Manning (2006), as Aramaki
did, a second CRF gets four extra features computed from the first stage's output:

* ``tokrec``  -- the majority label of the token (lower-cased) in the record;
* ``tokcorp`` -- the majority label of the token in the corpus;
* ``entrec``  -- the majority label of the entry (a token sequence the first stage tagged)
  in the record, given to every occurrence of that sequence, with its ``B``/``I`` position;
* ``entcorp`` -- the same over the corpus.

Majorities count every occurrence (an occurrence left untagged counts as ``O``) and are
emitted only for tokens and entries tagged at least once. The first-stage labels of the
training documents are **cross-fitted** (``folds``-fold: each fold is labelled by a
first-stage model that did not see it), so the second stage learns how far to trust
realistic first-stage output rather than memorised gold. At run time the corpus tables
are those of the training corpus (stored with the model); record majorities come from the
document being annotated. A training record's own corpus features come from the tables of
the *other* folds, as a new document at run time is never in the training corpus: with the
record counted in its own corpus table, ``tokcorp``/``entcorp`` would fire on every name
the record tags, stage two would lean on them, and at run time it would drop the
cue-less mentions of a name the training corpus never saw instead of following
``tokrec``/``entrec``.

What stage two does to a record: a name the first stage tags once with a cue ("Dr. Room")
and misses without one ("Room reviewed the chart") gets ``tokrec=DOCTOR`` and
``entrec=B-DOCTOR`` on every occurrence (with one tagged and one untagged occurrence the
tie goes to the PHI type), and the second CRF, trained on how far such features agree
with gold, labels the cue-less occurrences DOCTOR too (``tests/recipes/test_aramaki.py``).

>>> t = MajorityTable()
>>> t.add_record([["room"], ["dr", "room"], ["room"]], ["PATIENT", "DOCTOR", "PATIENT"])
>>> t.token_majority()["room"]
'PATIENT'
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from notescrub.detect.base import Detector
from notescrub.detect.crf.tagger import META_FILE, CRFTagger, Decoded, _sha256, check_meta
from notescrub.errors import ConfigError, ModelError
from notescrub.estimator import Params
from notescrub.features.extract import FeatureParts
from notescrub.text.align import OUTSIDE, segments
from notescrub.types import Document, Span

__all__ = ["ConsistencyTagger", "MajorityTable", "consistency_features", "fold_of"]

log = logging.getLogger(__name__)

_MAX_ENTRY = 6
STAGE_FILES = ("stage1.crfsuite", "stage2.crfsuite")
TABLE_FILE = "consistency.json"


def _keys(tokens: Sequence[Any]) -> list[str]:
    return [t.text.lower() for t in tokens]


def _majority(c: Counter) -> str:
    # most frequent; ties broken towards a PHI type, then by name (deterministic)
    return max(c.items(), key=lambda kv: (kv[1], kv[0] != OUTSIDE, kv[0]))[0]


class MajorityTable:
    """Label counts of tokens and entries over one record or a whole corpus."""

    def __init__(self) -> None:
        self.tokens: dict[str, Counter] = defaultdict(Counter)
        self.entries: dict[tuple[str, ...], Counter] = defaultdict(Counter)

    def add_record(self, entries: list[list[str]], types: list[str], keys: list[str] | None = None,
                   token_types: list[str] | None = None) -> None:
        """Count one record: its tagged ``entries`` (token keys) with their ``types``.

        With ``keys``/``token_types`` (every token of the record and its type) the
        untagged occurrences of tagged tokens and entries count as ``O``.
        """
        tagged_tokens = {k for e in entries for k in e}
        if keys is not None and token_types is not None:
            for k, typ in zip(keys, token_types):
                if k in tagged_tokens:
                    self.tokens[k][typ] += 1
            occ = _find_entries(keys, {tuple(e) for e in entries})
            tagged = Counter(tuple(e) for e in entries)
            for e, n in occ.items():
                untagged = n - tagged.get(e, 0)
                if untagged > 0:
                    self.entries[e][OUTSIDE] += untagged
        else:
            for e, typ in zip(entries, types):
                for k in e:
                    self.tokens[k][typ] += 1
        for e, typ in zip(entries, types):
            self.entries[tuple(e)][typ] += 1

    def token_majority(self) -> dict[str, str]:
        return {k: _majority(c) for k, c in self.tokens.items()}

    def entry_majority(self) -> dict[tuple[str, ...], str]:
        return {e: _majority(c) for e, c in self.entries.items()}

    def to_json(self) -> dict[str, Any]:
        return {"tokens": self.token_majority(), "entries": {" ".join(e): t for e, t in self.entry_majority().items()}}


def _find_entries(keys: list[str], entries: set[tuple[str, ...]]) -> Counter:
    """Occurrences of each entry (token-key tuple) in ``keys``."""
    by_first: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    for e in entries:
        by_first[e[0]].append(e)
    out: Counter = Counter()
    for i, k in enumerate(keys):
        for e in by_first.get(k, ()):
            if tuple(keys[i : i + len(e)]) == e:
                out[e] += 1
    return out


def _record_table(keys: list[str], tags: list[str]) -> tuple[dict[str, str], dict[tuple[str, ...], str]]:
    token_types = [t[2:] if t != OUTSIDE else OUTSIDE for t in tags]
    segs = [(a, b, typ) for a, b, typ in segments(tags) if b - a <= _MAX_ENTRY]
    table = MajorityTable()
    table.add_record([keys[a:b] for a, b, _ in segs], [typ for _, _, typ in segs], keys, token_types)
    return table.token_majority(), table.entry_majority()


def _corpus_table(keys: Sequence[list[str]], tags: Sequence[list[str]]) -> MajorityTable:
    """Token and entry label counts of first-stage ``tags`` over several records."""
    table = MajorityTable()
    for kk, tt in zip(keys, tags):
        token_types = [t[2:] if t != OUTSIDE else OUTSIDE for t in tt]
        segs = [(a, b, typ) for a, b, typ in segments(tt) if b - a <= _MAX_ENTRY]
        table.add_record([kk[a:b] for a, b, _ in segs], [t for _, _, t in segs], kk, token_types)
    return table


def _mark_entries(keys: list[str], entries: dict[tuple[str, ...], str], name: str, out: list[list[str]]) -> None:
    by_first: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    for e in entries:
        by_first[e[0]].append(e)
    for lst in by_first.values():
        lst.sort(key=len, reverse=True)
    i = 0
    n = len(keys)
    while i < n:
        for e in by_first.get(keys[i], ()):
            if tuple(keys[i : i + len(e)]) == e:
                typ = entries[e]
                out[i].append(f"{name}=B-{typ}")
                for j in range(i + 1, i + len(e)):
                    out[j].append(f"{name}=I-{typ}")
                break
        i += 1


def consistency_features(keys: list[str], tags: list[str], corpus_tokens: dict[str, str],
                         corpus_entries: dict[tuple[str, ...], str]) -> list[list[str]]:
    """The four majority features of every token, from first-stage ``tags``."""
    rec_tok, rec_ent = _record_table(keys, tags)
    out: list[list[str]] = [[] for _ in keys]
    for i, k in enumerate(keys):
        if k in rec_tok:
            out[i].append(f"tokrec={rec_tok[k]}")
        if k in corpus_tokens:
            out[i].append(f"tokcorp={corpus_tokens[k]}")
    _mark_entries(keys, rec_ent, "entrec", out)
    _mark_entries(keys, corpus_entries, "entcorp", out)
    return out


def fold_of(doc: Document, index: int, folds: int) -> int:
    """Fold of a document: by patient when known (a patient's notes stay together)."""
    if doc.patient_id:
        import zlib

        return zlib.crc32(doc.patient_id.encode("utf-8")) % folds
    return index % folds


class ConsistencyTagger(Params, Detector):
    """Two-stage CRF (see the module docstring). ``bias``/``threshold`` act on stage two.

    Parameters
    ----------
    first, second:
        Unfitted :class:`CRFTagger` configurations of the two stages (the second's
        featurizer is ignored: it sees the first stage's features plus the majority ones).
    folds:
        Cross-fitting folds for the first-stage labels of the training data.
    """

    def __init__(self, first: CRFTagger | None = None, second: CRFTagger | None = None, folds: int = 5,
                 name: str = "crf") -> None:
        self.first = first
        self.second = second
        self.folds = folds
        self.name = name

    # decoding knobs live on the second stage
    @property
    def bias(self) -> float:
        return float(self._stage2().bias)

    @bias.setter
    def bias(self, value: float) -> None:
        self._stage2().bias = value

    @property
    def threshold(self) -> float | None:
        return self._stage2().threshold

    @threshold.setter
    def threshold(self, value: float | None) -> None:
        self._stage2().threshold = value

    def _stage2(self) -> CRFTagger:
        s = getattr(self, "second_", None) or self.second
        if s is None:
            raise ModelError("ConsistencyTagger has no second stage")
        return s

    @staticmethod
    def _clone(t: CRFTagger, **over: Any) -> CRFTagger:
        return CRFTagger(**{**t.get_params(deep=False), **over})

    def fit(self, docs: Sequence[Document], layer: str = "gold") -> ConsistencyTagger:
        docs = list(docs)
        first = self.first or CRFTagger()
        second = self.second or CRFTagger()
        if int(self.folds) < 2:
            raise ConfigError(f"folds must be >= 2, got {self.folds!r}")
        if len(docs) < int(self.folds):
            raise ModelError(f"label consistency needs at least {self.folds} training documents, got {len(docs)}")
        t0 = time.perf_counter()
        feat = first._featurizer()
        attrs = [feat.attributes(d) for d in docs]
        fold = [fold_of(d, i, int(self.folds)) for i, d in enumerate(docs)]
        if len(set(fold)) < 2:  # e.g. a single patient: fall back to document folds
            fold = [i % int(self.folds) for i in range(len(docs))]
        stage1_tags: list[list[str]] = [[] for _ in docs]
        for k in sorted(set(fold)):
            tr = [i for i in range(len(docs)) if fold[i] != k]
            te = [i for i in range(len(docs)) if fold[i] == k]
            m = self._clone(first, name=f"{self.name}.stage1").fit([docs[i] for i in tr], layer,
                                                                     attrs=[attrs[i] for i in tr])
            for i in te:
                stage1_tags[i] = m.decode(docs[i], attrs[i]).tags
        keys = [_keys(feat.view(d).tokens) for d in docs]
        table = _corpus_table(keys, stage1_tags)
        self.corpus_tokens_ = table.token_majority()
        self.corpus_entries_ = table.entry_majority()
        # A training record's corpus features come from the other folds only: at run time a
        # document is never part of the training corpus, so its names are in the corpus
        # tables only when other records carry them. Counting the record itself would make
        # ``tokcorp``/``entcorp`` fire on every name the record tags, and stage two would
        # learn to trust those instead of the record majorities -- then drop the cue-less
        # mentions of a new name at run time.
        held_out = {k: _corpus_table([keys[i] for i in range(len(docs)) if fold[i] != k],
                                     [stage1_tags[i] for i in range(len(docs)) if fold[i] != k])
                    for k in sorted(set(fold))}
        majorities = {k: (t.token_majority(), t.entry_majority()) for k, t in held_out.items()}
        attrs2 = [_join(a_, consistency_features(kk, tags, *majorities[fold[i]]))
                  for i, (a_, kk, tags) in enumerate(zip(attrs, keys, stage1_tags))]
        self.second_ = self._clone(second, featurizer=first.featurizer, name=self.name).fit(docs, layer, attrs=attrs2)
        self.first_ = self._clone(first, name=f"{self.name}.stage1").fit(docs, layer, attrs=attrs)
        self.training_ = {"folds": int(self.folds), "seconds": round(time.perf_counter() - t0, 2),
                          "stage1": self.first_.training_, "stage2": self.second_.training_}
        return self

    def _fitted(self) -> tuple[CRFTagger, CRFTagger]:
        if getattr(self, "second_", None) is None or getattr(self, "first_", None) is None:
            raise ModelError("ConsistencyTagger is not fitted: call fit() or load a model")
        return self.first_, self.second_

    def _stage2_parts(self, doc: Document) -> FeatureParts:
        first, _second = self._fitted()
        feat = first._featurizer()
        parts = feat.parts(doc)
        tags1 = first.decode(doc, parts=parts).tags
        keys = _keys(feat.view(doc).tokens)
        return parts.with_extra(consistency_features(keys, tags1, self.corpus_tokens_, self.corpus_entries_))

    def final_attributes(self, doc: Document) -> tuple[CRFTagger, list[list[str]]]:
        """The second-stage tagger and its attributes for ``doc`` (first stage run inside)."""
        return self._fitted()[1], self._stage2_parts(doc).join()

    def decode(self, doc: Document) -> Decoded:
        return self._fitted()[1].decode(doc, parts=self._stage2_parts(doc))

    def detect(self, doc: Document) -> list[Span]:
        return self.detect_with_info(doc)[0]

    def detect_with_info(self, doc: Document) -> tuple[list[Span], dict[str, Any]]:
        """Spans of ``doc`` and the second stage's record confidence ``{"logprob", "tokens"}``."""
        d = self.decode(doc)
        return d.spans, d.info()

    # -- persistence ---------------------------------------------------------------------
    def save(self, directory: str | Path, *, overwrite: bool = False, extra: dict[str, Any] | None = None) -> Path:
        from notescrub import __version__
        from notescrub.detect.crf.tagger import FORMAT_VERSION
        from notescrub.io.atomic import atomic_dir

        first, second = self._fitted()
        with atomic_dir(directory, overwrite=overwrite) as tmp:
            stages = []
            for t, fname in zip((first, second), STAGE_FILES):
                (tmp / fname).write_bytes(t.model_bytes_)
                m = t.metadata()
                m["files"] = {"model": fname, "sha256": {fname: _sha256(tmp / fname)}}
                stages.append(m)
            table = {"tokens": self.corpus_tokens_,
                     "entries": {" ".join(e): typ for e, typ in self.corpus_entries_.items()}}
            (tmp / TABLE_FILE).write_text(json.dumps(table, ensure_ascii=False, sort_keys=True), encoding="utf-8")
            meta = {
                "kind": "crf", "format": FORMAT_VERSION, "notescrub_version": __version__, "stages": 2,
                "name": self.name, "labels": second.types_, "scheme": second.scheme, "pos": stages[0]["pos"],
                "folds": int(self.folds), "stage1": stages[0], "stage2": stages[1],
                "files": {"table": TABLE_FILE, "sha256": {TABLE_FILE: _sha256(tmp / TABLE_FILE)}},
                "training": getattr(self, "training_", {}),
            }
            meta.update(extra or {})
            (tmp / META_FILE).write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return Path(directory)

    @classmethod
    def from_meta(cls, directory: Path, meta: dict[str, Any]) -> ConsistencyTagger:
        check_meta(directory, meta)
        try:
            s1, s2 = meta["stage1"], meta["stage2"]
        except KeyError as exc:
            raise ModelError(f"two-stage model.json lacks {exc}", path=directory / META_FILE) from None
        first = CRFTagger.from_meta(directory, s1, model_file=s1.get("files", {}).get("model", STAGE_FILES[0]))
        second = CRFTagger.from_meta(directory, s2, model_file=s2.get("files", {}).get("model", STAGE_FILES[1]))
        path = directory / TABLE_FILE
        if not path.is_file():
            raise ModelError(f"{TABLE_FILE} is missing", path=directory)
        expected = meta.get("files", {}).get("sha256", {}).get(TABLE_FILE)
        if expected and _sha256(path) != expected:
            raise ModelError(f"{TABLE_FILE} does not match the checksum in model.json", path=directory)
        try:
            table = json.loads(path.read_text(encoding="utf-8"))
            tokens = dict(table["tokens"])
            entries = {tuple(k.split(" ")): v for k, v in table["entries"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ModelError(f"{TABLE_FILE} cannot be read: {exc}", path=path) from None
        t = cls(first, second, folds=int(meta.get("folds", 5)), name=str(meta.get("name", "crf")))
        t.first_, t.second_ = first, second
        t.corpus_tokens_, t.corpus_entries_ = tokens, entries
        t.training_ = meta.get("training", {})
        return t


def _join(attrs: list[list[str]], extra: list[list[str]]) -> list[list[str]]:
    return [a + e for a, e in zip(attrs, extra)]
