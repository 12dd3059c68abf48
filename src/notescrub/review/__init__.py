"""Human review of model annotations (``notescrub review``): storage, queue, export, statistics.

Modules, one concept each: :mod:`.edits` (the reviewer's actions on spans, pure),
:mod:`.queue` (annotation records and the review priority), :mod:`.store` (the
SQLite database: notes, versions, the append-only edit log), :mod:`.importer`
(pre-annotating a corpus into the database once), :mod:`.preview` (the surrogate
preview and review documents), :mod:`.export` (gold corpus and de-identified
release), :mod:`.stats` (progress and agreement) and :mod:`.server` (the local web
page and its JSON API, standard library only). Nothing here imports the CLI.

>>> from notescrub.review.queue import note_priority
>>> note_priority({"risk": 1.0, "spans": []})
1.0
"""
