"""One package per game, each offering the same pure rules interface (see mall_of_horror)."""

from __future__ import annotations

from types import ModuleType

from companion.games import mall_of_horror
from companion.games.base import IllegalAction

GAMES: dict[str, ModuleType] = {mall_of_horror.NAME: mall_of_horror}


def get_game(name: object) -> ModuleType:
    if name not in GAMES:
        raise IllegalAction(f"unknown game {name!r}; this companion knows {', '.join(GAMES)}")
    return GAMES[name]
