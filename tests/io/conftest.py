"""Fixtures for the io tests: small hand-written corpora (fictional, no real PHI)."""

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES

