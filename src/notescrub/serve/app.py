"""The FastAPI application: notescrub's own ``/v1`` API and Presidio-compatible endpoints.

Every answer that is not a success is JSON ``{"error": ...}`` and never quotes the
request's text; validation errors keep the field location, message and type of each
problem and drop the offending value. CPU work runs in :class:`~notescrub.serve.pool.WorkerPool`.

>>> from notescrub.serve.config import ServeConfig
>>> app = create_app(ServeConfig(model="rules-en"))
>>> sorted(r.path for r in app.routes if r.path.startswith("/v1"))
['/v1/annotate', '/v1/deid', '/v1/models', '/v1/stats']
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from notescrub import __version__
from notescrub.serve import worker
from notescrub.serve.config import ServeConfig
from notescrub.serve.guards import BodyLimit, TokenAuth, send_json
from notescrub.serve.pool import Overloaded, PoolBroken, TimedOut, WorkerPool
from notescrub.serve.schemas import AnalyzeRequest, AnnotateRequest, DeidRequest

__all__ = ["WORK_PATHS", "EarlyReject", "create_app", "model_info"]

log = logging.getLogger("notescrub.serve")

#: the endpoints that take a worker
WORK_PATHS = frozenset({"/v1/deid", "/v1/annotate", "/analyze", "/anonymize"})
BUSY = "server busy: every worker is busy and the queue is full"


class EarlyReject:
    """503 for work requests while the pool is full, before their body is read or parsed.

    Under overload the refusal then costs the event loop almost nothing, so it stays "at once".
    """

    def __init__(self, app: Any, state: dict[str, Any]) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        pool = self.state.get("pool")
        if scope["type"] == "http" and scope.get("path") in WORK_PATHS and pool is not None and pool.full():
            pool.reject()
            await send_json(send, 503, {"error": BUSY}, [(b"retry-after", b"1")])
            return
        await self.app(scope, receive, send)


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def model_info(model: str, preset: str | None) -> dict[str, Any]:
    """Name, kind, language, presets and served preset of a model (from its ``model.json``).

    >>> info = model_info("en-default", None)
    >>> info["language"], info["preset"], "max-recall" in info["presets"]
    ('en', 'high-recall', True)
    """
    from notescrub.registry import model_dir, read_model_meta

    meta = read_model_meta(model_dir(model))
    presets = sorted(meta.get("presets") or {})
    return {"name": model, "kind": meta["kind"], "language": meta.get("lang") or meta.get("language") or "en",
            "presets": presets, "preset": preset or meta.get("default_preset"),
            "description": meta.get("description", "")}


def create_app(config: ServeConfig) -> FastAPI:
    """The application for ``config``; the worker pool starts with the app (lifespan)."""
    info = model_info(config.model, config.preset)
    state: dict[str, Any] = {"pool": None}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        pool = WorkerPool(config.workers, config.queue, config.timeout, initializer=worker.init_worker,
                          initargs=(config.model, config.preset, config.key))
        state["pool"] = pool
        warm = asyncio.create_task(pool.start(worker.ping))
        def _failed(t: asyncio.Task[Any]) -> None:
            if not t.cancelled() and t.exception() is not None:
                log.error("workers failed to start (%s)", type(t.exception()).__name__)

        warm.add_done_callback(_failed)
        log.info("serving model %s (preset %s) with %d worker(s); surrogate key %s", config.model,
                 info["preset"], config.workers, config.key_source)
        try:
            yield
        finally:
            warm.cancel()
            pool.close()

    app = FastAPI(title="notescrub", version=__version__, lifespan=lifespan,
                  description="De-identification of clinical text. Errors never quote note text; "
                              "see docs/serve.md.")

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # pydantic puts the offending value ("input") and context in each error: keep neither
        detail = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
                  for e in exc.errors()]
        return JSONResponse({"error": "invalid request", "detail": detail}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _crash(_request: Request, exc: Exception) -> JSONResponse:
        return _error(500, f"internal error ({type(exc).__name__})")

    async def run(fn: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any] | JSONResponse:
        pool: WorkerPool | None = state["pool"]
        if pool is None or not pool.ready:
            return _error(503, "the model is still loading; retry when /ready answers 200", {"Retry-After": "2"})
        try:
            out = await pool.run(fn, *args)
        except Overloaded:
            return _error(503, BUSY, {"Retry-After": "1"})
        except TimedOut:
            return _error(504, f"request exceeded the time limit of {config.timeout:g} s")
        except PoolBroken:
            return _error(503, "a worker process stopped; retry", {"Retry-After": "2"})
        if "error" in out:
            return _error(int(out.get("status", 500)), str(out["error"]))
        return out

    def check_preset(preset: str | None) -> JSONResponse | None:
        if preset is not None and preset not in info["presets"]:
            known = ", ".join(info["presets"]) or "none (this model has no presets)"
            return _error(422, f"unknown preset {preset!r}; presets of {config.model}: {known}")
        return None

    def check_batch(n: int) -> JSONResponse | None:
        if n > config.max_notes:
            return _error(413, f"a batch holds at most {config.max_notes} notes, got {n}")
        return None

    # -- probes and description -------------------------------------------------------
    @app.get("/health", tags=["probes"], summary="liveness: the server answers")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/ready", tags=["probes"], summary="readiness: every worker has loaded the model")
    async def ready() -> JSONResponse:
        pool = state["pool"]
        ok = pool is not None and pool.ready
        return JSONResponse({"status": "ready" if ok else "starting"}, status_code=200 if ok else 503)

    @app.get("/v1/models", tags=["notescrub"], summary="the served model and the packaged ones")
    async def models() -> dict[str, Any]:
        from notescrub.registry import packaged_models

        return {"served": info, "packaged": packaged_models()}

    @app.get("/v1/stats", tags=["notescrub"], summary="admission counts since start")
    async def stats() -> dict[str, Any]:
        pool = state["pool"]
        return pool.stats() if pool is not None else {}

    # -- notescrub API ------------------------------------------------------------------
    @app.post("/v1/deid", tags=["notescrub"], summary="de-identify one note or a batch")
    async def deid(body: DeidRequest) -> Any:
        """Returns ``{"id", "text", "spans"}`` for one note, ``{"results": [...]}`` for a batch.

        Spans are located in the new text; the original values, offsets and patient ids are never returned.
        """
        notes = body.notes_list()
        bad = check_preset(body.preset) or check_batch(len(notes))
        if bad:
            return bad
        out = await run(worker.deid_task, notes, {"mode": body.mode, "preset": body.preset, "types": body.types})
        return out if isinstance(out, JSONResponse) or body.notes is not None else out["results"][0]

    @app.post("/v1/annotate", tags=["notescrub"], summary="PHI spans of one note or a batch (text not returned)")
    async def annotate(body: AnnotateRequest) -> Any:
        notes = body.notes_list()
        bad = check_preset(body.preset) or check_batch(len(notes))
        if bad:
            return bad
        out = await run(worker.annotate_task, notes, {"preset": body.preset, "types": body.types})
        return out if isinstance(out, JSONResponse) or body.notes is not None else out["results"][0]

    # -- Presidio-compatible -------------------------------------------------------------
    @app.post("/analyze", tags=["presidio"], summary="Presidio analyzer: entities found in text")
    async def analyze(body: AnalyzeRequest) -> Any:
        if body.language != info["language"]:
            return _error(400, f"language {body.language!r} is not supported by model {config.model} "
                               f"(it reads {info['language']!r})")
        texts = body.text if isinstance(body.text, list) else [body.text]
        if not texts or any(not t for t in texts):
            return _error(400, "No text provided")
        bad = check_batch(len(texts))
        if bad:
            return bad
        out = await run(worker.analyze_task, texts, body.model_dump(exclude={"text", "language"}))
        if isinstance(out, JSONResponse):
            return out
        return out["results"] if isinstance(body.text, list) else out["results"][0]

    @app.get("/supportedentities", tags=["presidio"], summary="Presidio: entity names this service reports")
    async def supported_entities(language: str | None = None) -> Any:
        from notescrub.integrations.entities import presidio_entities

        if language is not None and language != info["language"]:
            return _error(400, f"language {language!r} is not supported by model {config.model}")
        return presidio_entities()

    @app.get("/recognizers", tags=["presidio"], summary="Presidio: recognizer names")
    async def recognizers(language: str | None = None) -> list[str]:
        return ["NotescrubRecognizer"]

    @app.post("/anonymize", tags=["presidio"], summary="Presidio anonymizer: apply operators to analyzer results")
    async def anonymize(request: Request) -> Any:
        try:
            payload = await request.json()
        except ValueError:
            return _error(400, "Invalid request json")
        if not isinstance(payload, dict) or not payload:
            return _error(400, "Invalid request json")
        out = await run(worker.anonymize_task, payload)
        return out if isinstance(out, JSONResponse) else out["result"]

    @app.get("/anonymizers", tags=["presidio"], summary="Presidio: operator names /anonymize accepts")
    async def anonymizers() -> list[str]:
        return ["encrypt", "hash", "keep", "mask", "redact", "replace"]

    # the last added is the outermost: the token is checked first, then the body size, then the load
    app.add_middleware(EarlyReject, state=state)
    app.add_middleware(BodyLimit, max_bytes=config.max_body)
    app.add_middleware(TokenAuth, token=config.token)
    return app
