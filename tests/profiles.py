"""How many examples a property test draws beyond its profile's own count."""

from __future__ import annotations

from hypothesis import settings


def examples(count: int) -> int:
    """`count` where the profile asks for more than the default run (`thorough`); in the
    default run (`ci`, tests/conftest.py), that profile's own count at most: the default
    run checks every property on the same fixed examples, the thorough one digs deep."""
    default = settings.get_profile("ci").max_examples
    return count if settings().max_examples > default else min(count, default)
