"""``notescrub spark``: ``deid`` and ``annotate`` of Parquet/CSV tables on Spark.

The command parses arguments; the work is :mod:`notescrub.spark`.

>>> _conf(["spark.executor.memory=4g"])
{'spark.executor.memory': '4g'}
"""

from __future__ import annotations

import argparse
import logging
import re
from typing import Any

from notescrub.errors import ConfigError, ProcessingError

NAME = "spark"
HELP = "de-identify or annotate Parquet/CSV tables on Spark (a local session or spark-submit)"
DESCRIPTION = """\
deid      de-identify INPUT (a Parquet or CSV file or folder of part files) into
          OUTPUT, a folder of the same format and of the input's shape: the id, the
          patient id as a keyed pseudonym (when there is a patient column), the
          de-identified text and the columns named with --keep-field, in the
          input's column order, then the spans (Parquet:
          array<struct<start,end,type,score>>; CSV: JSON text). Every other column
          is dropped (release policy, docs/deid.md). The same text and spans as
          'notescrub deid' with the same key, model and options.
annotate  write the PHI spans of INPUT's notes (id, logprob, spans with type, phi,
          score and source; never the text), as 'notescrub annotate' finds them.

A patient's notes are processed together (--patient-column; default: the column
'patient' when the table has one). OUTPUT is written to a hidden folder beside
it and renamed when the job has succeeded: a failed job leaves no OUTPUT. Rows
keep the input's order. Needs 'pip install notescrub[spark]' and Java 17+.

Without spark-submit a local Spark runs in this process (--master, default
local[*]); under spark-submit the cluster's session is used (docs/scale.md has a
recipe for YARN, Kubernetes and Databricks).

examples:
  notescrub spark deid notes.parquet -o deid.parquet --key-file site.key --master 'local[2]'
  notescrub spark deid notes_csv/ -o deid_csv/ --format csv --key-file site.key --text-column note
  notescrub spark annotate notes.parquet -o spans.parquet --model rules-en
  spark-submit --master yarn "$(python -c 'import notescrub.cli.main as m; print(m.__file__)')" \\
      spark deid hdfs:///warehouse/notes -o hdfs:///warehouse/notes_deid --format parquet --key-file site.key
"""

log = logging.getLogger("notescrub.spark")


