"""How many threads numpy's BLAS may start in a notescrub process: one, unless told otherwise.

notescrub's numeric work is many small per-note products (CRF state scores, forward-backward,
posteriors), where BLAS helper threads mostly wait and spin: on 2 cores, ``deid`` of 1,000
synthetic notes with ``en-default`` took 35.0 s on 60 CPU-seconds with OpenBLAS's default of
one thread per core and 34.6 s on 34 CPU-seconds with one thread (docs/scale.md). Cores are
used by ``--jobs`` workers and Spark task slots instead; workers whose BLAS threads spin would
fight each other for the cores. The command line calls :func:`single_threaded_blas` before
anything imports numpy, and Spark sessions started by notescrub pass the same setting to their
Python workers. A count the user set in the environment is kept.

>>> import os
>>> single_threaded_blas()
>>> all(os.environ[v] for v in BLAS_THREAD_VARIABLES)
True
"""

from __future__ import annotations

import os

__all__ = ["BLAS_THREAD_VARIABLES", "single_threaded_blas"]

#: environment variables that set the thread count of numpy's BLAS (OpenBLAS, MKL, OpenMP builds)
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS")


def single_threaded_blas() -> None:
    """Set each of :data:`BLAS_THREAD_VARIABLES` to 1 where the environment does not set it.

    Only takes effect before numpy is first imported (BLAS reads them when it loads);
    worker processes inherit the environment.
    """
    for var in BLAS_THREAD_VARIABLES:
        os.environ.setdefault(var, "1")
