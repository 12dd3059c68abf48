"""Compiled (numba) Viterbi and forward-backward for :mod:`notescrub.detect.crf_decode`.

The numpy recursions in :mod:`~notescrub.detect.crf_decode` pay a few microseconds of
interpreter overhead per token; on a 400-word note that is most of the CRF's decoding
time. The same recursions compiled with numba run at machine speed:

* :func:`viterbi` is the textbook recursion (first index on ties) with one exact
  shortcut: when every other label is hopeless against the best one (see
  :func:`notescrub.detect.crf_decode.viterbi`) the step is a single-label step. Paths
  and scores are the numpy function's, bit for bit.
* :func:`forward_backward` is the classic scaled forward-backward (``alpha[t]`` sums
  to 1, ``beta`` divided by the same scales); marginals and ``log Z`` equal the numpy
  function's up to rounding (about 1e-12).

Compiling costs a second or two the first time (numba then caches the machine code next
to this file, or in its user cache directory when that is read-only); loading the cached
code costs ~0.2 s. So that a one-note run never pays this, :func:`kernels` hands the
compiled functions out only once a process has decoded :data:`COMPILE_AFTER_TOKENS`
tokens (a batch), and never when numba is missing or fails: the numpy code is the
fallback. numba is the optional ``fast`` extra (``pip install 'notescrub[fast]'``); a base
install decodes with numpy, with the same spans. The environment variable ``NOTESCRUB_KERNELS=numpy`` disables them,
``NOTESCRUB_KERNELS=numba`` uses them from the first document.

>>> import numpy as np
>>> from notescrub.detect import crf_decode
>>> k = kernels(10**9)
>>> S, T = np.array([[2.0, 0.0], [0.0, 1.0], [1.0, 0.5]]), np.zeros((2, 2))
>>> k is None or k.viterbi(S, T)[0].tolist() == crf_decode.viterbi(S, T)[0].tolist()
True
"""

from __future__ import annotations

import logging
import os
from types import SimpleNamespace
from typing import Any

import numpy as np

__all__ = ["COMPILE_AFTER_TOKENS", "kernels"]

log = logging.getLogger(__name__)

#: Sequence positions a process decodes with numpy (counted at each Viterbi and
#: forward-backward call) before it switches to the compiled kernels.
COMPILE_AFTER_TOKENS = 20_000

_STATE: dict[str, Any] = {"tokens": 0, "kernels": None, "failed": False}


def kernels(n_tokens: int) -> SimpleNamespace | None:
    """The compiled ``viterbi`` / ``forward_backward`` to use for a sequence of ``n_tokens``.

    ``None`` means: use numpy (numba missing or failed, disabled, or the process has not
    decoded enough tokens yet for compiling to pay off).
    """
    st = _STATE
    mode = os.environ.get("NOTESCRUB_KERNELS", "auto")
    if mode == "numpy" or st["failed"]:
        return None
    if st["kernels"] is not None:
        return st["kernels"]
    st["tokens"] += n_tokens
    if mode != "numba" and st["tokens"] < COMPILE_AFTER_TOKENS:
        return None
    try:
        st["kernels"] = _compile()
    except Exception as exc:  # noqa: BLE001 - ImportError, numba errors: the numpy code stays in use
        st["failed"] = True
        if isinstance(exc, ModuleNotFoundError) and (exc.name or "").split(".")[0] in ("numba", "llvmlite"):
            log.info("CRF decoding uses numpy (same spans); pip install 'notescrub[fast]' compiles it with numba")
        else:
            log.info("compiled CRF kernels unavailable (%s); using numpy", type(exc).__name__)
        return None
    return st["kernels"]


def _compile() -> SimpleNamespace:
    from notescrub.detect import _crf_numba
    from notescrub.detect.crf_decode import ForwardBackward, viterbi_shortcut_reach

    def viterbi(S: np.ndarray, T: np.ndarray) -> tuple[np.ndarray, float]:
        n = len(S)
        if n == 0:
            return np.zeros(0, dtype=np.int64), 0.0
        S = np.ascontiguousarray(S, dtype=np.float64)
        T = np.ascontiguousarray(T, dtype=np.float64)
        path, score = _crf_numba.viterbi_loop(S, T, viterbi_shortcut_reach(S, T))
        return path, float(score)

    def forward_backward(S: np.ndarray, T: np.ndarray) -> Any:
        T = np.ascontiguousarray(T, dtype=np.float64)
        E = np.exp(T)
        if len(S) == 0:
            L = T.shape[0]
            return ForwardBackward(np.empty((0, L)), np.empty((0, L)), np.empty(0), np.zeros(0), np.empty((0, L)), E, 0.0)
        alpha, beta, c, shift, P, log_z = _crf_numba.forward_backward_loop(np.ascontiguousarray(S, dtype=np.float64), E)
        return ForwardBackward(alpha, beta, c, shift, P, E, float(log_z))

    # compile (or load from numba's cache) now, not in the middle of the first document
    S0, T0 = np.zeros((2, 2)), np.zeros((2, 2))
    viterbi(S0, T0)
    forward_backward(S0, T0)
    return SimpleNamespace(viterbi=viterbi, forward_backward=forward_backward)
