"""``notescrub deid``: detect and replace PHI in a note or a corpus, in the input's own format.

The command only parses arguments; the work is :func:`notescrub.replace.batch.deidentify`.

>>> _shift_range("-365,-30")
(-365, -30)
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Iterable
from pathlib import Path

from notescrub.errors import ConfigError, ProcessingError

NAME = "deid"
HELP = "de-identify notes: detect PHI with a model (or take annotated spans) and replace it"
DESCRIPTION = """\
De-identify INPUT (any format notescrub reads: plain .txt notes, i2b2 XML, brat,
inline PHI tags, JSONL, CSV, Parquet) and write OUTPUT in the same format. Formats
that carry annotations (i2b2 XML, brat, JSONL, ...) get the PHI tags re-located onto
the new text, so the output is itself an annotated corpus. With a single plain-text
note and no -o, the de-identified note is printed.

Modes: surrogate (default: realistic, consistent replacements; dates shifted by one
secret per-patient offset), tag ([**DOCTOR**]), mask (***, same length), redact
(removed), hash (keyed pseudonym). Surrogates and hashes come from a secret key:
create one with 'notescrub key new PATH' and pass --key-file PATH (same surrogates in
every run); without --key-file a new key is generated and saved once the output is
written (a run that writes nothing saves no key), and its path is printed on stderr.
Key files are never printed.

Fail closed: a document whose detection or replacement fails is never written; with
several documents nothing is written unless --skip-bad leaves the failing ones out.

Review risk (opt-in, docs/review-risk.md): --risk also writes OUTPUT.risk.jsonl, one
{"id", "risk", "suspects": [{"start", "end", "score", "type"}], "expected_f"?} per note:
"risk" is the expected number of PHI tokens the model missed, "suspects" the untagged
tokens most likely to be PHI (--suspects K, default 20), with offsets into the
DE-IDENTIFIED output text (never the original), "expected_f" the note's expected
binary-token F where the calibration gives one. Without --risk the output is exactly as before.

Tables (CSV, TSV, Parquet) keep their shape: the id, patient (a keyed pseudonym
unless --keep-field patient) and text (de-identified) columns under their own names,
each --keep-field column with its own name and type, in the input's column order,
plus a spans column (Parquet list<struct>, CSV JSON). Every other column is dropped
(the release policy, docs/deid.md); an input without an id column gets one, first.

Large corpora (docs/scale.md): --jobs N (or auto) runs N worker processes, with the
same output bytes for every N, in input order; a patient's notes are processed
together. Finished work is kept in .notescrub-run.OUTPUT/ beside the output until
the output is written: after a crash (kill -9, power cut, full disk) the same
command with --resume (and --key-file) finishes only what is missing.

examples:
  notescrub deid examples/sample_note.txt
  notescrub deid notes/ -o deid/ --key-file ~/.config/notescrub/keys/site.key
  notescrub deid notes/ -o deid/ --preset max-recall
  notescrub deid corpus.jsonl -o tagged.jsonl --mode tag --types hipaa
  notescrub deid gold_xml/ -o surrogate_xml/ --spans-from-input --key-file k.key
  notescrub deid notes.jsonl -o out.jsonl --model rules-en --keep-annotations
  notescrub deid notes.jsonl -o out.jsonl --key-file k.key --risk
  notescrub deid notes.parquet -o deid.parquet --key-file k.key --jobs auto --text-column note_text
  notescrub deid notes.parquet -o deid.parquet --key-file k.key --jobs auto --text-column note_text --resume
