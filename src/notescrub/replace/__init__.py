"""Replace detected PHI: tags, masks, redaction, keyed hashes or consistent realistic surrogates.

The :class:`~notescrub.replace.engine.Replacer` takes a document and its final,
non-overlapping PHI spans and returns the new text, the spans located in it and an
:class:`~notescrub.replace.offsets.OffsetMap` (old <-> new positions). Surrogates are
derived from a secret :class:`~notescrub.replace.keys.SurrogateKey` so the same value
of the same patient always gets the same surrogate. See ``docs/deid.md``.

>>> from notescrub.replace import Replacer
>>> from notescrub.types import Document, Span
>>> doc = Document("n", "Call 617-555-0199.", layers={"phi": [Span(5, 17, "PHONE")]})
>>> Replacer("mask").replace(doc).text
'Call ***-***-****.'
"""

from notescrub.replace.base import Context, Operator, ReplaceState
from notescrub.replace.engine import MODES, Replacer, ReplaceResult, parse_types
from notescrub.replace.keys import SurrogateKey
from notescrub.replace.offsets import Edit, OffsetMap
from notescrub.replace.operators import Hash, Keep, Mask, Redact, Tag

__all__ = [
    "MODES",
    "Context",
    "Edit",
    "Hash",
    "Keep",
    "Mask",
    "OffsetMap",
    "Operator",
    "Redact",
    "ReplaceResult",
    "ReplaceState",
    "Replacer",
    "SurrogateKey",
    "Tag",
    "parse_types",
]
