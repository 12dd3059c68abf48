"""Without the ``fast`` extra (numba), CRF decoding stays on numpy and says how to get the kernels."""

import logging
import sys

import numpy as np
import pytest

from notescrub.detect.crf import kernels as crf_kernels


@pytest.fixture
def no_numba(monkeypatch):
    for name in [m for m in sys.modules if m == "numba" or m.startswith("numba.")] + ["numba"]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "notescrub.detect.crf._numba", raising=False)
    monkeypatch.delattr(sys.modules["notescrub.detect.crf"], "_numba", raising=False)  # as in a fresh process
    monkeypatch.setattr(crf_kernels, "_COMPILED", [])
    monkeypatch.delenv(crf_kernels.ENV, raising=False)
    monkeypatch.delenv(crf_kernels.LEGACY_ENV, raising=False)


def test_auto_decodes_with_numpy_and_names_the_extra(no_numba, caplog):
    S = np.array([[2.0, 0.0], [0.0, 1.0], [1.0, 0.5]])
    with caplog.at_level(logging.INFO, logger="notescrub.detect.crf.kernels"):
        assert crf_kernels.kernel() is crf_kernels.NUMPY
        assert crf_kernels.kernel("auto") is crf_kernels.NUMPY  # tried once, not again
        assert crf_kernels.kernel().viterbi(S, np.zeros((2, 2)))[0].tolist() == [0, 1, 0]
    msgs = [r.getMessage() for r in caplog.records]
    assert len(msgs) == 1 and "pip install 'notescrub[fast]'" in msgs[0]
