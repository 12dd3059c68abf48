"""Request bodies of the service (pydantic models; FastAPI validates and documents them).

>>> DeidRequest(text="Seen 3/18.", mode="tag").notes_list()
[{'text': 'Seen 3/18.', 'id': None, 'patient_id': None}]
>>> DeidRequest(notes=[{"text": "a", "id": "n1"}]).notes_list()[0]["id"]
'n1'
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["AnalyzeRequest", "AnnotateRequest", "DeidRequest", "Note"]

Mode = Literal["surrogate", "tag", "mask", "redact", "hash"]


class Note(BaseModel):
    """One note of a batch."""

    model_config = ConfigDict(extra="forbid")
    text: str
    id: str | None = Field(None, max_length=256)
    patient_id: str | None = Field(None, max_length=256, description="keys per-patient surrogates and date shifts")


class AnnotateRequest(BaseModel):
    """One note (``text``, ``id``, ``patient_id``) or a batch (``notes``), and detection options."""

    model_config = ConfigDict(extra="forbid")
    text: str | None = Field(None, description="one note (or give notes)")
    id: str | None = Field(None, max_length=256)
    patient_id: str | None = Field(None, max_length=256)
    notes: list[Note] | None = Field(None, description="a batch of notes (or give text)")
    preset: str | None = Field(None, description="operating point of the served model (en-default: "
                                                 "precision, balanced, high-recall, max-recall)")
    types: list[str] | None = Field(None, description="only these PHI types (canonical or native labels, or 'hipaa')")

    @model_validator(mode="after")
    def _one_or_batch(self) -> AnnotateRequest:
        if (self.text is None) == (self.notes is None):
            raise ValueError("give either text (one note) or notes (a batch)")
        if self.notes is not None and not self.notes:
            raise ValueError("notes is empty")
        return self

    def notes_list(self) -> list[dict[str, Any]]:
        """The notes as plain dicts, one even for a single ``text``."""
        if self.notes is not None:
            return [n.model_dump() for n in self.notes]
        return [{"text": self.text, "id": self.id, "patient_id": self.patient_id}]


class DeidRequest(AnnotateRequest):
    """As :class:`AnnotateRequest`, plus how PHI is replaced."""

    mode: Mode = Field("surrogate", description="surrogate, tag, mask, redact or hash")


class AnalyzeRequest(BaseModel):
    """Presidio analyzer's request body (fields notescrub does not use are accepted and ignored)."""

    model_config = ConfigDict(extra="ignore")
    text: str | list[str]
    language: str
    entities: list[str] | None = None
    score_threshold: float | None = None
    correlation_id: str | None = None
    return_decision_process: bool = False
    allow_list: list[str] | None = None
    allow_list_match: Literal["exact", "regex"] = "exact"
