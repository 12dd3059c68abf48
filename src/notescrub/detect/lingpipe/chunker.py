"""LingPipe-style chunker: an HMM over BMEWO+ tags with character n-gram LM emissions.

The second system of Wellner et al. (2007) was LingPipe's ``CharLmRescoringChunker``
trained on whole records. This module re-implements its first-best core, the
``CharLmHmmChunker``:

* **Sequence.** A whole record is one sequence: the tokens of
  :func:`notescrub.text.views.token_view`, plus one ``"\\n"`` pseudo-token per line
  break so that the layout (``Nombre: X⏎``) is visible to the model.
* **States.** BMEWO+ tags (:mod:`notescrub.detect.bmewo`): ``B_X M_X E_X W_X`` for an
  entity of type ``X``; outside tokens are ``BB_O_L MM_O EE_O_R WW_O_R``, so the
  words just before and after an entity get their own emission models.
* **Emissions.** One bounded character n-gram language model per state
  (:mod:`notescrub.detect.lingpipe.charlm`, Witten-Bell interpolation, ``n = 8`` and
  ``L = n`` by default, as in LingPipe's demos): ``P(token | state) = P_state(⊢token⊣)``.
* **Transitions.** Maximum-likelihood tag bigrams with add-``α`` smoothing over the
  legal successors (and legal start/end states).
* **Decoding.** Viterbi over the whole record (vectorised over states); emission vectors
  are cached per token string.
* **Rescoring** (``n_best > 1``): LingPipe's ``CharLmRescoringChunker`` re-scores the
  n best chunkings with chunk-type LMs and an LM over the text around the chunks;
  here the k best paths of every region where the HMM hesitates are re-scored that way
  (:mod:`notescrub.detect.lingpipe.rescore`).
* Every span has ``score = 1.0`` (no confidence estimate). See
  ``docs/recipes-statdeid-lingpipe.md`` for the other differences from LingPipe.

Spans carry the native training labels.

>>> from notescrub.types import Document, Span
>>> docs = [Document(str(i), f"Seen by Dr. {n} on {d}.",
...          layers={"gold": [Span(12, 12 + len(n), "DOCTOR"), Span(16 + len(n), 20 + len(n), "DATE")]})
...         for i, (n, d) in enumerate([("Ruiz", "3/18"), ("Diaz", "4/11"), ("Sanz", "5/02")] * 3)]
>>> chunker = CharLmHmmChunker(order=4).fit(docs)
>>> test = Document("t", "Seen by Dr. Paz on 6/12.")
>>> [(test.text[s.start:s.end], s.label) for s in chunker.detect(test)]
[('Paz', 'DOCTOR'), ('6/12', 'DATE')]
"""

from __future__ import annotations

import gzip
import json
import logging
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from notescrub import __version__
from notescrub.detect.base import Detector
from notescrub.detect.bmewo import Chunk, Codec
from notescrub.detect.lingpipe.charlm import CharLmBank
from notescrub.errors import ConfigError, ModelError
from notescrub.estimator import Params
from notescrub.io.atomic import atomic_dir
from notescrub.text.align import AlignStats, segments, spans_to_tags
from notescrub.text.tokenize import Token
from notescrub.text.views import token_view
from notescrub.types import GOLD, Document, Span

__all__ = ["KIND", "CharLmHmmChunker", "sequence_tokens"]

log = logging.getLogger(__name__)

KIND = "lingpipe"
_NEG = -1e30  # log(0) stand-in that keeps sums finite
NEWLINE = "\n"
RESCORER_FILE = "rescorer.json.gz"


def sequence_tokens(doc: Document) -> list[Token]:
    """The record's tokens plus one ``"\\n"`` pseudo-token per run of line breaks."""
    text = doc.text
    out: list[Token] = []
    prev_end = 0
    for tok in token_view(doc).tokens:
        nl = text.find(NEWLINE, prev_end, tok.start)
        if nl >= 0 and out:
            out.append(Token(nl, nl + 1, NEWLINE))
        out.append(tok)
        prev_end = tok.end
    return out


