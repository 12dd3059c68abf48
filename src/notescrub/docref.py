"""How messages and logs name a document without revealing its id.

Document ids are often identifiers themselves (file names built from an MRN, an
accession number or a patient name). Messages therefore name a document by a short
keyed hash of its id, ``doc#3f9a61c2``, and by its input position where the caller
knows it. The hash key is random per process unless :func:`set_ref_key` gives one (the
CLI passes the run's surrogate key, so the same id gets the same reference in every
run with that key). ``-v`` on the command line (:func:`reveal_ids`) prints the ids
themselves instead.

>>> set_ref_key(bytes(32)); reveal_ids(False)
>>> doc_ref("MRN-4482911")
'doc#190fced3'
>>> doc_ref("MRN-4482911", position=12)
'document 12 (doc#190fced3)'
>>> reveal_ids(True); doc_ref("MRN-4482911", position=12)
"document 12 ('MRN-4482911')"
>>> reveal_ids(False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["doc_ref", "reveal_ids", "set_ref_key"]

_state: dict[str, object] = {"key": secrets.token_bytes(32), "reveal": False}


def set_ref_key(secret: bytes) -> None:
    """Key the document references (e.g. with the run's surrogate key material)."""
    _state["key"] = hmac.new(secret, b"notescrub-doc-ref", hashlib.sha256).digest()


def reveal_ids(flag: bool) -> None:
    """Print real document ids in messages (``-v``) instead of their keyed hashes."""
    _state["reveal"] = bool(flag)


def doc_ref(doc_id: object, position: int | None = None) -> str:
    """``doc#<8 hex>`` (or the id itself when revealed), with the 1-based input position if known."""
    if _state["reveal"]:
        ref = repr(doc_id)
    else:
        key = _state["key"]
        assert isinstance(key, bytes)
        ref = "doc#" + hmac.new(key, str(doc_id).encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()[:8]
    return ref if position is None else f"document {position} ({ref})"
