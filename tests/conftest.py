"""Shared fixtures: paths to the shared corpora (tests skip cleanly if they are absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
MEDDOCAN = SHARED / "corpora" / "meddocan"
EN_DEV = SHARED / "corpora" / "en-dev"


@pytest.fixture(scope="session")
def meddocan_dir() -> Path:
    if not MEDDOCAN.is_dir():
        pytest.skip("../shared/corpora/meddocan not present")
    return MEDDOCAN


@pytest.fixture(scope="session")
def en_dev_dir() -> Path:
    if not EN_DEV.is_dir():
        pytest.skip("../shared/corpora/en-dev not present")
    return EN_DEV
