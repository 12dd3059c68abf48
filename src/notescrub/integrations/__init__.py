"""Bridges to other ecosystems: spaCy (:mod:`.spacy`) and Presidio (:mod:`.presidio`).

Only :mod:`.entities` (the PHI-type ↔ Presidio entity table) is imported by the rest of
notescrub; the bridge modules import their library when they are imported themselves,
so the core package never needs spaCy or Presidio.

>>> from notescrub.integrations.entities import presidio_entity
>>> presidio_entity("DOCTOR")
'PERSON'
"""
