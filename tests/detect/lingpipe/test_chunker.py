"""LingPipe-style chunker: codec, character LMs, training, decoding, persistence."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notescrub.detect.bmewo import Codec
from notescrub.detect.lingpipe.charlm import CharLmBank, log_prob_reference
from notescrub.detect.lingpipe.chunker import CharLmHmmChunker, sequence_tokens
from notescrub.errors import ConfigError, ModelError
from notescrub.registry import load_model
from notescrub.types import Document, Span

NAMES = ["Ruiz", "Diaz", "Sanz", "Vidal", "Lopez", "Marco"]
DATES = ["3/18", "4/11", "5/02", "12/1", "7/30", "9/9"]


def _doc(i: int, name: str, date: str) -> Document:
    text = f"Seen by Dr. {name} on {date}.\nPlan: rest."
    a = text.index(name)
    b = text.index(date)
    return Document(f"d{i}", text, layers={"gold": [Span(a, a + len(name), "DOCTOR"), Span(b, b + len(date), "DATE")]})


@pytest.fixture(scope="module")
def train_docs() -> list[Document]:
    return [_doc(i, n, d) for i, (n, d) in enumerate(zip(NAMES * 2, DATES[::-1] * 2))]


@pytest.fixture(scope="module")
def chunker(train_docs) -> CharLmHmmChunker:
    return CharLmHmmChunker(order=5).fit(train_docs)


# -- character language models ------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(
    words=st.dictionaries(st.text("abcAB1/ ", min_size=0, max_size=6), st.integers(1, 4), min_size=1, max_size=5),
    probe=st.text("abcAB1/xé", max_size=7),
    order=st.integers(1, 5),
)
def test_bank_matches_reference(words, probe, order):
    bank = CharLmBank(n_states=2, order=order, n_chars=64)
    for w, c in words.items():
        bank.add(1, w, c)
    bank.freeze()
    got = bank.log_probs(probe)
    assert math.isclose(got[1], log_prob_reference(words, probe, order, 64, float(order)), rel_tol=1e-9, abs_tol=1e-9)
    # an untrained state is the uniform distribution
    assert math.isclose(got[0], (len(probe) + 1) * math.log(1 / 64), rel_tol=1e-12)


def test_bank_distributions_sum_to_one_over_next_char():
    bank = CharLmBank(n_states=1, order=3, n_chars=4)
    for w in ["ab", "abc", "ba"]:
        bank.add(0, w)
    bank.freeze()
    # with an alphabet of 4 symbols (a, b, c, boundary), P(next | "a") sums to 1
    from notescrub.detect.lingpipe.charlm import BOUNDARY

    ctx = BOUNDARY + "a"
    total = 0.0
    for c in "abc" + BOUNDARY:
        # P(c | ctx) = P(ctx c ⊣)/P(ctx ⊣) is not directly exposed; rebuild via the reference
        x = ctx + c
        total += math.exp(_cond(bank, x))
    assert math.isclose(total, 1.0, rel_tol=1e-9)


def _cond(bank: CharLmBank, x: str) -> float:
    """log P(x[-1] | x[:-1]) recomputed from the bank's internals."""
    p = 1.0 / bank.n_chars
    for k in range(min(bank.order - 1, len(x) - 1) + 1):
        h = x[len(x) - 1 - k : len(x) - 1]
        if h not in bank._ctx:
            break
        _, one_minus = bank._ctx[h]
        p = p * float(np.atleast_1d(one_minus)[0])
        hit = bank._ngram.get(h + x[-1])
        if hit is not None:
            p += float(np.atleast_1d(hit[1])[0])
    return math.log(p)


def test_bank_roundtrip_and_errors():
    bank = CharLmBank(n_states=3, order=3)
    bank.add(2, "Ruiz", 2)
    with pytest.raises(ModelError):
        bank.log_probs("x")
    bank.freeze()
    with pytest.raises(ModelError):
        bank.add(0, "late")
    again = CharLmBank.from_state(json.loads(json.dumps(bank.to_state())))
    np.testing.assert_allclose(again.log_probs("Ruth"), bank.log_probs("Ruth"))
    with pytest.raises(ModelError):
        CharLmBank.from_state({"n_states": 1})
    with pytest.raises(ModelError):
        CharLmBank(0)


# -- BMEWO+ codec --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "n, chunks, tags",
    [
        (1, [], ["WW_O_EOS"]),
        (3, [], ["BB_O_BOS", "MM_O", "EE_O_EOS"]),
        (2, [(0, 1, "A")], ["B_A", "E_A"]),
        (3, [(0, 0, "A"), (2, 2, "B")], ["W_A", "WW_O_B", "W_B"]),
        (4, [(0, 0, "A"), (1, 2, "B")], ["W_A", "B_B", "E_B", "WW_O_EOS"]),
        (5, [(2, 2, "A")], ["BB_O_BOS", "EE_O_A", "W_A", "BB_O_A", "EE_O_EOS"]),
    ],
)
def test_codec_table(n, chunks, tags):
    c = Codec(["A", "B"])
    assert c.encode(n, chunks) == tags
    assert c.decode(tags) == chunks
    idx = [c.index[t] for t in tags]
    legal, start, end = c.transition_mask()
    assert start[idx[0]] and end[idx[-1]]
    assert all(legal[a, b] for a, b in itertools.pairwise(idx))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.sampled_from("AB")), max_size=8))
