"""The compiled CRF kernels: when they are used, and that they agree with numpy."""

import numpy as np
import pytest

from notescrub.detect import crf_decode, crf_kernels

pytest.importorskip("numba")


@pytest.fixture
def fresh_state(monkeypatch):
    """A dispatcher that has decoded nothing yet (the process-wide state is restored after)."""
    monkeypatch.setattr(crf_kernels, "_STATE", {"tokens": 0, "kernels": None, "failed": False})
    monkeypatch.delenv("NOTESCRUB_KERNELS", raising=False)
    return crf_kernels._STATE


def test_auto_mode_switches_after_enough_tokens(fresh_state):
    assert crf_kernels.kernels(crf_kernels.COMPILE_AFTER_TOKENS - 1) is None  # a small job stays on numpy
    k = crf_kernels.kernels(1)
    assert k is not None and crf_kernels.kernels(5) is k


def test_numpy_mode_never_compiles(fresh_state, monkeypatch):
    monkeypatch.setenv("NOTESCRUB_KERNELS", "numpy")
    assert crf_kernels.kernels(10**9) is None
    assert fresh_state["kernels"] is None


def test_a_failed_compile_falls_back_to_numpy_for_good(fresh_state, monkeypatch):
    def broken():
        raise ImportError("no numba here")

    monkeypatch.setattr(crf_kernels, "_compile", broken)
    monkeypatch.setenv("NOTESCRUB_KERNELS", "numba")
    assert crf_kernels.kernels(10) is None
    assert crf_kernels.kernels(10) is None and fresh_state["failed"]
    S = np.array([[2.0, 0.0], [0.0, 1.0], [1.0, 0.5]])
    assert crf_decode.viterbi(S, np.zeros((2, 2)))[0].tolist() == [0, 1, 0]  # numpy still decodes


@pytest.mark.parametrize("seed", range(4))
def test_compiled_decoding_equals_numpy_on_crf_like_scores(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    n, L = 500, 21
    S = rng.normal(0, 3, (n, L))
    S[rng.random(n) < 0.8, 0] += 8.0  # mostly O, with PHI-like stretches
    S[:, 0] -= 2.1  # a recall bias on O
    T = rng.normal(0, 2, (L, L))
    monkeypatch.setenv("NOTESCRUB_KERNELS", "numpy")
    path, score = crf_decode.viterbi(S, T)
    fb = crf_decode.forward_backward(S, T)
    monkeypatch.setenv("NOTESCRUB_KERNELS", "numba")
    path2, score2 = crf_decode.viterbi(S, T)
    fb2 = crf_decode.forward_backward(S, T)
    assert path2.tolist() == path.tolist() and score2 == score  # bit for bit
    assert abs(fb2.log_z - fb.log_z) < 1e-9 * abs(fb.log_z)
    assert np.allclose(fb2.marginals, fb.marginals, atol=1e-10)
    assert np.allclose(fb2.alpha.sum(1), 1.0) and np.allclose((fb2.alpha * fb2.beta).sum(1), 1.0)
    a, b = int(np.argmax(path != 0)), int(np.argmax(path != 0)) + 1
    assert crf_decode.segment_probability(fb2, path, a, b) == pytest.approx(crf_decode.segment_probability(fb, path, a, b))


def test_compiled_kernels_handle_empty_and_one_token_sequences(monkeypatch):
    monkeypatch.setenv("NOTESCRUB_KERNELS", "numba")
    T = np.zeros((3, 3))
    path, score = crf_decode.viterbi(np.zeros((0, 3)), T)
    assert path.tolist() == [] and score == 0.0
    path, score = crf_decode.viterbi(np.array([[0.0, 2.0, 1.0]]), T)
    assert path.tolist() == [1] and score == 2.0
    fb = crf_decode.forward_backward(np.array([[0.0, 2.0, 1.0]]), T)
    assert np.allclose(fb.marginals.sum(1), 1.0)
