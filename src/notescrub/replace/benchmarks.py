"""Benchmark target ``deid``: replacement throughput on the gold spans of the corpora.

Registered with :mod:`notescrub.bench` (``notescrub bench deid``). Detection is not
timed here (the spans come from the corpus' gold layer); each pass uses a fresh
:class:`~notescrub.replace.engine.Replacer`, so consistency caches start empty.

>>> "deid" in __import__("notescrub.bench", fromlist=["BENCHMARKS"]).BENCHMARKS
True
"""

from __future__ import annotations

import resource
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from notescrub.bench import _timed_runs, benchmark, one_core
from notescrub.errors import ConfigError

__all__: list[str] = []


@benchmark("deid", "replacement throughput (spans/s, chars/s on one core) per mode, on the corpora's gold spans")
def _bench_deid(paths: Sequence[Path], repeat: int) -> dict[str, Any]:
    from notescrub.detect.spans.resolve import longest
    from notescrub.io import read_corpus
    from notescrub.replace.engine import Replacer
    from notescrub.replace.keys import SurrogateKey

    if not paths:
        raise ConfigError("no corpus found for the deid benchmark; pass --corpus PATH")
    docs = [d for p in paths for d in read_corpus(p)]
    for d in docs:
        d.add_layer("gold", longest(d.layer("gold")))
    n_spans = sum(len(d.layer("gold")) for d in docs)
    n_chars = sum(len(d.text) for d in docs)
    key = SurrogateKey.from_seed("bench")
    figures: dict[str, Any] = {"corpora": [str(p) for p in paths], "documents": len(docs), "spans": n_spans,
                               "characters": n_chars}
    for mode in ("surrogate", "tag", "mask", "hash"):
        def one_pass(mode: str = mode) -> None:
            r = Replacer(mode, key=key, layer="gold")
            for d in docs:
                r.replace(d)

        one_pass()  # warm-up: word lists, lexicons, regexes
        with one_core():
            times = list(_timed_runs(one_pass, repeat, min_seconds=1.0))
        med = statistics.median(times)
        figures[f"{mode}_spans_per_s_median"] = round(n_spans / med)
        figures[f"{mode}_chars_per_s_median"] = round(n_chars / med)
        figures[f"{mode}_seconds_per_pass_median"] = round(med, 4)
    figures["max_rss_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return figures