"""

log = logging.getLogger("notescrub.deid")

#: formats whose output keeps the input table's shape
TABLES = ("csv", "parquet")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from notescrub.cli.options import add_model_options
    from notescrub.replace.engine import MODES

    p.add_argument("input", metavar="INPUT", help="note file, corpus file or directory")
    p.add_argument("-o", "--output", metavar="OUTPUT", help="output file or directory (default: stdout for one .txt note)")
    add_model_options(p)
    p.add_argument("--mode", choices=MODES, default="surrogate", help="how PHI is replaced (default: surrogate)")
    p.add_argument("--key-file", metavar="K", help="secret surrogate key file (create one with 'notescrub key new PATH')")
    p.add_argument("--types", metavar="T,...", help="replace only these PHI types (canonical or native labels), or 'hipaa'")
    p.add_argument("--format", metavar="F", help="input format (default: detected); the output uses the same format")
    p.add_argument("--to", dest="out_format", metavar="F", help="output format, when it must differ from the input's")
    p.add_argument("--keep-annotations", action="store_true",
                   help="also write the replaced spans located in the new text as JSONL "
                        "({id, text, spans} in input order) to OUTPUT.spans.jsonl (stdout for a printed note)")
    p.add_argument("--keep-original-offsets", action="store_true",
                   help="with --keep-annotations, also write each span's original_start/original_end "
                        "(they reveal the length and place of every PHI mention in the original note)")
    p.add_argument("--keep-field", action="append", metavar="NAME", default=[],
                   help="copy this metadata field (JSONL meta key, CSV/Parquet column, 'brat_other') to the output "
                        "verbatim; 'patient' keeps patient ids instead of keyed pseudonyms. Repeatable; "
                        "by default nothing but the text, the spans and the id is written (a table keeps its "
                        "id, patient, text and kept columns, in its order and types; other columns are dropped)")
    p.add_argument("--risk", action="store_true",
                   help="also write OUTPUT.risk.jsonl: per note the risk and the suspicious untagged tokens, "
                        "offsets into the de-identified text (needs -o and a model)")
    from notescrub.cli.commands.annotate import add_risk_options

    add_risk_options(p)
    p.add_argument("--spans-from-input", action="store_true", help="replace the spans the annotated input carries; no model")
    p.add_argument("--layer", default="gold", help="input layer used by --spans-from-input (default: gold)")
    p.add_argument("--max-chars", type=int, metavar="N", default=None,
                   help="refuse documents longer than N characters (default 20,000,000)")
    p.add_argument("--resolve", metavar="POLICY", default=None,
                   help="merge overlapping spans (longest, highest_score, union) instead of refusing them")
    p.add_argument("--date-shift", metavar="LO,HI", default="-365,-30", help="range of the per-patient date shift in days")
    p.add_argument("--age-bucket", type=int, metavar="N", default=None, help="replace ages <= 89 by N-year ranges")
    p.add_argument("--real-phone-numbers", action="store_true",
                   help="surrogate phone/fax numbers from any valid exchange instead of the fictional 555-01xx range")
    p.add_argument("--tag-template", default="[**{type}**]", help="tag template: {type} {label} {category}, or i2b2/xml")
    p.add_argument("--mask-char", default="*", help="mask character (default: *)")
    p.add_argument("--lang", choices=("en", "es"), default="en", help="surrogate word lists and date order (default: en)")
    p.add_argument("--skip-bad", action="store_true", help="leave out documents that fail instead of writing nothing")
    p.add_argument("--force", action="store_true",
                   help="replace an existing non-empty output directory, and discard the run folder an "
                        "interrupted run left beside the output")
    from notescrub.cli.options import add_batch_options

    add_batch_options(p)


def _shift_range(text: str) -> tuple[int, int]:
    try:
        lo, hi = (int(x) for x in text.split(","))
    except ValueError:
        raise ConfigError(f"--date-shift needs two integers LO,HI, got {text!r}") from None
    return lo, hi


def _key(args: argparse.Namespace):
    """``(key, generated)``: the loaded key, or a new one still to be saved."""
    from notescrub.replace.keys import SurrogateKey

    if args.mode not in ("surrogate", "hash"):
        # no surrogates, but a given key still keys the patient pseudonyms and document references
        return (SurrogateKey.load(args.key_file) if args.key_file else None), False
    if args.key_file:
        return SurrogateKey.load(args.key_file), False
    return SurrogateKey.generate(), True


def _save_new_key(key) -> None:
    from notescrub.replace.keys import default_key_dir

    path = key.save(default_key_dir() / f"notescrub-{key.id}.key")
    print(
        f"notescrub deid: no --key-file given: generated a new secret surrogate key and saved it to {path} "
        "(readable by you only). Pass '--key-file " + str(path) + "' to get the same surrogates in later runs. "
        "Keep it secret and never share it with the de-identified data.",
        file=sys.stderr,
    )


def _pipeline(args: argparse.Namespace):
    from notescrub.cli.options import load_model_from_args

    pipeline = load_model_from_args(args)
    if getattr(args, "max_chars", None):
        pipeline.max_chars = int(args.max_chars)
    return pipeline


def _write_lines(path: Path, lines: Iterable[str]) -> None:
    from notescrub.io.atomic import atomic_file

    with atomic_file(path) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        fh.writelines(line + "\n" for line in lines)


def _write_text(path: Path, text: str) -> None:
    from notescrub.io.atomic import atomic_file

    if path.is_dir():
        path = path / "note.txt"
    with atomic_file(path) as tmp:
        tmp.write_text(text, encoding="utf-8", newline="")


def _needs_output(path: Path, fmt: str, explicit: bool) -> str:
    """Why ``-o`` is needed here: what was detected and how to get the note printed instead."""
    from notescrub.io.detect import detection_reason

    base = "-o OUTPUT is required unless INPUT is a single plain-text note"
    if explicit or not path.exists():
        return f"{base} (INPUT is read as {fmt})"
    why = detection_reason(path)
    if path.is_file() and path.suffix.lower() == ".txt":
        return (f"{base}, and {why}: pass -o OUTPUT to write it with its annotations, "
                "or --format txt to print it as a plain note")
    return f"{base}; {why}"


def _keep_fields(values: list[str]) -> set[str]:
    """``--keep-field a --keep-field b,c`` -> ``{"a", "b", "c"}``.

    >>> sorted(_keep_fields(["site", "note_type, patient"]))
    ['note_type', 'patient', 'site']
    """
    out = {v.strip() for item in values for v in item.split(",") if v.strip()}
    for name in out:
        if name in ("id", "text", "spans"):
            raise ConfigError(f"--keep-field {name}: the {name} is always written")
    return out


def _replacer(args: argparse.Namespace, key):
    from notescrub.replace.engine import Replacer

    return Replacer(
        args.mode, key=key, types=args.types, layer=args.layer, resolve=args.resolve,
        shift_range=_shift_range(args.date_shift), age_bucket=args.age_bucket, tag_template=args.tag_template,
        mask_char=args.mask_char, locale=args.lang, date_order="DMY" if args.lang == "es" else "MDY",
        fictional_phones=not args.real_phone_numbers,
    )


def build_task(args: argparse.Namespace, key, release_key, pipeline=None):
    """The per-group task of this command (also what a worker builds where it cannot be forked)."""
    from notescrub.replace.release import ReleasePolicy
    from notescrub.scale.work import DeidTask

    if pipeline is None and not args.spans_from_input:
        pipeline = _pipeline(args)
    risk = None
    if args.risk:
        from notescrub.cli.commands.annotate import risk_scorer

        risk = risk_scorer(args, pipeline, required=True)
    return DeidTask(_replacer(args, key), ReleasePolicy(_keep_fields(args.keep_field), release_key),
                    pipeline=pipeline, spans_from_input=args.spans_from_input, input_layer=args.layer,
                    skip_bad=args.skip_bad, annotations=args.keep_annotations,
                    original_offsets=args.keep_original_offsets, risk=risk)


def run(args: argparse.Namespace) -> int:
    from contextlib import nullcontext

    from notescrub.io.atomic import output_lock
    from notescrub.scale.workdir import RunFolder

    if args.output:
        out = Path(args.output)
        if out.is_dir() and any(out.iterdir()) and not args.force:
            raise ConfigError("output directory exists and is not empty (use --force to replace it)", path=out)
    if args.resume and not args.output:
        raise ConfigError("--resume needs -o OUTPUT (its run folder is kept beside the output)")
    if args.resume and not args.key_file:
        raise ConfigError("--resume needs --key-file: without one every run makes a new key (new surrogates and "
                          "patient pseudonyms), so an interrupted run cannot be finished consistently")
    # one run at a time per output: a second run writing the same output is refused at once
    with output_lock(Path(args.output)) if args.output else nullcontext():
        if args.output:  # before loading a model: a killed run's folder needs --resume (or --force)
            RunFolder.for_output(Path(str(args.output).rstrip("/"))).check(resume=args.resume, discard=args.force)
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from functools import partial

    from notescrub.cli import batch as cli_batch
    from notescrub.cli.options import table_options
    from notescrub.docref import set_ref_key
    from notescrub.io import detect_format, get_format, read_corpus
    from notescrub.replace.keys import SurrogateKey

    fmt = args.format or detect_format(args.input)
    to_stdout = args.output is None
    if to_stdout and not (fmt == "txt" and Path(args.input).is_file()):
        raise ConfigError(_needs_output(Path(args.input), fmt, explicit=bool(args.format)))
    columns = table_options(args, fmt)
    get_format(fmt).require("reading")  # a missing extra (Parquet) stops the run before the model loads
    if not to_stdout:
        get_format(args.out_format or fmt).require("writing")
    key, generated = _key(args)
    if args.keep_original_offsets and not args.keep_annotations:
        raise ConfigError("--keep-original-offsets only applies with --keep-annotations")
    if args.risk and (to_stdout or args.spans_from_input):
        raise ConfigError("--risk needs -o OUTPUT and a model (not --spans-from-input): it writes OUTPUT.risk.jsonl "
                          "from the model's own scores")
    if not args.risk and (args.risk_calibration or args.suspects is not None):
        raise ConfigError("--risk-calibration and --suspects only apply with --risk")
    shape = None if to_stdout else table_shape(args, fmt, columns)  # before the model: a bad --keep-field stops here
    release_key = key if key is not None else SurrogateKey.generate()  # run-only key: pseudonyms of this run
    set_ref_key(release_key.digest("DOC-REF", None, ""))
    task = build_task(args, key, release_key)
    unreadable: list = []

    def _skip(err) -> None:
        unreadable.append(err)
        log.warning("skipped unreadable input: %s", err)

    def read(report: bool):
        return read_corpus(args.input, fmt, skip_bad=args.skip_bad, on_skip=_skip if report else (lambda e: None),
                           **columns)

    folder = cli_batch.run_folder(args, to_stdout)
    parts = cli_batch.fingerprint_parts(NAME, args, fmt, key.id if key is not None and args.key_file else None)
    by_patient = bool(getattr(task.pipeline, "patient_level", False))
    try:
        batch = cli_batch.run(NAME, args, task, read, folder, parts, by_patient=by_patient,
                              builder=partial(build_task, args, key, release_key))
    except BaseException as exc:
        cli_batch.after_failure(folder, exc)
        raise
    try:
        _write_outputs(args, fmt, batch, to_stdout, shape)
    except BaseException as exc:
        cli_batch.after_failure(folder, exc)
        raise
    folder.remove()
    if generated:  # only once the output exists: a run that wrote nothing leaves no key behind
        _save_new_key(key)
    replaced = batch.report.get("spans", 0)
    skipped = len(batch.skipped) + len(unreadable)
    log.info("replaced %d span(s) in %d document(s) with mode %s%s", replaced, batch.written, args.mode,
             f"; skipped {skipped} document(s) or record(s)" if skipped else "")
    return 1 if skipped else 0


def table_shape(args: argparse.Namespace, fmt: str, columns: dict):
    """The output columns of a table written from a table (``None`` for any other input or output):
    the input's id, patient, text and ``--keep-field`` columns in its order, plus ``spans``."""
    from notescrub.io import input_files
    from notescrub.io.table_shape import TableShape

    out_fmt = args.out_format or fmt
    if fmt not in TABLES or out_fmt not in TABLES:
        return None
    shape = TableShape.of_input(input_files(args.input, fmt), fmt, keep_fields=_keep_fields(args.keep_field),
                                **columns)
    if shape.dropped:
        log.info("dropping %d input column(s) not allow-listed with --keep-field: %s (release policy, docs/deid.md)",
                 len(shape.dropped), ", ".join(shape.dropped))
    return shape