def _common(p: argparse.ArgumentParser) -> None:
    from notescrub.cli.options import add_model_options

    p.add_argument("input", metavar="INPUT", help="Parquet or CSV file or folder (local, hdfs://, s3a://, ...)")
    p.add_argument("-o", "--output", required=True, metavar="OUTPUT", help="output folder (same format as INPUT)")
    p.add_argument("--format", choices=("parquet", "csv"), default=None,
                   help="input and output format (default: from INPUT's name or files)")
    add_model_options(p)
    p.add_argument("--text-column", metavar="NAME", default="text", help="column holding the note text (default: text)")
    p.add_argument("--id-column", metavar="NAME", default="id", help="column holding the note id (default: id)")
    p.add_argument("--patient-column", metavar="NAME", default=None,
                   help="column holding the patient id (default: 'patient' when the table has it); "
                        "a patient's notes are processed together")
    p.add_argument("--keep-field", action="append", metavar="NAME", default=[],
                   help="copy this column to the output verbatim (repeatable; it may hold PHI no model looked at)")
    p.add_argument("--force", action="store_true", help="replace an existing OUTPUT")
    s = p.add_argument_group("Spark")
    s.add_argument("--master", metavar="URL", default=None,
                   help="Spark master for a session started here (default local[*]; leave out under spark-submit)")
    s.add_argument("--conf", action="append", metavar="KEY=VALUE", default=[],
                   help="Spark configuration for a session started here (repeatable)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from notescrub.replace.engine import MODES

    sub = p.add_subparsers(dest="spark_command", metavar="SUBCOMMAND")
    d = sub.add_parser("deid", help="de-identify a table (same output as 'notescrub deid')",
                       description="De-identify a Parquet or CSV table on Spark (see 'notescrub spark --help').")
    _common(d)
    d.add_argument("--mode", choices=MODES, default="surrogate", help="how PHI is replaced (default: surrogate)")
    d.add_argument("--key-file", metavar="K",
                   help="secret surrogate key file (required for surrogate and hash modes; 'notescrub key new PATH')")
    d.add_argument("--types", metavar="T,...", help="replace only these PHI types, or 'hipaa' (as for deid)")
    d.add_argument("--resolve", metavar="POLICY", default=None, help="merge overlapping spans (as for deid)")
    d.add_argument("--date-shift", metavar="LO,HI", default="-365,-30", help="range of the per-patient date shift")
    d.add_argument("--age-bucket", type=int, metavar="N", default=None, help="replace ages <= 89 by N-year ranges")
    d.add_argument("--lang", choices=("en", "es"), default="en", help="surrogate word lists and date order")
    d.add_argument("--skip-bad", action="store_true", help="leave out notes that fail instead of failing the job")
    d.set_defaults(_spark="deid")
    a = sub.add_parser("annotate", help="PHI spans of a table's notes (same spans as 'notescrub annotate')",
                       description="Annotate a Parquet or CSV table on Spark (see 'notescrub spark --help').")
    _common(a)
    a.add_argument("--threshold", type=float, metavar="T", help="marginal decoding: tag tokens with P(O) < T")
    a.add_argument("--labels", metavar="L1,L2", help="only output these model labels")
    a.set_defaults(_spark="annotate")


def _conf(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        k, sep, v = item.partition("=")
        if not sep or not k.strip():
            raise ConfigError(f"--conf needs KEY=VALUE, got {item!r}")
        out[k.strip()] = v
    return out


def _keep(values: list[str]) -> list[str]:
    return [v.strip() for item in values for v in item.split(",") if v.strip()]


def job_error(exc: BaseException) -> ProcessingError:
    """A failed Spark job as one line, without data: notescrub's own message, or the error class.

    >>> str(job_error(RuntimeError("... notescrub.errors.ProcessingError: document 3 (doc#1a2b) could not be ...")))
    'the Spark job failed: document 3 (doc#1a2b) could not be ...'
    >>> "Ruiz" in str(job_error(RuntimeError("ArrowInvalid: Could not convert 'Ruiz' with type str")))
    False
    """
    found = re.findall(r"notescrub\.errors\.\w+: ([^\n]*)", str(exc))
    if found:
        return ProcessingError(f"the Spark job failed: {found[-1].strip()}")
    return ProcessingError(f"the Spark job failed ({type(exc).__name__}; run with -v to see Spark's log, "
                           "which may quote data)")


def run(args: argparse.Namespace) -> int:
    command = getattr(args, "_spark", None)
    if command is None:
        raise ConfigError("missing sub-command: use 'notescrub spark deid' or 'notescrub spark annotate' (see --help)")
    from notescrub.extras import require

    for module in ("pyspark", "pandas", "pyarrow"):
        require("spark", f"notescrub spark {command}", module=module)
    if command == "deid" and args.mode in ("surrogate", "hash") and not args.key_file:
        raise ConfigError(f"notescrub spark deid --mode {args.mode} needs --key-file "
                          "(create one with 'notescrub key new PATH'): every executor must use the same key")
    from notescrub.replace.keys import SurrogateKey
    from notescrub.spark import tables

    key = SurrogateKey.load(args.key_file) if getattr(args, "key_file", None) else None  # before Spark starts
    fmt = tables.table_format(args.input, args.format)
    spark, started = tables.session(args.master, _conf(args.conf), app=f"notescrub spark {command}",
                                    verbose=args.verbose)
    try:
        return _run(spark, args, command, fmt, key)
    finally:
        if started:
            spark.stop()


def _run(spark: Any, args: argparse.Namespace, command: str, fmt: str, key: Any) -> int:
    from pyspark.sql import functions as F

    from notescrub.spark import annotate, deidentify, tables

    out = str(args.output).rstrip("/")
    tables.check_output(spark, out, args.force)
    df = tables.read_table(spark, args.input, fmt)
    patient = args.patient_column
    if patient is None and "patient" in df.columns:
        patient = "patient"
    order = "__notescrub_row"
    df = df.withColumn(order, F.monotonically_increasing_id())  # the input's order, restored before writing
    keep = _keep(args.keep_field) + [order]
    model = {"model": args.model, "preset": args.preset, "recall_bias": args.recall_bias}
    if command == "deid":
        result = deidentify(df, args.text_column, args.id_column, patient, key=key, mode=args.mode,
                            keep_columns=keep, types=args.types, resolve=args.resolve, date_shift=args.date_shift,
                            age_bucket=args.age_bucket, lang=args.lang, skip_bad=args.skip_bad, **model)
    else:
        result = annotate(df, args.text_column, args.id_column, patient, keep_columns=keep,
                          threshold=args.threshold, labels=args.labels, **model)
    from pyspark import StorageLevel

    # sorting samples its input first: keep the results (on the executors' disks) so that the
    # notes are processed once, not once for the sample and again for the output
    result = result.persist(StorageLevel.DISK_ONLY)
    try:
        tables.write_table(result.orderBy(order).drop(order), out, fmt, overwrite=args.force)
    except ConfigError:
        raise
    except Exception as exc:  # noqa: BLE001 - a Spark job failure: its text may quote data; keep notescrub's line only
        raise job_error(exc) from None
    finally:
        result.unpersist()
    log.info("%s: wrote %s (%s)", command, out, fmt)
    return 0
