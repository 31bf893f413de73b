"""Finished games in a real save file, played to the end by the games' own random players through a Table, as a
table plays them (the cup rolls when asked): what the statistics and the export read."""

from __future__ import annotations

import random

from seeded import SeededCup

from companion.games import GAMES
from companion.simulate import play_table
from companion.store import EventStore
from companion.table import Table

SEATS = {name: list(game.SETUP.colours[:game.SETUP.min_players + 1]) for name, game in GAMES.items()}


def play_finished(store: EventStore, game: str, seed: int, players: list[str] | None = None,
                  names: dict[str, str] | None = None) -> int:
    """One whole game of `game` stored in `store` (the same game for the same seed); its id."""
    return play_table(Table(store, cup=SeededCup(seed)), game, players or SEATS[game], random.Random(seed), names)
