"""Without the ``fast`` extra (numba), CRF decoding stays on numpy and says how to get the kernels."""

import logging
import sys

import numpy as np
import pytest

from notescrub.detect import crf_decode, crf_kernels


@pytest.fixture
def no_numba(monkeypatch):
    for name in [m for m in sys.modules if m == "numba" or m.startswith("numba.")] + ["numba"]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "notescrub.detect._crf_numba", raising=False)
    monkeypatch.delattr(sys.modules["notescrub.detect"], "_crf_numba", raising=False)  # as in a fresh process
    monkeypatch.setattr(crf_kernels, "_STATE", {"tokens": 0, "kernels": None, "failed": False})
    monkeypatch.delenv("NOTESCRUB_KERNELS", raising=False)


def test_batches_decode_with_numpy_and_name_the_extra(no_numba, caplog):
    S = np.array([[2.0, 0.0], [0.0, 1.0], [1.0, 0.5]])
    with caplog.at_level(logging.INFO, logger="notescrub.detect.crf_kernels"):
        assert crf_kernels.kernels(crf_kernels.COMPILE_AFTER_TOKENS) is None  # a batch: would compile
        assert crf_kernels.kernels(10) is None  # tried once, not again
        assert crf_decode.viterbi(S, np.zeros((2, 2)))[0].tolist() == [0, 1, 0]
    msgs = [r.getMessage() for r in caplog.records]
    assert len(msgs) == 1 and "pip install 'notescrub[fast]'" in msgs[0]