def test_codec_roundtrip_property(parts):
    # build non-overlapping chunks separated by gaps of 0..2 tokens
    chunks, pos = [], 0
    for gap, typ in parts:
        pos += gap
        chunks.append((pos, pos + (gap % 2), typ))
        pos += gap % 2 + 1
    n = pos + 1
    c = Codec("AB")
    tags = c.encode(n, chunks)
    assert len(tags) == n and c.decode(tags) == chunks
    legal, _, _ = c.transition_mask()
    assert all(legal[c.index[a], c.index[b]] for a, b in itertools.pairwise(tags))


def test_codec_rejects_bad_input():
    with pytest.raises(ModelError):
        Codec(["BOS"])
    with pytest.raises(ModelError):
        Codec(["A"]).encode(3, [(0, 1, "A"), (1, 2, "A")])
    with pytest.raises(ModelError):
        Codec(["A"]).encode(3, [(0, 1, "Z")])


# -- the chunker -----------------------------------------------------------------------------
def test_sequence_tokens_marks_line_breaks():
    toks = sequence_tokens(Document("x", "a b\n\n c\nd"))
    assert [t.text for t in toks] == ["a", "b", "\n", "c", "\n", "d"]


def test_detects_unseen_names_from_context(chunker):
    doc = Document("t", "Seen by Dr. Paz on 6/12.\nPlan: rest.")
    found = [(doc.text[s.start : s.end], s.label, s.source) for s in chunker.detect(doc)]
    assert found == [("Paz", "DOCTOR", "lingpipe"), ("6/12", "DATE", "lingpipe")]


def test_learned_state_and_params(chunker, train_docs):
    assert chunker.codec_.types == ["DATE", "DOCTOR"]
    assert chunker.training_["documents"] == len(train_docs)
    assert chunker.get_params()["order"] == 5
    # rows of the transition matrix (plus the end probability) are distributions
    total = np.exp(chunker.log_trans_).sum(axis=1) + np.exp(chunker.log_end_)
    np.testing.assert_allclose(total, 1.0)
    with pytest.raises(ValueError):
        chunker.set_params(bogus=1)


def test_empty_and_unfitted():
    with pytest.raises(ModelError):
        CharLmHmmChunker().detect(Document("x", "a"))
    with pytest.raises(ModelError):
        CharLmHmmChunker().fit([Document("x", "no spans here")])


def test_empty_document(chunker):
    assert chunker.detect(Document("e", "")) == []
    assert chunker.detect(Document("e", "\n\n")) == []


def test_save_load_pipeline(chunker, tmp_path):
    out = chunker.save(tmp_path / "m")
    meta = json.loads((out / "model.json").read_text(encoding="utf-8"))
    assert meta["kind"] == "lingpipe" and meta["types"] == ["DATE", "DOCTOR"]
    pipe = load_model(out)
    doc = pipe(Document("t", "Seen by Dr. Paz on 6/12."))
    assert [s.label for s in doc.layer("phi")] == ["DOCTOR", "DATE"]
    assert load_model(out).detectors[0].inner.codec_.states == chunker.codec_.states
    with pytest.raises(ConfigError):
        chunker.save(out)  # refuses to overwrite a non-empty directory


def test_load_rejects_broken_directories(chunker, tmp_path):
    out = chunker.save(tmp_path / "m")
    (out / "emissions.json.gz").write_bytes(b"not gzip")
    with pytest.raises(ModelError, match=r"emissions\.json\.gz"):
        CharLmHmmChunker.load(out)
    (out / "emissions.json.gz").unlink()
    with pytest.raises(ModelError, match="missing"):
        CharLmHmmChunker.load(out)
    meta = json.loads((out / "model.json").read_text(encoding="utf-8"))
    meta["kind"] = "svm"
    (out / "model.json").write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(ModelError, match="expected 'lingpipe'"):
        CharLmHmmChunker.load(out)
    with pytest.raises(ModelError):
        CharLmHmmChunker.load(tmp_path / "nowhere")


# -- n-best rescoring -------------------------------------------------------------------------
def test_k_best_matches_brute_force():
    from notescrub.detect.lingpipe.rescore import k_best

    rng = np.random.default_rng(0)
    S, n, k = 4, 5, 6
    T = np.log(rng.dirichlet(np.ones(S), S))
    T[0, 1] = -np.inf
    em = rng.normal(size=(n, S))
    first, last = np.log(rng.dirichlet(np.ones(S))), rng.normal(size=S)

    def score(seq):
        return first[seq[0]] + em[0, seq[0]] + sum(T[seq[t - 1], seq[t]] + em[t, seq[t]] for t in range(1, n)) + last[seq[-1]]

    ranked = sorted(((score(s), list(s)) for s in itertools.product(range(S), repeat=n)), key=lambda x: -x[0])
    got = k_best(em, T, first, last, k)
    assert [s for _, s in got] == [s for _, s in ranked[:k]]
    np.testing.assert_allclose([v for v, _ in got], [v for v, _ in ranked[:k]])
    allowed = [np.array([0, 2, 3])] * n
    sub = [x for x in ranked if set(x[1]) <= {0, 2, 3}][:k]
    assert [s for _, s in k_best(em, T, first, last, k, allowed)] == [s for _, s in sub]


