"""Run the experiment sections on one corpus and write the report.

:func:`run_experiments` loads the corpus (:mod:`notescrub.experiments.data`), cuts it
to the settings' sizes, runs the requested sections in report order with one shared
:class:`~notescrub.experiments.common.Context` (models trained once, reused across
sections), and writes ``results.json``, CSVs and ``index.html`` after every section,
so an interrupted long run still leaves the finished sections behind.

>>> from notescrub.types import Document, Span
>>> from notescrub.experiments.config import preset
>>> from notescrub.experiments.data import from_documents
>>> import tempfile, pathlib
>>> docs = [Document(f"d{i}", f"Seen by Dr. {n} on 3/{i + 1}/2019.", f"P{i}",
...                  layers={"gold": [Span(12, 12 + len(n), "DOCTOR")]})
...         for i, n in enumerate(["Ruiz", "Diaz", "Moreno", "Lopez", "Garcia", "Perez"])]
>>> ds = from_documents("toy", docs, folds=2, lang="en")
>>> s = preset("tiny", systems=("h-d",), sections=("systems",))
>>> out = run_experiments(ds, s, pathlib.Path(tempfile.mkdtemp()) / "rep")
>>> (out / "index.html").is_file()
True
"""

from __future__ import annotations

import importlib
import logging
import platform
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from notescrub.experiments.common import Context, Section
from notescrub.experiments.config import Settings
from notescrub.experiments.data import Dataset, subset
from notescrub.experiments.report import write_report

__all__ = ["SECTION_MODULES", "run_experiments"]

log = logging.getLogger(__name__)

#: section key -> module with ``run_section(ctx, dataset) -> Section``
SECTION_MODULES = {
    "systems": "notescrub.experiments.systems",
    "corpora": "notescrub.experiments.corpora",
    "carafe": "notescrub.experiments.carafe_study",
    "wi-deid": "notescrub.experiments.wi_deid_study",
    "aramaki": "notescrub.experiments.aramaki_study",
    "manchester": "notescrub.experiments.manchester_study",
}


def run_experiments(dataset: Dataset, settings: Settings, out_dir: str | Path, *,
                    command: str | None = None, progress: Callable[[str], None] | None = None) -> Path:
    """Run ``settings.sections`` on ``dataset`` and write the report to ``out_dir``."""
    from notescrub import __version__

    settings.check()
    ds = subset(dataset, max_train_docs=settings.max_train_docs, max_test_docs=settings.max_test_docs,
                seed=settings.seed)
    ctx = Context(settings)
    t0 = time.perf_counter()
    meta: dict[str, Any] = {
        "corpus": ds.name, "notescrub_version": __version__,
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": command or "", "machine": f"{platform.machine()}, {platform.python_implementation()} "
                                             f"{platform.python_version()}",
        "settings": settings.as_dict(), "dataset": ds.describe(),
    }
    sections: list[Section] = []
    for key in settings.sections:
        if progress:
            progress(f"section {key}...")
        mod = importlib.import_module(SECTION_MODULES[key])
        try:
            sec = mod.run_section(ctx, ds)
        except Exception as exc:  # one broken section must not lose the others; it is reported
            log.exception("section %s failed", key)
            sec = Section(key, key, notes=[f"section failed: {type(exc).__name__}: {exc}"])
        sections.append(sec)
        meta["wall_seconds"] = round(time.perf_counter() - t0, 1)
        meta["section_seconds"] = {s.key: round(s.seconds, 1) for s in sections}
        write_report(out_dir, meta, sections)
        if progress:
            progress(f"section {key} done in {sec.seconds:.0f} s (total {meta['wall_seconds']:.0f} s)")
    meta["finished"] = datetime.now(UTC).isoformat(timespec="seconds")
    return write_report(out_dir, meta, sections)
