"""The contract stands on its own: the table, the catalogue and every device import it and never a game, and no
module of companion/ takes part in an import cycle.

A game package is loaded only where a game is started or listed (the registry, imported inside the function that
needs it). The graph is read from each module's own top-level imports (ast), as import-linter reads them: an import
of `companion.games.checks` is an edge to that module, of `companion.games` an edge to the registry.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion"
ENV = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1", "KIVY_LOG_MODE": "PYTHON",
       "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
GAME_FREE = ["companion.contract", "companion.board", "companion.catalogue", "companion.table", "companion.store",
             "companion.web.server", "companion.web.protocol", "companion.pads.buttons", "companion.pads.serial",
             "companion.pads.gpio", "companion.ui.widgets", "companion.ui.parts", "companion.ui.words"]


def loaded_games(module: str) -> list[str]:
    """The game packages (and the registry) that importing `module` loads, in a fresh interpreter."""
    code = (f"import sys, logging; logging.disable(logging.CRITICAL); import {module}; import json; "
            "print(json.dumps(sorted(n for n in sys.modules if n == 'companion.games' or "
            "n.startswith('companion.games.'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("module", GAME_FREE)
def test_importing_the_table_the_catalogue_or_a_device_loads_no_game(module):
    assert loaded_games(module) == []


def test_the_check_sees_a_game_where_one_is_loaded():
    assert "companion.games.mall_of_horror" in loaded_games("companion.games")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The companion modules `path` imports at its top level (imports inside functions are lazy: not edges)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        out |= {t for t in targets if t in modules and t != name}
    return out


def graph() -> dict[str, set[str]]:
    files = [p for p in PACKAGE.rglob("*.py") if "locale" not in p.parts]
    modules = {module_name(p) for p in files}
    return {module_name(p): imports_of(p, modules) for p in files}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for after in sorted(edges.get(node, ())):
            if after not in index:
                visit(after)
                low[node] = min(low[node], low[after])
            elif after in stack:
                low[node] = min(low[node], index[after])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_module_of_the_companion_takes_part_in_an_import_cycle():
    edges = graph()
    assert "companion.contract" in edges and edges["companion.board"] == {"companion.contract"}
    assert cycles(edges) == []


def test_the_cycle_check_finds_a_cycle_where_there_is_one():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
