"""CRFTagger: training, our decoder vs CRFsuite's, the bias knob, confidences, persistence."""

from __future__ import annotations

import importlib.util
import itertools
import json
import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import pycrfsuite
import pytest

from notescrub.detect.crf import kernels as crf_kernels
from notescrub.detect.crf.decode import forward_backward, sequence_score, viterbi
from notescrub.detect.crf.scorer import Scorer
from notescrub.detect.crf.tagger import CRFTagger, rank_for_review
from notescrub.errors import ConfigError, ModelError
from notescrub.features import Featurizer
from notescrub.pipeline import Pipeline
from notescrub.registry import load_model
from notescrub.types import Document, Span

_spec = importlib.util.spec_from_file_location("crf_synth", Path(__file__).with_name("crf_synth.py"))
crf_synth = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(crf_synth)
corpus = crf_synth.corpus

FEATS = {"groups": ("lexical", "orthographic", "position"), "window": (2, 2)}


@pytest.fixture(scope="module")
def docs():
    return corpus(40, seed=1)


@pytest.fixture(scope="module")
def fitted(docs):
    return CRFTagger(Featurizer(**FEATS), max_iterations=60, c2=0.1).fit(docs[:30])


@pytest.fixture(scope="module")
def tagger(fitted, tmp_path_factory):
    path = tmp_path_factory.mktemp("m") / "model.crfsuite"
    path.write_bytes(fitted.model_bytes_)
    t = pycrfsuite.Tagger()
    t.open(str(path))
    return t


def _strict(docs, preds):
    g = {(d.id, s.start, s.end, s.label) for d in docs for s in d.layer("gold")}
    p = {(d.id, s.start, s.end, s.label) for d, sp in zip(docs, preds) for s in sp}
    return len(g & p), len(p - g), len(g - p)


def test_learns_the_synthetic_task(fitted, docs):
    tp, fp, fn = _strict(docs[30:], [fitted.detect(d.copy(layers=False)) for d in docs[30:]])
    assert tp / (tp + fn) > 0.9 and tp / (tp + fp) > 0.9
    assert fitted.types_ == ["CITY", "DATE", "DOCTOR", "PATIENT", "PHONE"]
    assert fitted.training_["documents"] == 30 and fitted.training_["alignment"]["overlap_dropped"] == 0


def test_own_viterbi_matches_crfsuite(fitted, tagger, docs):
    for d in docs[30:]:
        attrs = fitted.featurizer.attributes(d)
        assert fitted.decode(d).tags == tagger.tag(attrs)


def test_own_marginals_and_probability_match_crfsuite(fitted, tagger, docs):
    d = docs[31]
    attrs = fitted.featurizer.attributes(d)
    w = fitted.weights_
    S = w.state_scores(attrs)
    fb = forward_backward(S, w.trans)
    tags = tagger.tag(attrs)
    for t in (0, 5, len(attrs) - 1):
        for lab in ("O", tags[t]):
            assert fb.marginals[t, w.labels.index(lab)] == pytest.approx(tagger.marginal(lab, t), abs=1e-4)
    path = [w.labels.index(x) for x in tags]
    assert sequence_score(S, w.trans, path) - fb.log_z == pytest.approx(np.log(tagger.probability(tags)), abs=1e-3)


def test_bias_is_monotone(fitted, docs):
    """More negative bias -> never fewer tokens tagged (Viterbi) and never fewer spans kept."""
    doc = Document("x", "\n".join(d.text for d in docs[30:34]))
    counts = []
    for b in (4.0, 2.0, 1.0, 0.0, -1.0, -2.0, -4.0, -8.0):
        fitted.bias = b
        tags = fitted.decode(doc).tags
        counts.append(sum(t != "O" for t in tags))
    fitted.bias = 0.0
    assert counts == sorted(counts)
    assert counts[0] < counts[-1]


