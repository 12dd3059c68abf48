"""ASGI guards run before any route: the bearer token (401) and the body-size cap (413).

Both answer with a small JSON error and never read or echo the request body. The
token is compared in constant time (:func:`notescrub.serve.config.token_matches`).

>>> import asyncio
>>> async def app(scope, receive, send):
...     await send({"type": "http.response.start", "status": 200, "headers": []})
...     await send({"type": "http.response.body", "body": b"ok"})
>>> sent = []
>>> async def send(message):
...     sent.append(message)
>>> async def receive():
...     return {"type": "http.request", "body": b"", "more_body": False}
>>> scope = {"type": "http", "path": "/v1/deid", "headers": [(b"content-length", b"999")]}
>>> asyncio.run(BodyLimit(app, 10)(scope, receive, send))
>>> sent[0]["status"], sent[1]["body"]
(413, b'{"error":"request body larger than 10 bytes"}')
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from notescrub.serve.config import token_matches

__all__ = ["PUBLIC_PATHS", "BodyLimit", "TokenAuth", "send_json"]

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: paths answered without a token: probes and the API description (no data)
PUBLIC_PATHS = frozenset({"/health", "/ready", "/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json"})


async def send_json(send: Send, status: int, payload: dict[str, Any],
                    headers: list[tuple[bytes, bytes]] | None = None) -> None:
    """Send a whole JSON response."""
    body = json.dumps(payload, separators=(",", ":")).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", []):
        if k.lower() == name:
            return v.decode("latin-1")
    return None


class TokenAuth:
    """401 unless ``Authorization: Bearer <token>`` matches (paths in :data:`PUBLIC_PATHS` excepted)."""

    def __init__(self, app: ASGIApp, token: str | None) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] == "http" and self.token is not None and scope.get("path") not in PUBLIC_PATHS
                and not token_matches(self.token, _header(scope, b"authorization"))):
            await send_json(send, 401, {"error": "missing or wrong bearer token"},
                            [(b"www-authenticate", b"Bearer")])
            return
        await self.app(scope, receive, send)


class BodyLimit:
    """413 for bodies over ``max_bytes``: by ``Content-Length`` at once, or while a chunked body streams in."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        error = {"error": f"request body larger than {self.max_bytes} bytes"}
        declared = _header(scope, b"content-length")
        if declared is not None:
            if not declared.strip().isdigit():
                await send_json(send, 400, {"error": "invalid Content-Length header"})
                return
            if int(declared) > self.max_bytes:
                await send_json(send, 413, error)
                return
        seen = 0
        started = rejected = False

        async def limited_receive() -> dict[str, Any]:
            # over the cap: answer 413 now and tell the app the client left (it must not see more body)
            nonlocal seen, rejected
            message = await receive()
            if message["type"] == "http.request" and not rejected:
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    rejected = True
                    if not started:
                        await send_json(send, 413, error)
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: dict[str, Any]) -> None:
            nonlocal started
            if rejected:  # the 413 already went out: drop whatever the app answers
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, limited_receive, guarded_send)
