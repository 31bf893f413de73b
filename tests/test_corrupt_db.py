"""A save file that is not a sound companion database is refused in one line and left byte for byte as it was;
a new save file has no game to resume; the history lists the games that ended."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.cup import DiceCup
from companion.games import mall_of_horror as mall
from companion.games.mall_of_horror.board import COLOURS
from companion.simulate import random_game
from companion.store import EventStore
from companion.table import Table

REPO = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}


def companion(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, env=ENV,
                          timeout=60, cwd=REPO)


def script_of(seed: int, players: int, answers: int | None = None) -> dict:
    """A replay script of a random game, cut after `answers` answers (None: the whole game)."""
    events, _ = random_game(mall, list(COLOURS[:players]), random.Random(seed))
    actions = [event for event in events if "roll" not in event and "pick" not in event]
    return {
        "players": list(COLOURS[:players]),
        "dice": [event["roll"] for event in events if "roll" in event],
        "picks": [event["pick"] for event in events if "pick" in event],
        "actions": actions[:answers],
    }


def play(store: EventStore, script: dict) -> Table:
    table = Table(store, DiceCup(scripted=script["dice"], picks=script["picks"]))
    table.new_game("mall-of-horror", script["players"])
    for action in script["actions"]:
        table.answer(action)
    return table


@pytest.fixture(scope="module")
def save_file(tmp_path_factory) -> bytes:
    """The bytes of a real save file: one finished 4-player game and a 5-player game 60 answers in."""
    path = tmp_path_factory.mktemp("save") / "companion.sqlite3"
    with EventStore(path) as store:
        assert play(store, script_of(1, 4)).state.over
        assert not play(store, script_of(2, 5, answers=60)).state.over
    return path.read_bytes()


def foreign_database(tmp: Path) -> bytes:
    path = tmp / "foreign.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT, minutes INTEGER)")
    db.execute("INSERT INTO recipes VALUES ('brains', 20)")
    db.commit()
    db.close()
    data = path.read_bytes()
    path.unlink()
    return data


def page_size(save: bytes) -> int:
    return int.from_bytes(save[16:18], "big")


BAD_FILES: dict[str, Callable[[bytes, Path], bytes]] = {
    "garbage": lambda save, tmp: random.Random(7).randbytes(5000),
    "a text file": lambda save, tmp: b"Mall of Horror: red 12, blue 9, yellow 7\n",
    "an SQLite header then garbage": lambda save, tmp: save[:100] + random.Random(8).randbytes(len(save) - 100),
    "a save file cut inside its header": lambda save, tmp: save[:60],
    "a save file cut to its first page": lambda save, tmp: save[: page_size(save)],
    "a save file cut to half its pages": lambda save, tmp: save[: len(save) // page_size(save) // 2 * page_size(save)],
    "a save file cut a few bytes short": lambda save, tmp: save[:-100],
    "a foreign SQLite database": lambda save, tmp: foreign_database(tmp),
}
EXPECTED = {
    "garbage": "is not a companion database (it is not an SQLite file)",
    "a text file": "is not a companion database (it is not an SQLite file)",
    "a foreign SQLite database": "is not a companion database (it has tables: recipes)",
}


def bad_file_cases() -> list:
    cases = []
    for command in ("resume", "replay"):
        for name in BAD_FILES:
            cases.append(pytest.param(command, name, id=f"{command}-{name.replace(' ', '-')}"))
    return cases


@pytest.mark.parametrize(("command", "name"), bad_file_cases())
def test_a_file_that_is_not_a_sound_save_file_is_refused_in_one_line_and_left_as_it_was(
        tmp_path, save_file, command, name):
    folder = tmp_path / "box"
    folder.mkdir()
    bad = folder / "companion.sqlite3"
    bad.write_bytes(BAD_FILES[name](save_file, tmp_path))
    before = bad.read_bytes()
    script = tmp_path / "script.json"
    script.write_text(json.dumps(script_of(3, 4, answers=10)))

    args = ["resume", "--db", str(bad)] if command == "resume" else ["replay", str(script), "--db", str(bad)]
    result = companion(*args)

    assert result.returncode == 2, result.stdout[-300:] + result.stderr[-1500:]
    message = result.stderr.strip()
    assert "\n" not in message and "Traceback" not in message, message
    assert message.startswith(f"companion: {bad} ")
    assert EXPECTED.get(name, "is corrupt") in message
    assert result.stdout == ""
    assert bad.read_bytes() == before
    assert [p.name for p in folder.iterdir()] == [bad.name]  # no -wal, -shm or -journal left beside it


def test_resume_of_a_save_file_with_a_damaged_event_says_so_in_one_line(tmp_path, save_file):
    path = tmp_path / "companion.sqlite3"
    path.write_bytes(save_file)
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET event = '{\"answer\": {\"seat\": \"red\", \"vo' WHERE game_id = 2 AND seq = 5")
    db.commit()
    db.close()
    before = path.read_bytes()

    result = companion("resume", "--db", str(path))

    assert result.returncode == 2, result.stderr[-1500:]
    message = result.stderr.strip()
    assert "\n" not in message and "event 5 of game 2 is not JSON" in message, message
    assert path.read_bytes() == before


@pytest.mark.parametrize("new", ["missing", "empty", "made by the companion"])
def test_a_new_save_file_has_no_unfinished_game(tmp_path, new):
    path = tmp_path / "companion.sqlite3"
    if new == "empty":
        path.write_bytes(b"")
    elif new == "made by the companion":
        EventStore(path).close()

    resumed = companion("resume", "--db", str(path))
    assert resumed.returncode == 1
    assert resumed.stderr.strip() == f"companion resume: no unfinished game in {path}"
    assert resumed.stdout == ""

    history = companion("history", "--db", str(path))
    assert (history.returncode, history.stdout) == (0, "no finished games yet\n")


def test_history_lists_each_finished_game_with_its_date_players_winners_and_rounds(tmp_path):
    db = tmp_path / "companion.sqlite3"
    finished = []
    for seed, players in [(4, 4), (5, 6)]:
        script = tmp_path / f"game{seed}.json"
        script.write_text(json.dumps({"game": "mall-of-horror", **script_of(seed, players)}))
        played = companion("replay", str(script), "--db", str(db))
        assert played.returncode == 0, played.stderr
        finished.append(json.loads(played.stdout))
    unfinished = tmp_path / "unfinished.json"
    unfinished.write_text(json.dumps(script_of(6, 5, answers=30)))
    assert companion("replay", str(unfinished), "--db", str(db)).returncode == 0

    history = companion("history", "--db", str(db))

    assert history.returncode == 0, history.stderr
    with EventStore(db) as store:
        games = store.history()
    assert [game.players for game in games] == [tuple(COLOURS[:6]), tuple(COLOURS[:4])]  # newest first
    lines = history.stdout.splitlines()
    assert len(lines) == 2  # the unfinished game is not in the history
    for line, game, record in zip(lines, games, reversed(finished), strict=True):
        assert record["over"] and list(game.winners) == record["winners"] and game.rounds == record["round"]
        assert line == (f"{game.finished:%Y-%m-%d %H:%M}  mall-of-horror  {', '.join(game.players)}  "
                        f"won by {', '.join(record['winners'])} after {record['round']} round(s)")
