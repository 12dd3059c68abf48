"""The HTTP service (``pip install notescrub[serve]``, ``notescrub serve``).

Modules, one concept each: :mod:`.config` (settings, token, loopback rule),
:mod:`.worker` (what runs in the worker processes: the model, loaded once),
:mod:`.pool` (bounded admission, time limit), :mod:`.guards` (token and body-size
ASGI middleware), :mod:`.schemas` (request bodies), :mod:`.presidio_api`
(Presidio-compatible JSON), :mod:`.app` (the FastAPI routes) and :mod:`.server`
(uvicorn). Only :mod:`.app`, :mod:`.schemas` and :mod:`.server` import FastAPI,
pydantic or uvicorn; nothing outside this package imports it.

>>> from notescrub.serve.config import is_loopback
>>> is_loopback("127.0.0.1"), is_loopback("0.0.0.0")
(True, False)
"""
