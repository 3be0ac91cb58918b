"""The package as a user installs it: built into a wheel, installed with its extras into a
fresh virtual environment, every module imported and `hint` run there.

The environment borrows this one's installed libraries (a `.pth` file adds its
site-packages, as `--system-site-packages` would, but also when this is itself a venv), so
nothing is downloaded; it runs from a scratch folder without PYTHONPATH, and checks that
the `rummisolve` it runs is the wheel's, not this checkout's."""

from __future__ import annotations

import email.parser
import json
import os
import re
import shutil
import site
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest

from .cli import run

ROOT = Path(__file__).resolve().parent.parent
# What a build reads: the package's folder and the files that describe it.
SOURCES = ("pyproject.toml", "setup.py", "README.md")
BOARD = ROOT / "puzzles/rules/012-interface-hint-example.txt"
EXTRAS = ("web", "ray", "rl")  # the extras of features; dev and bench are for the checkout


@dataclass(frozen=True)
class Installed:
    python: Path
    scripts: Path
    extras: tuple[str, ...]
    missing: frozenset[str]  # the top-level modules of the extras not installed
    folder: Path  # a scratch folder of no checkout, the commands' working folder

    def run(self, *words: str) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        return subprocess.run(
            words, cwd=self.folder, env=env, capture_output=True, text=True, check=False
        )


def pip_environment() -> dict[str, str]:
    """pip's and setuptools' environment: this one's, but for a warnings filter of ours
    (CI's `error::DeprecationWarning`), which their own deprecations would trip."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}


def built_wheel(folder: Path) -> Path:
    """The wheel of a copy of the checkout (a build in place leaves build/ behind, whose
    stale files the next wheel would carry)."""
    if int(metadata.version("setuptools").split(".")[0]) < 77:
        pytest.fail("the build needs setuptools>=77, which the dev extra installs")
    source = folder / "source"
    shutil.copytree(
        ROOT / "solver", source / "solver", ignore=shutil.ignore_patterns("__pycache__")
    )
    for name in SOURCES:
        shutil.copy(ROOT / name, source / name)
    words = ["--no-deps", "--no-build-isolation", "--no-index", "--quiet", "--wheel-dir"]
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", *words, str(folder), str(source)],
        env=pip_environment(),
        check=True,
    )
    (wheel,) = folder.glob("rummisolve-*.whl")
    return wheel


def extras_of(wheel: Path) -> dict[str, set[str]]:
    """Each extra's requirements' names, as the wheel's metadata lists them."""
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        fields = email.parser.Parser().parsestr(archive.read(name).decode())
    found: dict[str, set[str]] = {extra: set() for extra in fields.get_all("Provides-Extra", [])}
    for requirement in fields.get_all("Requires-Dist", []):
        if marker := re.search(r"""extra == ["'](\w+)["']""", requirement):
            found[marker.group(1)].add(re.split(r"[^A-Za-z0-9._-]", requirement)[0])
    return found


