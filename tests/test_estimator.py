"""Every estimator passes one conformance suite (as scikit-learn's ``check_estimator`` does):
parameters from ``__init__`` only, get/set round trip, nested parameters, clone-like
reconstruction, unknown names refused, and a clear error when used before ``fit``."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

from notescrub.detect.crf.consistency import ConsistencyTagger
from notescrub.detect.crf.stacked import StackedCRF
from notescrub.detect.crf.statdeid import StatDeidCRF
from notescrub.detect.crf.tagger import CRFTagger
from notescrub.detect.lingpipe.chunker import CharLmHmmChunker
from notescrub.detect.svm import SVMTagger
from notescrub.errors import ConfigError, ModelError
from notescrub.estimator import Params, clone
from notescrub.features import Featurizer
from notescrub.features.statdeid import StatDeidFeaturizer
from notescrub.recipes.carafe_pp import CarafePP
from notescrub.recipes.manchester import ManchesterRecipe
from notescrub.types import Document

#: (factory, is it fitted before use?) for every estimator of the package
ESTIMATORS: dict[str, tuple[Callable[[], Any], bool]] = {
    "CRFTagger": (lambda: CRFTagger(Featurizer(affixes=3), c2=0.3, labels=["DATE"]), True),
    "ConsistencyTagger": (lambda: ConsistencyTagger(CRFTagger(max_iterations=5), folds=3), True),
    "StackedCRF": (lambda: StackedCRF(CRFTagger(bias=-1.0), feeders=[], name="stk"), True),
    "StatDeidCRF": (lambda: StatDeidCRF(StatDeidFeaturizer(lang="en"), c2=0.5), True),
    "SVMTagger": (lambda: SVMTagger(C=0.5), True),
    "CharLmHmmChunker": (lambda: CharLmHmmChunker(order=5, beam=None), True),
    "ManchesterRecipe": (lambda: ManchesterRecipe(lang="es", c2=0.2), True),
    "CarafePP": (lambda: CarafePP(CRFTagger(bias=-1.5, max_iterations=5)), True),
    "Featurizer": (lambda: Featurizer(window=(1, 1), lang="es"), False),
    "StatDeidFeaturizer": (lambda: StatDeidFeaturizer(lang="en"), False),
}


def _same(a: Any, b: Any) -> bool:
    """Equal parameter values; estimators compare by their parameters."""
    if isinstance(a, Params) and isinstance(b, Params):
        return type(a) is type(b) and _same(a.get_params(deep=False), b.get_params(deep=False))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


def test_every_estimator_with_get_params_is_listed():
    import notescrub

    found = set()
    for cls in _subclasses(Params):
        if cls.__module__.startswith(notescrub.__name__):
            found.add(cls.__name__)
    assert found == set(ESTIMATORS)


def _subclasses(cls: type) -> list[type]:
    out = []
    for sub in cls.__subclasses__():
        out += [sub, *_subclasses(sub)]
    return out


@pytest.fixture(params=sorted(ESTIMATORS))
def estimator(request) -> Any:
    return ESTIMATORS[request.param][0]()


def test_params_are_the_constructor_arguments(estimator):
    names = [p for p in inspect.signature(type(estimator).__init__).parameters if p != "self"]
    params = estimator.get_params(deep=False)
    assert list(params) == names
    for k, v in params.items():
        assert getattr(estimator, k) is v


def test_deep_params_include_the_nested_estimators(estimator):
    deep = estimator.get_params(deep=True)
    for k, v in estimator.get_params(deep=False).items():
        assert deep[k] is v
        if isinstance(v, Params):
            for sub, value in v.get_params(deep=True).items():
                assert deep[f"{k}__{sub}"] is value


def test_set_params_round_trip(estimator):
    before = estimator.get_params(deep=False)
    assert estimator.set_params(**before) is estimator
    assert _same(estimator.get_params(deep=False), before)
    assert estimator.set_params() is estimator


def test_set_params_changes_nested_estimators(estimator):
    nested = {k: v for k, v in estimator.get_params(deep=False).items() if isinstance(v, Params)}
    for k, inner in nested.items():
        name, value = next(iter(inner.get_params(deep=False).items()))
        estimator.set_params(**{f"{k}__{name}": value})
        assert getattr(inner, name) is value


def test_clone_like_reconstruction(estimator):
    params = estimator.get_params(deep=False)
    again = type(estimator)(**params)
    assert _same(again.get_params(deep=False), params)
    copy = clone(estimator)
    assert type(copy) is type(estimator) and copy is not estimator
    assert _same(copy.get_params(deep=False), params)
    for k, v in params.items():
        if isinstance(v, Params):
            assert getattr(copy, k) is not v  # nested estimators are cloned, not shared


def test_unknown_parameters_are_refused(estimator):
    owner = "CRFTagger" if isinstance(estimator, StackedCRF) else type(estimator).__name__  # (forwarded to its CRF)
    with pytest.raises(ConfigError, match=rf"unknown {owner} parameters \['not_a_param'\]"):
        estimator.set_params(not_a_param=1)
    with pytest.raises(ConfigError):
        estimator.set_params(not_a_param__x=1)


def test_using_an_unfitted_estimator_is_a_clear_error(estimator):
    if not ESTIMATORS[type(estimator).__name__][1]:
        pytest.skip("not trained: nothing to fit")
    with pytest.raises(ModelError, match="is not fitted"):
        estimator.detect(Document("x", "Seen by Dr. Ruiz on 3/4/2020."))


def test_stacked_crf_forwards_other_names_to_its_crf():
    s = StackedCRF(CRFTagger(), feeders=[])
    s.set_params(bias=-2.0, crf__c2=0.5, name="stk")
    assert s.crf.bias == -2.0 and s.crf.c2 == 0.5 and s.name == "stk"
    with pytest.raises(ConfigError, match="unknown CRFTagger parameters"):
        s.set_params(gamma=1)


def test_sklearn_clone_accepts_the_taggers():
    base = pytest.importorskip("sklearn.base")
    t = CRFTagger(Featurizer(affixes=2), c2=0.3)
    c = base.clone(t)
    assert c.c2 == 0.3 and c.featurizer is not t.featurizer and c.featurizer.affixes == 2
