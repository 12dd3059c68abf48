"""What a de-identified document may carry: the release policy.

Input documents bring more than their text: a patient id, metadata (JSONL ``meta``,
extra CSV/Parquet columns, brat notes and normalisations, i2b2 XML attributes) and
per-span extras (comments, ids, free attributes). Any of these can hold PHI, and none
of it was looked at by the detectors. A :class:`ReleasePolicy` builds the output
document from what is known to be safe only:

* the document id and the new text;
* the replaced (and the kept, unselected) spans, relocated, with label, score and
  source but without any extra attribute;
* the patient id as a keyed pseudonym (``"patient"`` in ``keep_fields`` keeps it as is);
* metadata fields the user allow-lists by name in ``keep_fields``, plus the flag
  ``deidentified`` and the few structural values the writers need (the i2b2 XML root
  element when it is a known one, a language code).

>>> from notescrub.replace.keys import SurrogateKey
>>> src = Document("n1", "Seen by Ruiz.", "P1", {"name": "Bob Jones", "site": "north"})
>>> policy = ReleasePolicy(keep_fields={"site"}, key=SurrogateKey(bytes(32)))
>>> out = policy.release(src, "Seen by Lee.", [Span(8, 11, "DOCTOR", meta={"comment": "real: Ruiz"})])
>>> out.metadata, out.layer("gold")[0].meta, out.patient_id == policy.patient_pseudonym("P1")
({'site': 'north', 'deidentified': True}, {}, True)
>>> out.patient_id.startswith("pt-"), out.patient_id != "P1"
(True, True)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from notescrub.replace.keys import SurrogateKey
from notescrub.types import GOLD, Document, Span

__all__ = ["KEEP_PATIENT", "ReleasePolicy"]

#: the ``keep_fields`` name that keeps patient ids verbatim instead of pseudonymising them
KEEP_PATIENT = "patient"
#: root elements of i2b2-style XML that the writer may reproduce (anything else: the default)
_KNOWN_XML_ROOTS = frozenset({"deIdi2b2", "MEDDOCAN", "root"})
_LANG_CODES = frozenset({"en", "es"})
#: decimals of the span scores written to de-identified output (as ``annotate`` writes them)
SCORE_DECIMALS = 6


@dataclass(frozen=True)
class ReleasePolicy:
    """Allow-list of what a de-identified document keeps (see the module docstring).

    Parameters
    ----------
    keep_fields:
        Metadata field names copied verbatim (a CSV column, a JSONL ``meta`` key,
        ``brat_other`` for brat's non-entity lines); ``"patient"`` keeps patient ids.
    key:
        Secret key of the patient pseudonyms. ``None`` drops patient ids (unless kept).
    """

    keep_fields: frozenset[str] = field(default_factory=frozenset)
    key: SurrogateKey | None = None

    def __init__(self, keep_fields: Iterable[str] = (), key: SurrogateKey | None = None) -> None:
        object.__setattr__(self, "keep_fields", frozenset(keep_fields))
        object.__setattr__(self, "key", key)

    def with_key(self, key: SurrogateKey | None) -> ReleasePolicy:
        """The same policy pseudonymising with ``key`` (when it has no key of its own)."""
        return self if self.key is not None else ReleasePolicy(self.keep_fields, key)

    def patient_pseudonym(self, patient_id: str) -> str:
        """Keyed, stable pseudonym of a patient id (``pt-`` + 16 hex digits)."""
        if self.key is None:
            raise ValueError("patient pseudonyms need a key")
        digest = self.key.digest("PATIENT-ID", None, patient_id)
        return "pt-" + hmac.new(digest, b"pseudonym", hashlib.sha256).hexdigest()[:16]

    def _patient(self, patient_id: str | None) -> str | None:
        if patient_id is None or KEEP_PATIENT in self.keep_fields:
            return patient_id
        return self.patient_pseudonym(patient_id) if self.key is not None else None

    def _metadata(self, source: dict) -> dict:
        meta = {k: v for k, v in source.items() if k in self.keep_fields}
        if source.get("xml_root") in _KNOWN_XML_ROOTS:
            meta.setdefault("xml_root", source["xml_root"])
        if source.get("lang") in _LANG_CODES:
            meta.setdefault("lang", source["lang"])
        meta["deidentified"] = True
        return meta

    @staticmethod
    def _bare(span: Span) -> Span:
        """The span without extras, its score rounded to 6 decimals: floating-point noise of the
        model's arithmetic (1e-15, which depends on memory layout) never changes the output bytes."""
        score = round(float(span.score), SCORE_DECIMALS)
        return span.with_(meta={}, score=score) if span.meta or score != span.score else span

    def release(self, source: Document, text: str, spans: Sequence[Span], layer: str = GOLD) -> Document:
        """The output document for ``source`` with new ``text`` and relocated ``spans``."""
        return Document(source.id, text, self._patient(source.patient_id), self._metadata(source.metadata),
                        {layer: [self._bare(s) for s in spans]})
