"""The review page and its JSON API, served by the standard library's threaded HTTP server.

Why not FastAPI: the review tool is one reviewer's (or a few reviewers') local page
with six routes and no streaming or worker pool, so the standard library serves it
and ``notescrub review`` needs no extra. The security rules are those of
``notescrub serve`` and reuse its code (:mod:`notescrub.serve.config`, which imports
no web framework): loopback only unless a token is set, the token compared in
constant time, bodies capped. On top of them, because a browser talks to it:

* without a token, requests whose ``Host`` is not a loopback name are refused (403;
  DNS rebinding), and POSTs must be ``application/json`` with no foreign ``Origin``
  (a web page elsewhere cannot post a form or a simple request to the tool);
* with a token, open ``/?token=TOKEN`` once: the page stores it in an HttpOnly,
  SameSite=Strict cookie and redirects to ``/`` (the token leaves the address bar);
  scripts may send ``Authorization: Bearer TOKEN`` instead;
* access logs name the method, the path without its query and the status; errors
  name the exception type; neither ever holds note text, spans or the token;
* responses are ``no-store`` with a Content-Security-Policy allowing only the
  page's own script and style (no inline script, nothing from elsewhere).

Routes: ``GET /`` (the page), ``GET /static/{app.js,app.css}``, ``GET /health``,
``GET /api/session``, ``GET /api/queue``, ``GET /api/notes/N`` and
``POST /api/notes/N/edit`` (``{"version", "reviewer", "action", "args"}`` -> the note,
409 on a stale version, 400 on an edit that does not apply).

>>> app = ReviewApp.__new__(ReviewApp)
>>> ReviewApp._host_ok("127.0.0.1:8765"), ReviewApp._host_ok("evil.example:8765"), ReviewApp._host_ok("[::1]:80")
(True, False, True)
"""

from __future__ import annotations

import json
import logging
import re
import sys
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from notescrub.errors import NotescrubError
from notescrub.replace.keys import SurrogateKey
from notescrub.review.edits import EditError
from notescrub.review.preview import preview
from notescrub.review.store import EditConflict, ReviewStore
from notescrub.serve.config import ServeConfig, is_loopback, token_matches
from notescrub.taxonomy import category_of, subtypes

__all__ = ["ReviewApp", "ReviewConfig", "make_server", "serve_review"]

log = logging.getLogger("notescrub.review")

_COOKIE = "notescrub_review"
_STATIC = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8",
           "index.html": "text/html; charset=utf-8"}
