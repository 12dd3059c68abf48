"""Sessions and table folders for ``notescrub spark``: read Parquet/CSV, write atomically.

* :func:`session` — a SparkSession: the one ``spark-submit`` started, or a local one
  (``local[*]`` unless ``master`` says otherwise) whose Python workers run this
  interpreter (``PYSPARK_PYTHON``);
* :func:`table_format` — ``parquet`` or ``csv``, from the name or the files in a folder;
* :func:`read_table` / :func:`write_table` — CSV with a header row and quoted multi-line
  fields (as notescrub's own CSV writer writes them), every column read as text;
* writing goes to a hidden folder beside the output and is renamed onto the final name
  when the job has succeeded (Hadoop ``FileSystem.rename``: atomic on local disks and
  HDFS; object stores such as S3 copy, so there a failed job can leave the hidden folder,
  never a partial output under the final name).

>>> table_format("notes.parquet"), table_format("export.csv")
('parquet', 'csv')
"""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path
from typing import Any

from notescrub.errors import ConfigError, InputFormatError
from notescrub.threads import BLAS_THREAD_VARIABLES

__all__ = ["read_table", "session", "table_format", "write_table"]

FORMATS = ("parquet", "csv")


def session(master: str | None = None, conf: dict[str, str] | None = None, *, app: str = "notescrub",
            verbose: bool = False) -> tuple[Any, bool]:
    """``(SparkSession, started)``: the session to run on, and whether it was started here.

    A session already running in this process (a notebook, a test) is used as it is.
    Under ``spark-submit`` the cluster's is created, and ``master`` should be left out.
    Otherwise a local session is started on ``master``
    (default ``local[*]``), with its Python workers on this interpreter. Spark's own log
    is switched off unless ``verbose``: its task failure messages quote the Python error,
    which for errors raised outside notescrub (Arrow conversions) can quote data.
    The Python workers get one BLAS thread each (``spark.executorEnv``; cores come from
    Spark's task slots), unless this process's environment or ``conf`` sets another count.
    """
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        return active, False
    submitted = "PYSPARK_GATEWAY_PORT" in os.environ  # spark-submit or a notebook started the JVM
    builder = SparkSession.builder.appName(app)
    if master is not None:
        builder = builder.master(master)
    elif not submitted:
        builder = builder.master("local[*]")
    local = (master or ("" if submitted else "local")).startswith("local")
    if local:
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
        builder = builder.config("spark.ui.enabled", "false")
        # Spark's default of 200 shuffle partitions costs ~20 s of task overhead on a small machine
        builder = builder.config("spark.sql.shuffle.partitions", str(4 * _local_cores(master or "local[*]")))
    if not verbose:
        builder = builder.config("spark.ui.showConsoleProgress", "false")
    for var in BLAS_THREAD_VARIABLES:  # one BLAS thread per Python worker, as the CLI does
        builder = builder.config(f"spark.executorEnv.{var}", os.environ.get(var, "1"))
    for k, v in (conf or {}).items():
        builder = builder.config(k, v)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN" if verbose else "OFF")
    return spark, True


def _local_cores(master: str) -> int:
    """Cores of a ``local[N]`` master (``local`` = 1, ``local[*]`` = every CPU).

    >>> _local_cores("local[2]"), _local_cores("local"), _local_cores("local[3,2]")
    (2, 1, 3)
    """
    inner = master[len("local"):].strip("[]").split(",")[0].strip()
    if not inner:
        return 1
    return os.cpu_count() or 1 if inner == "*" else max(1, int(inner)) if inner.isdigit() else 1


def table_format(path: str | Path, given: str | None = None) -> str:
    """``parquet`` or ``csv``: ``given``, the name's suffix, or the part files of a local folder."""
    if given is not None:
        if given not in FORMATS:
            raise ConfigError(f"--format must be one of {', '.join(FORMATS)}, not {given!r}")
        return given
    name = str(path).rstrip("/").lower()
    for fmt in FORMATS:
        if name.endswith("." + fmt):
            return fmt
    p = Path(path)
    if p.is_dir():
        for fmt in FORMATS:
            if any(p.rglob(f"*.{fmt}")):
                return fmt
    raise ConfigError("cannot tell whether the input is Parquet or CSV (no .parquet or .csv name or files "
                      "inside); pass --format parquet or --format csv", path=path)


def read_table(spark: Any, path: str, fmt: str) -> Any:
    """The table at ``path`` (a file or a folder of part files) as a DataFrame."""
    if not _exists(spark, path):
        raise InputFormatError("input does not exist", path=path)
    if fmt == "parquet":
        return spark.read.parquet(path)
    return (spark.read.option("header", True).option("multiLine", True).option("escape", '"')
            .option("inferSchema", False).csv(path))


def _fs(spark: Any, path: str) -> tuple[Any, Any]:
    jvm = spark.sparkContext._jvm
    p = jvm.org.apache.hadoop.fs.Path(path)
    return p.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()), p


def _exists(spark: Any, path: str) -> bool:
    fs, p = _fs(spark, path)
    return bool(fs.exists(p))


def check_output(spark: Any, path: str, overwrite: bool) -> None:
    """Refuse an existing output before any work is done (unless ``overwrite``)."""
    if _exists(spark, path) and not overwrite:
        raise ConfigError("output exists (use --force to replace it)", path=path)


def write_table(df: Any, path: str, fmt: str, overwrite: bool = False) -> None:
    """Write ``df`` as a folder of ``fmt`` part files at ``path``: all of it, or nothing.

    Array and struct columns (the spans) are written as JSON text in CSV.
    """
    from pyspark.sql import functions as F

    spark = df.sparkSession
    if ":" not in path.split("/")[0]:  # a local path (no scheme): make it absolute, so it has a parent
        path = os.path.abspath(path)
    check_output(spark, path, overwrite)
    fs, final = _fs(spark, path)
    hidden = f".{final.getName()}.notescrub-{uuid.uuid4().hex[:12]}"  # Spark readers skip names starting with "."
    tmp_path = spark.sparkContext._jvm.org.apache.hadoop.fs.Path(final.getParent(), hidden)
    try:
        if fmt == "parquet":
            df.write.mode("errorifexists").parquet(tmp_path.toString())
        else:
            nested = [f.name for f in df.schema.fields if f.dataType.typeName() in ("array", "struct", "map")]
            flat = df.select(*[F.to_json(F.col(c)).alias(c) if c in nested else F.col(c) for c in df.columns])
            (flat.write.mode("errorifexists").option("header", True).option("escape", '"')
             .option("quoteAll", False).csv(tmp_path.toString()))
        if fs.exists(final):
            if not overwrite:
                raise ConfigError("output appeared while the job ran; nothing was replaced", path=path)
            fs.delete(final, True)
        if not fs.rename(tmp_path, final):
            raise ConfigError("the finished output could not be moved to its final name", path=path)
    finally:
        if fs.exists(tmp_path):
            fs.delete(tmp_path, True)
