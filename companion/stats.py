"""The statistics of every finished game of a save file, per person and per game.

A person is a name given at the new game (companion/names.py), or a seat's colour where no name was given. Each
finished game is folded once from its log, as the table plays it, into a `GameSummary` (who sat where, who won,
the scores, the game's own figures: `Game.statistics`); `Summaries` keeps them, as a finished game never changes.
`statistics` adds them up into plain JSON: what `companion stats --json` prints and every screen draws.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from companion import __version__
from companion.contract import Message
from companion.names import person
from companion.store import EventStore, GameRecord, StoreError

SUMMARY = "summary:"  # the setting that keeps a finished game's summary: "summary:<game id>"


@dataclass(frozen=True)
class GameSummary:
    """One finished game, as the statistics count it."""

    id: int
    game: str
    finished: str  # ISO date and time
    minutes: float
    rounds: int
    people: dict[str, str]  # seat -> person ("Anna", or "colour:red")
    winners: tuple[str, ...]  # persons
    scores: dict[str, int]  # person -> points, where the game counts points
    counts: dict[str, dict[str, int]]  # person -> the game's own figures by STATS key


def summarise(store: EventStore, record: GameRecord) -> GameSummary:
    """A finished game folded from its log as the table plays it (TableError, StoreError if it cannot be)."""
    from companion.table import Table  # the table folds a log; loaded where a game is read

    table = Table(store=store)
    table.load(record)
    rules, state = table.rules, table.state
    people = {seat: person(seat, record.names) for seat in record.players}
    figures = rules.statistics(state)
    assert record.finished is not None
    return GameSummary(
        id=record.id, game=record.game, finished=record.finished.isoformat(timespec="seconds"),
        minutes=round((record.finished - record.started).total_seconds() / 60, 1),
        rounds=record.rounds if record.rounds is not None else state.round,
        people=people,
        winners=tuple(people[seat] for seat in (record.winners or ()) if seat in people),
        scores={people[seat]: int(points) for seat, points in rules.scores(state).items() if seat in people},
        counts={people[seat]: {key: int(n) for key, n in figures.get(seat, {}).items()} for seat in people},
    )


class Summaries:
    """Every finished game's summary, each folded once: a finished game never changes. Kept in memory, and in the
    save file where it may be written (setting "summary:<id>"), so a box that starts again does not fold a year
    of evenings again: a kept summary counts only if the same companion and the same STATS made it."""

    def __init__(self) -> None:
        self._known: dict[tuple[str, int], GameSummary] = {}
        self.folded = 0  # games folded from their log (not found in memory nor in the save file)
        self._unkept: list[GameSummary] = []  # folded with a store that may not write: `keep` writes them later
        self._lock = threading.Lock()  # a thread folds (the host page's), the loop keeps

    def of(self, store: EventStore) -> tuple[list[GameSummary], list[int]]:
        """The finished games' summaries, oldest first, and the ids of those that could not be read."""
        summaries: list[GameSummary] = []
        unreadable: list[int] = []
        for record in reversed(store.history()):
            key = (str(store.path), record.id)
            if key not in self._known:
                summary = self._kept(store, record)
                if summary is None:
                    try:
                        summary = summarise(store, record)
                    except (StoreError, ValueError, KeyError, TypeError):  # TableError is a ValueError too
                        unreadable.append(record.id)  # the game is left out, and said to be
                        continue
                    self.folded += 1
                    self._keep(store, summary)
                self._known[key] = summary
            summaries.append(self._known[key])
        return summaries, unreadable

    @staticmethod
    def _kept(store: EventStore, record: GameRecord) -> GameSummary | None:
        try:
            kept = store.setting(f"{SUMMARY}{record.id}")
        except StoreError:
            return None
        if not isinstance(kept, dict) or kept.get("made_by") != _made_by(record.game):
            return None
        try:
            summary = GameSummary(**kept["summary"])
        except (TypeError, KeyError):
            return None
        return replace(summary, winners=tuple(summary.winners)) if summary.id == record.id else None

    def keep(self, store: EventStore | None) -> int:
        """Write into `store` (the box's, which writes) the summaries folded with a store that may not: how many."""
        with self._lock:
            unkept, self._unkept = self._unkept, []
        if store is None or store.readonly:
            return 0
        for summary in unkept:
            self._keep(store, summary)
        return len(unkept)

    def _keep(self, store: EventStore, summary: GameSummary) -> None:
        if store.readonly:
            with self._lock:
                self._unkept.append(summary)
            return
        try:
            store.set_setting(f"{SUMMARY}{summary.id}", {"made_by": _made_by(summary.game), "summary":
                                                          asdict(summary)})
        except StoreError:  # a full disk: the summary is only a shortcut, folded again next time
            pass


