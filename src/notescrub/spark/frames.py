"""The driver side of :mod:`notescrub.spark`: DataFrame in, de-identified DataFrame out.

:func:`deidentify` and :func:`annotate` check the columns and options on the driver
(cheaply: no model is loaded there), ship the keys once as a broadcast variable, and
plan the job:

* with ``patient_col``: ``groupBy(group key).applyInPandas`` — a patient's notes meet
  in one call, as the two-pass patient dictionary of ``en-default`` needs. Notes without a
  patient id reach the call in batches of up to 64 consecutive rows and are processed one
  by one inside it (each is its own group, as in the CLI);
* without: ``mapInPandas`` over Arrow batches, every note its own group (no shuffle).

The executors run :func:`notescrub.spark.worker.process`. Rows come back in no
particular order (as from any Spark shuffle); sort on a column of yours if you need one.

>>> from notescrub.spark.frames import deidentify
>>> callable(deidentify)
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from notescrub.errors import ConfigError
from notescrub.extras import require
from notescrub.replace.keys import SurrogateKey
from notescrub.spark import worker

__all__ = ["ANNOTATE_SPAN", "DEID_SPAN", "annotate", "deidentify"]

#: fields of one span of the ``deidentify`` output (located in the de-identified text)
DEID_SPAN = (("start", "int"), ("end", "int"), ("type", "string"), ("score", "double"))
#: fields of one span of the ``annotate`` output (as the ``annotate`` command writes them)
ANNOTATE_SPAN = (("start", "int"), ("end", "int"), ("type", "string"), ("phi", "string"), ("score", "double"),
                 ("source", "string"))
_POSITION = "__notescrub_pos"
_GROUP = "__notescrub_group"
_NULL_BATCH_BITS = 6  # notes without a patient id: up to 2**6 = 64 consecutive rows share one call


def _require(purpose: str) -> None:
    for module in ("pyspark", "pandas", "pyarrow"):
        require("spark", purpose, module=module)


def _key(key: SurrogateKey | str | Path | None) -> SurrogateKey | None:
    if key is None or isinstance(key, SurrogateKey):
        return key
    if isinstance(key, (str, Path)):
        return SurrogateKey.load(key)
    raise ConfigError(f"notescrub.spark: key must be a SurrogateKey or a key file path, not {type(key).__name__}")


def _check_columns(df: Any, names: dict[str, str | None]) -> None:
    have = set(df.columns)
    for what, name in names.items():
        if name is not None and name not in have:
            raise ConfigError(f"notescrub.spark: the DataFrame has no {what} column {name!r} "
                              f"(columns: {', '.join(df.columns)})")


def _plan(df: Any, command: str, cols: worker.Columns, ns: Any, keys: tuple, out_fields: list[Any]) -> Any:
    """Run ``command`` over ``df`` on the executors (see the module docstring)."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import StructType

    spark = df.sparkSession
    shipped = spark.sparkContext.broadcast(keys)  # once per executor, not once per task
    schema = StructType(out_fields)
    needed = [c for c in dict.fromkeys([cols.id, cols.text, cols.patient, *cols.keep]) if c is not None]
    data = df.select(*needed).withColumn(_POSITION, F.monotonically_increasing_id())

    def one(frame: Any) -> Any:
        return worker.process(command, frame, cols, ns, shipped.value)

    if cols.patient is None:
        def batches(frames: Any) -> Any:
            for frame in frames:
                yield worker.process(command, frame, cols, ns, shipped.value)

        return data.mapInPandas(batches, schema)
    patient = F.col(cols.patient).cast("string")
    bucket = F.concat(F.lit("\0#"), F.shiftright(F.col(_POSITION), _NULL_BATCH_BITS).cast("string"))
    group = F.when(patient.isNull() | (patient == ""), bucket).otherwise(patient)
    return data.withColumn(_GROUP, group).groupBy(_GROUP).applyInPandas(one, schema)


def _spans_field(name: str, fields: tuple[tuple[str, str], ...]) -> Any:
    """``name: array<struct<...>>`` with ``fields``."""
    from pyspark.sql.types import (
        ArrayType,
        DoubleType,
        IntegerType,
        StringType,
        StructField,
        StructType,
    )

    types = {"int": IntegerType(), "string": StringType(), "double": DoubleType()}
    item = StructType([StructField(n, types[t], True) for n, t in fields])
    return StructField(name, ArrayType(item, True), True)


def _fields(df: Any, names: list[str]) -> list[Any]:
    by_name = {f.name: f for f in df.schema.fields}
    return [by_name[n] for n in names]


def _keep(df: Any, keep_columns: Any, reserved: set[str]) -> tuple[str, ...]:
    keep = tuple(dict.fromkeys(keep_columns or ()))
    for name in keep:
        _check_columns(df, {"kept": name})
    return tuple(c for c in keep if c not in reserved)


