"""Exception hierarchy. Messages name files, lines and reasons, never note text.

Every error raised on bad input derives from :class:`NotescrubError`, so the CLI can
print a clean one-line message and exit non-zero.

>>> err = InputFormatError("broken tag", path="notes/a.xml", line=12)
>>> str(err)
'notes/a.xml:12: broken tag'
"""

from __future__ import annotations

from pathlib import Path


class NotescrubError(Exception):
    """Base class; ``path`` and ``line`` (when known) are prefixed to the message."""

    def __init__(self, message: str, *, path: str | Path | None = None, line: int | None = None) -> None:
        self.reason = message
        self.path = str(path) if path is not None else None
        self.line = line
        super().__init__(self._format())

    def _format(self) -> str:
        where = ""
        if self.path:
            where = self.path + (f":{self.line}" if self.line is not None else "") + ": "
        elif self.line is not None:
            where = f"line {self.line}: "
        return where + self.reason


class OffsetError(NotescrubError, ValueError):
    """A span's offsets are invalid or do not fit the document text."""


class InputFormatError(NotescrubError, ValueError):
    """An input file cannot be parsed (malformed XML, bad brat line, bad JSON...)."""


class EncodingError(InputFormatError):
    """Bytes that do not decode in the expected encoding (never silently replaced)."""


class UnknownFormatError(NotescrubError, ValueError):
    """The format of an input could not be determined or is not supported."""


class LabelError(NotescrubError, ValueError):
    """A label is not part of the scheme in use."""


class ConfigError(NotescrubError, ValueError):
    """Invalid configuration, rule file, lexicon or model directory."""


class MissingExtraError(ConfigError):
    """An optional dependency is not installed; the message names the extra that installs it."""


class ModelError(NotescrubError, RuntimeError):
    """A model cannot be loaded, trained or applied."""


class KeyFileError(NotescrubError, ValueError):
    """A surrogate key file is missing, unreadable or invalid (its content is never shown)."""


class ProcessingError(NotescrubError, RuntimeError):
    """A document could not be processed; it must not be written out unredacted."""
