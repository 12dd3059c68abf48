"""``notescrub annotate``: detect PHI spans with a model and write them as JSONL."""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from notescrub.errors import ConfigError, LabelError

NAME = "annotate"
HELP = "find PHI spans with a model; write {id, spans} as JSONL or a table (text is never written)"
DESCRIPTION = """\
Run MODEL (--model: a packaged model name such as es-meddocan, or a model directory;
default en-default, as for deid) over
INPUT (any readable format: JSONL {"id","text","patient"?}, i2b2 XML, brat, ...)
and write one JSON object per document to OUT.jsonl:

  {"id": ..., "logprob": ..., "spans": [{"start", "end", "type", "phi", "score", "source"}],
   "risk": ..., "suspects": [{"start", "end", "score", "type"}], "expected_f": ...}

"type" is the model's own label, "phi" the canonical i2b2-2014 subtype (null when
the label has none), "score" the span probability. "logprob" is the CRF's
sequence log-probability of the document (rank documents for review by it,
lowest first). Spans already annotated in INPUT are ignored. The output is
written atomically; if any document fails, nothing is written.

CRF models take --recall-bias B (as for deid: B > 0 lowers the O label's score by
B, so more recall, e.g. 1.0) or --threshold T (tag every token whose P(O) < T).
Hybrid models (kind "hybrid": en-default, models trained with --recipe manchester)
offer operating points: --preset NAME (the list is under --preset below; see
docs/hybrid.md). Models with
a patient-level second pass read the notes of one patient together (by the
"patient" field, or --patient-column); the output keeps the input's order.
--explain adds, per span, the strongest features of its first token for the label
it got (features made of the note's words are masked, so no text leaks); for the
stacked CRF of en-default they include the feeder detections (stk=..., stksrc=...).
Spans found by a component that is not a CRF (e.g. en-default's patient-level
second pass) get an empty list, counted in one warning.

"risk" is the expected number of PHI tokens the model left untagged in the note
(review the riskiest notes first) and "suspects" the --suspects K (default 20)
untagged tokens most likely to be PHI, best first ("score": calibrated probability,
"type": the CRF's likeliest label, null without a CRF); offsets point into the input
text. Packaged models ship a calibration (docs/review-risk.md); for another model
pass --risk-calibration FILE, or both fields are left out with a warning. They
cover the whole output, also with --labels. "expected_f" (when the calibration has
a tagged-token part, as en-default's) is the note's expected binary-token F, false
alarms included: lowest first finds the notes whose annotation is probably worst.
CSV/Parquet outputs carry risk and suspects only.

examples:
  notescrub annotate notes.jsonl -o spans.jsonl                  # en-default
  notescrub annotate notes.jsonl -o spans.jsonl --preset max-recall --explain
  notescrub annotate meddocan/dev/brat -o dev.jsonl --model models/carafe --recall-bias 1.5
  notescrub annotate notes.jsonl -o spans.jsonl --model es-meddocan --threshold 0.9 --explain
  notescrub annotate notes.jsonl -o spans.jsonl --model models/manchester --preset recall
  notescrub annotate notes.csv -o spans.jsonl --text-column note --patient-column mrn --jobs auto

-o OUT.csv, OUT.tsv or OUT.parquet writes the same as a table, one row per note:
the id (under the input table's id column name, e.g. --id-column note_id, and from
Parquet with its integer type), logprob, spans and, with a risk calibration, risk
and suspects (CSV: JSON text; Parquet: lists of structs, "explain" as JSON text).

--jobs, --resume and the table options work as for deid (docs/scale.md).
"""

log = logging.getLogger(__name__)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", metavar="INPUT", help="notes to annotate (file or folder)")
    p.add_argument("-o", "--output", required=True, metavar="OUT.jsonl",
                   help="JSONL file to write; a .csv, .tsv or .parquet name writes a table (see above)")
    from notescrub.cli.options import add_model_options

    add_model_options(p)
    p.add_argument("--format", metavar="F", help="input format (default: detected)")
    p.add_argument("--force", action="store_true",
                   help="discard the run folder an interrupted run left beside the output and start again")
    p.add_argument("--threshold", type=float, metavar="T", help="marginal decoding: tag tokens with P(O) < T")
    p.add_argument("--labels", metavar="L1,L2", help="only output these model labels")
    p.add_argument("--explain", action="store_true", help="add the strongest (non-lexical) features of each span")
    add_risk_options(p)
    from notescrub.cli.options import add_batch_options

    add_batch_options(p)


def add_risk_options(p: argparse.ArgumentParser) -> None:
    """``--risk-calibration FILE`` and ``--suspects K`` (shared with deid)."""
    p.add_argument("--risk-calibration", metavar="FILE", default=None,
                   help="risk calibration JSON for a model that ships none (docs/review-risk.md)")
    p.add_argument("--suspects", type=int, metavar="K", default=None,
                   help="how many suspicious untagged tokens to list per note (default 20)")


def risk_scorer(args: argparse.Namespace, pipeline: Any, required: bool) -> Any:
    """The ``doc -> NoteRisk`` function of the run; ``None`` (with a warning) when the model has
    no calibration and ``required`` is false."""
    from notescrub.risk import DEFAULT_TOP_K, Calibration, scorer

    top_k = DEFAULT_TOP_K if args.suspects is None else args.suspects
    if top_k < 0:
        raise ConfigError(f"--suspects must be >= 0, got {top_k}")
    cal = Calibration.load(args.risk_calibration) if args.risk_calibration else None
    try:
        return scorer(pipeline, cal, top_k)
    except ConfigError as exc:
        if required:
            raise ConfigError(f"{exc.reason}; pass --risk-calibration FILE") from None
        log.warning("%s: risk and suspects are left out (pass --risk-calibration FILE)", exc.reason)
        return None


