"""Shared scoring of CRFs with one featurizer: identical results to decoding each CRF alone."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

from notescrub.config import ComponentSpec
from notescrub.detect.crf.tagger import CRFTagger
from notescrub.modeldir import HybridModel
from notescrub.recipes import shared_crf
from notescrub.recipes.manchester import featurizer
from notescrub.recipes.shared_crf import (
    MemberScorer,
    SharedScorer,
    StackedWeights,
    share_crf_scoring,
)
from notescrub.types import Document, Span

_FIRST = ["Adaeze", "Brannoc", "Celestyn", "Dovrik", "Eulalie", "Fenwick"]
_LAST = ["Qolvanek", "Brisbee", "Tarnow", "Okafor", "Lindqvist", "Marchetti"]
_CITY = ["Boston", "Denver", "Portland", "Albany"]


def _notes(n: int, seed: int) -> list[Document]:
    rnd = random.Random(seed)
    docs = []
    for i in range(n):
        name, doctor, city = f"{rnd.choice(_FIRST)} {rnd.choice(_LAST)}", rnd.choice(_LAST), rnd.choice(_CITY)
        date = f"{rnd.randint(1, 12)}/{rnd.randint(10, 28)}/2091"
        parts = [("Patient ", None), (name, "PATIENT"), (" seen on ", None), (date, "DATE"), (" by Dr. ", None),
                 (doctor, "DOCTOR"), (" in ", None), (city, "CITY"), (".\nStable, follow up.", None)]
        text, spans = "", []
        for piece, label in parts:
            if label:
                spans.append(Span(len(text), len(text) + len(piece), label))
            text += piece
        docs.append(Document(f"d{i}", text, layers={"gold": spans}))
    return docs


@pytest.fixture(scope="module")
def taggers() -> list[CRFTagger]:
    train = _notes(24, seed=1)
    feat = featurizer("en")
    out = []
    for name, labels in (("crf_person", ["PATIENT", "DOCTOR"]), ("crf_date", ["DATE"]), ("crf_city", ["CITY"])):
        out.append(CRFTagger(feat, scheme="IO", sequence="record", max_iterations=15, min_freq=1, labels=labels,
                             name=name).fit(train))
    return out


def _decoded(tagger: CRFTagger, doc: Document) -> tuple:
    feat = tagger.featurizer
    d = tagger.decode(doc, parts=doc.cached("parts", feat.parts), marginals=True)
    return ([(s.start, s.end, s.label, s.score) for s in d.spans], d.logprob, [m.tolist() for m in d.marginals])


def test_shared_scores_are_identical_to_each_crf_alone(taggers: list[CRFTagger]) -> None:
    alone = [copy.copy(t) for t in taggers]
    shared = [copy.copy(t) for t in taggers]
    assert share_crf_scoring(shared) == 3
    assert all(type(t.scorer_) is MemberScorer for t in shared)
    assert all(type(t.scorer_) is not MemberScorer for t in taggers)  # the originals are untouched
    assert all(s.weights_ is t.weights_ for s, t in zip(shared, taggers))  # the weights are not changed
    for doc in _notes(12, seed=2):
        a, b = doc.copy(layers=False), doc.copy(layers=False)
        for x, y in zip(alone, shared):
            sa = x.scorer_.scores_from_parts(x.featurizer.parts(a))
            sb = y.scorer_.scores_from_parts(y.featurizer.parts(b))
            assert np.array_equal(sa, sb)
            assert _decoded(x, a) == _decoded(y, b)


def test_many_documents_in_turn(taggers: list[CRFTagger], monkeypatch: pytest.MonkeyPatch) -> None:
    # a patient's notes go through each CRF in turn: more notes than the kept scores still work
    monkeypatch.setattr(shared_crf, "KEEP_DOCS", 2)
    shared = [copy.copy(t) for t in taggers]
    share_crf_scoring(shared)
    assert shared[0].scorer_.group.keep_docs == 2
    docs = [d.copy(layers=False) for d in _notes(5, seed=3)]
    parts = [taggers[0].featurizer.parts(d) for d in docs]
    for t, own in zip(shared, taggers):
        for p in parts:
            assert np.array_equal(t.scorer_.scores_from_parts(p), own.scorer_.scores_from_parts(p))
    assert shared[0].scorer_.cache_sizes()["documents"] <= 2


def test_only_crfs_with_the_same_features_are_grouped(taggers: list[CRFTagger]) -> None:
    other = copy.copy(taggers[0])
    other.featurizer = featurizer("en", window=(1, 1))
    assert share_crf_scoring([copy.copy(taggers[1]), other, object()]) == 0
    assert share_crf_scoring([copy.copy(taggers[1])]) == 0
    twice = [copy.copy(t) for t in taggers[:2]]
    share_crf_scoring(twice)
    first = twice[0].scorer_.group
    assert share_crf_scoring(twice) == 2 and twice[0].scorer_.group is first  # regrouping reuses the stack
    stacks: dict = {}
    a, b = [copy.copy(t) for t in taggers[:2]], [copy.copy(t) for t in taggers[:2]]
    share_crf_scoring(a, stacks)
    share_crf_scoring(b, stacks)  # another pipeline of the same model: the owner's stack is reused
    assert a[0].scorer_.group is b[0].scorer_.group is stacks[(taggers[0].weights_, taggers[1].weights_)]
    assert isinstance(stacks[(taggers[0].weights_, taggers[1].weights_)], SharedScorer)


def test_stack_layout(taggers: list[CRFTagger]) -> None:
    ws = [t.weights_ for t in taggers]
    st = StackedWeights.stack(ws)
    assert st.state.shape == (len(st.attr_index), sum(len(w.labels) for w in ws))
    assert set(st.attr_index) == set().union(*(w.attr_index for w in ws))
    for w, sl in zip(ws, st.slices):
        attr = next(iter(w.attr_index))
        own = w.state[w.attr_index[attr]].toarray()
        assert np.array_equal(st.state[st.attr_index[attr]].toarray()[:, sl], own)


def test_hybrid_pipelines_share_and_match(taggers: list[CRFTagger], monkeypatch: pytest.MonkeyPatch,
                                          tmp_path) -> None:
    comps = [ComponentSpec(t.name, "crf", t.name, {}) for t in taggers]
    model = HybridModel(comps, {t.name: t for t in taggers}, resolver={"name": "longest"})
    loaded = HybridModel.load(model.save(tmp_path / "m"))
    pipe = loaded.pipeline()
    assert all(type(d.inner.scorer_) is MemberScorer for d in pipe.detectors)
    assert loaded.pipeline().detectors[0].inner.scorer_.group is pipe.detectors[0].inner.scorer_.group
    test = _notes(6, seed=4)
    with_sharing = [[(s.start, s.end, s.label, s.score) for s in pipe(d.copy(layers=False)).layer("phi")]
                    for d in test]
    monkeypatch.setattr(shared_crf, "share_crf_scoring", lambda detectors, stacks=None: 0)
    plain = loaded.pipeline()
    assert all(type(d.inner.scorer_) is not MemberScorer for d in plain.detectors)
    without = [[(s.start, s.end, s.label, s.score) for s in plain(d.copy(layers=False)).layer("phi")] for d in test]
    assert with_sharing == without and any(with_sharing)


def test_scores_are_released_once_every_member_has_read_them(taggers: list[CRFTagger]) -> None:
    shared = [copy.copy(t) for t in taggers]
    share_crf_scoring(shared)
    group = shared[0].scorer_.group
    group.clear()
    parts = taggers[0].featurizer.parts(_notes(1, seed=5)[0])
    for t in shared[:-1]:
        t.scorer_.scores_from_parts(parts)
        t.scorer_.scores_from_parts(parts)  # a member reading twice is served from the kept scores
    assert group.cache_sizes()["documents"] == 1
    shared[-1].scorer_.scores_from_parts(parts)
    assert group.cache_sizes()["documents"] == 0
    shared[0].scorer_.clear()  # a member's clear() empties the shared caches
    assert group.cache_sizes() == {"words": 0, "rows": 0, "pair_prefixes": 0, "bag_attributes": 0, "documents": 0}
