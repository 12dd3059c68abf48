"""``notescrub serve``: the HTTP service (needs ``pip install notescrub[serve]``).

>>> import argparse
>>> p = argparse.ArgumentParser(); add_arguments(p)
>>> a = p.parse_args([])
>>> a.host, a.port, a.queue, a.max_body
('127.0.0.1', 8000, 256, 5000000)
"""

from __future__ import annotations

import argparse
import logging
import os

from notescrub.errors import ConfigError

NAME = "serve"
HELP = "run the HTTP service: /v1/deid, /v1/annotate and Presidio-compatible /analyze, /anonymize"
DESCRIPTION = """\
Serve MODEL over HTTP (FastAPI + uvicorn; install with: pip install 'notescrub[serve]').

Endpoints: POST /v1/deid and /v1/annotate (one note or a batch), GET /v1/models,
GET /v1/stats, GET /health, GET /ready; Presidio-compatible POST /analyze and
POST /anonymize (plus GET /supportedentities, /recognizers, /anonymizers); the
OpenAPI description at /docs and /openapi.json. See docs/serve.md.

Security: binds 127.0.0.1 by default. Binding any other address requires a bearer
token (--token-file FILE or $NOTESCRUB_TOKEN, at least 16 characters); clients send
'Authorization: Bearer TOKEN' and get 401 otherwise. Bodies over --max-body get 413,
requests over --timeout get 504, and when every worker is busy and --queue requests
wait, new requests get 503 at once. Errors are JSON and never quote note text; access
logs hold no bodies. The surrogate key (--key-file, or $NOTESCRUB_KEY_FILE) is loaded
at start and never returned or logged; without one, a random key is made in memory
(surrogates then stay consistent only until the service stops).

examples:
  notescrub serve
  notescrub serve --model rules-en --workers 2 --port 8080
  NOTESCRUB_TOKEN=$(cat token) notescrub serve --host 0.0.0.0 --key-file site.key
  curl -s localhost:8000/v1/deid -H 'content-type: application/json' -d '{"text": "Seen by Dr. Ruiz.", "mode": "tag"}'
"""

log = logging.getLogger("notescrub.serve")


def _default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1; others need a token)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    p.add_argument("--model", default="en-default", metavar="M", help="packaged model name or directory (default: en-default)")
    p.add_argument("--preset", default=None, metavar="NAME", help="default operating point (requests may pick another)")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="worker processes, each loading the model once (default: CPU count, at most 8)")
    p.add_argument("--queue", type=int, default=256, metavar="N",
                   help="requests that may wait for a worker; beyond workers+N, answer 503 (default: 256)")
    p.add_argument("--max-body", type=int, default=5_000_000, metavar="BYTES", help="request body cap (default: 5000000 -> 413)")
    p.add_argument("--max-notes", type=int, default=100, metavar="N", help="notes per batch request (default: 100)")
    p.add_argument("--timeout", type=float, default=30.0, metavar="S", help="per-request time limit in seconds (default: 30 -> 504)")
    p.add_argument("--token-file", metavar="FILE", help="bearer token file (or set NOTESCRUB_TOKEN)")
    p.add_argument("--key-file", metavar="K", help="surrogate key file (or set NOTESCRUB_KEY_FILE)")


def run(args: argparse.Namespace) -> int:
    try:
        import fastapi  # noqa: F401
        import presidio_anonymizer  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise ConfigError(f"the HTTP service needs the 'serve' extra ({exc.name} is not installed): "
                          "pip install 'notescrub[serve]'") from None
    from notescrub.replace.keys import SurrogateKey
    from notescrub.serve.config import ServeConfig, load_token
    from notescrub.serve.server import serve

    key_file = args.key_file or os.environ.get("NOTESCRUB_KEY_FILE")
    key = SurrogateKey.load(key_file) if key_file else SurrogateKey.generate()
    config = ServeConfig(
        host=args.host, port=args.port, model=args.model, preset=args.preset,
        workers=args.workers or _default_workers(), queue=args.queue, max_body=args.max_body,
        max_notes=args.max_notes, timeout=args.timeout, token=load_token(args.token_file), key=key,
        key_source="loaded from a key file" if key_file else "generated in memory (lost at exit; give --key-file)",
    )
    config.check()
    serve(config)
    return 0
