"""Time of the default model on long and hostile documents: is every stage linear in length?

Runs ``load_model()`` (en-default, default preset) on one document at a time, each in a
fresh pass, and prints CPU seconds per input as JSON. Inputs:

* realistic notes concatenated (en-dev notes, re-populated so that no two repeats are
  identical) to 100 KB, 250 KB, 1 MB (and 5 MB with ``--big``);
* ``"."`` repeated 100,000 times; ``"Dr. "`` repeated to 200,000 characters; a digit/slash
  soup; a line of 100,000 spaces between two words; 20,000 short capitalised lines.

The process is set up as the command line sets up its own (one BLAS thread, the loaded model
frozen out of the cyclic collector's walks: :mod:`notescrub.gcfreeze`), and each input is
measured after a warm-up on realistic notes.

The reliability targets: a 5 MB realistic document in <= 20x the time of 250 KB, and every
adversarial input at <= 10 s per MB. ``--limit S`` stops an input after S seconds (reported
as a timeout) so that a regression cannot hang the run.

    python benchmarks/hostile_inputs.py > benchmarks/results/hostile-inputs.json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import time
from pathlib import Path

from notescrub.threads import single_threaded_blas

single_threaded_blas()  # as the command line does, before numpy is imported: BLAS threads would spin

EN_DEV = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "en-dev" / "en-dev.jsonl"


def realistic(chars: int) -> str:
    from notescrub.io import read_corpus
    from notescrub.replace.repopulate import repopulate_corpus

    notes, seed = [], 0
    size = 0
    base = list(read_corpus(EN_DEV))
    while size < chars:
        for d in repopulate_corpus([x.copy() for x in base], style="random", seed=seed):
            notes.append(d.text)
            size += len(d.text) + 2
            if size >= chars:
                break
        seed += 1
    return "\n\n".join(notes)[:chars]


def adversarial() -> dict[str, str]:
    return {
        "dots-100k": "." * 100_000,
        "dr-200k": ("Dr. " * 50_000),
        "digits-slashes-200k": ("12/3" * 50_000),
        "spaces-100k": "Seen by" + " " * 100_000 + "Smith",
        "caps-lines-20k": "\n".join(f"SMITH JOHN {i}" for i in range(20_000)),
        "mixed-punct-200k": ("Mr. A. B. (C) [D] 1-2-3; " * 8_000),
        "id-trigger-spaces-100k": "ID" + " " * 100_000 + "x",
        "mrn-trigger-tabs-100k": "MRN:" + "\t" * 100_000 + "x",
        "triggers-200k": ("Acct # ID: MRN " * 14_000),
        "name-words-200k": ("Smith John " * 18_000),
    }


def _run(text: str, q) -> None:  # type: ignore[no-untyped-def]
    from notescrub.gcfreeze import freeze_loaded
    from notescrub.registry import load_model
    from notescrub.types import Document

    pipe = load_model()
    freeze_loaded()  # as the command line does after loading its model
    # warm up on realistic notes, so that the figure is the steady state of a long run: the
    # rules' scanners, feature memos and compiled kernels are built on first use, not per note
    pipe(Document("warm", "Seen by Dr. Ruiz on 3/18/2091.\n" * 4_000))
    pipe(Document("warm-notes", _WARM))
    t0 = time.process_time()
    doc = pipe(Document("x", text))
    q.put((time.process_time() - t0, len(doc.layer("phi"))))


_WARM = ""  # realistic notes for the warm-up (set in main(), inherited by the forked children)


def measure(text: str, limit: float) -> dict:
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_run, args=(text, q))
    p.start()
    p.join(limit)
    if p.is_alive():
        p.kill()
        return {"chars": len(text), "cpu_s": None, "timeout_s": limit}
    cpu, spans = q.get()
    return {"chars": len(text), "cpu_s": round(cpu, 2), "s_per_mb": round(cpu / (len(text) / 1e6), 1),
            "spans": spans}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--big", action="store_true", help="also the 5 MB realistic document")
    ap.add_argument("--limit", type=float, default=600.0)
    args = ap.parse_args()
    global _WARM
    _WARM = realistic(60_000)
    sizes = [100_000, 250_000, 1_000_000] + ([5_000_000] if args.big else [])
    out = {f"realistic-{n // 1000}k": measure(realistic(n), args.limit) for n in sizes}
    out.update({name: measure(t, args.limit) for name, t in adversarial().items()})
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