_NOTE = re.compile(r"^/api/notes/(\d{1,9})(/edit)?$")
_SECURITY_HEADERS = [
    ("Cache-Control", "no-store"),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
    ("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                                "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
]

Response = tuple[int, list[tuple[str, str]], bytes]


@dataclass
class ReviewConfig:
    """Where and how the page is served (``notescrub review --help``)."""

    host: str = "127.0.0.1"
    port: int = 8765
    token: str | None = field(default=None, repr=False)
    reviewer: str = "reviewer"
    max_body: int = 1_000_000

    def check(self) -> None:
        """The service's rules (:meth:`notescrub.serve.config.ServeConfig.check`): a token off loopback."""
        ServeConfig(host=self.host, port=self.port, token=self.token, max_body=self.max_body).check()


def _json(status: int, payload: Any, headers: list[tuple[str, str]] | None = None) -> Response:
    body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    return status, [("Content-Type", "application/json; charset=utf-8"), *(headers or [])], body


class ReviewApp:
    """The routes, independent of sockets: :meth:`handle` maps a request to a response."""

    def __init__(self, store: ReviewStore, key: SurrogateKey, config: ReviewConfig) -> None:
        self.store = store
        self.key = key
        self.config = config

    # -- guards --------------------------------------------------------------------
    @staticmethod
    def _host_ok(host: str | None) -> bool:
        if not host:
            return False
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        return is_loopback(name.strip("[]"))

    def _authorised(self, headers: dict[str, str]) -> bool:
        if self.config.token is None:
            return True
        if token_matches(self.config.token, headers.get("authorization")):
            return True
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except Exception:  # noqa: BLE001 - a malformed cookie header is just no cookie
            return False
        morsel = cookie.get(_COOKIE)
        return morsel is not None and token_matches(self.config.token, "Bearer " + morsel.value)

    def _guard(self, method: str, path: str, query: dict[str, list[str]], headers: dict[str, str]) -> Response | None:
        if self.config.token is None and not self._host_ok(headers.get("host")):
            return _json(403, {"error": "this review tool answers only requests addressed to a loopback host"})
        if path == "/health":
            return None
        if self.config.token is not None and path == "/" and "token" in query:
            given = query["token"][0]
            if not token_matches(self.config.token, "Bearer " + given):
                return _json(401, {"error": "wrong token"})
            cookie = f"{_COOKIE}={given}; HttpOnly; SameSite=Strict; Path=/"
            return 303, [("Location", "/"), ("Set-Cookie", cookie)], b""
        if not self._authorised(headers):
            return _json(401, {"error": "missing or wrong token: open /?token=TOKEN once, or send "
                                        "'Authorization: Bearer TOKEN'"}, [("WWW-Authenticate", "Bearer")])
        if method == "POST":
            if not headers.get("content-type", "").startswith("application/json"):
                return _json(415, {"error": "send JSON (Content-Type: application/json)"})
            origin = headers.get("origin")
            if origin and urlsplit(origin).netloc != headers.get("host"):
                return _json(403, {"error": "cross-origin requests are refused"})
        return None

    # -- routes --------------------------------------------------------------------
    def handle(self, method: str, target: str, headers: dict[str, str], body: bytes) -> Response:
        """Answer one request (``headers`` with lower-case names)."""
        parts = urlsplit(target)
        path, query = parts.path, parse_qs(parts.query)
        denied = self._guard(method, path, query, headers)
        if denied is not None:
            return denied
        if method == "GET":
            return self._get(path)
        if method == "POST":
            m = _NOTE.match(path)
            if m and m.group(2):
                return self._edit(int(m.group(1)), body)
        return _json(404 if method in ("GET", "POST") else 405, {"error": "no such route"})

    def _get(self, path: str) -> Response:
        if path == "/health":
            return _json(200, {"status": "ok"})
        if path in ("/", "/index.html"):
            return self._static("index.html")
        if path.startswith("/static/") and path[8:] in _STATIC:
            return self._static(path[8:])
        if path == "/api/session":
            types: dict[str, list[str]] = {}
            for t in subtypes():
                types.setdefault(category_of(t), []).append(t)
            return _json(200, {"reviewer": self.config.reviewer, "types": types,
                               "model": self.store.get_meta("model")})
        if path == "/api/queue":
            return _json(200, {"notes": self.store.queue()})
        m = _NOTE.match(path)
        if m and not m.group(2):
            try:
                return _json(200, self._note_payload(self.store.note(int(m.group(1)))))
            except EditError as exc:
                return _json(404, {"error": exc.reason})
        return _json(404, {"error": "no such route"})

    def _static(self, name: str) -> Response:
        data = resources.files("notescrub.review").joinpath("static", name).read_bytes()
        return 200, [("Content-Type", _STATIC[name])], data

    def _note_payload(self, note: dict[str, Any]) -> dict[str, Any]:
        return {**note, "preview": preview(note, self.key)}

    def _edit(self, nid: int, body: bytes) -> Response:
        try:
            req = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            return _json(400, {"error": "the request body is not JSON"})
        if not isinstance(req, dict) or not isinstance(req.get("version"), int):
            return _json(400, {"error": "send {version, reviewer, action, args}"})
        args = req.get("args") or {}
        if not isinstance(args, dict):
            return _json(400, {"error": "args must be an object"})
        try:
            note = self.store.edit(nid, req["version"], str(req.get("reviewer") or ""), str(req.get("action")), args)
        except EditConflict as exc:
            return _json(409, {"error": exc.reason, "by": exc.by, "at": exc.at, "version": exc.version})
        except EditError as exc:
            return _json(400, {"error": exc.reason})
        return _json(200, self._note_payload(note))


class _Handler(BaseHTTPRequestHandler):
    server_version = "notescrub-review"
    sys_version = ""
    app: ReviewApp  # set on the subclass made by make_server

    def _respond(self, method: str) -> None:
        path = urlsplit(self.path).path
        try:
            length = int(self.headers.get("Content-Length") or 0)
            if length < 0 or length > self.app.config.max_body:
                status, headers, body = _json(413, {"error": f"request body over {self.app.config.max_body} bytes"})
                self.close_connection = True
            else:
                data = self.rfile.read(length) if length else b""
                hdrs = {k.lower(): v for k, v in self.headers.items()}
                status, headers, body = self.app.handle(method, self.path, hdrs, data)
        except ValueError:
            status, headers, body = _json(400, {"error": "invalid Content-Length header"})
        except NotescrubError as exc:
            status, headers, body = _json(400, {"error": exc.reason})
        except Exception as exc:  # noqa: BLE001 - answer 500 and log the type only (never text)
            log.error("%s %s failed: %s", method, path, type(exc).__name__)
            status, headers, body = _json(500, {"error": f"internal error ({type(exc).__name__})"})
        self.send_response(status)
        for k, v in [*headers, *_SECURITY_HEADERS, ("Content-Length", str(len(body)))]:
            self.send_header(k, v)
        self.end_headers()
        if method != "HEAD":
            self.wfile.write(body)
        log.info('%s %s %d', method, path, status)  # the access log: no query (a token), no body

    def do_GET(self) -> None:
        self._respond("GET")

    def do_POST(self) -> None:
        self._respond("POST")

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the base class's log lines (they quote the request line, with its query)."""


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Log a connection-level failure by its type only (the default prints a traceback to stderr)."""
        log.warning("connection failed: %s", type(sys.exc_info()[1]).__name__)


def make_server(app: ReviewApp) -> ThreadingHTTPServer:
    """A threaded HTTP server for ``app`` bound to its configured address (port 0: any free port)."""
    handler = type("ReviewHandler", (_Handler,), {"app": app})
    return _Server((app.config.host, app.config.port), handler)


def serve_review(app: ReviewApp) -> None:
    """Check the configuration and serve until interrupted."""
    app.config.check()
    server = make_server(app)
    host, port = server.server_address[:2]
    log.info("review of %d notes at http://%s:%d/ (%s)", app.store.count(), host, port,
             "token required: open /?token=TOKEN once" if app.config.token else "loopback only, no token")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
