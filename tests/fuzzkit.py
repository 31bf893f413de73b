"""Helpers for the fuzz tests: mutate a valid JSON value the ways bad input arrives.

A mutation replaces a value with one of the wrong type (null, booleans, huge and negative numbers, NaN, empty
or odd strings, nested lists and dicts), borrows a value from elsewhere in the same document (a colour where a
location goes), wraps a value in a list or a dict (`["pinup"]` -> `[["pinup"]]`), deletes a key or an element,
adds an unknown or a misplaced key, nudges a number out of range (a pick of 5 among 3, a die of 7) or appends
and truncates lists.

Every choice goes through a `Chooser`: hypothesis (`DrawChooser`, so a failure shrinks to a small example) or a
seeded `random.Random` (`RandomChooser`, for samples run through a real process).

The fuzz tests run FUZZ_EXAMPLES examples each (default: a few hundred, so the suite stays fast); for the full
run, e.g. `FUZZ_EXAMPLES=50000 .venv/bin/pytest tests/test_fuzz_replay.py -k property`.
"""

from __future__ import annotations

import copy
import math
import os
import random
from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st


def examples(default: int) -> int:
    """How many examples a fuzz test runs: FUZZ_EXAMPLES from the environment, else `default`."""
    return int(os.environ.get("FUZZ_EXAMPLES", default))


def fuzz_settings(default: int) -> settings:
    return settings(max_examples=examples(default), deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))


class Chooser:
    def integer(self, low: int, high: int) -> int:
        raise NotImplementedError

    def pick(self, items: Sequence[Any]) -> Any:
        return items[self.integer(0, len(items) - 1)]


class DrawChooser(Chooser):
    """Choices drawn by hypothesis (`st.data()`), so a failing example shrinks."""

    def __init__(self, data: st.DataObject):
        self.data = data

    def integer(self, low: int, high: int) -> int:
        return self.data.draw(st.integers(low, high))


class RandomChooser(Chooser):
    def __init__(self, rng: random.Random):
        self.rng = rng

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


ODD_NUMBERS = [0, -1, 1, 2, 3, 5, 6, 7, 99, -2**31, 2**31, 2**63, -2**63, 2**64 + 1, 10**30, 0.5, -0.0, 1e308,
               math.inf, -math.inf, math.nan]
ODD_STRINGS = ["", " ", "red", "blue", "purple", "pinup", "tough", "gunman", "girl", "vote", "go", "seat", "1", "4",
               "-1", "0", "true", "null", "x" * 300, "\n", "a\nb", "\u0000", "é", "红", "🧟", "{key}", "{", "%s",
               "mall-of-horror", "\\", "'"]


def weird(c: Chooser, depth: int = 0) -> Any:
    """A value of any JSON type, preferring the ones parsers trip on."""
    kind = c.integer(0, 9 if depth < 3 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return c.pick([True, False])
    if kind in (2, 3):
        return c.pick(ODD_NUMBERS)
    if kind == 4:
        return c.integer(-10, 10)
    if kind in (5, 6):
        return c.pick(ODD_STRINGS)
    if kind in (7, 8):
        return [weird(c, depth + 1) for _ in range(c.integer(0, 3))]
    return {c.pick(ODD_STRINGS): weird(c, depth + 1) for _ in range(c.integer(0, 3))}


Path = tuple  # keys and indexes from the root


def paths(value: Any, here: Path = ()) -> list[Path]:
    """Every place in a JSON value, the root first."""
    out = [here]
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths(item, (*here, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += paths(item, (*here, index))
    return out


def get(value: Any, path: Path) -> Any:
    for step in path:
        value = value[step]
    return value


def _keys(value: Any) -> list[str]:
    return sorted({p[-1] for p in paths(value) if p and isinstance(p[-1], str)})


def _nudge(c: Chooser, number: Any) -> Any:
    if type(number) is not int:
        return c.integer(-2, 7)
    return c.pick([number + 1, number - 1, -number, number + 3, number * 2**40, -1, 0, 2**63, 10**30,
                   float(number), str(number), bool(number)])


def _restring(c: Chooser, text: str) -> Any:
    return c.pick(["", text.upper(), text + "x", " " + text, text[:1], text * 50, text + "\n", [text], {text: text},
                   c.pick(ODD_STRINGS)])


def mutate_once(c: Chooser, doc: Any, focus: Sequence[Path] = (), only_focus: bool = False) -> Any:
    """`doc` with one mutation (`doc` itself is not changed). `focus` paths (and below) are chosen more often,
    or only them."""
    where = paths(doc)
    if focus and (only_focus or c.integer(0, 2) == 0):
        top = c.pick(focus)
        path = c.pick([p for p in where if p[:len(top)] == top])
    else:
        path = c.pick(where)
    node = get(doc, path)
    kind = c.integer(0, 9)
    if kind == 0:
        new: Any = weird(c)
    elif kind == 1:
        new = copy.deepcopy(get(doc, c.pick(where)))
    elif kind == 2:
        new = c.pick([[copy.deepcopy(node)], {c.pick(_keys(doc) or ODD_STRINGS): copy.deepcopy(node)}])
    elif kind == 3 and path:
        return _delete(doc, path)
    elif kind == 4 and isinstance(node, dict):
        new = dict(node)
        new[c.pick(_keys(doc) + ODD_STRINGS)] = weird(c) if c.integer(0, 1) else copy.deepcopy(get(doc, c.pick(where)))
    elif kind == 5 and isinstance(node, list):
        new = list(node)
        item = copy.deepcopy(c.pick(node)) if node and c.integer(0, 1) else weird(c)
        new.insert(c.integer(0, len(new)), item)
    elif kind == 6 and isinstance(node, list) and node:
        new = node[:c.integer(0, len(node) - 1)]
    elif kind == 7 and isinstance(node, str):
        new = _restring(c, node)
    else:
        new = _nudge(c, node) if type(node) in (int, float) or c.integer(0, 1) else weird(c)
    return _replace(doc, path, new)


def mutate(c: Chooser, doc: Any, most: int = 3, focus: Sequence[Path] = (), only_focus: bool = False) -> Any:
    for _ in range(c.integer(1, most)):
        doc = mutate_once(c, doc, [p for p in focus if _exists(doc, p)], only_focus)
    return doc


def _exists(doc: Any, path: Path) -> bool:
    for step in path:
        if isinstance(doc, dict) and step in doc or isinstance(doc, list) and type(step) is int and step < len(doc):
            doc = doc[step]
        else:
            return False
    return True


def _replace(doc: Any, path: Path, new: Any) -> Any:
    if not path:
        return new
    doc = copy.deepcopy(doc)
    get(doc, path[:-1])[path[-1]] = new
    return doc


def _delete(doc: Any, path: Path) -> Any:
    doc = copy.deepcopy(doc)
    del get(doc, path[:-1])[path[-1]]
    return doc