def _made_by(game: str) -> str:
    """What a kept summary must have been made by to count: this companion, and the game's STATS as they are."""
    from companion.games import GAMES

    rules = GAMES.get(game)
    return f"{__version__} {game} {','.join(rules.STATS) if rules is not None else ''}"


def statistics(store: EventStore, summaries: Summaries | None = None) -> dict[str, Any]:
    """The save file's statistics as JSON: every finished game counted, per person and per game."""
    games, unreadable = (summaries or Summaries()).of(store)
    return add_up(games, unreadable)


def add_up(games: Sequence[GameSummary], unreadable: Sequence[int] = ()) -> dict[str, Any]:
    """The figures of `games` (oldest first) per person, per game and over time."""
    from companion.games import GAMES  # each game's title and what it counts

    by_game: list[dict[str, Any]] = []
    for name in dict.fromkeys(g.game for g in games):
        played = [g for g in games if g.game == name]
        rules = GAMES.get(name)
        keys = list(rules.STATS) if rules is not None else sorted({k for g in played for c in g.counts.values()
                                                                   for k in c})
        by_game.append({
            "game": name,
            "title": rules.SETUP.title.to_json() if rules is not None else Message("stats.unknown_game").to_json(),
            "played": len(played),
            "rounds_avg": _average(g.rounds for g in played),
            "minutes_avg": _average(g.minutes for g in played),
            "stats": keys,
            "people": _people(played, keys),
        })
    return {
        "games": len(games),
        "unreadable": list(unreadable),
        "people": _people(games, []),
        "by_game": by_game,
        "timeline": [{"id": g.id, "game": g.game, "finished": g.finished, "people": list(g.people.values()),
                      "winners": list(g.winners)} for g in games],
    }


def _people(games: Sequence[GameSummary], keys: Sequence[str]) -> list[dict[str, Any]]:
    """Each person's row over `games`: the most wins first, then the most games, then by name."""
    rows = []
    for who in dict.fromkeys(p for g in games for p in g.people.values()):
        played = [g for g in games if who in g.people.values()]
        wins = sum(who in g.winners for g in played)
        scores = [g.scores[who] for g in played if who in g.scores]
        rows.append({
            **describe(who),
            "played": len(played),
            "wins": wins,
            "win_rate": round(wins / len(played), 3),
            "score_avg": _average(scores),
            "score_best": max(scores) if scores else None,
            "rounds_avg": _average(g.rounds for g in played),
            "minutes_avg": _average(g.minutes for g in played),
            "counts": {key: sum(g.counts.get(who, {}).get(key, 0) for g in played) for key in keys},
        })
    return sorted(rows, key=lambda row: (-row["wins"], -row["played"], row["person"].casefold()))


def describe(who: str) -> dict[str, str | None]:
    """A person as the screens name them: {"person", "name"} for a name, {"person", "colour"} for a colour."""
    if who.startswith("colour:"):
        return {"person": who, "name": None, "colour": who.removeprefix("colour:")}
    return {"person": who, "name": who, "colour": None}


def _average(values: Iterable[float]) -> float | None:
    numbers = list(values)
    return round(sum(numbers) / len(numbers), 1) if numbers else None


def wins_over_time(stats: Mapping[str, Any], people: Sequence[str]) -> dict[str, list[int]]:
    """Each of `people`'s wins so far after each finished game, oldest first: the line a chart draws."""
    out: dict[str, list[int]] = {who: [] for who in people}
    for game in stats["timeline"]:
        for who in people:
            before = out[who][-1] if out[who] else 0
            out[who].append(before + (who in game["winners"]))
    return out