def _write_outputs(args: argparse.Namespace, fmt: str, batch, to_stdout: bool, shape=None) -> None:
    from notescrub.io import write_corpus

    if not batch.written:
        batch.folder.remove()
        raise ProcessingError("no document could be de-identified; nothing was written")
    for event, n in sorted(batch.report.items()):
        if event.startswith("unknown_label:"):
            log.warning("%d span(s) labelled %s have no surrogate and were replaced by a tag", n, event.split(":", 1)[1])
    docs = (payload[0] for _, payload in batch.records())
    lines = (payload[1] for _, payload in batch.records())
    if to_stdout:
        out = "".join(line + "\n" for line in lines) if args.keep_annotations else next(docs).text
        sys.stdout.write(out)
        sys.stdout.flush()
        return
    if fmt == "txt" and Path(args.input).is_file() and args.out_format in (None, "txt"):
        _write_text(Path(args.output), next(docs).text)
        n = 1
    else:
        options = {} if shape is None else {"shape": shape}
        n = write_corpus(docs, args.output, args.out_format or fmt, overwrite=args.force, **options)
    if args.keep_annotations:
        _write_lines(Path(str(Path(args.output)).rstrip("/") + ".spans.jsonl"), lines)
    if args.risk:
        _write_lines(Path(str(Path(args.output)).rstrip("/") + ".risk.jsonl"),
                     (payload[2] for _, payload in batch.records()))
    log.info("wrote %d de-identified document(s) to %s (%s)", n, args.output, args.out_format or fmt)