def deidentify(df: Any, text_col: str = "text", id_col: str = "id", patient_col: str | None = None, *,
               model: str | None = None, mode: str = "surrogate", key: SurrogateKey | str | Path | None = None,
               keep_columns: Any = (), spans_col: str = "spans", **options: Any) -> Any:
    """De-identify the notes of a Spark DataFrame, as ``notescrub deid`` does.

    Returns a DataFrame with ``id_col`` (as given), ``patient_col`` (a keyed pseudonym;
    verbatim when it is listed in ``keep_columns``), ``text_col`` (the de-identified text),
    the ``keep_columns`` (copied verbatim: they may hold PHI no model looked at), in the
    input's column order, and ``spans_col`` (``array<struct<start:int,end:int,type:string,
    score:double>>``, located in the new text) last, or where the input had a column of that
    name. Every other column is dropped (the release policy of ``docs/deid.md``): the shape
    ``notescrub deid`` gives a table.

    ``model`` (default ``en-default``), ``mode`` and ``key`` (a :class:`SurrogateKey` or a
    key file path; needed for modes ``surrogate`` and ``hash``) are those of the CLI;
    ``options`` are the other ``deid`` options by name: ``preset``, ``recall_bias``,
    ``types``, ``resolve``, ``date_shift``, ``age_bucket``, ``real_phone_numbers``,
    ``tag_template``, ``mask_char``, ``lang``, ``max_chars``, ``skip_bad`` (leave failing
    notes out; by default one failing note fails the job, and nothing is written).

    Example (``spark`` a SparkSession)::

        from notescrub.spark import deidentify
        notes = spark.read.parquet("notes/")
        out = deidentify(notes, text_col="note_text", id_col="note_id", patient_col="mrn",
                         key="/secure/site.key", model="en-default")
        out.write.parquet("deid/")
    """
    _require("notescrub.spark.deidentify")
    _check_columns(df, {"text": text_col, "id": id_col, "patient": patient_col})
    ns = worker.options("deid", model=model, mode=mode, **options)
    k = _key(key)
    if k is None and mode in ("surrogate", "hash"):
        raise ConfigError(f"notescrub.spark.deidentify: mode {mode} needs key= (a key file path or a SurrogateKey; "
                          "create one with 'notescrub key new PATH')")
    keep_columns = tuple(dict.fromkeys(keep_columns or ()))
    if patient_col is not None and patient_col in keep_columns:
        ns.keep_field = ["patient"]  # the release policy keeps patient ids verbatim
    reserved = {id_col, text_col, spans_col} | ({patient_col} if patient_col else set())
    keep = _keep(df, keep_columns, reserved)
    if spans_col in (text_col, id_col, patient_col):
        raise ConfigError(f"notescrub.spark: spans_col {spans_col!r} is also an input column name; choose another")
    _check_locally("deid", ns, k)
    release_key = k if k is not None else SurrogateKey.generate()  # run-only key: pseudonyms of this job
    cols = worker.Columns(text_col, id_col, patient_col, _POSITION, keep, spans_col)
    from pyspark.sql.types import StringType, StructField

    fields = _fields(df, [id_col])
    if patient_col is not None:
        fields.append(StructField(patient_col, StringType(), True))
    fields += [StructField(text_col, StringType(), True), _spans_field(spans_col, DEID_SPAN)]
    fields += _fields(df, list(keep))
    out = _plan(df, "deid", cols, ns, (k, release_key), fields)
    return out.select(*input_order(df.columns, [f.name for f in fields], spans_col))


def input_order(columns: list[str], released: list[str], spans_col: str) -> list[str]:
    """The released columns in the input's order; the spans where the input had them, or last
    (the shape ``notescrub deid`` gives a table).

    >>> input_order(["note_id", "dept", "note", "contact", "mrn"], ["note_id", "mrn", "note", "spans", "dept"], "spans")
    ['note_id', 'dept', 'note', 'mrn', 'spans']
    """
    keep = set(released)
    ordered = [c for c in columns if c in keep]
    return ordered + [c for c in released if c not in ordered]


def annotate(df: Any, text_col: str = "text", id_col: str = "id", patient_col: str | None = None, *,
             model: str | None = None, keep_columns: Any = (), spans_col: str = "spans", **options: Any) -> Any:
    """Find PHI spans in the notes of a Spark DataFrame, as ``notescrub annotate`` does.

    Returns ``id_col``, ``logprob`` (the CRF's sequence log-probability, or null),
    ``spans_col`` (``array<struct<start:int,end:int,type:string,phi:string,score:double,
    source:string>>``: the model's label, its i2b2-2014 subtype, score and source) and the
    ``keep_columns``; never the text. ``patient_col`` groups a patient's notes for models
    with a patient-level pass. ``options``: ``preset``, ``recall_bias``, ``threshold``,
    ``labels`` (``"DOCTOR,PATIENT"``), as for the CLI. A failing note fails the job.

    Example::

        spans = annotate(spark.read.parquet("notes/"), patient_col="patient", model="rules-en")
    """
    _require("notescrub.spark.annotate")
    _check_columns(df, {"text": text_col, "id": id_col, "patient": patient_col})
    ns = worker.options("annotate", model=model, **options)
    keep = _keep(df, keep_columns, {id_col, "logprob", spans_col})
    _check_locally("annotate", ns, None)
    cols = worker.Columns(text_col, id_col, patient_col, _POSITION, keep, spans_col)
    from pyspark.sql.types import DoubleType, StructField

    fields = _fields(df, [id_col]) + [StructField("logprob", DoubleType(), True), _spans_field(spans_col, ANNOTATE_SPAN)]
    fields += _fields(df, list(keep))
    return _plan(df, "annotate", cols, ns, (None, SurrogateKey.generate()), fields)


def _check_locally(command: str, ns: Any, key: SurrogateKey | None) -> None:
    """What can be checked on the driver without loading a model: the model exists, the
    replacement options are valid. (The executors report anything else when they load.)"""
    from notescrub.registry import DEFAULT_MODEL, model_dir

    model_dir(ns.model or DEFAULT_MODEL)
    if command == "deid":
        from notescrub.cli.commands import deid

        deid._replacer(ns, key)
        deid._keep_fields(ns.keep_field)
