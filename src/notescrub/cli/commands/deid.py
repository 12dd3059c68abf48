"""``notescrub deid``: detect and replace PHI in a note or a corpus, in the input's own format.

The command only parses arguments; the work is :func:`notescrub.replace.batch.deidentify`.

>>> _shift_range("-365,-30")
(-365, -30)
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
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

examples:
  notescrub deid examples/sample_note.txt
  notescrub deid notes/ -o deid/ --key-file ~/.config/notescrub/keys/site.key
  notescrub deid notes/ -o deid/ --preset max-recall
  notescrub deid corpus.jsonl -o tagged.jsonl --mode tag --types hipaa
  notescrub deid gold_xml/ -o surrogate_xml/ --spans-from-input --key-file k.key
  notescrub deid notes.jsonl -o out.jsonl --model rules-en --keep-annotations
"""

log = logging.getLogger("notescrub.deid")


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
                        "by default nothing but the text, the spans and the id is written")
    p.add_argument("--spans-from-input", action="store_true", help="replace the spans the annotated input carries; no model")
    p.add_argument("--layer", default="gold", help="input layer used by --spans-from-input (default: gold)")
    p.add_argument("--max-chars", type=int, metavar="N", default=None,
                   help="refuse documents longer than N characters (default 20,000,000)")
    p.add_argument("--resolve", metavar="POLICY", default=None,
                   help="merge overlapping spans (longest, highest_score, union) instead of refusing them")
    p.add_argument("--date-shift", metavar="LO,HI", default="-365,-30", help="range of the per-patient date shift in days")
    p.add_argument("--age-bucket", type=int, metavar="N", default=None, help="replace ages <= 89 by N-year ranges")
    p.add_argument("--tag-template", default="[**{type}**]", help="tag template: {type} {label} {category}, or i2b2/xml")
    p.add_argument("--mask-char", default="*", help="mask character (default: *)")
    p.add_argument("--lang", choices=("en", "es"), default="en", help="surrogate word lists and date order (default: en)")
    p.add_argument("--skip-bad", action="store_true", help="leave out documents that fail instead of writing nothing")
    p.add_argument("--force", action="store_true", help="replace an existing non-empty output directory")


def _shift_range(text: str) -> tuple[int, int]:
    try:
        lo, hi = (int(x) for x in text.split(","))
    except ValueError:
        raise ConfigError(f"--date-shift needs two integers LO,HI, got {text!r}") from None
    return lo, hi