def model_labels(pipeline: Any) -> set[str]:
    labels: set[str] = set()
    from notescrub.detect.base import inner_detector

    for d in pipeline.detectors:
        d = inner_detector(d)
        t = getattr(d, "second_", d)
        labels.update(getattr(t, "types_", ()))
    return labels


def record(doc: Any, spans: Iterable[Any], explain: Any = None) -> dict[str, Any]:
    """The output object of one annotated document."""
    out_spans = []
    for s in spans:
        item = {"start": s.start, "end": s.end, "type": s.label, "phi": s.phi, "score": round(float(s.score), 6),
                "source": s.source}
        if explain is not None:
            item["explain"] = explain(doc, s)
        out_spans.append(item)
    rec: dict[str, Any] = {"id": doc.id}
    conf = [v for v in doc.metadata.values() if isinstance(v, dict) and "logprob" in v]
    if conf:
        rec["logprob"] = conf[-1]["logprob"]
    rec["spans"] = out_spans
    return rec


def build_task(args: argparse.Namespace, pipeline: Any = None) -> Any:
    """The per-group task of this command (also what a worker builds where it cannot be forked)."""
    from notescrub.cli.options import load_model_from_args
    from notescrub.detect.crf.explain import explainable
    from notescrub.scale.work import AnnotateTask

    if pipeline is None:
        pipeline = load_model_from_args(args)
    keep: frozenset[str] | None = None
    if args.labels:
        keep = frozenset(x.strip() for x in args.labels.split(",") if x.strip())
        known = model_labels(pipeline)
        unknown = keep - known
        if known and unknown:
            raise LabelError(f"--labels names labels the model does not produce: {sorted(unknown)}; "
                             f"it knows {sorted(known)}")
    if args.explain and not set(explainable(pipeline)):
        raise ConfigError(f"--explain: model {args.model or 'en-default'} has no CRF, so its spans cannot be "
                          "explained (rules and dictionaries have no feature weights); leave out --explain")
    return AnnotateTask(pipeline, record, keep=keep, explain=args.explain, skip_bad=False,
                        risk=risk_scorer(args, pipeline, required=False))


def output_table(args: argparse.Namespace, fmt: str, columns: dict[str, Any], task: Any) -> Any:
    """The table ``-o`` names (``.csv``, ``.tsv``, ``.parquet``), keeping a table input's id column
    name and (Parquet) integer type; ``None`` for JSON lines."""
    from notescrub.io.annotation_table import TABLE_SUFFIXES, AnnotationTable

    kind = TABLE_SUFFIXES.get(Path(args.output).suffix.lower())
    if kind is None:
        return None
    from notescrub.io import get_format, input_files

    get_format(kind).require("writing")
    id_column, id_type = columns.get("id_column", "id"), None
    if fmt == "parquet":
        from notescrub.io.table_shape import input_columns

        id_type = dict(input_columns(input_files(args.input, fmt)[0], fmt)).get(id_column)
    return AnnotationTable(id_column, id_type, risk=task.risk is not None, explain=bool(args.explain),
                           output=args.output)


def run(args: argparse.Namespace) -> int:
    from functools import partial

    from notescrub.io.atomic import output_lock
    from notescrub.scale.workdir import RunFolder

    out = Path(args.output)
    with output_lock(out):  # one run at a time per output
        RunFolder.for_output(out).check(resume=args.resume, discard=args.force)
        return _run(args, partial(build_task, args))


def _run(args: argparse.Namespace, builder: Any) -> int:
    from notescrub.cli import batch as cli_batch
    from notescrub.cli.options import table_options
    from notescrub.io import detect_format, read_corpus
    from notescrub.io.atomic import atomic_file

    fmt = args.format or detect_format(args.input)
    columns: dict[str, Any] = table_options(args, fmt)
    task = builder()
    table = output_table(args, fmt, columns, task)

    def read(report: bool):
        return read_corpus(args.input, fmt, **columns)

    folder = cli_batch.run_folder(args)
    parts = cli_batch.fingerprint_parts(NAME, args, fmt, None)
    try:
        batch = cli_batch.run(NAME, args, task, read, folder, parts, by_patient=task.pipeline.patient_level,
                              builder=builder)
        if table is None:
            with atomic_file(Path(args.output)) as tmp, open(tmp, "w", encoding="utf-8") as fh:
                fh.writelines(line + "\n" for _, line in batch.records())
        else:
            with atomic_file(Path(args.output)) as tmp:
                table.write((json.loads(line) for _, line in batch.records()), tmp)
    except BaseException as exc:
        cli_batch.after_failure(folder, exc)
        raise
    folder.remove()
    unexplained = {k.split(":", 1)[1]: v for k, v in batch.report.items() if k.startswith("unexplained:")}
    unmapped = sorted(k.split(":", 1)[1] for k in batch.report if k.startswith("unmapped:"))
    if unexplained:
        log.warning("--explain: %d span(s) found by components that are not CRFs and cannot explain them (%s); "
                    "their explain lists are empty", sum(unexplained.values()),
                    ", ".join(f"{k} {v}" for k, v in sorted(unexplained.items())))
    if unmapped:
        log.warning("labels without an i2b2-2014 subtype (phi is null): %s", ", ".join(unmapped))
    log.info("annotated %d documents -> %s", batch.written, args.output)
    return 0
