"""Secret surrogate keys and the keyed HMAC that makes surrogates consistent.

Every surrogate choice is drawn from ``HMAC-SHA256(key, type | patient | normalised value)``:
the same value of the same patient gets the same surrogate in every note and every
run, nothing has to be stored or shared between workers except the key, and a
different key gives unrelated surrogates. A key file holds one line
``notescrub-key-v1 <64 hex digits>``; its content is never printed or logged.

>>> key = SurrogateKey(bytes(32))
>>> key.digest("PATIENT", "P1", "smith") == key.digest("PATIENT", "P1", "smith")
True
>>> key.digest("PATIENT", "P1", "smith") == key.digest("PATIENT", "P2", "smith")
False
>>> key.rng("DATE", "P1", "offset").randint(0, 9) == key.rng("DATE", "P1", "offset").randint(0, 9)
True
>>> repr(key).startswith("SurrogateKey(id=")
True
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import random
import secrets
import stat
import unicodedata
from pathlib import Path

from notescrub.errors import KeyFileError

log = logging.getLogger(__name__)

__all__ = ["KEY_HEADER", "SurrogateKey", "default_key_dir", "normalise_value"]

KEY_HEADER = "notescrub-key-v1"
_KEY_BYTES = 32
_MAX_KEY_FILE = 4096


def normalise_value(value: str) -> str:
    """Canonical form used for consistency: NFKC, case-folded, whitespace collapsed.

    >>> normalise_value("  JOHN   Smith ")
    'john smith'
    """
    return " ".join(unicodedata.normalize("NFKC", value).casefold().split())


class SurrogateKey:
    """A secret key (32 random bytes) deriving every surrogate decision.

    Parameters
    ----------
    secret:
        The raw key bytes (at least 16). Use :meth:`generate` or :meth:`load`.
    """

    __slots__ = ("_secret",)

    def __init__(self, secret: bytes) -> None:
        if not isinstance(secret, (bytes, bytearray)) or len(secret) < 16:
            raise KeyFileError("a surrogate key needs at least 16 bytes")
        self._secret = bytes(secret)

    @classmethod
    def generate(cls) -> SurrogateKey:
        """A fresh random key from the operating system's CSPRNG."""
        return cls(secrets.token_bytes(_KEY_BYTES))

    @classmethod
    def from_seed(cls, seed: int | str) -> SurrogateKey:
        """A reproducible (not secret) key for synthetic corpora and tests.

        >>> SurrogateKey.from_seed(1).id == SurrogateKey.from_seed(1).id
        True
        """
        return cls(hashlib.sha256(f"notescrub-seed:{seed}".encode()).digest())

    @classmethod
    def load(cls, path: str | Path) -> SurrogateKey:
        """Read a key file; :class:`KeyFileError` (naming the file, not its content) otherwise."""
        p = Path(path)
        try:
            # open without blocking (a FIFO would wait for a writer forever), then accept
            # regular files only and read at most the size a key file can have
            fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
            try:
                st = os.fstat(fd)
                if stat.S_ISDIR(st.st_mode):
                    raise KeyFileError("key file is a directory", path=p)
                if not stat.S_ISREG(st.st_mode):
                    raise KeyFileError("key file is not a regular file (a device, FIFO or socket)", path=p)
                if st.st_size > _MAX_KEY_FILE:
                    raise KeyFileError("file is too large to be a notescrub key file", path=p)
                raw = os.read(fd, _MAX_KEY_FILE + 1)
            finally:
                os.close(fd)
            if st.st_mode & 0o077:
                log.warning("key file %s can be read by other users (mode %o): run 'chmod 600' on it",
                            p, stat.S_IMODE(st.st_mode))
        except IsADirectoryError:
            raise KeyFileError("key file is a directory", path=p) from None
        except FileNotFoundError:
            raise KeyFileError(f"key file does not exist; create one with 'notescrub key new {p}'", path=p) from None
        except PermissionError:
            raise KeyFileError("key file cannot be read (permission denied)", path=p) from None
        except OSError as exc:
            raise KeyFileError(f"key file cannot be read ({type(exc).__name__})", path=p) from None
        return cls(_parse(raw, p))

    def save(self, path: str | Path) -> Path:
        """Write the key to a new file readable by the owner only (never overwrites).

        A missing parent folder is created readable by the owner only (mode 700).
        """
        p = Path(path).expanduser()
        if not p.parent.exists():
            p.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.chmod(p.parent, 0o700)  # mkdir's mode is masked by the umask
        try:
            fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            raise KeyFileError("refusing to overwrite an existing key file", path=p) from None
        except OSError as exc:
            raise KeyFileError(f"key file cannot be written ({type(exc).__name__})", path=p) from None
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(f"{KEY_HEADER} {self._secret.hex()}\n")
        return p

    @property
    def id(self) -> str:
        """A short public fingerprint (reveals nothing about the key)."""
        return hmac.new(self._secret, b"notescrub-key-id", hashlib.sha256).hexdigest()[:12]

    def digest(self, kind: str, patient: str | None, value: str) -> bytes:
        """HMAC-SHA256 of ``kind``, ``patient`` and ``value`` (callers normalise ``value``)."""
        msg = "\x1f".join(("v1", kind, patient or "", value)).encode("utf-8")
        return hmac.new(self._secret, msg, hashlib.sha256).digest()

    def rng(self, kind: str, patient: str | None, value: str) -> random.Random:
        """A :class:`random.Random` seeded from :meth:`digest` (deterministic per input)."""
        return random.Random(int.from_bytes(self.digest(kind, patient, value), "big"))

    def __repr__(self) -> str:
        return f"SurrogateKey(id={self.id!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SurrogateKey) and hmac.compare_digest(self._secret, other._secret)

    def __hash__(self) -> int:
        return hash(self.id)


def _parse(raw: bytes, path: Path) -> bytes:
    try:
        text = raw.decode("ascii").strip()
    except UnicodeDecodeError:
        raise KeyFileError("not a notescrub key file (binary content)", path=path) from None
    parts = text.split()
    if len(parts) == 2 and parts[0] == KEY_HEADER:
        hexpart = parts[1]
    elif len(parts) == 1:
        hexpart = parts[0]
    else:
        raise KeyFileError(f"not a notescrub key file (expected '{KEY_HEADER} <64 hex digits>')", path=path)
    if len(hexpart) != 2 * _KEY_BYTES:
        raise KeyFileError(f"not a notescrub key file (expected {2 * _KEY_BYTES} hex digits)", path=path)
    try:
        return bytes.fromhex(hexpart)
    except ValueError:
        raise KeyFileError("not a notescrub key file (key is not hexadecimal)", path=path) from None


def default_key_dir() -> Path:
    """Where generated keys are saved: ``$NOTESCRUB_KEY_DIR`` or ``~/.config/notescrub/keys``."""
    env = os.environ.get("NOTESCRUB_KEY_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "notescrub" / "keys"
