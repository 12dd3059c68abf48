"""Benchmark target ``annotate``: CRF annotation throughput, features included.

``notescrub bench annotate [--corpus PATH]`` loads the model named by the environment
variable ``NOTESCRUB_BENCH_MODEL`` (default: the packaged ``es-meddocan``), then times
full passes over the corpus on one core: each pass annotates fresh documents (so
tokenization, segmentation, features and decoding are all counted). Without
``--corpus`` only the MEDDOCAN splits of the default corpora are used. Both wall-clock
and CPU-time rates are reported (the CPU rate is the honest one on a shared machine).

>>> "annotate" in BENCHMARKS and "pipeline" in BENCHMARKS
True

``notescrub bench pipeline [--model NAME_OR_DIR]`` times a whole pipeline the same way
(notes/s and tokens/s on one core, peak RSS); see :func:`bench_pipeline`.
"""

from __future__ import annotations

import os
import resource
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from notescrub.bench import BENCHMARKS, benchmark, one_core  # noqa: F401 (BENCHMARKS: doctest)
from notescrub.errors import ConfigError

__all__ = ["bench_annotate", "bench_pipeline"]


@benchmark("annotate", "CRF annotate throughput incl. features (tokens/s on one core; model: $NOTESCRUB_BENCH_MODEL)")
def bench_annotate(paths: Sequence[Path], repeat: int) -> dict[str, Any]:
    from notescrub.bench import default_corpora
    from notescrub.io import read_corpus
    from notescrub.registry import load_model
    from notescrub.text.views import token_view
    from notescrub.types import Document

    if list(paths) == default_corpora():
        paths = [p for p in paths if "meddocan" in str(p)]
    if not paths:
        raise ConfigError("no corpus found for the annotate benchmark; pass --corpus PATH")
    model = os.environ.get("NOTESCRUB_BENCH_MODEL", "es-meddocan")
    t0 = time.perf_counter()
    pipeline = load_model(model)
    load_s = time.perf_counter() - t0
    texts = [(d.id, d.text) for p in paths for d in read_corpus(p)]
    n_tokens = sum(len(token_view(Document(i, t)).tokens) for i, t in texts)

    def one_pass() -> tuple[float, float]:
        w, c = time.perf_counter(), time.process_time()
        for i, t in texts:
            pipeline(Document(i, t))
        return time.perf_counter() - w, time.process_time() - c

    with one_core():
        cold = one_pass()  # first pass: per-word score cache empty
        runs = [one_pass() for _ in range(max(1, repeat))]
    wall = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    return {
        "model": model,
        "corpora": [str(p) for p in paths],
        "documents": len(texts),
        "tokens_per_pass": n_tokens,
        "model_load_s": round(load_s, 2),
        "passes": len(runs),
        "first_pass_tokens_per_s_wall": round(n_tokens / cold[0]),
        "first_pass_tokens_per_s_cpu": round(n_tokens / cold[1]),
        "tokens_per_s_wall_median": round(n_tokens / wall),
        "tokens_per_s_cpu_median": round(n_tokens / cpu),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "max_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }




@benchmark("pipeline", "whole de-identification pipeline (notes/s, tokens/s on one core, peak RSS; "
                       "model: --model / $NOTESCRUB_BENCH_MODEL, default en-default)")
def bench_pipeline(paths: Sequence[Path], repeat: int) -> dict[str, Any]:
    """Annotate the corpus with a whole pipeline (``Pipeline.pipe``: patient grouping, two-pass,
    resolution), fresh documents every pass; CPU time is the figure to compare on a shared machine.

    Without ``--corpus`` only en-dev of the default corpora is used (an English pipeline).
    """
    from notescrub.bench import default_corpora
    from notescrub.io import read_corpus
    from notescrub.registry import load_model, packaged_models
    from notescrub.text.views import token_view

    if list(paths) == default_corpora():
        paths = [p for p in paths if "en-dev" in str(p)]
    if not paths:
        raise ConfigError("no corpus found for the pipeline benchmark; pass --corpus PATH")
    model = os.environ.get("NOTESCRUB_BENCH_MODEL") or ("en-default" if "en-default" in packaged_models() else "")
    if not model:
        raise ConfigError("no model for the pipeline benchmark: pass --model (en-default is not packaged)")
    t0, c0 = time.perf_counter(), time.process_time()
    pipeline = load_model(model)
    load_wall, load_cpu = time.perf_counter() - t0, time.process_time() - c0
    docs = [d.copy(layers=False) for p in paths for d in read_corpus(p)]
    n_tokens = sum(len(token_view(d.copy(layers=False)).tokens) for d in docs)

    def one_pass() -> tuple[float, float]:
        fresh = [d.copy(layers=False) for d in docs]  # nothing cached from an earlier pass
        w, c = time.perf_counter(), time.process_time()
        for _ in pipeline.pipe(fresh):
            pass
        return time.perf_counter() - w, time.process_time() - c

    with one_core():
        cold = one_pass()  # first pass: lexicons, compiled patterns and per-word caches are built
        runs = [one_pass() for _ in range(max(1, repeat))]
    wall = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    return {
        "model": model,
        "corpora": [str(p) for p in paths],
        "documents": len(docs),
        "tokens_per_pass": n_tokens,
        "tokens_per_document": round(n_tokens / max(1, len(docs))),
        "model_load_s_wall": round(load_wall, 2),
        "model_load_s_cpu": round(load_cpu, 2),
        "first_pass_notes_per_s_cpu": round(len(docs) / cold[1], 1),
        "passes": len(runs),
        "seconds_per_pass_cpu_median": round(cpu, 3),
        "notes_per_s_cpu_median": round(len(docs) / cpu, 1),
        "tokens_per_s_cpu_median": round(n_tokens / cpu),
        "notes_per_s_wall_median": round(len(docs) / wall, 1),
        "tokens_per_s_wall_median": round(n_tokens / wall),
        "seconds_per_1000_notes_cpu": round(1000 * cpu / len(docs), 1),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "max_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
