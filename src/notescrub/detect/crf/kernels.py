"""Which Viterbi / forward-backward a CRF decodes with: numpy or compiled (numba).

The numpy recursions of :mod:`notescrub.detect.crf.decode` pay a few microseconds of
interpreter overhead per token; on a 400-word note that is most of the CRF's decoding
time. The same recursions compiled with numba (:mod:`notescrub.detect.crf._numba`) run at
machine speed:

* Viterbi is the textbook recursion (first index on ties) with the exact shortcut of
  :func:`notescrub.detect.crf.decode.viterbi`: paths and scores are numpy's, bit for bit;
* gathering score rows into the state scores (``S[i] += V[idx[i, j]]``, the scorer's
  inner step) adds in numpy's order, so state scores are numpy's bit for bit, without
  numpy's one ``tokens x labels`` temporary per feature column;
* forward-backward is the classic scaled recursion (``alpha[t]`` sums to 1, ``beta``
  divided by the same scales); numpy's defers its rescaling, so marginals and ``log Z``
  agree with numpy's up to rounding (about 1e-13), not bit for bit.

**The kernel is chosen once, by a setting**, never by what a process decoded before: the
environment variable ``NOTESCRUB_CRF_KERNEL`` (:data:`ENV`) is ``auto`` (the default:
numba when it is installed and compiles, numpy otherwise), ``numpy`` or ``numba``. A CRF
tagger asks :func:`kernel` when it gets its weights (``fit`` or loading a model) and keeps
the answer, so every note a loaded model decodes uses the same floating-point code, and a
note's scores do not depend on the notes decoded before it. The older name
``NOTESCRUB_KERNELS`` is still read when the new one is not set.

numba is the optional ``fast`` extra (``pip install 'notescrub[fast]'``). Compiling costs a
second or two the first time (numba then caches the machine code next to
:mod:`~notescrub.detect.crf._numba`, or in its user cache directory when that is
read-only); later processes load it in ~0.2 s plus ~0.3 s to import numba. When numba is
missing or fails, the numpy code decodes (the same spans) and one INFO line says why.

>>> import numpy as np
>>> k = kernel("numpy")
>>> k.name
'numpy'
>>> S, T = np.array([[2.0, 0.0], [0.0, 1.0], [1.0, 0.5]]), np.zeros((2, 2))
>>> k.viterbi(S, T)[0].tolist()
[0, 1, 0]
>>> kernel("auto").name in ("numpy", "numba")
True
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from notescrub.detect.crf import decode as crf_decode
from notescrub.detect.crf.decode import ForwardBackward, Reach, viterbi_shortcut_reach
from notescrub.errors import ConfigError

__all__ = ["ENV", "LEGACY_ENV", "MODES", "NUMPY", "Kernel", "gather_add", "kernel", "setting"]

log = logging.getLogger(__name__)

#: the setting that chooses the kernel (``auto``, ``numpy`` or ``numba``)
ENV = "NOTESCRUB_CRF_KERNEL"
#: its former name, read when :data:`ENV` is not set
LEGACY_ENV = "NOTESCRUB_KERNELS"
MODES = ("auto", "numpy", "numba")


class ViterbiFn(Protocol):
    """``(S, T, reach=None) -> (path, score)``; ``reach``: ``crf_decode.transition_reach(T)``."""

    def __call__(self, S: np.ndarray, T: np.ndarray, reach: Reach | None = None) -> tuple[np.ndarray, float]: ...


class GatherAddFn(Protocol):
    """``(S, V, idx) -> None``: ``S[i] += V[idx[i, j]]`` for each column ``j`` in turn, ``idx < 0`` skipped."""

    def __call__(self, S: np.ndarray, V: np.ndarray, idx: np.ndarray) -> None: ...


def gather_add(S: np.ndarray, V: np.ndarray, idx: np.ndarray) -> None:
    """Add rows of ``V`` to ``S`` in place: ``S[i] += V[idx[i, j]]`` for each column ``j`` of
    ``idx`` in turn; an index below 0 adds nothing (numpy's version of the kernel step).

    >>> S = np.zeros((3, 2)); V = np.array([[1.0, 2.0], [10.0, 20.0]])
    >>> gather_add(S, V, np.array([[0, 1], [1, -1], [-1, -1]]))
    >>> S.tolist()
    [[11.0, 22.0], [10.0, 20.0], [0.0, 0.0]]
    """
    for j in range(idx.shape[1]):
        col = idx[:, j]
        ok = col >= 0
        if ok.all():
            S += V[col]
        elif ok.any():
            S[ok] += V[col[ok]]


class ForwardBackwardFn(Protocol):
    """``(S, T) -> ForwardBackward``."""

    def __call__(self, S: np.ndarray, T: np.ndarray) -> ForwardBackward: ...


@dataclass(frozen=True)
class Kernel:
    """A pair of decoding functions over state scores ``S`` (n x L) and transitions ``T``.

    ``name`` is ``"numpy"`` or ``"numba"``; a pickled kernel is chosen again by name where
    it is unpickled (numpy where numba is missing there).
    """

    name: str
    viterbi: ViterbiFn
    forward_backward: ForwardBackwardFn
    gather_add: GatherAddFn = gather_add

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return kernel, (self.name,)


#: the numpy recursions of :mod:`notescrub.detect.crf.decode`
NUMPY = Kernel("numpy", crf_decode.viterbi, crf_decode.forward_backward)

#: the compiled kernel once built in this process (``None`` inside: numba missing or failed);
#: a cache of machine code, never a choice: :func:`kernel` decides from the setting alone
_COMPILED: list[Kernel | None] = []


def setting() -> str:
    """The kernel setting of this process: ``$NOTESCRUB_CRF_KERNEL`` (or ``$NOTESCRUB_KERNELS``), default ``auto``.

    >>> setting() in MODES
    True
    """
    name = ENV if ENV in os.environ else LEGACY_ENV
    value = os.environ.get(name, "auto").strip().lower() or "auto"
    if value not in MODES:
        raise ConfigError(f"${name} is {value!r}; expected one of {', '.join(MODES)}")
    return value


def kernel(mode: str | None = None) -> Kernel:
    """The kernel for ``mode`` (``None``: :func:`setting`): ``numpy``, or ``numba`` where it works.

    ``auto`` and ``numba`` both give the compiled kernel when numba is installed and
    compiles (``numba`` also says so at WARNING level when it cannot), numpy otherwise.
    The answer depends on the mode and the installation only.
    """
    mode = setting() if mode is None else mode
    if mode not in MODES:
        raise ConfigError(f"unknown CRF kernel {mode!r}; expected one of {', '.join(MODES)}")
    if mode == "numpy":
        return NUMPY
    if not _COMPILED:
        _COMPILED.append(_try_compile())
    compiled = _COMPILED[0]
    if compiled is None:
        if mode == "numba":
            log.warning("%s=numba, but the compiled CRF kernels are unavailable: decoding with numpy", ENV)
        return NUMPY
    return compiled


def _try_compile() -> Kernel | None:
    try:
        return _compile()
    except Exception as exc:  # noqa: BLE001 - ImportError, numba errors: the numpy code stays in use
        if isinstance(exc, ModuleNotFoundError) and (exc.name or "").split(".")[0] in ("numba", "llvmlite"):
            log.info("CRF decoding uses numpy (same spans); pip install 'notescrub[fast]' compiles it with numba")
        else:
            log.info("compiled CRF kernels unavailable (%s); using numpy", type(exc).__name__)
        return None


def _compile() -> Kernel:
    from notescrub.detect.crf import _numba as _crf_numba

    def viterbi(S: np.ndarray, T: np.ndarray, reach: Reach | None = None) -> tuple[np.ndarray, float]:
        n = len(S)
        if n == 0:
            return np.zeros(0, dtype=np.int64), 0.0
        S = np.ascontiguousarray(S, dtype=np.float64)
        T = np.ascontiguousarray(T, dtype=np.float64)
        path, score = _crf_numba.viterbi_loop(S, T, viterbi_shortcut_reach(S, T, reach))
        return path, float(score)

    def forward_backward(S: np.ndarray, T: np.ndarray) -> ForwardBackward:
        T = np.ascontiguousarray(T, dtype=np.float64)
        E = np.exp(T)
        if len(S) == 0:
            L = T.shape[0]
            return ForwardBackward(np.empty((0, L)), np.empty((0, L)), np.empty(0), np.zeros(0), np.empty((0, L)), E, 0.0)
        alpha, beta, c, shift, P, log_z = _crf_numba.forward_backward_loop(np.ascontiguousarray(S, dtype=np.float64), E)
        return ForwardBackward(alpha, beta, c, shift, P, E, float(log_z))

    def gather_add_compiled(S: np.ndarray, V: np.ndarray, idx: np.ndarray) -> None:
        if S.dtype != np.float64 or V.dtype != np.float64 or not (S.flags.c_contiguous and V.flags.c_contiguous):
            gather_add(S, V, idx)  # (the scorer's arrays never are: this keeps the contract)
            return
        _crf_numba.gather_add_loop(S, V, np.ascontiguousarray(idx, dtype=np.int64))

    # compile (or load from numba's cache) now, not in the middle of the first document
    S0, T0 = np.zeros((2, 2)), np.zeros((2, 2))
    viterbi(S0, T0)
    forward_backward(S0, T0)
    gather_add_compiled(S0, T0, np.zeros((2, 1), dtype=np.int64))
    return Kernel("numba", viterbi, forward_backward, gather_add_compiled)
