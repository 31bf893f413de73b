"""Board renderers of the touchscreen: one module per game, named after the view's "board" ("mall-of-horror" is
mall_of_horror.py). A game without one still plays: the questions and the narration are game-free.

A renderer module offers:
- `Board(words)`: a widget that draws the whole board at a glance, with `update(view)`;
- `secrets(seat_view, words) -> list[(label, reveal)]`: what a seat may peek at (hold-to-peek), `reveal()` giving
  the text while the finger is down;
- `revealed(view, words) -> (title, lines) | None`: a revealed ballot;
- `over(view, words) -> list[(seat, score text, winner)]`: the end's scores.
"""

from __future__ import annotations

import importlib
import logging
from types import ModuleType

log = logging.getLogger("companion.ui.boards")


def renderer(board: object) -> ModuleType | None:
    if not isinstance(board, str) or not board.replace("-", "").isalnum():
        return None
    try:
        return importlib.import_module(f"companion.ui.boards.{board.replace('-', '_')}")
    except ImportError:
        return None
