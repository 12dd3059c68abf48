"""Datasets: named corpora, splits, subsets, re-populated copies."""

from __future__ import annotations

from pathlib import Path

import pytest

from notescrub.errors import ConfigError
from notescrub.experiments.data import detect_lang, from_documents, load_dataset, repopulated, subset
from notescrub.types import Document, Span


def _docs(n: int = 8) -> list[Document]:
    names = ["Ruiz", "Diaz", "Moreno", "Lopez", "Garcia", "Perez", "Vega", "Soto"]
    return [Document(f"d{i}", f"Seen by Dr. {names[i % 8]} today.", f"P{i // 2}",
                     layers={"gold": [Span(12, 12 + len(names[i % 8]), "DOCTOR")]}) for i in range(n)]


def test_kfold_is_patient_disjoint() -> None:
    ds = from_documents("toy", _docs(), folds=2)
    assert ds.lang == "en" and len(ds.splits) == 2
    for sp in ds.splits:
        assert {d.patient_id for d in sp.train}.isdisjoint({d.patient_id for d in sp.test})
    assert sorted(d.id for d in ds.test_docs) == sorted(d.id for d in _docs())


def test_subset_is_seeded_and_bounded() -> None:
    ds = from_documents("toy", _docs(), folds=2)
    a = subset(ds, max_train_docs=2, max_test_docs=1, seed=3)
    b = subset(ds, max_train_docs=2, max_test_docs=1, seed=3)
    assert [[d.id for d in s.train] for s in a.splits] == [[d.id for d in s.train] for s in b.splits]
    assert all(len(s.train) == 2 and len(s.test) == 1 for s in a.splits)
    assert subset(ds, max_train_docs=None, max_test_docs=None) is ds


def test_repopulated_keeps_split_and_changes_phi() -> None:
    ds = from_documents("toy", _docs(), folds=2)
    oov = repopulated(ds, "oov", seed=1)
    assert oov.variant == "oov"
    for a, b in zip(ds.splits, oov.splits):
        assert [d.id for d in a.test] == [d.id for d in b.test]
    old = {d.id: d.span_text(d.layer("gold")[0]) for d in ds.test_docs}
    new = {d.id: d.span_text(d.layer("gold")[0]) for d in oov.test_docs}
    assert old != new


def test_detect_lang() -> None:
    es = [Document("a", "Paciente: Ana.", layers={"gold": [Span(10, 13, "NOMBRE_SUJETO_ASISTENCIA")]})]
    assert detect_lang(es) == "es" and detect_lang(_docs(2)) == "en"


def test_missing_path_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        load_dataset(str(tmp_path / "nope"))


def test_train_dev_folder(tmp_path: Path) -> None:
    from notescrub.io import write_corpus

    docs = _docs(6)
    (tmp_path / "train").mkdir()
    (tmp_path / "dev").mkdir()
    write_corpus(docs[:4], tmp_path / "train" / "n.jsonl")
    write_corpus(docs[4:], tmp_path / "dev" / "n.jsonl")
    ds = load_dataset(str(tmp_path))
    assert ds.kind.startswith("train") and [len(ds.splits[0].train), len(ds.splits[0].test)] == [4, 2]


def test_named_corpora(en_dev_dir: Path, meddocan_dir: Path) -> None:
    shared = en_dev_dir.parents[1]
    en = load_dataset("en-dev", shared=shared, folds=5)
    assert en.lang == "en" and len(en.splits) == 5 and len(en.test_docs) == 65
    es = load_dataset("meddocan", shared=shared)
    assert es.lang == "es" and len(es.splits) == 1 and len(es.splits[0].test) == 250
