"""`companion bench stats`: the statistics of a save file of many finished games, folded from their logs (a cold
start, `companion stats` beside the box), read back from the summaries the box keeps (the box started again), and
from memory (the screens asking again)."""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from companion.bench import rules_of, seats_for
from companion.simulate import play_table
from companion.stats import Summaries, statistics
from companion.store import EventStore
from companion.table import Table

PEOPLE = ("Anna", "Bảo", "陈明", "Dee", "Eli", "Fay")


def bench_stats(game: str, games: int, players: int | None, seed: int) -> dict[str, float]:
    rules = rules_of(game)
    seats = seats_for(rules, players)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "evenings.sqlite3"
        with EventStore(path) as store:
            for _ in range(games):
                names = dict(zip(seats, rng.sample(PEOPLE, len(seats)), strict=False))
                play_table(Table(store), game, seats, rng, names)
            events = sum(len(store.events(record.id)) for record in store.history())
        figures = {}
        with EventStore(path, readonly=True) as store:
            started = time.perf_counter()
            statistics(store, Summaries())
            figures["cold"] = time.perf_counter() - started
        with EventStore(path) as store:
            statistics(store, Summaries())  # the box: folds each game once and keeps its summary
        with EventStore(path) as store:
            summaries = Summaries()
            started = time.perf_counter()
            statistics(store, summaries)
            figures["kept"] = time.perf_counter() - started
            started = time.perf_counter()
            statistics(store, summaries)
            figures["memory"] = time.perf_counter() - started
    print(f"bench stats: {game}, {games} finished games of {len(seats)} players, {events} events in all")
    print(f"  folded from their logs (companion stats, a box's first start): {figures['cold']:.3f} s, "
          f"{figures['cold'] / games * 1000:.1f} ms per game")
    print(f"  read from the summaries the box kept (the box started again): {figures['kept'] * 1000:.1f} ms")
    print(f"  from memory (a screen asking again):                          {figures['memory'] * 1000:.2f} ms")
    return figures
