"""Every file the README, the docs and --help point a user at is in the repository."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from rummisolve.cli import cli

from .cli import run
from .test_examples import PAGES

ROOT = Path(__file__).resolve().parent.parent
# A path in the repository, as the pages write one: in a markdown link, or in backticks.
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
PATH = re.compile(r"`((?:\.\./)?(?:docs|puzzles|solver|tests|benchmarks|\.ci)/[^`\s]*)`")
# Names the pages mean as patterns, or files a command writes, not files that exist.
NOT_FILES = re.compile(r"[*{}<>]|NNN|gen-\d|\.\.\.$")


def referenced(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    found = [m for m in LINK.findall(text) if "://" not in m]
    found += PATH.findall(text)
    return [f for f in found if not NOT_FILES.search(f)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_path_a_page_names_exists(page: Path) -> None:
    missing = []
    for name in referenced(page):
        base = page.parent if name.startswith("..") or page.parent != ROOT else ROOT
        target = (base / name).resolve()
        if not target.exists() and not (ROOT / name).exists():
            missing.append(name)
    assert missing == []


def test_no_page_points_at_the_developers_references() -> None:
    """interface.md and the shared rules digest are ours, outside the repository."""
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"interface\.md|shared/", text), page


def commands() -> list[str]:
    """Every command's name (the group loads each command only when it is run)."""
    return sorted(cli.list_commands(click.Context(cli)))


@pytest.mark.parametrize("command", ["", *commands()])
def test_help_names_only_files_that_exist_and_no_seed_numbers(command: str) -> None:
    code, out, err = run(*([command, "--help"] if command else ["--help"]))
    assert (code, err) == (0, "")
    for name in re.findall(r"\b((?:docs|puzzles)/[\w./-]+\.\w+)", out):
        assert (ROOT / name).exists(), name
    assert not re.search(r"\(0{2}[0-4]", out), "documents are named by language"


def test_every_puzzle_the_puzzle_guide_names_is_in_the_library() -> None:
    """Its examples name puzzles from the library's root (`jokers/006-...txt`)."""
    text = (ROOT / "puzzles" / "README.md").read_text(encoding="utf-8")
    named = re.findall(r"`([\w-]+/\d{3}-[\w-]+\.txt)`", text)
    assert named
    assert [n for n in named if not (ROOT / "puzzles" / n).exists()] == []
