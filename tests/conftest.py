"""Shared fixtures: every solver backend, and hypothesis profiles."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from rummisolve.engine.backends import BACKENDS

# `ci` is the default; `thorough` (HYPOTHESIS_PROFILE=thorough) for thousands of examples.
settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile(
    "thorough", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=5000
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(params=sorted(BACKENDS), scope="session")
def backend(request: pytest.FixtureRequest) -> str:
    """Each backend by name: every solver test runs on all of them."""
    return str(request.param)
