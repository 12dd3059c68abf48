"""Corpus-scale runs: patient groups, worker processes, resumable run folders.

* :mod:`~notescrub.scale.work` — the pure unit of work (a patient group in, its
  de-identified or annotated notes out), shared by the local pool and Spark;
* :mod:`~notescrub.scale.grouping` — patient groups from a stream, in two passes, with a
  disk spill for inputs that interleave patients;
* :mod:`~notescrub.scale.workdir` — the run folder: manifest, atomic chunk files, merge;
* :mod:`~notescrub.scale.pool` — ``--jobs``: this process or forked workers;
* :mod:`~notescrub.scale.run` — the batch run that ties them together.

See ``docs/scale.md``.

>>> from notescrub.scale import run_batch, DeidTask, RunFolder
>>> callable(run_batch)
True
"""

from notescrub.scale.run import BatchOutcome, run_batch
from notescrub.scale.work import AnnotateTask, DeidTask, GroupResult
from notescrub.scale.workdir import RunFolder

__all__ = ["AnnotateTask", "BatchOutcome", "DeidTask", "GroupResult", "RunFolder", "run_batch"]
