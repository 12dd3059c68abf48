"""Run the service with uvicorn (what ``notescrub serve`` calls).

Access logs name the method, path and status only (never a body); the token and the
surrogate key are never logged.

>>> import logging
>>> logging.getLogger("uvicorn.access").disabled
False
"""

from __future__ import annotations

import logging

from notescrub.serve.config import ServeConfig

__all__ = ["serve"]

log = logging.getLogger("notescrub.serve")


def serve(config: ServeConfig) -> None:
    """Check ``config``, build the app and serve until interrupted."""
    import uvicorn

    from notescrub.serve.app import create_app

    config.check()
    app = create_app(config)
    log.info("listening on http://%s:%d (token %s)", config.host, config.port,
             "required" if config.token else "not required: loopback only")
    uvicorn.run(app, host=config.host, port=config.port, log_level="info", access_log=True,
                server_header=False, proxy_headers=False, timeout_graceful_shutdown=10,
                # idle keep-alive connections stay open longer than uvicorn's 5 s, so a busy client
                # rarely reuses a connection the server is closing at that moment (a ReadError)
                timeout_keep_alive=75)
