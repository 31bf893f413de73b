"""Benchmarks that print figures (never timed assertions in tests)."""

from __future__ import annotations

import random
import statistics
import time

from companion.games import mall_of_horror
from companion.games.mall_of_horror.board import COLOURS
from companion.simulate import random_game


def bench_rules(games: int = 500, players: int = 5, seed: int = 1) -> dict:
    """Random legal games of Mall of Horror: games per second, median time and events per game."""
    rng = random.Random(seed)
    colours = list(COLOURS[:players]) if players != 3 else ["red", "yellow", "blue"]
    times, lengths, rounds = [], [], []
    started = time.perf_counter()
    for _ in range(games):
        t0 = time.perf_counter()
        events, state = random_game(mall_of_horror, colours, rng)
        times.append(time.perf_counter() - t0)
        lengths.append(len(events))
        rounds.append(state.round)
    total = time.perf_counter() - started
    figures = {
        "games": games,
        "players": players,
        "games_per_second": games / total,
        "median_ms_per_game": statistics.median(times) * 1000,
        "p99_ms_per_game": sorted(times)[int(0.99 * (games - 1))] * 1000,
        "median_events_per_game": statistics.median(lengths),
        "median_rounds": statistics.median(rounds),
    }
    print(f"rules bench: {games} random {players}-player games of Mall of Horror on one core")
    print(f"  games per second      {figures['games_per_second']:.0f}")
    print(f"  median per game       {figures['median_ms_per_game']:.2f} ms (goal < 5 ms)")
    print(f"  p99 per game          {figures['p99_ms_per_game']:.2f} ms")
    print(f"  median events a game  {figures['median_events_per_game']:.0f}")
    print(f"  median rounds a game  {figures['median_rounds']:.0f}")
    return figures