def _key(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """``(key, generated)``: the loaded key, or a new one still to be saved."""
    from notescrub.replace.keys import SurrogateKey

    if args.mode not in ("surrogate", "hash"):
        # no surrogates, but a given key still keys the patient pseudonyms and document references
        return (SurrogateKey.load(args.key_file) if args.key_file else None), False
    if args.key_file:
        return SurrogateKey.load(args.key_file), False
    return SurrogateKey.generate(), True


def _save_new_key(key) -> None:  # type: ignore[no-untyped-def]
    from notescrub.replace.keys import default_key_dir

    path = key.save(default_key_dir() / f"notescrub-{key.id}.key")
    print(
        f"notescrub deid: no --key-file given: generated a new secret surrogate key and saved it to {path} "
        "(readable by you only). Pass '--key-file " + str(path) + "' to get the same surrogates in later runs. "
        "Keep it secret and never share it with the de-identified data.",
        file=sys.stderr,
    )


def _pipeline(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from notescrub.cli.options import load_model_from_args

    pipeline = load_model_from_args(args)
    if getattr(args, "max_chars", None):
        pipeline.max_chars = int(args.max_chars)
    return pipeline


def _annotation_records(batch, original_offsets: bool = False) -> list[str]:  # type: ignore[no-untyped-def]
    lines = []
    for doc, res in zip(batch.documents, batch.results):
        spans = []
        for s, o in zip(res.spans, res.original):
            item = {"start": s.start, "end": s.end, "type": s.phi or s.label, "label": s.label,
                    "text": res.text[s.start:s.end]}
            if original_offsets:  # opt-in: they reveal where and how long each PHI mention was
                item.update(original_start=o.start, original_end=o.end)
            spans.append(item)
        lines.append(json.dumps({"id": doc.id, "patient": doc.patient_id, "text": res.text, "spans": spans},
                                ensure_ascii=False))
    return lines


def _write_lines(path: Path, lines: list[str]) -> None:
    from notescrub.io.atomic import atomic_file

    with atomic_file(path) as tmp:
        tmp.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


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


def run(args: argparse.Namespace) -> int:
    from contextlib import nullcontext

    from notescrub.io.atomic import output_lock

    if args.output:
        out = Path(args.output)
        if out.is_dir() and any(out.iterdir()) and not args.force:
            raise ConfigError("output directory exists and is not empty (use --force to replace it)", path=out)
    # one run at a time per output: a second run writing the same output is refused at once
    with output_lock(Path(args.output)) if args.output else nullcontext():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from notescrub.docref import set_ref_key
    from notescrub.io import detect_format, get_format, read_corpus, write_corpus
    from notescrub.replace.batch import deidentify
    from notescrub.replace.engine import Replacer
    from notescrub.replace.keys import SurrogateKey
    from notescrub.replace.release import ReleasePolicy

    fmt = args.format or detect_format(args.input)
    to_stdout = args.output is None
    if to_stdout and not (fmt == "txt" and Path(args.input).is_file()):
        raise ConfigError(_needs_output(Path(args.input), fmt, explicit=bool(args.format)))
    get_format(fmt).require("reading")  # a missing extra (Parquet) stops the run before the model loads
    if not to_stdout:
        get_format(args.out_format or fmt).require("writing")
    key, generated = _key(args)
    if args.keep_original_offsets and not args.keep_annotations:
        raise ConfigError("--keep-original-offsets only applies with --keep-annotations")
    release_key = key if key is not None else SurrogateKey.generate()  # run-only key: pseudonyms of this run
    set_ref_key(release_key.digest("DOC-REF", None, ""))
    release = ReleasePolicy(_keep_fields(args.keep_field), release_key)
    replacer = Replacer(
        args.mode, key=key, types=args.types, layer=args.layer, resolve=args.resolve,
        shift_range=_shift_range(args.date_shift), age_bucket=args.age_bucket, tag_template=args.tag_template,
        mask_char=args.mask_char, locale=args.lang, date_order="DMY" if args.lang == "es" else "MDY",
    )
    pipeline = None if args.spans_from_input else _pipeline(args)
    unreadable: list = []

    def _skip(err) -> None:  # type: ignore[no-untyped-def]
        unreadable.append(err)
        log.warning("skipped unreadable input: %s", err)

    docs = read_corpus(args.input, fmt, skip_bad=args.skip_bad, on_skip=_skip)
    batch = deidentify(docs, replacer, pipeline=pipeline, spans_from_input=args.spans_from_input,
                       input_layer=args.layer, skip_bad=args.skip_bad, release=release)
    if not batch.documents:
        raise ProcessingError("no document could be de-identified; nothing was written")
    for event, n in sorted(batch.report.items()):
        if event.startswith("unknown_label:"):
            log.warning("%d span(s) labelled %s have no surrogate and were replaced by a tag", n, event.split(":", 1)[1])
    if to_stdout:
        out = "\n".join(_annotation_records(batch, args.keep_original_offsets)) + "\n" if args.keep_annotations else batch.documents[0].text
        sys.stdout.write(out)
        sys.stdout.flush()
    elif fmt == "txt" and Path(args.input).is_file() and args.out_format in (None, "txt"):
        _write_text(Path(args.output), batch.documents[0].text)
        n = 1
    else:
        n = write_corpus(batch.documents, args.output, args.out_format or fmt, overwrite=args.force)
        if args.keep_annotations:
            _write_lines(Path(str(Path(args.output)).rstrip("/") + ".spans.jsonl"), _annotation_records(batch, args.keep_original_offsets))
        log.info("wrote %d de-identified document(s) to %s (%s)", n, args.output, args.out_format or fmt)
    if generated:  # only once the output exists: a run that wrote nothing leaves no key behind
        _save_new_key(key)
    replaced = sum(len(r.spans) for r in batch.results)
    skipped = len(batch.skipped) + len(unreadable)
    log.info("replaced %d span(s) in %d document(s) with mode %s%s", replaced, len(batch.results), args.mode,
             f"; skipped {skipped} document(s) or record(s)" if skipped else "")
    return 1 if skipped else 0
