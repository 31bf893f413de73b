"""`companion bench rules` and `companion bench table`: a game's random legal games, by the rules alone and through
a Table whose save file is on disk."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from companion.bench import DEFAULT_GAME, rules_of, seats_for
from companion.catalogue import catalogue
from companion.cup import DiceCup
from companion.simulate import random_game
from companion.store import EventStore
from companion.table import Table


def bench_rules(game: str = DEFAULT_GAME, games: int = 500, players: int | None = 5, seed: int = 1) -> dict:
    """Random legal games of `game`: games per second, median time and events per game."""
    rng = random.Random(seed)
    rules = rules_of(game)
    colours = seats_for(rules, players)
    times, lengths, rounds = [], [], []
    started = time.perf_counter()
    for _ in range(games):
        t0 = time.perf_counter()
        events, state = random_game(rules, colours, rng)
        times.append(time.perf_counter() - t0)
        lengths.append(len(events))
        rounds.append(state.round)
    total = time.perf_counter() - started
    figures = {
        "game": game,
        "games": games,
        "players": len(colours),
        "games_per_second": games / total,
        "median_ms_per_game": statistics.median(times) * 1000,
        "p99_ms_per_game": sorted(times)[int(0.99 * (games - 1))] * 1000,
        "median_events_per_game": statistics.median(lengths),
        "median_rounds": statistics.median(rounds),
    }
    print(f"rules bench: {games} random {len(colours)}-player games of {_title(rules)} on one core")
    print(f"  games per second      {figures['games_per_second']:.0f}")
    print(f"  median per game       {figures['median_ms_per_game']:.2f} ms (goal < 5 ms)")
    print(f"  p99 per game          {figures['p99_ms_per_game']:.2f} ms")
    print(f"  median events a game  {figures['median_events_per_game']:.0f}")
    print(f"  median rounds a game  {figures['median_rounds']:.0f}")
    return figures


def bench_table(game: str = DEFAULT_GAME, games: int = 50, players: int | None = 5, seed: int = 1) -> dict:
    """Random games through a Table whose save file is on disk: events per second, and the time from an answer
    to its stored event (the `answer` call returns once the store has committed it, fsync included)."""
    rng = random.Random(seed)
    rules = rules_of(game)
    colours = seats_for(rules, players)
    latencies: list[float] = []
    stored = 0
    busy = 0.0  # time spent inside the table: new_game and answers, with the rolls they call for
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as folder:
        path = Path(folder) / "bench.sqlite3"
        with EventStore(path) as store:
            for _ in range(games):
                # The game is drawn first (seeded answers and dice), so only the table's own work is timed.
                played, _ = random_game(rules, colours, rng)
                dice = [event["roll"] for event in played if "roll" in event]
                picks = [event["pick"] for event in played if "pick" in event]
                table = Table(store, DiceCup(scripted=dice, picks=picks))
                t0 = time.perf_counter()
                table.new_game(game, colours)
                busy += time.perf_counter() - t0
                for action in played:
                    if "roll" in action or "pick" in action:
                        continue  # the table rolls these itself, inside the answer that asks for them
                    t0 = time.perf_counter()
                    table.answer(action)
                    elapsed = time.perf_counter() - t0
                    latencies.append(elapsed)
                    busy += elapsed
                stored += len(table.events)
        filesystem = _filesystem(Path(folder))
    latencies.sort()
    figures = {
        "game": game,
        "games": games,
        "players": len(colours),
        "events": stored,
        "answers": len(latencies),
        "events_per_second": stored / busy,
        "p50_ms_answer_to_stored": statistics.median(latencies) * 1000,
        "p99_ms_answer_to_stored": latencies[int(0.99 * (len(latencies) - 1))] * 1000,
        "max_ms_answer_to_stored": latencies[-1] * 1000,
        "filesystem": filesystem,
    }
    print(f"table bench: {games} random {len(colours)}-player games of {_title(rules)} through a Table, save file "
          f"on disk ({filesystem}, WAL, synchronous=FULL)")
    print(f"  events stored         {stored} ({len(latencies)} answers, the rest rolls of the cup)")
    print(f"  events per second     {figures['events_per_second']:.0f}")
    print(f"  answer to stored p50  {figures['p50_ms_answer_to_stored']:.2f} ms")
    print(f"  answer to stored p99  {figures['p99_ms_answer_to_stored']:.2f} ms (goal < 5 ms)")
    print(f"  answer to stored max  {figures['max_ms_answer_to_stored']:.2f} ms")
    return figures


def _title(rules) -> str:
    """The game's name as the new-game screen says it in English."""
    return catalogue().text(rules.SETUP.title, "en")


def _filesystem(path: Path) -> str:
    """The type of the filesystem holding `path` (an fsync on tmpfs costs nothing), from /proc/mounts."""
    try:
        mounts = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return "filesystem unknown"
    best, kind = "", "filesystem unknown"
    resolved = str(path.resolve())
    for line in mounts:
        fields = line.split()
        if len(fields) >= 3 and (resolved == fields[1] or resolved.startswith(fields[1].rstrip("/") + "/")):
            if len(fields[1]) > len(best):
                best, kind = fields[1], fields[2]
    return kind
