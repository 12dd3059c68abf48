"""docs/en-default.md quotes the eighth-wave figures of benchmarks/results/en-default-w39-w44.json correctly."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CARD = (ROOT / "docs" / "en-default.md").read_text(encoding="utf-8")
RESULT = json.loads((ROOT / "benchmarks" / "results" / "en-default-w39-w44.json").read_text(encoding="utf-8"))
MODEL = next(iter(RESULT["models"].values()))
WRITERS = [w for w in MODEL if w != "pooled"]


@pytest.mark.parametrize("preset", ["balanced", "high-recall", "max-recall"])
def test_eighth_wave_table_row(preset: str) -> None:
    p = MODEL["pooled"][preset]
    strict = statistics.mean(MODEL[w][preset]["strict"]["f1"] for w in WRITERS)
    notes = p["notes"]
    row = (f"| `{preset}` | {p['binary_token']['precision']:.3f} | {p['binary_token']['recall']:.3f} | {strict:.3f} | "
           f"{p['leaked_tokens']} of {p['phi_tokens']} | {p['notes_with_leak']} of {notes} "
           f"({round(100 * p['notes_with_leak'] / notes)}%) |")
    assert row in CARD


@pytest.mark.parametrize("writer", WRITERS)
def test_eighth_wave_per_writer(writer: str) -> None:
    r = MODEL[writer]["high-recall"]
    quote = (f"{writer} {r['binary_token']['precision']:.3f} /\n{r['binary_token']['recall']:.3f} "
             f"({r['leaked_tokens']}, {r['notes_with_leak']} of {r['notes']})")
    assert " ".join(quote.split()) in " ".join(CARD.split())


PROXY_NAMES = {"proxy-base": "recipe as shipped", "proxy-rep": "+ re-populated writers' notes",
               "proxy-bag": "+ context bag (4 words)", "proxy-bag8": "+ context bag (8 words)",
               "proxy-bagnosyn": "+ context bag (4), no synthetic notes",
               "proxy-bagc1": "+ context bag (4), c1 0.01", "proxy-bagc2": "+ context bag (4), c2 0.01"}


@pytest.mark.parametrize("split", ["a", "b"])
def test_proxy_lever_table(split: str) -> None:
    data = json.loads((ROOT / "benchmarks" / "results" / f"en-default-levers-proxy-{split}.json").read_text(
        encoding="utf-8"))
    assert data["models"]
    for name, model in data["models"].items():
        for preset in ("balanced", "high-recall", "max-recall"):
            p = model["pooled"][preset]
            row = (f"| {split.upper()} | {PROXY_NAMES[name]} | `{preset}` | {p['binary_token']['precision']:.3f} | "
                   f"{p['binary_token']['recall']:.4f} | {p['strict']['f1']:.3f} | {p['leaked_tokens']} | "
                   f"{p['notes_with_leak']} of {p['notes']} |")
            assert row in CARD, row
