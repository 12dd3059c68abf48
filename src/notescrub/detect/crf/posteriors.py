"""Per-token posteriors a CRF leaves on a document, kept for risk scoring.

When a CRF decodes a document it computes every token's marginal ``P(label | note)``
anyway (forward-backward gives the span probabilities). :func:`remember` keeps the two
numbers per token that :mod:`notescrub.risk` needs -- ``P(not O)`` and the most probable
PHI type -- in the document's derived-view cache (never in ``doc.metadata``, which is
written out), so scoring the leftovers of a note costs no second decoding.
:func:`recall` reads them back (``None`` when no CRF of that name decoded the document).

>>> import numpy as np
>>> from notescrub.types import Document
>>> doc = Document("d", "Seen by Ruiz")
>>> m = np.array([[0.9, 0.1, 0.0], [0.8, 0.05, 0.15], [0.2, 0.7, 0.1]])
>>> remember(doc, "crf", ["O", "B-DOCTOR", "B-PATIENT"], [m], feeder=None)
>>> post = recall(doc, "crf")
>>> [round(float(x), 2) for x in post.p_phi], [post.types[k] for k in post.best]
([0.1, 0.2, 0.8], ['DOCTOR', 'PATIENT', 'DOCTOR'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from notescrub.types import Document

__all__ = ["TokenPosteriors", "names", "recall", "remember"]

_KEY = "notescrub.token_posteriors:"
_NAMES = "notescrub.token_posteriors"


@dataclass(frozen=True)
class TokenPosteriors:
    """What one CRF thought of each token (index = token index of its token view).

    ``p_phi[i]`` is ``1 - P(O)`` under the decoding settings used (bias included);
    ``best[i]`` indexes ``types``: the PHI type with the highest marginal (B- and I-
    summed); ``feeder[i]`` is True when a feeder detector (stacked CRFs) put a span on
    the token, ``None`` for CRFs without feeders.
    """

    p_phi: np.ndarray
    best: np.ndarray
    types: tuple[str, ...]
    feeder: np.ndarray | None


def _collapse(labels: Sequence[str]) -> tuple[tuple[str, ...], np.ndarray, int]:
    """PHI types of BIO/BILOU labels, the type index of each label and the ``O`` column."""
    types: list[str] = []
    index = np.zeros(len(labels), dtype=np.int64)
    o = -1
    for k, lab in enumerate(labels):
        if lab == "O":
            o = k
            continue
        typ = lab[2:] if len(lab) > 2 and lab[1] == "-" else lab
        if typ not in types:
            types.append(typ)
        index[k] = types.index(typ)
    return tuple(types), index, o


def remember(doc: Document, name: str, labels: Sequence[str], marginals: Sequence[np.ndarray],
             feeder: np.ndarray | None) -> None:
    """Keep the posteriors of CRF ``name`` (``marginals``: one ``tokens x labels`` array per sequence)."""
    types, index, o = _collapse(labels)
    m = np.concatenate(list(marginals)) if marginals else np.zeros((0, len(labels)))
    p_phi = 1.0 - m[:, o] if o >= 0 else np.ones(len(m))
    if types and len(m):
        # sum the B-/I-/... columns of each type, in label order (column adds: no n x labels copy)
        per_type = np.zeros((len(m), len(types)))
        for k in range(len(labels)):
            if k != o:
                per_type[:, index[k]] += m[:, k]
        best = per_type.argmax(1)
    else:
        best = np.zeros(len(m), dtype=np.int64)
    doc._cache[_KEY + name] = TokenPosteriors(np.clip(p_phi, 0.0, 1.0), best, types, feeder)
    known = doc._cache.setdefault(_NAMES, [])
    if name not in known:
        known.append(name)


def recall(doc: Document, name: str) -> TokenPosteriors | None:
    """The posteriors :func:`remember` kept for CRF ``name`` (``None`` if it did not decode ``doc``)."""
    return doc._cache.get(_KEY + name)


def names(doc: Document) -> list[str]:
    """Names of the CRFs that left posteriors on ``doc``, in decoding order."""
    return list(doc._cache.get(_NAMES, []))
