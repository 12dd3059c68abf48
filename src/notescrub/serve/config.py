"""Service settings, the bearer token and the rule that only loopback may go without one.

>>> cfg = ServeConfig(host="0.0.0.0")
>>> cfg.check()
Traceback (most recent call last):
...
notescrub.errors.ConfigError: binding 0.0.0.0 (not a loopback address) requires a bearer token: give --token-file FILE or set NOTESCRUB_TOKEN
>>> ServeConfig(host="0.0.0.0", token="s3cret-token-of-32-characters-xx").check()
>>> token_matches("s3cret-token-of-32-characters-xx", "Bearer s3cret-token-of-32-characters-xx")
True
>>> token_matches("s3cret-token-of-32-characters-xx", "Bearer wrong"), token_matches("t" * 16, None)
(False, False)
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from notescrub.errors import ConfigError

__all__ = ["MIN_TOKEN_CHARS", "TOKEN_ENV", "ServeConfig", "is_loopback", "load_token", "token_matches"]

log = logging.getLogger(__name__)

TOKEN_ENV = "NOTESCRUB_TOKEN"
MIN_TOKEN_CHARS = 16
_MAX_TOKEN_FILE = 4096


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (``127.0.0.0/8``, ``::1``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name: it may resolve to anything
        return False


def load_token(token_file: str | Path | None, environ: dict[str, str] | None = None) -> str | None:
    """The bearer token from ``token_file`` (first line) or ``$NOTESCRUB_TOKEN``; never printed.

    >>> load_token(None, {"NOTESCRUB_TOKEN": "abcdefghijklmnopqrstuvwxyz"})
    'abcdefghijklmnopqrstuvwxyz'
    >>> load_token(None, {}) is None
    True
    """
    env = os.environ if environ is None else environ
    if token_file is not None:
        p = Path(token_file)
        try:
            st = p.stat()
            if not stat.S_ISREG(st.st_mode):
                raise ConfigError("token file is not a regular file", path=p)
            if st.st_size > _MAX_TOKEN_FILE:
                raise ConfigError("token file is too large to hold a token", path=p)
            raw = p.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ConfigError("token file does not exist", path=p) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"token file cannot be read ({type(exc).__name__})", path=p) from None
        if st.st_mode & 0o077:
            log.warning("token file %s can be read by other users: run 'chmod 600' on it", p)
        token = raw.strip().splitlines()[0].strip() if raw.strip() else ""
        source = f"token file {p}"
    elif env.get(TOKEN_ENV):
        token, source = env[TOKEN_ENV].strip(), f"${TOKEN_ENV}"
    else:
        return None
    if len(token) < MIN_TOKEN_CHARS or any(c.isspace() for c in token):
        raise ConfigError(f"the token in {source} must be at least {MIN_TOKEN_CHARS} characters without spaces "
                          "(make one with: python -c 'import secrets; print(secrets.token_urlsafe(32))')")
    return token


def token_matches(expected: str, authorization: str | None) -> bool:
    """Constant-time check of an ``Authorization: Bearer <token>`` header."""
    if not authorization:
        return False
    scheme, _, given = authorization.partition(" ")
    ok_scheme = scheme.lower() == "bearer"
    return hmac.compare_digest(given.strip().encode("utf-8"), expected.encode("utf-8")) and ok_scheme


@dataclass
class ServeConfig:
    """Everything ``notescrub serve`` runs with (see ``notescrub serve --help``).

    ``key`` is the :class:`~notescrub.replace.keys.SurrogateKey` (loaded at start; ``None``:
    a random key is made in memory at start and forgotten at exit).
    """

    host: str = "127.0.0.1"
    port: int = 8000
    model: str = "en-default"
    preset: str | None = None
    workers: int = 1
    queue: int = 256
    max_body: int = 5_000_000
    max_notes: int = 100
    timeout: float = 30.0
    token: str | None = field(default=None, repr=False)
    key: Any = field(default=None, repr=False)
    key_source: str = "generated in memory"

    def check(self) -> None:
        """Refuse unsafe or impossible settings (:class:`ConfigError`)."""
        if self.token is None and not is_loopback(self.host):
            raise ConfigError(f"binding {self.host} (not a loopback address) requires a bearer token: "
                              f"give --token-file FILE or set {TOKEN_ENV}")
        for name, low in (("workers", 1), ("max_body", 1), ("max_notes", 1), ("queue", 0)):
            if getattr(self, name) < low:
                raise ConfigError(f"--{name.replace('_', '-')} must be at least {low}")
        if not self.timeout > 0:
            raise ConfigError("--timeout must be positive")
        if not 0 <= self.port <= 65535:
            raise ConfigError("--port must be between 0 and 65535")
