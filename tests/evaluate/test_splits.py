import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notescrub.errors import ConfigError
from notescrub.evaluate.splits import learning_curve_subsets, patient_kfold
from notescrub.types import Document


def docs_for(patients):
    return [Document(f"d{i}", "", patient_id=p) for i, p in enumerate(patients)]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(["P1", "P2", "P3", "P4", "P5", "P6", "P7", None]), min_size=2, max_size=40),
       st.integers(2, 5), st.integers(0, 3))
def test_kfold_is_patient_disjoint_partition(patients, k, seed):
    docs = docs_for(patients)
    n_groups = len({p for p in patients if p is not None}) + sum(p is None for p in patients)
    if n_groups < k:
        with pytest.raises(ConfigError):
            patient_kfold(docs, k, seed)
        return
    folds = patient_kfold(docs, k, seed)
    assert len(folds) == k
    test_ids = [d.id for f in folds for d in f.test]
    assert sorted(test_ids) == sorted(d.id for d in docs)  # every doc tested exactly once
    for f in folds:
        assert f.test, "no empty test fold"
        assert {d.id for d in f.train} | {d.id for d in f.test} == {d.id for d in docs}
        train_p = {d.patient_id for d in f.train if d.patient_id is not None}
        test_p = {d.patient_id for d in f.test if d.patient_id is not None}
        assert train_p.isdisjoint(test_p)  # never one patient's notes on both sides
    sizes = [len(f.test) for f in folds]
    biggest = max(patients.count(p) for p in set(patients) if p is not None) if any(patients) else 1
    assert max(sizes) - min(sizes) <= max(biggest, 1)


def test_kfold_deterministic_and_seed_dependent():
    docs = docs_for([f"P{i}" for i in range(12)])
    a = [[d.id for d in f.test] for f in patient_kfold(docs, 3, seed=1)]
    b = [[d.id for d in f.test] for f in patient_kfold(docs, 3, seed=1)]
    c = [[d.id for d in f.test] for f in patient_kfold(docs, 3, seed=2)]
    assert a == b and a != c


def test_kfold_errors():
    with pytest.raises(ConfigError):
        patient_kfold(docs_for(["A", "B"]), 1)
    with pytest.raises(ConfigError, match="2 patient"):
        patient_kfold(docs_for(["A", "A", "B"]), 3)


def test_learning_curve_subsets():
    docs = docs_for([f"P{i}" for i in range(20)])
    subs = learning_curve_subsets(docs, [0.1, 0.25, 1.0], repeats=3, seed=5)
    assert [(s.fraction, s.repeat, len(s.docs)) for s in subs] == [
        (0.1, 0, 2), (0.1, 1, 2), (0.1, 2, 2), (0.25, 0, 5), (0.25, 1, 5), (0.25, 2, 5),
        (1.0, 0, 20), (1.0, 1, 20), (1.0, 2, 20)]
    assert all(len({d.id for d in s.docs}) == len(s.docs) for s in subs)  # without replacement
    quarter = [tuple(d.id for d in s.docs) for s in subs if s.fraction == 0.25]
    assert len(set(quarter)) > 1  # repeats draw different subsets
    again = learning_curve_subsets(docs, [0.1, 0.25, 1.0], repeats=3, seed=5)
    assert [[d.id for d in s.docs] for s in again] == [[d.id for d in s.docs] for s in subs]
    assert len(learning_curve_subsets(docs, [0.01], seed=0)[0].docs) == 1  # at least one document


@pytest.mark.parametrize("fractions, repeats", [([0.0], 1), ([1.5], 1), ([0.5], 0)])
def test_learning_curve_errors(fractions, repeats):
    with pytest.raises(ConfigError):
        learning_curve_subsets(docs_for(["A"]), fractions, repeats=repeats)