def test_label_bias_favours_one_label_and_is_saved(fitted, docs, tmp_path):
    """label_bias adds to one label's tags only: more of that label, the others never more;
    unknown labels are refused; the knob travels in model.json."""
    doc = Document("x", "\n".join(d.text for d in docs[30:34]))
    label = fitted.types_[0]

    def counts() -> Counter:
        return Counter(t.split("-", 1)[1] for t in fitted.decode(doc).tags if t != "O")

    before = counts()
    fitted.label_bias = {label: 10.0}
    try:
        after = counts()
        fitted.save(tmp_path / "m")
    finally:
        fitted.label_bias = None
    assert after[label] > before[label]
    assert all(after[x] <= before[x] for x in before if x != label)
    assert CRFTagger.load(tmp_path / "m").label_bias == {label: 10.0}
    for bad, message in (({"NO-SUCH-LABEL": 1.0}, "NO-SUCH-LABEL"), ({label: "high"}, "finite number")):
        fitted.label_bias = bad
        try:
            with pytest.raises(ConfigError, match=message):
                fitted.decode(doc)
        finally:
            fitted.label_bias = None


def test_bias_on_random_scores_is_monotone():
    rng = np.random.default_rng(0)
    for _ in range(20):
        S = rng.normal(size=(15, 4))
        T = rng.normal(size=(4, 4))
        counts = []
        for b in np.linspace(3, -3, 13):
            S2 = S.copy()
            S2[:, 0] += b
            counts.append(int((viterbi(S2, T)[0] != 0).sum()))
        assert counts == sorted(counts)


def test_threshold_mode_is_monotone_and_nested(fitted, docs):
    doc = docs[32]
    fitted.threshold = None
    tagged = []
    for t in (0.05, 0.5, 0.9, 0.999, 1.0):
        fitted.threshold = t
        tagged.append({i for i, x in enumerate(fitted.decode(doc).tags) if x != "O"})
    fitted.threshold = None
    for a, b in itertools.pairwise(tagged):
        assert a <= b
    assert len(tagged[-1]) == len(fitted.featurizer.view(doc).tokens)  # t = 1: every token tagged


def test_span_scores_and_document_confidence(fitted, docs):
    d = docs[33].copy(layers=False)
    spans, meta = fitted.detect_with_info(d)
    assert spans and all(0.0 < s.score <= 1.0 and s.source == "crf" for s in spans)
    assert meta["logprob"] <= 0.0 and meta["tokens"] == len(fitted.featurizer.view(d).tokens)
    assert fitted.detect(d) == spans and not d.metadata  # detect is pure: nothing written into the document
    Pipeline([fitted])(d)
    assert d.metadata["crf"] == meta  # the pipeline stores the detector's info
    # a document unlike the training data is less probable per token
    odd = Pipeline([fitted])(Document("odd", "Quintero Riverton 555-1234 Dr. Dr. Name: Date: 3/3/2020 Quintero"))
    ranked = rank_for_review([d, odd], per_token=True)
    assert ranked[0].id == "odd"
    with pytest.raises(ModelError, match="no 'crf' confidence"):
        rank_for_review([Document("z", "x")])


def test_empty_document(fitted):
    d = Document("e", "")
    assert fitted.detect_with_info(d) == ([], {"logprob": 0.0, "tokens": 0})


@pytest.mark.parametrize("scheme", ["IO", "BILOU"])
def test_schemes_and_sentence_sequences(docs, scheme):
    m = CRFTagger(Featurizer(**FEATS), scheme=scheme, sequence="sentence", max_iterations=40).fit(docs[:20])
    assert any(t.startswith("L-") for t in m.tags_) == (scheme == "BILOU")
    tp, fp, fn = _strict(docs[30:], [m.detect(d) for d in docs[30:]])
    assert tp > 2 * (fp + fn)


