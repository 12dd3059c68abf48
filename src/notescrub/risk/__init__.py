"""Risk scores: where a model's output is likely to have leaked PHI, to send reviewers there.

* :func:`assess` -- per note, ``risk`` (expected number of PHI tokens left untagged) and
  ``suspects`` (untagged tokens ranked by their probability of being PHI);
* :class:`Calibration` -- the shipped, validated logistic calibration behind both;
* :func:`leftover_features` -- the per-token evidence (CRF marginals, feeder hits, shape,
  lexicons, rarity).

>>> from notescrub.api import get_pipeline
>>> from notescrub.types import Document
>>> pipe = get_pipeline("rules-en")
>>> assess(pipe(Document("a", "Call 555-123-4567.")), pipe).suspects[0].type is None
True
"""

from notescrub.risk.calibration import Calibration, fit_logistic, packaged_calibration
from notescrub.risk.features import FEATURES, Leftovers, both_sides, leftover_features, tagged_features
from notescrub.risk.score import (
    DEFAULT_TOP_K,
    NoteRisk,
    Suspect,
    assess,
    calibration_for,
    expected_f1,
    packaged_risk,
    scorer,
    shift_suspects,
    warn_if_other_crf,
)

__all__ = ["DEFAULT_TOP_K", "FEATURES", "Calibration", "Leftovers", "NoteRisk", "Suspect", "assess", "both_sides",
           "calibration_for", "expected_f1", "fit_logistic", "leftover_features", "packaged_calibration",
           "packaged_risk", "scorer", "shift_suspects", "tagged_features", "warn_if_other_crf"]
