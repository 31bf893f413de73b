"""Finished games in a real save file, played to the end by the games' own random players through a Table, as a
table plays them (the cup rolls when asked): what the statistics and the export read."""

from __future__ import annotations

import random

from seeded import SeededCup

from companion.games import GAMES
from companion.simulate import random_answer
from companion.store import EventStore
from companion.table import Table

SEATS = {name: list(game.SETUP.colours[:game.SETUP.min_players + 1]) for name, game in GAMES.items()}


def play_finished(store: EventStore, game: str, seed: int, players: list[str] | None = None,
                  names: dict[str, str] | None = None, max_answers: int = 20_000) -> int:
    """One whole game of `game` stored in `store`; its id."""
    table = Table(store, cup=SeededCup(seed))
    table.new_game(game, players or SEATS[game], {}, names=names)
    rng = random.Random(seed)
    for _ in range(max_answers):
        if table.state.over:
            return table.game_id
        prompt = table.rules.prompt(table.state)
        seat = rng.choice(prompt.seats)
        table.answer(random_answer(table.rules, table.state, seat, rng))
    raise AssertionError(f"{game} (seed {seed}) did not end after {max_answers} answers")