def test_overlapping_gold_spans_are_resolved_and_counted(docs):
    d = docs[0].copy()
    g = d.layer("gold")
    d.add_layer("gold", g + [Span(g[0].start, g[0].start + 3, "DOCTOR")])  # nested in the patient name
    m = CRFTagger(Featurizer(groups=("lexical",)), max_iterations=5).fit([d] + docs[1:5])
    assert m.training_["alignment"]["overlap_dropped"] == 1


def test_l1_gives_sparser_model(docs):
    dense = CRFTagger(Featurizer(**FEATS), c1=0.0, c2=0.1, max_iterations=40).fit(docs[:20])
    sparse = CRFTagger(Featurizer(**FEATS), c1=1.0, c2=0.1, max_iterations=40).fit(docs[:20])
    assert sparse.weights_.state.nnz < dense.weights_.state.nnz


@pytest.mark.parametrize(
    "params, message",
    [({"scheme": "BIOES"}, "tagging scheme"), ({"sequence": "line"}, "sequence"), ({"algorithm": "x"}, "algorithm"),
     ({"c1": 1.0, "algorithm": "l2sgd"}, "L1"), ({"threshold": 1.5}, "threshold"), ({"max_iterations": 0}, "max_")],
)
def test_bad_parameters(docs, params, message):
    with pytest.raises(ConfigError, match=message):
        CRFTagger(**params).fit(docs[:3])


def test_unfitted_and_empty_training():
    with pytest.raises(ModelError, match="not fitted"):
        CRFTagger().detect(Document("a", "text"))
    with pytest.raises(ModelError, match="no training documents"):
        CRFTagger().fit([])


def test_get_set_params():
    t = CRFTagger(c2=0.3)
    assert t.get_params()["c2"] == 0.3 and t.set_params(bias=-1.0).bias == -1.0
    with pytest.raises(ConfigError):
        t.set_params(gamma=1)


def test_save_load_round_trip(fitted, docs, tmp_path):
    out = fitted.save(tmp_path / "m")
    meta = json.loads((out / "model.json").read_text())
    assert meta["kind"] == "crf" and meta["scheme"] == "BIO" and meta["pos"] is False
    assert meta["labels"] == fitted.types_ and "date" in meta["training"]
    assert set(meta["featurizer"]) >= {"groups", "window", "lang"}
    loaded = CRFTagger.load(out)
    for d in docs[30:]:
        assert [(s.start, s.end, s.label, round(s.score, 6)) for s in loaded.detect(d)] == \
               [(s.start, s.end, s.label, round(s.score, 6)) for s in fitted.detect(d)]
    pipe = load_model(out)  # through the registry (kind "crf")
    res = pipe(docs[30].copy(layers=False))
    assert res.layer("phi") and res.layer("phi") == res.layer("crf")
    assert load_model(out).detectors[0].inner.types_ == fitted.types_