def test_posteriors_are_distributions(chunker):
    from notescrub.detect.lingpipe.rescore import posteriors

    doc = Document("t", "Seen by Dr. Paz on 6/12.")
    em = chunker._emissions(sequence_tokens(doc))
    post = posteriors(chunker.log_start_, chunker.log_trans_, chunker.log_end_, em)
    np.testing.assert_allclose(post.sum(axis=1), 1.0)
    assert list(post.argmax(axis=1)) == chunker.viterbi(em)


def test_process_lm_counts_and_windows():
    from notescrub.detect.lingpipe.charlm import BOUNDARY
    from notescrub.detect.lingpipe.charlm_process import CharLm

    lm = CharLm(order=3)
    lm.add("abcab")
    x = BOUNDARY + "abcab" + BOUNDARY
    expected: dict[str, float] = {}
    for i in range(1, len(x)):
        for j in range(max(0, i - 2), i + 1):
            expected[x[j : i + 1]] = expected.get(x[j : i + 1], 0) + 1
    assert dict(lm._counts) == expected
    lm.freeze()
    assert math.isclose(lm.log_prob("ab"), lm.log_prob_window(BOUNDARY + "ab" + BOUNDARY, 1, 4))
    # same estimator as the per-state bank's reference implementation
    assert math.isclose(lm.log_prob("ab"), log_prob_reference({"abcab": 1}, "ab", 3, 256, 3.0))
    again = CharLm.from_state(json.loads(json.dumps(lm.to_state())))
    assert again.log_prob("abc") == lm.log_prob("abc")
    with pytest.raises(ModelError):
        CharLm.from_state({"order": 3})


def test_rescoring_chunker_roundtrip(train_docs, tmp_path):
    ch = CharLmHmmChunker(order=5, n_best=4).fit(train_docs)
    assert ch.rescorer_ is not None and ch.rescorer_.types == ["DATE", "DOCTOR"]
    doc = Document("t", "Seen by Dr. Paz on 6/12.\nPlan: rest.")
    spans = [(doc.text[s.start : s.end], s.label) for s in ch.detect(doc)]
    assert spans == [("Paz", "DOCTOR"), ("6/12", "DATE")]
    out = ch.save(tmp_path / "m")
    assert (out / "rescorer.json.gz").is_file()
    again = CharLmHmmChunker.load(out)
    assert again.n_best == 4 and [(s.start, s.end, s.label) for s in again.detect(doc)] == [
        (s.start, s.end, s.label) for s in ch.detect(doc)
    ]
    first_best = CharLmHmmChunker(order=5).fit(train_docs)
    first_best.n_best = 4  # asked to rescore without a rescoring model
    with pytest.raises(ModelError, match="rescoring model"):
        first_best.detect(doc)


def test_viterbi_is_exact_against_brute_force(chunker):
    rng = np.random.default_rng(3)
    em = rng.normal(scale=3.0, size=(4, len(chunker.codec_)))
    T, s0, e0 = chunker.log_trans_, chunker.log_start_, chunker.log_end_
    legal = [i for i in range(len(chunker.codec_))]

    def score(seq):
        return s0[seq[0]] + em[0, seq[0]] + sum(T[a, b] + em[t + 1, b] for t, (a, b) in enumerate(itertools.pairwise(seq))) + e0[seq[-1]]

    best = max(itertools.product(legal, repeat=4), key=score)
    for beam in (None, 30.0):
        chunker.set_params(beam=beam)
        assert tuple(chunker.viterbi(em)) == best
    chunker.set_params(beam=30.0)


@pytest.mark.parametrize("params", [{"n_best": 0}, {"beam": -1.0}, {"rescore_eps": 1.5}])
def test_bad_parameters_are_refused(train_docs, params):
    with pytest.raises(ConfigError):
        CharLmHmmChunker(order=3, **params).fit(train_docs)


def test_refit_replaces_cached_transitions(train_docs):
    ch = CharLmHmmChunker(order=4).fit(train_docs)
    doc = Document("t", "Seen by Dr. Paz on 6/12.")
    ch.detect(doc)
    only_dates = [Document(d.id, d.text, layers={"gold": [s.with_(label="AGE") if s.label == "DOCTOR" else s
                                                          for s in d.layer("gold")]}) for d in train_docs]
    ch.fit(only_dates)
    assert {s.label for s in ch.detect(doc)} <= {"AGE", "DATE"}
