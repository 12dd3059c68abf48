"""The CRF kernels: chosen once by a setting, equal to numpy where the docs promise it.

What is promised (docs/performance.md, docs/crf.md): within one kernel, decoding is exact and
does not depend on what was decoded before; across kernels, Viterbi paths and scores are
bit-identical, forward-backward (marginals, log Z, span probabilities) agrees to rounding.
"""

import pickle

import numpy as np
import pytest

from notescrub.detect.crf import decode as crf_decode
from notescrub.detect.crf import kernels as crf_kernels
from notescrub.errors import ConfigError

pytest.importorskip("numba")


@pytest.fixture
def no_setting(monkeypatch):
    monkeypatch.delenv(crf_kernels.ENV, raising=False)
    monkeypatch.delenv(crf_kernels.LEGACY_ENV, raising=False)


def test_auto_is_numba_from_the_first_sequence(no_setting):
    # no token counting: a process that has decoded nothing gets the compiled kernel
    assert crf_kernels.setting() == "auto"
    k = crf_kernels.kernel()
    assert k.name == "numba" and crf_kernels.kernel("numba") is k and crf_kernels.kernel("auto") is k


@pytest.mark.parametrize("value, expected", [("numpy", "numpy"), ("NUMBA", "numba"), (" auto ", "auto"), ("", "auto")])
def test_setting_is_read_from_the_environment(no_setting, monkeypatch, value, expected):
    monkeypatch.setenv(crf_kernels.ENV, value)
    assert crf_kernels.setting() == expected


def test_former_variable_is_read_when_the_new_one_is_unset(no_setting, monkeypatch):
    monkeypatch.setenv(crf_kernels.LEGACY_ENV, "numpy")
    assert crf_kernels.kernel().name == "numpy"
    monkeypatch.setenv(crf_kernels.ENV, "numba")
    assert crf_kernels.kernel().name == "numba"


def test_unknown_setting_is_a_clear_error(no_setting, monkeypatch):
    monkeypatch.setenv(crf_kernels.ENV, "fastest")
    with pytest.raises(ConfigError, match="NOTESCRUB_CRF_KERNEL is 'fastest'; expected one of auto, numpy, numba"):
        crf_kernels.kernel()
    with pytest.raises(ConfigError, match="unknown CRF kernel 'gpu'"):
        crf_kernels.kernel("gpu")


def test_kernels_pickle_by_name():
    for mode in ("numpy", "numba"):
        k = crf_kernels.kernel(mode)
        assert pickle.loads(pickle.dumps(k)) is k


def test_a_failed_compile_falls_back_to_numpy_for_good(monkeypatch, caplog):
    def broken():
        raise ImportError("no numba here")

    monkeypatch.setattr(crf_kernels, "_compile", broken)
    monkeypatch.setattr(crf_kernels, "_COMPILED", [])
    assert crf_kernels.kernel("auto") is crf_kernels.NUMPY
    with caplog.at_level("WARNING", logger="notescrub.detect.crf.kernels"):
        assert crf_kernels.kernel("numba") is crf_kernels.NUMPY  # asked for explicitly: said loudly
    assert any("NOTESCRUB_CRF_KERNEL=numba" in r.getMessage() for r in caplog.records)
    S = np.array([[2.0, 0.0], [0.0, 1.0], [1.0, 0.5]])
    assert crf_kernels.kernel("numba").viterbi(S, np.zeros((2, 2)))[0].tolist() == [0, 1, 0]


def _crf_like(seed, n=500, L=21):
    rng = np.random.default_rng(seed)
    S = rng.normal(0, 3, (n, L))
    S[rng.random(n) < 0.8, 0] += 8.0  # mostly O, with PHI-like stretches
    S[:, 0] -= 2.1  # a recall bias on O
    return S, rng.normal(0, 2, (L, L))


@pytest.mark.parametrize("seed", range(4))
def test_compiled_viterbi_is_bit_identical_and_forward_backward_close(seed):
    S, T = _crf_like(seed)
    numpy_k, numba_k = crf_kernels.kernel("numpy"), crf_kernels.kernel("numba")
    path, score = numpy_k.viterbi(S, T)
    fb = numpy_k.forward_backward(S, T)
    path2, score2 = numba_k.viterbi(S, T)
    fb2 = numba_k.forward_backward(S, T)
    assert path2.tolist() == path.tolist() and score2 == score  # bit for bit
    assert abs(fb2.log_z - fb.log_z) < 1e-9 * abs(fb.log_z)  # rounding only
    assert np.allclose(fb2.marginals, fb.marginals, rtol=0, atol=1e-10)
    assert np.allclose(fb2.alpha.sum(1), 1.0) and np.allclose((fb2.alpha * fb2.beta).sum(1), 1.0)
    a = int(np.argmax(path != 0))
    assert crf_decode.segment_probability(fb2, path, a, a + 1) == pytest.approx(
        crf_decode.segment_probability(fb, path, a, a + 1), rel=1e-10)


@pytest.mark.parametrize("mode", ["numpy", "numba"])
def test_each_kernel_is_deterministic_whatever_ran_before(mode):
    k = crf_kernels.kernel(mode)
    S, T = _crf_like(7)
    alone_path, alone_score = k.viterbi(S, T)
    alone = k.forward_backward(S, T)
    for seed in range(3):  # other sequences in between, long ones included
        k.viterbi(*_crf_like(seed, n=5000))
        k.forward_backward(*_crf_like(seed, n=5000))
    path, score = k.viterbi(S, T)
    fb = k.forward_backward(S, T)
    assert path.tolist() == alone_path.tolist() and score == alone_score
    assert fb.log_z == alone.log_z and np.array_equal(fb.marginals, alone.marginals)


@pytest.mark.parametrize("mode", ["numpy", "numba"])
def test_empty_and_one_token_sequences(mode):
    k = crf_kernels.kernel(mode)
    T = np.zeros((3, 3))
    path, score = k.viterbi(np.zeros((0, 3)), T)
    assert path.tolist() == [] and score == 0.0
    path, score = k.viterbi(np.array([[0.0, 2.0, 1.0]]), T)
    assert path.tolist() == [1] and score == 2.0
    fb = k.forward_backward(np.array([[0.0, 2.0, 1.0]]), T)
    assert np.allclose(fb.marginals.sum(1), 1.0)
    fb0 = k.forward_backward(np.zeros((0, 3)), T)
    assert fb0.marginals.shape == (0, 3) and fb0.log_z == 0.0


@pytest.mark.parametrize("mode", ["numpy", "numba"])
def test_gather_add_adds_rows_column_by_column_skipping_negative_indices(mode):
    k = crf_kernels.kernel(mode)
    rng = np.random.default_rng(3)
    V = rng.normal(size=(50, 7))
    idx = rng.integers(-1, 50, size=(400, 9))
    idx[:, 4] = -1  # a column with no row at all
    S = rng.normal(size=(400, 7))
    want = S.copy()
    for j in range(idx.shape[1]):  # the reference: one column at a time, in order
        for i in range(len(S)):
            if idx[i, j] >= 0:
                want[i] += V[idx[i, j]]
    k.gather_add(S, V, idx)
    assert np.array_equal(S, want)
    k.gather_add(S, V, np.zeros((400, 0), dtype=np.int64))  # no columns: nothing changes
    assert np.array_equal(S, want)
