"""The numba-compiled loops behind :mod:`notescrub.detect.crf.kernels` (imports numba).

Kept apart so that importing :mod:`notescrub.detect.crf.kernels` never imports numba;
functions are defined at module level so that numba can cache their machine code.
"""

from __future__ import annotations

import numba
import numpy as np

_jit = numba.njit(cache=True, nogil=True)


@_jit
def viterbi_loop(S: np.ndarray, T: np.ndarray, reach_s: np.ndarray) -> tuple[np.ndarray, float]:
    """Viterbi over state scores ``S`` and transitions ``T`` (see ``crf_decode.viterbi``).

    At each step only the labels that are not hopeless against the best one
    (``delta[a] >= delta[best] - reach_s[best, a]``) compete: the others are strictly
    worse in every column, so maxima and first-index ties are the textbook's.
    """
    n, L = S.shape
    back = np.empty((n, L), dtype=np.int64)
    delta = S[0].copy()
    new = np.empty(L)
    keep = np.empty(L, dtype=np.int64)
    for t in range(1, n):
        best = 0
        for a in range(1, L):
            if delta[a] > delta[best]:
                best = a
        top = delta[best]
        k = 0
        for a in range(L):  # in index order: ties go to the first label, as in argmax
            if a == best or delta[a] >= top - reach_s[best, a]:
                keep[k] = a
                k += 1
        for y in range(L):
            arg = keep[0]
            v = delta[arg] + T[arg, y]
            for j in range(1, k):
                a = keep[j]
                c = delta[a] + T[a, y]
                if c > v:
                    v = c
                    arg = a
            back[t, y] = arg
            new[y] = v + S[t, y]
        for y in range(L):
            delta[y] = new[y]
    path = np.empty(n, dtype=np.int64)
    p = 0
    for y in range(1, L):
        if delta[y] > delta[p]:
            p = y
    score = delta[p]
    path[n - 1] = p
    for t in range(n - 1, 0, -1):
        p = back[t, p]
        path[t - 1] = p
    return path, score


@_jit
def forward_backward_loop(S: np.ndarray, E: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                                              np.ndarray, float]:
    n, L = S.shape
    shift = np.empty(n)
    P = np.empty((n, L))
    for t in range(n):
        m = S[t, 0]
        for y in range(1, L):
            if S[t, y] > m:
                m = S[t, y]
        shift[t] = m
        for y in range(L):
            P[t, y] = np.exp(S[t, y] - m)
    ET = np.ascontiguousarray(E.T)
    alpha = np.zeros((n, L))
    beta = np.zeros((n, L))
    c = np.empty(n)
    tot = 0.0
    for y in range(L):
        tot += P[0, y]
    for y in range(L):
        alpha[0, y] = P[0, y] / tot
    c[0] = tot
    for t in range(1, n):
        for a in range(L):  # alpha[t] = (alpha[t-1] @ E) * P[t], row by row (vectorises)
            w = alpha[t - 1, a]
            for y in range(L):
                alpha[t, y] += w * E[a, y]
        tot = 0.0
        for y in range(L):
            alpha[t, y] *= P[t, y]
            tot += alpha[t, y]
        for y in range(L):
            alpha[t, y] /= tot
        c[t] = tot
    for y in range(L):
        beta[n - 1, y] = 1.0
    for t in range(n - 2, -1, -1):  # beta[t] = E @ (P[t+1] * beta[t+1]) / c[t+1]
        for a in range(L):
            w = P[t + 1, a] * beta[t + 1, a] / c[t + 1]
            for y in range(L):
                beta[t, y] += ET[a, y] * w
    log_z = 0.0
    for t in range(n):
        log_z += np.log(c[t]) + shift[t]
    return alpha, beta, c, shift, P, log_z


@_jit
def gather_add_loop(S: np.ndarray, V: np.ndarray, idx: np.ndarray) -> None:
    """``S[i] += V[idx[i, j]]`` for every column ``j`` in order, skipping ``idx < 0`` (in place)."""
    n, J = idx.shape
    L = S.shape[1]
    for i in range(n):
        for j in range(J):
            r = idx[i, j]
            if r >= 0:
                for y in range(L):
                    S[i, y] += V[r, y]
