"""The leftover safety net: tag the untagged tokens that are probably PHI after all.

The risk calibration (:mod:`notescrub.risk.calibration`) gives every word-like token the
model left untagged a calibrated probability of being PHI (CRF marginal, feeder hits,
shape, lexicons, rarity, closeness to tagged PHI). :class:`LeftoverNet` is a detector that
runs after the others in a pipeline and returns a span for each such token whose
probability reaches ``threshold``, labelled with the PHI type the CRF found likeliest for
it. Neighbouring tokens of one type separated only by spaces or tabs become one span.

In a hybrid model it is the component kind ``leftover_net`` (last in the component list,
after the two-pass dictionary, so that it sees everything the model tagged); a preset
switches it on (``{"net": {"enabled": true, "threshold": 0.05}}``). It adds recall at a
cost in precision, like a more negative CRF O-bias but along a different curve
(docs/review-risk.md, "As a recall safety net").

Tokens the CRF gave no type (a model without a CRF) are never tagged: the net needs a
type to write.

>>> from notescrub.risk.calibration import Calibration
>>> from notescrub.types import Document, Span
>>> cal = Calibration("demo", -4.0, {"capital": 2.0, "name_lexicon": 3.0})
>>> net = LeftoverNet(cal, threshold=0.5, default_type="PATIENT")
>>> doc = Document("d", "Seen by Ruiz today.")
>>> doc.add_layer("crf", [])
>>> [(doc.span_text(s), s.label) for s in net.detect(doc)]
[('Ruiz', 'PATIENT')]
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from notescrub.detect.base import Detector
from notescrub.errors import ConfigError
from notescrub.risk.calibration import Calibration
from notescrub.risk.features import leftover_features
from notescrub.types import Document, Span

__all__ = ["LeftoverNet"]

_SAME_LINE_GAP = re.compile(r"[ \t]*")


class LeftoverNet(Detector):
    """Spans for the leftover tokens with calibrated ``P(PHI) >= threshold`` (see module doc).

    ``sources``: the layers that make up the output so far (``None``: every layer already
    on the document); ``default_type``: the label of a token the CRF gave no type (``None``:
    such tokens are skipped).
    """

    takes_post = False

    def __init__(self, calibration: Calibration, threshold: float, sources: Sequence[str] | None = None,
                 lang: str = "en", name: str = "net", default_type: str | None = None) -> None:
        if not 0.0 < threshold <= 1.0:
            raise ConfigError(f"leftover net threshold must be in (0, 1], got {threshold}")
        self.calibration = calibration
        self.threshold = float(threshold)
        self.sources = None if sources is None else list(sources)
        self.lang = lang
        self.name = name
        self.default_type = default_type

    def detect(self, doc: Document) -> list[Span]:
        names = self.sources if self.sources is not None else [n for n in doc.layer_names if n != self.name]
        tagged = [s for n in names if n in doc.layer_names for s in doc.layer(n)]
        left = leftover_features(doc, self.lang, spans=tagged)
        p = self.calibration.probability(left.matrix)
        out: list[Span] = []
        for k in range(len(left.tokens)):
            label = left.types[k] or self.default_type
            if p[k] < self.threshold or label is None:
                continue
            tok = left.tokens[k]
            prev = out[-1] if out else None
            if (prev is not None and prev.label == label
                    and _SAME_LINE_GAP.fullmatch(doc.text, prev.end, tok.start) is not None):
                out[-1] = Span(prev.start, tok.end, label, min(prev.score or 1.0, float(p[k])), self.name)
            else:
                out.append(Span(tok.start, tok.end, label, float(p[k]), self.name))
        return out

    def __repr__(self) -> str:
        return f"LeftoverNet(threshold={self.threshold}, calibration={self.calibration.model!r})"