def test_save_is_atomic_and_refuses_overwrite(fitted, tmp_path):
    out = fitted.save(tmp_path / "m")
    with pytest.raises(ConfigError, match="not empty"):
        fitted.save(out)
    fitted.save(out, overwrite=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m"]  # no temporary leftovers


@pytest.mark.parametrize("damage", ["missing_model", "missing_meta", "other_version", "corrupt", "bad_meta",
                                    "bad_format", "truncated_model"])
def test_bad_model_directories(fitted, tmp_path, damage):
    out = fitted.save(tmp_path / "m")
    meta_path = out / "model.json"
    meta = json.loads(meta_path.read_text())
    if damage == "missing_model":
        (out / "model.crfsuite").unlink()
    elif damage == "missing_meta":
        meta_path.unlink()
    elif damage == "other_version":
        meta["notescrub_version"] = "9.3.0"
        meta_path.write_text(json.dumps(meta))
    elif damage == "corrupt":
        (out / "model.crfsuite").write_bytes(b"garbage")
    elif damage == "bad_meta":
        del meta["featurizer"]
        meta_path.write_text(json.dumps(meta))
    elif damage == "bad_format":
        meta["format"] = 99
        meta_path.write_text(json.dumps(meta))
    elif damage == "truncated_model":
        del meta["files"]
        meta_path.write_text(json.dumps(meta))
        (out / "model.crfsuite").write_bytes(b"lCRF" + b"\0" * 20)
    with pytest.raises(ModelError) as err:
        load_model(out)
    assert str(out) in str(err.value)


def test_copy_of_model_dir_loads(fitted, tmp_path):
    out = fitted.save(tmp_path / "m")
    shutil.copytree(out, tmp_path / "copy")
    assert CRFTagger.load(tmp_path / "copy").types_ == fitted.types_


@pytest.mark.parametrize("text", ["Ruiz", "Dr. Ruiz", "Seen by Dr. Ruiz in Riverton.", ""])
def test_cached_word_scores_equal_flat_scores(fitted, docs, text):
    sc = Scorer(fitted.weights_)
    for d in [Document("s", text), docs[35]]:
        parts = fitted.featurizer.parts(d)
        first = sc.scores_from_parts(parts)
        assert np.allclose(first, sc.state_scores(parts.join()))  # (one flat sum: another order)
        assert np.array_equal(sc.scores_from_parts(parts), first)  # from the cache: the same floats


def test_cached_scores_are_the_floats_of_a_fresh_scorer(fitted, docs):
    warm = Scorer(fitted.weights_)
    for d in docs[:30]:
        warm.scores_from_parts(fitted.featurizer.parts(d))
    assert warm.cache_sizes()["words"] > 0 and warm.cache_sizes()["rows"] > 0
    for d in docs[30:]:
        parts = fitted.featurizer.parts(d)
        assert np.array_equal(warm.scores_from_parts(parts), Scorer(fitted.weights_).scores_from_parts(parts))


def test_scorer_caches_are_bounded_and_cleared(fitted, docs):
    sc = Scorer(fitted.weights_, max_rows=3, max_words=5)  # every document overflows them
    fresh = Scorer(fitted.weights_)
    for d in docs[30:34]:
        parts = fitted.featurizer.parts(d)
        assert np.allclose(sc.group_scores(parts.groups, len(parts)), sc.state_scores(parts.extra))
        assert np.array_equal(sc.scores_from_parts(parts), fresh.scores_from_parts(parts))
    longest = max(len(fitted.featurizer.parts(d)) for d in docs[30:34])
    sizes = sc.cache_sizes()
    assert sizes["rows"] <= 3 + 3 * longest and sizes["words"] <= 5 + longest
    sc.clear()
    assert sc.cache_sizes() == {"words": 0, "rows": 0, "pair_prefixes": 0, "bag_attributes": 0}


def test_weights_are_immutable_and_scorers_pickle_without_caches(fitted, docs):
    import dataclasses
    import pickle

    w = fitted.weights_
    with pytest.raises(dataclasses.FrozenInstanceError):
        w.trans = np.zeros_like(w.trans)  # type: ignore[misc]
    with pytest.raises(ValueError):
        w.trans[0, 0] = 1.0
    with pytest.raises(ValueError):
        w.state.data[0] = 1.0
    assert isinstance(w.labels, tuple)
    sc = fitted.scorer_
    sc.scores_from_parts(fitted.featurizer.parts(docs[31]))
    back = pickle.loads(pickle.dumps(sc))
    assert back.kernel is sc.kernel and back.cache_sizes()["words"] == 0
    parts = fitted.featurizer.parts(docs[32])
    assert np.array_equal(back.scores_from_parts(parts), sc.scores_from_parts(parts))


def test_group_scores_equal_flat_scores_with_pipes_and_known_bigrams(fitted, docs):
    w = fitted.weights_
    sc = Scorer(w)
    text = docs[35].text + " a | b || c |||"
    parts = fitted.featurizer.parts(Document("p", text))
    known = [a for a in w.attr_index if a.startswith("bg[")]
    assert known  # the synthetic model has bigram attributes: the pair filter is exercised
    assert any(f in w.attr_index for feats in parts.extra for f in feats if f.startswith("bg["))
    assert np.allclose(sc.group_scores(parts.groups, len(parts)), w.state_scores(parts.extra))
    assert np.allclose(sc.scores_from_parts(parts), w.state_scores(parts.join()))


@pytest.fixture(params=["numpy", "numba"])
def kernel_mode(request):
    """Run a decoding test with the numpy recursions and with the compiled kernels."""
    if request.param == "numba":
        pytest.importorskip("numba")
    k = crf_kernels.kernel(request.param)
    assert k.name == request.param
    return k


@pytest.mark.parametrize("n, L, scale", [(1, 3, 1.0), (2, 2, 1.0), (3, 5, 4.0), (57, 9, 30.0), (400, 6, 80.0)])
def test_forward_backward_matches_log_space_reference(n, L, scale, kernel_mode):
    from scipy.special import logsumexp

    rng = np.random.default_rng(n * 31 + L)
    S = rng.normal(0, scale, (n, L))
    T = rng.normal(0, scale / 4, (L, L))  # large |T|: rescaling every few steps is exercised
    la = np.empty((n, L))
    lb = np.zeros((n, L))
    la[0] = S[0]
    for t in range(1, n):
        la[t] = logsumexp(la[t - 1][:, None] + T, axis=0) + S[t]
    for t in range(n - 2, -1, -1):
        lb[t] = logsumexp(T + (S[t + 1] + lb[t + 1])[None, :], axis=1)
    log_z = logsumexp(la[-1])
    fb = kernel_mode.forward_backward(S, T)
    assert abs(fb.log_z - log_z) < 1e-8 * max(1.0, abs(log_z))
    assert np.allclose(fb.marginals, np.exp(la + lb - log_z), atol=1e-10)


def _textbook_viterbi(S, T):
    n, L = S.shape
    delta, back = S[0].copy(), np.zeros((n, L), dtype=np.int64)
    for t in range(1, n):
        cand = delta[:, None] + T
        back[t] = cand.argmax(0)
        delta = cand.max(0) + S[t]
    path = [int(delta.argmax())]
    for t in range(n - 1, 0, -1):
        path.append(int(back[t, path[-1]]))
    return path[::-1], float(delta.max())


@pytest.mark.parametrize("seed", range(6))
def test_viterbi_matches_textbook_recursion_with_ties_and_o_runs(seed, kernel_mode):
    rng = np.random.default_rng(seed)
    n, L = 300, 7
    S = rng.integers(-3, 3, (n, L)).astype(float)  # integer scores: many exact ties
    S[rng.random(n) < 0.7, 0] += 6.0  # long runs where label 0 (O) dominates
    T = rng.integers(-2, 3, (L, L)).astype(float)
    path, score = kernel_mode.viterbi(S, T)
    ref_path, ref_score = _textbook_viterbi(S, T)
    assert path.tolist() == ref_path and score == ref_score


def _exact(d):
    return [(s.start, s.end, s.label, s.score) for s in d.spans], d.tags, d.logprob, [m.tolist() for m in d.marginals]


@pytest.mark.parametrize("mode", ["numpy", "numba"])
def test_a_notes_scores_do_not_depend_on_the_notes_decoded_before(fitted, docs, tmp_path, monkeypatch, mode):
    if mode == "numba":
        pytest.importorskip("numba")
    monkeypatch.setenv(crf_kernels.ENV, mode)
    path = fitted.save(tmp_path / "m")
    note_b = docs[36]
    alone = CRFTagger.load(path)
    assert alone.kernel_.name == mode  # chosen when the model is loaded
    expected = _exact(alone.decode(note_b.copy(layers=False), marginals=True))
    busy = CRFTagger.load(path)
    # note A: more tokens than the former 20,000-token kernel switch, and new words for the caches
    note_a = Document("a", "\n".join(d.text.replace("Dr.", "Dra.") for d in docs) * 12)
    assert busy.decode(note_a).n_tokens > 20_000
    monkeypatch.setenv(crf_kernels.ENV, "numpy" if mode == "numba" else "auto")  # a later change does not switch it
    assert _exact(busy.decode(note_b.copy(layers=False), marginals=True)) == expected
    assert _exact(alone.decode(note_b.copy(layers=False), marginals=True)) == expected


def test_scores_stay_exact_when_the_featurizer_memo_starts_over(fitted, docs, monkeypatch):
    # a featurizer memo that empties itself every few words makes the scorer's cached units
    # stale one by one: re-scoring them must never overwrite the rows of words still cached
    import notescrub.features.extract as extract

    monkeypatch.setattr(extract, "_CACHE_MAX", 40)
    warm = Scorer(fitted.weights_)
    for d in docs[:40]:
        parts = fitted.featurizer.parts(d)
        assert np.array_equal(warm.scores_from_parts(parts), Scorer(fitted.weights_).scores_from_parts(parts))


def test_a_rescored_stale_word_never_takes_the_row_of_a_cached_word():
    from scipy import sparse

    from notescrub.detect.crf.decode import CRFWeights
    from notescrub.features.extract import FeatureParts

    w = CRFWeights(("O", "B-X"), {f"w={x}": k for k, x in enumerate("abcd")},
                   sparse.csr_matrix(np.array([[0, 1.0], [0, 2.0], [0, 3.0], [0, 4.0]])), np.zeros((2, 2)))
    sc = Scorer(w)

    def score(words: str, units: dict) -> list[float]:
        return sc.scores_from_parts(FeatureParts(list(words), [units[x] for x in words], []))[:, 1].tolist()

    first = {x: ([f"w={x}"], {}) for x in "abcd"}
    assert score("abc", first) == [1.0, 2.0, 3.0]
    again = {x: ([f"w={x}"], {}) for x in "abcd"}  # the featurizer's memo started over: new unit objects
    assert [score(x, again) for x in "bdad"] == [[2.0], [4.0], [1.0], [4.0]]


def test_bag_group_scores_equal_flat_scores(docs):
    """Context-bag features reach the scorer as word indices (BagGroup); summed per word and
    side they give the scores of the flat strings, and the kept vectors the same floats again."""
    bagged = CRFTagger(Featurizer(**FEATS, context_bag=3), max_iterations=30, c2=0.1).fit(docs[:20])
    w = bagged.weights_
    assert any(a.startswith("bagL=") for a in w.attr_index)
    sc = Scorer(w)
    for d in docs[30:36]:
        parts = bagged.featurizer.parts(d)
        assert any(getattr(g, "kind", "") == "bag" for g in parts.groups)
        first = sc.scores_from_parts(parts)
        assert np.allclose(first, w.state_scores(parts.join()))
        assert np.array_equal(sc.scores_from_parts(parts), first)
    assert sc.cache_sizes()["bag_attributes"] > 0
    bagged.scorer_.max_words = 2  # a full bag cache starts over and still scores right
    parts = bagged.featurizer.parts(docs[37])
    assert np.allclose(bagged.scorer_.scores_from_parts(parts), w.state_scores(parts.join()))


def test_numba_and_numpy_scorers_give_the_same_floats(fitted, docs):
    # the compiled gather adds each token's score rows in numpy's order: bit for bit
    pytest.importorskip("numba")
    from notescrub.detect.crf import kernels as crf_kernels

    a, b = Scorer(fitted.weights_, crf_kernels.kernel("numpy")), Scorer(fitted.weights_, crf_kernels.kernel("numba"))
    for d in docs[:40] + [Document("s", "Dr. " * 300), Document("e", "")]:
        parts = fitted.featurizer.parts(d)
        assert np.array_equal(a.scores_from_parts(parts), b.scores_from_parts(parts))
