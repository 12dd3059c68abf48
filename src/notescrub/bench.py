"""Benchmark registry: named targets measured by ``notescrub bench NAME``.

A target is a function ``(corpus_paths, repeat) -> dict`` of measured figures
(rates, sizes, peak memory), registered with :func:`benchmark`. Other parts add
their own targets (``annotate``, ``deid``...) the same way, in a module named
``notescrub.<subpackage>.benchmarks`` (found and imported by :func:`discover`),
so that no shared file needs editing:

>>> @benchmark("noop", "does nothing, for the example")
... def _noop(paths, repeat):
...     return {"repeat": repeat}
>>> run_benchmark("noop", repeat=2)["repeat"]
2
>>> "tokenize" in BENCHMARKS
True
>>> del BENCHMARKS["noop"]

Speed is only ever measured here, never asserted in unit tests.
"""

from __future__ import annotations

import os
import resource
import statistics
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from notescrub.errors import ConfigError

__all__ = ["BENCHMARKS", "Benchmark", "benchmark", "default_corpora", "discover", "load_texts", "one_core", "run_benchmark"]

BenchFn = Callable[[Sequence[Path], int], dict[str, Any]]


@dataclass(frozen=True)
class Benchmark:
    name: str
    help: str
    fn: BenchFn


BENCHMARKS: dict[str, Benchmark] = {}


def benchmark(name: str, help: str) -> Callable[[BenchFn], BenchFn]:
    """Register ``fn`` as benchmark ``name``."""

    def deco(fn: BenchFn) -> BenchFn:
        BENCHMARKS[name] = Benchmark(name, help, fn)
        return fn

    return deco


def default_corpora() -> list[Path]:
    """MEDDOCAN train+dev (XML) and en-dev (JSONL) from ``../shared``, where present."""
    roots = [Path.cwd().parent / "shared", Path(__file__).resolve().parents[3] / "shared"]
    for root in roots:
        c = root / "corpora"
        paths = [c / "meddocan" / "train" / "xml", c / "meddocan" / "dev" / "xml", c / "en-dev" / "en-dev.jsonl"]
        found = [p for p in paths if p.exists()]
        if found:
            return found
    return []


def load_texts(paths: Sequence[Path]) -> list[str]:
    """All document texts of the given corpora."""
    from notescrub.io import read_corpus

    return [d.text for p in paths for d in read_corpus(p)]


class one_core:
    """Context manager pinning this process to one CPU (where the OS allows it)."""

    def __enter__(self) -> one_core:
        self.saved = None
        if hasattr(os, "sched_getaffinity"):
            self.saved = os.sched_getaffinity(0)
            os.sched_setaffinity(0, {min(self.saved)})
        return self

    def __exit__(self, *exc: object) -> None:
        if self.saved is not None:
            os.sched_setaffinity(0, self.saved)


def _timed_runs(fn: Callable[[], Any], repeat: int, min_seconds: float = 0.0) -> Iterator[float]:
    start_all = time.perf_counter()
    i = 0
    while i < repeat or time.perf_counter() - start_all < min_seconds:
        t0 = time.perf_counter()
        fn()
        yield time.perf_counter() - t0
        i += 1


def discover() -> dict[str, Benchmark]:
    """Import every ``notescrub.<subpackage>.benchmarks`` module so that its targets register."""
    import importlib
    import pkgutil

    import notescrub

    for info in pkgutil.iter_modules(notescrub.__path__):
        if info.ispkg:
            name = f"notescrub.{info.name}.benchmarks"
            try:
                importlib.import_module(name)
            except ModuleNotFoundError as exc:
                if exc.name != name:
                    raise
    return BENCHMARKS


def run_benchmark(name: str, corpus: Sequence[str | Path] | None = None, repeat: int = 5) -> dict[str, Any]:
    """Run target ``name`` on ``corpus`` (default: :func:`default_corpora`) and return its figures."""
    if name not in BENCHMARKS:
        discover()
    if name not in BENCHMARKS:
        raise ConfigError(f"unknown benchmark {name!r}; known: {', '.join(sorted(BENCHMARKS))}")
    paths = [Path(p) for p in corpus] if corpus else default_corpora()
    return {"benchmark": name, **BENCHMARKS[name].fn(paths, repeat)}


@benchmark("tokenize", "clinical tokenizer throughput (tokens/s on one core) and peak memory")
def _bench_tokenize(paths: Sequence[Path], repeat: int) -> dict[str, Any]:
    from notescrub.text.tokenize import tokenize

    if not paths:
        raise ConfigError("no corpus found for the tokenize benchmark; pass --corpus PATH")
    texts = load_texts(paths)
    n_tokens = sum(len(tokenize(t)) for t in texts)  # warm-up pass, also the token count
    n_chars = sum(map(len, texts))

    def one_pass() -> None:
        for t in texts:
            tokenize(t)

    with one_core():
        times = list(_timed_runs(one_pass, repeat, min_seconds=2.0))
    tracemalloc.start()
    biggest = max(texts, key=len)
    tokenize(biggest)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    med = statistics.median(times)
    return {
        "corpora": [str(p) for p in paths],
        "documents": len(texts),
        "characters": n_chars,
        "tokens_per_pass": n_tokens,
        "passes": len(times),
        "seconds_per_pass_median": round(med, 4),
        "tokens_per_s_median": round(n_tokens / med),
        "tokens_per_s_best": round(n_tokens / min(times)),
        "chars_per_s_median": round(n_chars / med),
        "peak_tokenize_mib_largest_doc": round(peak / 2**20, 3),
        "largest_doc_chars": len(biggest),
        "max_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


@benchmark("token-view", "tokens plus line/sentence/section views (what detectors use): tokens/s on one core")
def _bench_token_view(paths: Sequence[Path], repeat: int) -> dict[str, Any]:
    from notescrub.text.views import token_view
    from notescrub.types import Document

    if not paths:
        raise ConfigError("no corpus found for the token-view benchmark; pass --corpus PATH")
    texts = load_texts(paths)
    n_tokens = sum(len(token_view(Document("b", t)).tokens) for t in texts)

    def one_pass() -> None:
        for t in texts:
            token_view(Document("b", t))  # a fresh document: nothing cached

    with one_core():
        times = list(_timed_runs(one_pass, repeat, min_seconds=2.0))
    med = statistics.median(times)
    return {
        "corpora": [str(p) for p in paths],
        "documents": len(texts),
        "tokens_per_pass": n_tokens,
        "passes": len(times),
        "tokens_per_s_median": round(n_tokens / med),
        "tokens_per_s_best": round(n_tokens / min(times)),
        "max_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
