"""Synthetic, annotated English clinical notes for training de-identifiers.

:func:`generate_corpus` writes many note types (ED, discharge summary, H&P, ICU nursing
shorthand, telephone, portal, radiology, pathology, operative, psych/social work, letters,
discharge instructions, transfer forms, referrals, lab reports...) for fictional patients whose
people, places, numbers and dates recur across their notes. Gold spans are built together with
the text, so offsets are exact. See ``docs/synth.md``.

>>> from notescrub.synth import generate_corpus
>>> doc = next(generate_corpus(1, 1, seed=1))
>>> doc.id, doc.patient_id
('SYN0001-1', 'SYN0001')
"""

from notescrub.synth.generate import generate_corpus, generate_note, generate_notes

__all__ = ["generate_corpus", "generate_note", "generate_notes"]
