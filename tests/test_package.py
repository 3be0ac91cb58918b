"""The package as others import it, and the command as installed."""

from __future__ import annotations

import ast
import graphlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rummisolve

from .cli import run


@pytest.mark.parametrize("name", sorted(set(rummisolve.__all__) - {"__version__"}))
def test_every_public_name_loads(name: str) -> None:
    assert getattr(rummisolve, name) is not None


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'solve_everything'"):
        rummisolve.solve_everything  # noqa: B018


def test_importing_the_package_loads_no_solver() -> None:
    """The command takes Ctrl-C from its first moment: nothing heavy loads before it can."""
    code = "import sys, rummisolve; print(sorted({'numpy', 'pulp', 'click'} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "[]\n"


def test_check_loads_no_engine() -> None:
    """`check` starts faster than numpy imports (issue 14): no engine, no numpy."""
    board = "table:\nR1 R2 R3\nrack: K5\n"
    code = (
        "import sys\n"
        "from rummisolve.cli.app import cli\n"
        "try:\n"
        "    cli(['check', '-'], prog_name='rummisolve')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted({'numpy', 'rummisolve.engine'} & set(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=board, capture_output=True, text=True, check=True
    )
    assert done.stdout.startswith("-: valid")
    assert done.stderr == "[]\n"


def test_hint_loads_only_what_it_uses() -> None:
    """A `hint` on an opened board (issue 14's start-up): CLP's library found without
    importing cbcbox (on Linux), no HiGHS or PuLP unless a search needs them, no scoring."""
    board = "table:\nR1 R2 R3\nrack: R4 K5\n"
    unused = {"highspy", "pulp", "rummisolve.scoring"}
    if sys.platform.startswith("linux") and not os.environ.get("CBCBOX_BUILD"):
        unused.add("cbcbox")
    code = (
        "import sys\n"
        "from rummisolve.cli.app import cli\n"
        "try:\n"
        "    cli(['hint', '-'], prog_name='rummisolve')\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(sorted({sorted(unused)} & sys.modules.keys()), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=board, capture_output=True, text=True, check=True
    )
    assert done.stdout.startswith("Play 1 tile")
    assert done.stderr == "[]\n"


def test_python_dash_m_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rummisolve", "--help"], capture_output=True, text=True
    )
    assert (done.returncode, done.stdout.splitlines()[0]) == (
        0,
        "Usage: rummisolve [OPTIONS] COMMAND [ARGS]...",
    )


def test_the_modules_load_as_attributes_too() -> None:
    assert rummisolve.board.read_board is rummisolve.read_board
    assert "find_move" in dir(rummisolve)


def test_a_closed_output_is_a_message_not_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rummisolve", "--help"],
        capture_output=False,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: os.close(1),
    )
    assert (done.returncode, done.stderr) == (
        1,
        "Error: cannot write the output: standard output is closed\n",
    )


@pytest.mark.parametrize("library", ["starlette", "uvicorn"])
def test_serve_without_the_web_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, library: str
) -> None:
    """The HTTP libraries are the `web` extra's: without them, one line and exit 1. (Were
    they found, the address, which no machine has, would fail the test, not hang it.)"""
    import rummisolve.web

    for name in [n for n in sys.modules if n.partition(".")[0] == library] or [library]:
        monkeypatch.setitem(sys.modules, name, None)  # what an import finds not installed
    monkeypatch.delitem(sys.modules, "rummisolve.web.server", raising=False)
    monkeypatch.delattr(rummisolve.web, "server", raising=False)  # a server loaded before
    assert run("serve", "--host", "256.0.0.1") == (
        1,
        "",
        "Error: serve needs the web extra: pip install 'rummisolve[web]'\n",
    )


def imports_of(module: str, path: Path) -> set[str]:
    """The package's modules that `module` imports, wherever the import stands (a function's
    import closes a circle when it runs), but for those read by type checkers only."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = package.rsplit(".", child.level - 1)[0] if child.level else ""
                named = ".".join(p for p in (base, child.module) if p)
                found.add(named)
                found.update(f"{named}.{alias.name}" for alias in child.names)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def package_modules() -> dict[str, Path]:
    folder = Path(rummisolve.__file__).parent
    modules = {}
    for path in folder.rglob("*.py"):
        parts = path.relative_to(folder).with_suffix("").parts
        modules[".".join(("rummisolve", *parts)).removesuffix(".__init__")] = path
    return modules


def test_no_module_imports_itself_through_others() -> None:
    """No import circle among the package's modules: each can be read, and loaded, on its
    own."""
    modules = package_modules()
    graph = {m: (imports_of(m, path) & modules.keys()) - {m} for m, path in modules.items()}
    try:
        list(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as error:
        pytest.fail(f"an import circle: {' -> '.join(error.args[1])}")
