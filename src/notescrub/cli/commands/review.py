"""``notescrub review``: review a model's annotations in the browser, export them, show progress.

>>> import argparse
>>> p = argparse.ArgumentParser(); add_arguments(p)
>>> a = p.parse_args(["notes.jsonl", "--db", "r.sqlite"])
>>> a.host, a.port, a.format, a.stats
('127.0.0.1', 8765, 'jsonl', False)
"""

from __future__ import annotations

import argparse
import getpass
import json
import logging
from pathlib import Path

from notescrub.errors import ConfigError

NAME = "review"
HELP = "review a model's PHI spans in a local browser page; export the reviewed notes; show progress"
DESCRIPTION = """\
Start a review of CORPUS (any format notescrub reads) in the SQLite database DB.
The first run pre-annotates every note with MODEL (default en-default) and stores the
notes, spans, scores, risk and suspects in DB; later runs with the same DB resume the
review (CORPUS may then be left out). Then it serves the review page on
http://127.0.0.1:PORT/ until Ctrl-C.

The queue is ordered by risk (expected PHI tokens the model missed) when the model
gives one, else by a proxy: the sum of (1 - score) over the note's spans plus one per
span scored below 0.8. The page shows each note with its spans coloured by type,
the suspicious leftovers, and the surrogate preview. Keys: j/k next/previous span,
a accept, x reject, t change type, select text + n add a span, [ ] grow/shrink the
left edge, { } the right edge, r mark the note reviewed, u undo (docs/review.md).
Every change is saved at once with the reviewer's name and the time; a change made
on an outdated note is refused with who changed it and when (reload).

Security: binds 127.0.0.1; any other address needs a token (--token-file FILE or
$NOTESCRUB_TOKEN, as for serve). Logs hold methods, paths and statuses, never text.

Export (no server): --export OUT --format jsonl|brat|i2b2 writes the reviewed notes
with their reviewed spans (gold); --export-deid OUT writes their de-identified
release (--key-file K as for deid; --mode, --keep-field too). --stats prints the
progress, per-reviewer counts and agreement (span-level F1) between reviewers.

examples:
  notescrub review notes.jsonl --db review.sqlite --reviewer alice
  notescrub review notes.jsonl --db review.sqlite --model rules-en --port 8800
  notescrub review --db review.sqlite --stats
  notescrub review --db review.sqlite --export reviewed.jsonl --format jsonl
  notescrub review --db review.sqlite --export-deid release/ --format brat --key-file site.key
  notescrub train --recipe en-default --add reviewed.jsonl -o models/en-site
"""

log = logging.getLogger("notescrub.review")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from notescrub.cli.options import add_model_options
    from notescrub.replace.engine import MODES

    p.add_argument("corpus", metavar="CORPUS", nargs="?", help="notes to review (needed on the first run only)")
    p.add_argument("--db", required=True, metavar="DB", help="review database (SQLite; created on the first run)")
    add_model_options(p)
    p.add_argument("--input-format", metavar="F", help="format of CORPUS (default: detected)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1; others need a token)")
    p.add_argument("--port", type=int, default=8765, help="port (default: 8765; 0 picks a free one)")
    p.add_argument("--token-file", metavar="FILE", help="access token file (or set NOTESCRUB_TOKEN)")
    p.add_argument("--reviewer", metavar="NAME", help="reviewer name the page starts with (default: your login)")
    p.add_argument("--export", metavar="OUT", help="write the reviewed notes and spans to OUT and exit")
    p.add_argument("--export-deid", metavar="OUT", help="write the de-identified release of the reviewed notes and exit")
    p.add_argument("--format", default="jsonl", choices=("jsonl", "brat", "i2b2"),
                   help="format of --export/--export-deid (default: jsonl; brat and i2b2 write a folder)")
    p.add_argument("--key-file", metavar="K", help="surrogate key of --export-deid (as for deid)")
    p.add_argument("--mode", choices=MODES, default="surrogate", help="replacement mode of --export-deid")
    p.add_argument("--keep-field", action="append", default=[], metavar="NAME",
                   help="metadata field --export-deid may copy (as for deid)")
    p.add_argument("--stats", action="store_true", help="print progress, counts per reviewer and agreement, and exit")
    p.add_argument("--json", action="store_true", help="with --stats: print JSON")
    p.add_argument("--force", action="store_true", help="replace an existing export folder")


def _exports(args: argparse.Namespace, store) -> int:
    from notescrub.review.export import export_annotations, export_deid
    from notescrub.review.stats import format_stats, review_stats

    if args.stats:
        stats = review_stats(store)
        print(json.dumps(stats, indent=2) if args.json else format_stats(stats))
    if args.export:
        n = export_annotations(store, args.export, args.format, overwrite=args.force)
        log.info("exported %d reviewed note(s) -> %s (%s)", n, args.export, args.format)
    if args.export_deid:
        from notescrub.cli.commands.deid import _keep_fields, _save_new_key
        from notescrub.docref import set_ref_key
        from notescrub.replace.keys import SurrogateKey

        generated = args.key_file is None and args.mode in ("surrogate", "hash")
        key = SurrogateKey.load(args.key_file) if args.key_file else SurrogateKey.generate()
        set_ref_key(key.digest("DOC-REF", None, ""))
        n = export_deid(store, args.export_deid, args.format, key, mode=args.mode,
                        keep_fields=_keep_fields(args.keep_field), overwrite=args.force)
        if generated:
            _save_new_key(key)
        log.info("released %d de-identified note(s) -> %s (%s)", n, args.export_deid, args.format)
    return 0


def run(args: argparse.Namespace) -> int:
    from notescrub.review.store import ReviewStore

    db = Path(args.db)
    offline = args.stats or args.export or args.export_deid
    if offline and not db.is_file():
        raise ConfigError("no such review database", path=db)
    if args.json and not args.stats:
        raise ConfigError("--json goes with --stats")
    store = ReviewStore(db)
    if offline:
        if not store.count():
            raise ConfigError("the review database holds no notes", path=db)
        return _exports(args, store)
    return _serve(args, store)


def _serve(args: argparse.Namespace, store) -> int:
    from notescrub.cli.options import load_model_from_args
    from notescrub.review.importer import prepare_review, preview_key
    from notescrub.review.server import ReviewApp, ReviewConfig, serve_review
    from notescrub.serve.config import load_token

    config = ReviewConfig(host=args.host, port=args.port, token=load_token(args.token_file),
                          reviewer=args.reviewer or _login())
    config.check()  # before minutes of pre-annotation
    model = args.model or "en-default"
    n = prepare_review(store, args.corpus, args.input_format, lambda: load_model_from_args(args), model)
    if n:
        log.info("imported %d note(s) pre-annotated by %s into %s", n, model, args.db)
    else:
        log.info("resuming the review in %s (%d notes)", args.db, store.count())
    serve_review(ReviewApp(store, preview_key(store), config))
    return 0


def _login() -> str:
    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no login name in this environment: a neutral default
        return "reviewer"