def is_installed(name: str) -> bool:
    try:
        metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return False
    return True


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_wheel(tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """A fresh venv with the wheel and the feature extras whose libraries this environment
    has (in CI's main job: every one)."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    scripts = venv / "bin"
    python = scripts / "python"
    ask = "import sysconfig; print(sysconfig.get_path('purelib'))"
    where = subprocess.run([python, "-c", ask], capture_output=True, text=True, check=True)
    borrowed = "; ".join(f"site.addsitedir({path!r})" for path in site.getsitepackages())
    (Path(where.stdout.strip()) / "borrowed.pth").write_text(f"import site; {borrowed}\n")
    offered = extras_of(wheel)
    extras = tuple(e for e in EXTRAS if all(map(is_installed, offered[e])))
    missing = {n.lower().replace("-", "_") for e in EXTRAS if e not in extras for n in offered[e]}
    requirement = f"{wheel}[{','.join(extras)}]"
    # --no-index: every library must be borrowed; the checkout's own editable install,
    # if any, lies outside the venv and is left alone.
    pip = [str(python), "-m", "pip", "--disable-pip-version-check", "--quiet"]
    subprocess.run([*pip, "install", "--no-index", requirement], env=pip_environment(), check=True)
    folder = tmp_path_factory.mktemp("elsewhere")
    return Installed(python, scripts, extras, frozenset(missing), folder)


def test_the_wheel_holds_every_file_of_the_package(wheel: Path) -> None:
    """Every module, every subpackage's, the page's static files and py.typed: a package
    added to solver/ is found without naming it anywhere."""
    package = ROOT / "solver"
    expected = {
        "rummisolve/" + path.relative_to(package).as_posix()
        for path in package.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }
    with zipfile.ZipFile(wheel) as archive:
        found = {n for n in archive.namelist() if n.startswith("rummisolve/")}
    assert found == expected
    assert {"rummisolve/py.typed", "rummisolve/web/static/index.html"} <= found


def test_the_web_libraries_are_an_extra(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        fields = email.parser.Parser().parsestr(archive.read(name).decode())
    core = [r for r in fields.get_all("Requires-Dist", []) if "extra ==" not in r]
    assert not [r for r in core if r.startswith(("starlette", "uvicorn", "segno", "anyio"))]
    assert extras_of(wheel)["web"] == {"starlette", "uvicorn", "segno", "anyio"}
    assert fields["License-Expression"] == "MIT"


WALK = """
import importlib, json, pkgutil, sys
import rummisolve
missing = set(sys.argv[1:])
names, absent = [], []
for found in pkgutil.walk_packages(rummisolve.__path__, "rummisolve."):
    if found.name == "rummisolve.__main__":
        continue  # the command itself, run by the test of `python -m rummisolve`
    try:
        importlib.import_module(found.name)
    except ModuleNotFoundError as error:
        if (error.name or "").partition(".")[0] not in missing:
            raise
        absent.append(found.name)
    else:
        names.append(found.name)
print(json.dumps({"file": rummisolve.__file__, "imported": names, "absent": absent}))
"""


def test_every_module_imports_from_the_installed_wheel(installed: Installed) -> None:
    """Each module of the package, imported in the venv; only those of an extra this
    environment lacks may be absent (in CI's main job, none)."""
    done = installed.run(str(installed.python), "-c", WALK, *sorted(installed.missing))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert Path(report["file"]).is_relative_to(installed.python.parent.parent)
    package = ROOT / "solver"
    expected = set()
    for path in package.rglob("*.py"):
        parts = path.relative_to(package).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts not in ((), ("__main__",)):
            expected.add(".".join(("rummisolve", *parts)))
    imported, absent = set(report["imported"]), set(report["absent"])
    # An absent package's modules are not walked: they are accounted for with it.
    unread = {m for m in expected if any(m == a or m.startswith(f"{a}.") for a in absent)}
    assert imported | unread == expected and not imported & unread
    if set(EXTRAS) <= set(installed.extras):
        assert absent == set()


def test_hint_runs_from_the_installed_wheel(installed: Installed) -> None:
    board = installed.folder / BOARD.name
    shutil.copy(BOARD, board)
    expected = run("hint", str(board))
    assert expected.code == 0
    command = installed.run(str(installed.scripts / "rummisolve"), "hint", board.name)
    module = installed.run(str(installed.python), "-m", "rummisolve", "hint", board.name)
    for done in (command, module):
        assert (done.returncode, done.stderr) == (0, "")
        assert without_time(done.stdout) == without_time(expected.out)


def without_time(out: str) -> str:
    return re.sub(r"\d+ ms", "N ms", out)


def test_the_installed_package_is_typed(installed: Installed) -> None:
    ask = "import importlib.resources as r; print(r.files('rummisolve').joinpath('py.typed'))"
    done = installed.run(str(installed.python), "-c", ask)
    typed = Path(done.stdout.strip())
    assert typed.is_file() and typed.is_relative_to(installed.python.parent.parent)
