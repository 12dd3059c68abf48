"""Token features for trainable taggers (see :mod:`notescrub.features.extract`).

>>> from notescrub.features import Featurizer, GROUPS
>>> "sentence" in GROUPS, Featurizer().window
(True, (2, 2))
"""

from notescrub.features.extract import DEFAULT_GROUPS, GROUPS, Featurizer

__all__ = ["DEFAULT_GROUPS", "GROUPS", "Featurizer"]
