"""Experiment data: a corpus, its language and its train/test splits.

* ``meddocan``: the shared MEDDOCAN corpus, trained on ``train``, tested on ``dev``
  (one split, as the challenge);
* ``en-dev``: the 65 English notes, patient-disjoint k-fold cross-validation
  (:func:`notescrub.evaluate.splits.patient_kfold`);
* a path: a directory with ``train/`` and ``dev/`` (or ``test/``) sub-directories is
  split like MEDDOCAN, anything else :func:`notescrub.io.read_corpus` reads is
  cross-validated by patient.

``max_train_docs``/``max_test_docs`` keep a seeded random subset of every split
(smoke runs and time-bounded reports). :func:`repopulated` rebuilds a dataset with
new surrogate PHI (Stat De-id's random / ambiguous / out-of-vocabulary corpora): the
same documents, re-populated once, split exactly as the original.

>>> from notescrub.types import Document, Span
>>> docs = [Document(f"d{i}", "Seen by Dr. Ruiz.", f"P{i}", layers={"gold": [Span(12, 16, "DOCTOR")]})
...         for i in range(6)]
>>> ds = from_documents("toy", docs, folds=3, lang="en")
>>> [(len(s.train), len(s.test)) for s in ds.splits]
[(4, 2), (4, 2), (4, 2)]
>>> ds.scheme, subset(ds, max_train_docs=2, max_test_docs=1, seed=0).splits[0].train.__len__()
('i2b2-2014', 2)
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from notescrub.errors import ConfigError
from notescrub.evaluate.splits import patient_kfold
from notescrub.types import Document

__all__ = [
    "SHARED_CORPORA",
    "Dataset",
    "Split",
    "detect_lang",
    "from_documents",
    "load_dataset",
    "repopulated",
    "subset",
]

log = logging.getLogger(__name__)

#: named corpora, relative to the shared data folder
SHARED_CORPORA = {"meddocan": "corpora/meddocan", "en-dev": "corpora/en-dev/en-dev.jsonl"}


@dataclass(frozen=True)
class Split:
    index: int
    train: list[Document]
    test: list[Document]


@dataclass(frozen=True)
class Dataset:
    """A corpus ready for experiments (``kind``: ``"train/dev"`` or ``"k-fold"``)."""

    name: str
    lang: str
    splits: list[Split]
    kind: str
    source: str = ""
    variant: str = "original"
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def scheme(self) -> str:
        return "i2b2-2014"

    @property
    def test_docs(self) -> list[Document]:
        """Every test document once (pooled over folds)."""
        return [d for s in self.splits for d in s.test]

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name, "lang": self.lang, "split": self.kind, "source": self.source, "variant": self.variant,
            "splits": [{"index": s.index, "train_docs": len(s.train), "test_docs": len(s.test),
                        "test_gold_spans": sum(len(d.layer("gold")) for d in s.test)} for s in self.splits],
            **self.info,
        }


def detect_lang(docs: Sequence[Document]) -> str:
    """``"es"`` when the gold labels are MEDDOCAN's, else ``"en"``."""
    from notescrub.taxonomy import scheme_labels

    labels = {s.label for d in docs for s in d.layer("gold")}
    return "es" if labels and labels <= set(scheme_labels("meddocan")) else "en"


def from_documents(name: str, docs: Sequence[Document], *, folds: int, lang: str | None = None, seed: int = 0,
                   source: str = "") -> Dataset:
    """Patient-disjoint ``folds``-fold cross-validation over ``docs``."""
    docs = list(docs)
    if not docs:
        raise ConfigError(f"corpus {name!r} has no documents", path=source or None)
    splits = [Split(f.index, f.train, f.test) for f in patient_kfold(docs, folds, seed=seed)]
    return Dataset(name, lang or detect_lang(docs), splits, f"{folds}-fold patient-disjoint CV", source)


def _train_dev(name: str, root: Path, lang: str | None) -> Dataset:
    from notescrub.io import read_corpus

    def part(sub: str) -> list[Document]:
        d = root / sub
        for fmt_dir in ("xml", "brat"):  # MEDDOCAN keeps both formats side by side
            if (d / fmt_dir).is_dir():
                return list(read_corpus(d / fmt_dir))
        return list(read_corpus(d))

    test_dir = "dev" if (root / "dev").is_dir() else "test"
    train, test = part("train"), part(test_dir)
    if not train or not test:
        raise ConfigError(f"train/{test_dir} split is empty", path=root)
    return Dataset(name, lang or detect_lang(train), [Split(0, train, test)], f"train -> {test_dir}", str(root))


def load_dataset(corpus: str, *, shared: str | Path | None = None, folds: int = 5, lang: str | None = None,
                 seed: int = 0) -> Dataset:
    """A named shared corpus (``meddocan``, ``en-dev``) or a path (see the module docstring)."""
    from notescrub.io import read_corpus

    if corpus in SHARED_CORPORA:
        root = Path(shared) if shared is not None else _default_shared()
        path = root / SHARED_CORPORA[corpus]
        if not path.exists():
            raise ConfigError(f"shared corpus {corpus!r} not found", path=path)
    else:
        path = Path(corpus)
        if not path.exists():
            raise ConfigError("corpus path does not exist", path=path)
    if path.is_dir() and (path / "train").is_dir() and ((path / "dev").is_dir() or (path / "test").is_dir()):
        return _train_dev(corpus, path, lang)
    return from_documents(corpus, list(read_corpus(path)), folds=folds, lang=lang, seed=seed, source=str(path))


def _default_shared() -> Path:
    """``../shared`` next to the repository (where the project keeps shared data)."""
    here = Path(__file__).resolve()
    for parent in here.parents:
        cand = parent.parent / "shared"
        if (parent / "pyproject.toml").is_file() and cand.is_dir():
            return cand
    return Path.cwd().parent / "shared"


def _sample(docs: list[Document], n: int | None, rng: random.Random) -> list[Document]:
    if n is None or n >= len(docs):
        return docs
    idx = sorted(rng.sample(range(len(docs)), n))
    return [docs[i] for i in idx]


def subset(ds: Dataset, *, max_train_docs: int | None, max_test_docs: int | None, seed: int = 0) -> Dataset:
    """Seeded random subsets of every split (documents keep their order)."""
    if max_train_docs is None and max_test_docs is None:
        return ds
    rng = random.Random(f"subset:{seed}")
    splits = [Split(s.index, _sample(s.train, max_train_docs, rng), _sample(s.test, max_test_docs, rng))
              for s in ds.splits]
    info = {**ds.info, "subset": {"max_train_docs": max_train_docs, "max_test_docs": max_test_docs, "seed": seed}}
    return replace(ds, splits=splits, info=info)


def repopulated(ds: Dataset, style: str, *, seed: int = 0) -> Dataset:
    """The dataset with every gold PHI replaced by ``style`` surrogates (same splits)."""
    from notescrub.replace.repopulate import repopulate_corpus

    seen: dict[str, Document] = {}
    for s in ds.splits:
        for d in s.train + s.test:
            seen.setdefault(d.id, d)
    locale = ds.lang
    new = {d.id: d for d in repopulate_corpus(list(seen.values()), style=style, seed=seed, locale=locale)}
    splits = [Split(s.index, [new[d.id] for d in s.train], [new[d.id] for d in s.test]) for s in ds.splits]
    return replace(ds, splits=splits, variant=style, info={**ds.info, "repopulated": {"style": style, "seed": seed}})
