"""Experiment splits: patient-disjoint k-fold cross-validation and learning curves.

:func:`patient_kfold` never puts one patient's notes in two folds (documents
without ``patient_id`` count as their own patient). Patients are shuffled with
``seed`` and assigned, largest first, to the fold with the fewest documents, so
folds stay balanced in documents.

:func:`learning_curve_subsets` draws, for each fraction and repeat, a random
subset of ``round(fraction × n)`` documents (at least one) without replacement,
as in Wellner et al.'s learning curves; repeats use different draws.

>>> from notescrub.types import Document
>>> docs = [Document(f"d{i}", "", patient_id=f"P{i // 2}") for i in range(6)]
>>> folds = patient_kfold(docs, 3, seed=0)
>>> sorted(len(f.test) for f in folds)
[2, 2, 2]
>>> all({d.patient_id for d in f.test}.isdisjoint({d.patient_id for d in f.train}) for f in folds)
True
>>> [(s.fraction, s.repeat, len(s.docs)) for s in learning_curve_subsets(docs, [0.5, 1.0], repeats=2, seed=0)]
[(0.5, 0, 3), (0.5, 1, 3), (1.0, 0, 6), (1.0, 1, 6)]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from notescrub.errors import ConfigError
from notescrub.types import Document

__all__ = ["Fold", "Subset", "learning_curve_subsets", "patient_kfold", "patient_of"]


@dataclass(frozen=True)
class Fold:
    index: int
    train: list[Document]
    test: list[Document]


@dataclass(frozen=True)
class Subset:
    fraction: float
    repeat: int
    docs: list[Document]


def patient_of(doc: Document) -> str:
    """Grouping key: the patient id, or a per-document key when it is missing."""
    return doc.patient_id if doc.patient_id is not None else f"\x00doc:{doc.id}"


def patient_kfold(docs: Sequence[Document], k: int, seed: int = 0) -> list[Fold]:
    """``k`` folds; each fold's test set holds whole patients, its train set the rest."""
    if k < 2:
        raise ConfigError(f"k-fold needs k >= 2, got {k}")
    groups: dict[str, list[int]] = {}
    for i, d in enumerate(docs):
        groups.setdefault(patient_of(d), []).append(i)
    if len(groups) < k:
        raise ConfigError(f"cannot make {k} patient-disjoint folds from {len(groups)} patient(s)")
    keys = sorted(groups)
    random.Random(seed).shuffle(keys)
    keys.sort(key=lambda p: -len(groups[p]))  # stable: shuffled order among equal sizes
    fold_docs: list[list[int]] = [[] for _ in range(k)]
    for p in keys:
        target = min(range(k), key=lambda f: (len(fold_docs[f]), f))
        fold_docs[target].extend(groups[p])
    folds = []
    for f in range(k):
        test_idx = set(fold_docs[f])
        folds.append(Fold(f, [d for i, d in enumerate(docs) if i not in test_idx],
                          [docs[i] for i in sorted(test_idx)]))
    return folds


def learning_curve_subsets(
    docs: Sequence[Document], fractions: Sequence[float], repeats: int = 1, seed: int = 0
) -> list[Subset]:
    """Random training subsets for a learning curve (see module docstring)."""
    if repeats < 1:
        raise ConfigError(f"repeats must be >= 1, got {repeats}")
    if not docs:
        raise ConfigError("learning curve needs at least one document")
    rng = random.Random(seed)
    out = []
    for frac in fractions:
        if not 0 < frac <= 1:
            raise ConfigError(f"fractions must lie in (0, 1], got {frac}")
        n = max(1, round(frac * len(docs)))
        for r in range(repeats):
            idx = sorted(rng.sample(range(len(docs)), n))
            out.append(Subset(frac, r, [docs[i] for i in idx]))
    return out