class CharLmHmmChunker(Params, Detector):
    """HMM chunker with character-LM emissions (scikit-learn estimator contract).

    Parameters
    ----------
    order: character n-gram length of the emission models (LingPipe: 8).
    n_chars: alphabet size of the uniform base distribution (LingPipe demos: 256).
    lambda_factor: Witten-Bell interpolation factor (``None``: ``order``).
    alpha: add-α smoothing of the transition, start and end probabilities.
    n_best: paths re-scored per hesitant region (``1``: first-best HMM decoding only).
    rescore_eps: a token is hesitant when its most probable class has posterior below
        ``1 - rescore_eps`` (or disagrees with the Viterbi path).
    beam: Viterbi keeps only predecessor states within ``beam`` (natural log units) of
        the best one at each token (``None``: exact search).
    name: detector (layer) name.
    cache_size: emission vectors kept per distinct token string.
    """

    def __init__(
        self,
        order: int = 8,
        n_chars: int = 256,
        lambda_factor: float | None = None,
        alpha: float = 0.5,
        n_best: int = 1,
        rescore_eps: float = 0.01,
        beam: float | None = 30.0,
        name: str = "lingpipe",
        cache_size: int = 200_000,
    ) -> None:
        self.order = order
        self.n_chars = n_chars
        self.lambda_factor = lambda_factor
        self.alpha = alpha
        self.n_best = n_best
        self.rescore_eps = rescore_eps
        self.beam = beam
        self.name = name
        self.cache_size = cache_size

    # -- training ---------------------------------------------------------------------
    def fit(self, docs: Sequence[Document], layer: str = GOLD) -> CharLmHmmChunker:
        """Count emissions and transitions over ``docs``' tokens and ``layer`` spans."""
        t0 = time.perf_counter()
        docs = list(docs)
        if int(self.n_best) < 1 or (self.beam is not None and float(self.beam) <= 0) or not 0 < self.rescore_eps < 1:
            raise ConfigError("n_best must be >= 1, beam > 0 (or None) and rescore_eps in (0, 1)")
        self.__dict__.pop("_trans_t", None)
        stats = AlignStats()
        seqs: list[tuple[list[Token], list[Chunk]]] = []
        for doc in docs:
            toks = sequence_tokens(doc)
            tags = spans_to_tags(toks, doc.layer(layer), "BILOU", stats)
            seqs.append((toks, [(a, b - 1, t) for a, b, t in segments(tags)]))
        types = sorted({t for _, chunks in seqs for _, _, t in chunks})
        if not types:
            raise ModelError(f"no spans in layer {layer!r} of the {len(docs)} training documents")
        codec = Codec(types)
        n = len(codec)
        emit: Counter[tuple[int, str]] = Counter()
        trans = np.zeros((n, n))
        start = np.zeros(n)
        end = np.zeros(n)
        for toks, chunks in seqs:
            if not toks:
                continue
            states = [codec.index[s] for s in codec.encode(len(toks), chunks)]
            for tok, s in zip(toks, states):
                emit[s, tok.text] += 1
            start[states[0]] += 1
            end[states[-1]] += 1
            np.add.at(trans, (states[:-1], states[1:]), 1)
        bank = CharLmBank(n, self.order, self.n_chars, self.lambda_factor)
        for (s, text), c in emit.items():
            bank.add(s, text, c)
        bank.freeze()
        self.codec_ = codec
        self.bank_ = bank
        self.log_trans_, self.log_start_, self.log_end_ = _transition_logs(codec, trans, start, end, self.alpha)
        self.counts_ = {"trans": trans, "start": start, "end": end}
        self.rescorer_ = None
        if int(self.n_best) > 1:
            from notescrub.detect.lingpipe.rescore import train_rescorer

            records = [(d.text, [(toks[a].start, toks[b].end, t) for a, b, t in chunks])
                       for d, (toks, chunks) in zip(docs, seqs)]
            self.rescorer_ = train_rescorer(records, types, self.order, self.n_chars, self.lambda_factor)
        self.align_stats_ = stats.as_dict()
        self.training_ = {
            "documents": len(docs),
            "tokens": int(sum(len(t) for t, _ in seqs)),
            "spans": stats.spans,
            "seconds": round(time.perf_counter() - t0, 2),
        }
        self._cache: dict[str, np.ndarray] = {}
        log.info("lingpipe chunker: %d states, %d types, trained in %.1fs", n, len(types), self.training_["seconds"])
        return self

    @property
    def types_(self) -> list[str]:
        """Entity types learned (native labels)."""
        self._check_fitted()
        return list(self.codec_.types)

    # -- decoding ---------------------------------------------------------------------
    def _check_fitted(self) -> None:
        if not hasattr(self, "bank_"):
            raise ModelError("the LingPipe chunker is not fitted; call fit() or load a model directory")

    def _emissions(self, toks: Sequence[Token]) -> np.ndarray:
        cache = self.__dict__.setdefault("_cache", {})
        if len(cache) > self.cache_size:
            cache.clear()
        out = np.empty((len(toks), len(self.codec_)))
        for i, tok in enumerate(toks):
            v = cache.get(tok.text)
            if v is None:
                v = cache[tok.text] = self.bank_.log_probs(tok.text)
            out[i] = v
        return out

    def viterbi(self, emissions: np.ndarray) -> list[int]:
        """Most likely state sequence for an ``(n_tokens, n_states)`` emission matrix."""
        n = emissions.shape[0]
        if n == 0:
            return []
        Tt = self.__dict__.get("_trans_t")
        if Tt is None or Tt.shape != self.log_trans_.shape:
            Tt = self._trans_t = np.ascontiguousarray(self.log_trans_.T)  # [next, prev]
        rows = np.arange(Tt.shape[0])
        beam = float(self.beam) if self.beam is not None else np.inf
        delta = self.log_start_ + emissions[0]
        back = np.empty((n, Tt.shape[0]), dtype=np.intp)
        for t in range(1, n):
            # only predecessors within ``beam`` of the best one are extended (LingPipe's log beam)
            act = (delta >= delta.max() - beam).nonzero()[0]
            if len(act) == 1:  # one survivor: every state comes from it
                s = act[0]
                back[t] = s
                delta = Tt[:, s] + delta[s]
            else:
                cand = Tt[:, act]
                cand += delta[act]
                best = cand.argmax(axis=1)
                back[t] = act[best]
                delta = cand[rows, best]
            delta += emissions[t]
        delta = delta + self.log_end_
        path = [int(delta.argmax())]
        for t in range(n - 1, 0, -1):
            path.append(int(back[t, path[-1]]))
        return path[::-1]

    def detect(self, doc: Document) -> list[Span]:
        self._check_fitted()
        toks = sequence_tokens(doc)
        if not toks:
            return []
        em = self._emissions(toks)
        path = self.viterbi(em)
        if int(self.n_best) > 1:
            if getattr(self, "rescorer_", None) is None:
                raise ModelError("n_best > 1 needs a rescoring model: fit or save the chunker with n_best > 1")
            from notescrub.detect.lingpipe.rescore import rescore

            path, _ = rescore(self, doc.text, toks, em, path)
        tags = [self.codec_.states[s] for s in path]
        chunks = self.codec_.decode(tags)
        return [Span(toks[a].start, toks[b].end, typ, 1.0, self.name) for a, b, typ in chunks]

    # -- persistence ------------------------------------------------------------------
    def save(self, directory: str | Path, *, overwrite: bool = False, extra: dict[str, Any] | None = None) -> Path:
        """Write a model directory (``model.json`` + ``emissions.json.gz``), atomically."""
        self._check_fitted()
        meta = {
            "kind": KIND,
            "notescrub_version": __version__,
            "params": self.get_params(deep=False),
            "types": self.codec_.types,
            "counts": {k: v.tolist() for k, v in self.counts_.items()},
            "align_stats": self.align_stats_,
            "training": self.training_,
            **(extra or {}),
        }
        with atomic_dir(directory, overwrite=overwrite) as tmp:
            with gzip.open(tmp / "emissions.json.gz", "wt", encoding="utf-8") as fh:
                json.dump(self.bank_.to_state(), fh, ensure_ascii=False)
            if self.rescorer_ is not None:
                with gzip.open(tmp / RESCORER_FILE, "wt", encoding="utf-8") as fh:
                    json.dump(self.rescorer_.to_state(), fh, ensure_ascii=False)
            (tmp / "model.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False), encoding="utf-8")
        return Path(directory)

    @classmethod
    def load(cls, directory: str | Path) -> CharLmHmmChunker:
        """Read a model directory written by :meth:`save`."""
        d = Path(directory)
        meta = _read_meta(d)
        try:
            self = cls(**meta["params"])
            codec = Codec(meta["types"])
            counts = {k: np.asarray(v, dtype=float) for k, v in meta["counts"].items()}
            n = len(codec)
            if counts["trans"].shape != (n, n) or counts["start"].shape != (n,) or counts["end"].shape != (n,):
                raise ValueError("transition counts do not match the tag set")
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelError(f"model.json is malformed: {exc}", path=d / "model.json") from None
        self.bank_ = _read_bank(d / "emissions.json.gz", n)
        self.rescorer_ = _read_rescorer(d / RESCORER_FILE) if (d / RESCORER_FILE).exists() else None
        self.codec_ = codec
        self.counts_ = counts
        self.log_trans_, self.log_start_, self.log_end_ = _transition_logs(
            codec, counts["trans"], counts["start"], counts["end"], self.alpha
        )
        self.align_stats_ = meta.get("align_stats", {})
        self.training_ = meta.get("training", {})
        self._cache = {}
        return self



def _transition_logs(
    codec: Codec, trans: np.ndarray, start: np.ndarray, end: np.ndarray, alpha: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Smoothed log P(next | state), log P(first state), log P(end | state)."""
    legal, can_start, can_end = codec.transition_mask()
    num = np.where(legal, trans + alpha, 0.0)
    end_num = np.where(can_end, end + alpha, 0.0)
    denom = num.sum(axis=1) + end_num
    with np.errstate(divide="ignore"):
        log_t = np.where(legal, np.log(num) - np.log(denom)[:, None], _NEG)
        log_e = np.where(can_end, np.log(end_num) - np.log(denom), _NEG)
        s_num = np.where(can_start, start + alpha, 0.0)
        log_s = np.where(can_start, np.log(s_num) - np.log(s_num.sum()), _NEG)
    return log_t, log_s, log_e


def _read_meta(d: Path) -> dict[str, Any]:
    from notescrub.registry import read_model_meta

    meta = read_model_meta(d)
    if meta.get("kind") != KIND:
        raise ModelError(f"model kind is {meta.get('kind')!r}, expected {KIND!r}", path=d / "model.json")
    return meta


def _read_bank(path: Path, n_states: int) -> CharLmBank:
    try:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            bank = CharLmBank.from_state(json.load(fh))
    except FileNotFoundError:
        raise ModelError("model file is missing", path=path) from None
    except (OSError, EOFError, json.JSONDecodeError) as exc:
        raise ModelError(f"model file cannot be read: {exc}", path=path) from None
    if bank.n_states != n_states:
        raise ModelError(f"emission models have {bank.n_states} states, the tag set {n_states}", path=path)
    return bank


def _read_rescorer(path: Path) -> Any:
    from notescrub.detect.lingpipe.rescore import RescoringModel

    try:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            return RescoringModel.from_state(json.load(fh))
    except (OSError, EOFError, json.JSONDecodeError) as exc:
        raise ModelError(f"model file cannot be read: {exc}", path=path) from None


