"""notescrub on Spark (``pip install 'notescrub[spark]'``): de-identify DataFrames on a cluster.

* :func:`deidentify` and :func:`annotate` (:mod:`~notescrub.spark.frames`): a DataFrame of
  notes in, a DataFrame with the de-identified text (or the PHI spans) out — the same
  output as ``notescrub deid`` / ``annotate`` for the same key, model and options;
* :mod:`~notescrub.spark.worker`: what the executors run (a model loaded once per Python
  worker process, the per-patient-group function of :mod:`notescrub.scale.work`);
* :mod:`~notescrub.spark.tables`: the session and the Parquet/CSV folders of
  ``notescrub spark deid|annotate``, written atomically.

See ``docs/scale.md`` (Spark) for the job plan and a ``spark-submit`` recipe.

>>> from notescrub.spark import deidentify, annotate
>>> deidentify.__module__
'notescrub.spark.frames'
"""

from notescrub.spark.frames import annotate, deidentify

__all__ = ["annotate", "deidentify"]
