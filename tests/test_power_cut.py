"""A power cut at any moment: the companion is killed (SIGKILL) mid-game, restarted on the same save file,
and carries on from exactly where it was. No accepted answer is lost, none is applied twice.

The reference games come from `random_game`; the child plays one through a real Table and prints the table's
record after each accepted answer, so a printed line is an answer the store already holds.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pytest
from faultkit import build_shim

from companion.contract import record_of
from companion.cup import DiceCup
from companion.games import mall_of_horror as mall
from companion.games.mall_of_horror.board import COLOURS
from companion.simulate import random_game
from companion.store import EventStore, StoreInUse
from companion.table import Table

REPO = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
GAME = "mall-of-horror"
KILLED = -signal.SIGKILL

# The table at the box, minus the devices: "go" plays the next answer, "run" plays all the rest.
CHILD = """\
import json, sys
from companion.cup import DiceCup
from companion.store import EventStore
from companion.table import Table

script = json.load(open(sys.argv[1]))
if len(sys.argv) > 3:  # die the moment the game would be marked finished (a cut after its last event)
    import os, signal
    EventStore.finish = lambda *args: os.kill(os.getpid(), signal.SIGKILL)
table = Table(EventStore(sys.argv[2]), DiceCup(scripted=script["dice"], picks=script["picks"]), roll_when_asked=True)
table.new_game("mall-of-horror", script["players"])
free = False
for action in script["actions"]:
    if not free:
        command = sys.stdin.readline().strip()
        if not command:
            break
        free = command == "run"
    table.answer(action)
    print(json.dumps(table.record()), flush=True)
"""


def jsonable(value: object) -> object:
    return json.loads(json.dumps(value))


def book(state) -> dict:
    """What the table prints of a state: its record and the whole game's public narration."""
    return jsonable(record_of(mall, state))


@dataclass
class Reference:
    """One random game: its events in the table's order and the table's record after each of them."""

    players: list[str]
    events: list[dict]  # cup events ({"roll": dice} / {"pick": i}) and answers, as random_game made them
    records: list[dict]  # records[m]: the record once the first m events are folded (0: just started)
    settled: list[int]  # settled[j]: how many events are in the log once answer j and its cup events are in

    @classmethod
    def make(cls, seed: int, players: int) -> Reference:
        colours = list(COLOURS[:players])
        events, final = random_game(mall, colours, random.Random(seed))
        state = mall.start(colours)
        records = [book(state)]
        for event in events:
            state = mall.apply(state, event)
            records.append(book(state))
        assert records[-1] == book(final)
        answers = [m for m, event in enumerate(events) if not is_cup(event)]
        # Answer j+1 is events[answers[j]]; the cup events after it belong to it.
        settled = [answers[0]] + answers[1:] + [len(events)]
        return cls(colours, events, records, settled)

    @property
    def dice(self) -> list[list[int]]:
        return [event["roll"] for event in self.events if "roll" in event]

    @property
    def picks(self) -> list[int]:
        return [event["pick"] for event in self.events if "pick" in event]

    @property
    def actions(self) -> list[dict]:
        return [event for event in self.events if not is_cup(event)]

    def script(self) -> dict:
        return {"players": self.players, "dice": self.dice, "picks": self.picks, "actions": self.actions}

    def after_answers(self, j: int) -> dict:
        """The table's record once j answers (and the cup events they called for) are in."""
        return self.records[self.settled[j]]


def is_cup(event: dict) -> bool:
    return "roll" in event or "pick" in event


def as_played(stored: dict) -> dict:
    """A stored row as random_game wrote the event (the cup's nonce and commitment dropped)."""
    if "answer" in stored:
        return stored["answer"]
    if "roll" in stored:
        return {"roll": stored["roll"]}
    return {"pick": stored["pick"]}


def companion(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, env=ENV,
                          timeout=60, cwd=REPO)


def stored_events(db: Path) -> tuple[int | None, list[dict]]:
    """The newest game's id and its events as played (None, [] if no game was created)."""
    with EventStore(db) as store:
        games = [store.unfinished(), *store.history()]
        newest = max((game.id for game in games if game is not None), default=None)
        return newest, [] if newest is None else [as_played(event) for event in store.events(newest)]


def check_log(ref: Reference, db: Path) -> int:
    """The log is a prefix of the reference game: nothing lost, nothing twice, nothing made up. Its length."""
    _, events = stored_events(db)
    assert events == ref.events[: len(events)], "the log is not the game as played"
    return len(events)


def carry_on(ref: Reference, db: Path) -> None:
    """Restart in-process on the save file, play the rest of the game, and end exactly where the reference did."""
    for _ in range(50):  # the other worker thread's fork may hold a copy of our last lock for the instant before exec
        try:
            opened = EventStore(db)
            break
        except StoreInUse:
            time.sleep(0.02)
    else:
        opened = EventStore(db)
    with opened as store:
        record = store.unfinished()
        assert record is not None
        done = store.events(record.id)
        rolled = sum(1 for event in done if "roll" in event)
        picked = sum(1 for event in done if "pick" in event)
        answered = sum(1 for event in done if "answer" in event)
        table = Table(store, DiceCup(scripted=ref.dice[rolled:], picks=ref.picks[picked:]), roll_when_asked=True)
        assert table.resume() == record
        assert jsonable(table.record()) == ref.after_answers(answered)  # the cup rolls what it still owed
        for action in ref.actions[answered:]:
            table.answer(action)
        assert jsonable(table.record()) == ref.records[-1]
        assert [as_played(event) for event in store.events(record.id)] == ref.events
        assert store.game(record.id).is_finished


@dataclass
class Cut:
    answers: int  # answers played in lock step before the cut
    how: str  # "after a line": killed while waiting; "mid-answer": one more answer, then killed within ~1.5 ms;
    # "running": the rest of the game let loose, killed a few ms later
    sleep: float


def cut_and_restart(ref: Reference, script: Path, child: Path, db: Path, cut: Cut) -> str:
    """Kill the child at `cut`, check the save file from outside and in, then finish the game. What was seen."""
    process = subprocess.Popen([sys.executable, str(child), str(script), str(db)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV, cwd=REPO)
    lines = []
    for _ in range(cut.answers):
        process.stdin.write("go\n")
        process.stdin.flush()
        line = process.stdout.readline()
        assert line.endswith("\n"), f"the child stopped early: {process.communicate()[1]}"
        lines.append(line)
    if cut.how != "after a line":
        process.stdin.write("go\n" if cut.how == "mid-answer" else "run\n")
        process.stdin.flush()
        time.sleep(cut.sleep)
    process.send_signal(signal.SIGKILL)
    rest, errors = process.communicate()
    lines += [line for line in rest.splitlines(keepends=True) if line.endswith("\n")]  # a torn last line is no answer
    printed = len(lines)
    assert [json.loads(line) for line in lines] == [ref.after_answers(j) for j in range(1, printed + 1)]

    assert process.returncode == KILLED or printed == len(ref.actions), errors  # only a whole game ends alone

    resumed = companion("resume", "--db", str(db))
    logged = check_log(ref, db)
    answered = sum(1 for event in ref.events[:logged] if not is_cup(event))
    assert answered in (printed, printed + 1), f"{printed} answers were accepted, the log holds {answered}"
    if answered == printed:
        assert logged == ref.settled[printed]  # every roll of an accepted answer was stored before its line
        seen = "as printed"
    elif logged == ref.settled[answered]:
        seen = "the next answer, stored, not yet printed"
    else:  # the answer is stored, the dice it calls for are not rolled yet: the restart rolls them
        seen = "the next answer, stored, its dice not yet rolled"
    if cut.how == "after a line":
        assert seen == "as printed"  # killed while it waited: the answer it printed last is the last one stored

    if resumed.returncode == 1:  # the game ended and was marked finished before the cut
        assert "no unfinished game" in resumed.stderr
        assert logged == len(ref.events)
        winners = ", ".join(ref.records[-1]["winners"])
        assert f"won by {winners}" in companion("history", "--db", str(db)).stdout
        return "killed after the game ended" if process.returncode == KILLED else "ended by itself"
    assert printed < len(ref.actions), "the last answer was printed, so its game was already marked finished"
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout) == ref.records[logged]
    if logged < len(ref.events):  # a cut after the last event: see test_a_cut_between_the_last_event_and_the_finish…
        carry_on(ref, db)
    return seen if process.returncode == KILLED else "ended by itself"


GAMES = [(11, 4), (12, 5), (13, 6), (14, 4), (15, 5), (16, 6)]
CUTS_PER_GAME = 11  # 9 in lock step (always a real kill) + 2 let loose: 54 to 66 kill points in all


@pytest.fixture(scope="module")
def shim(tmp_path_factory) -> Path:
    return build_shim(tmp_path_factory.mktemp("shim"))


@pytest.fixture(scope="module")
def child(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("child") / "table_child.py"
    path.write_text(CHILD)
    return path


@pytest.mark.parametrize(("seed", "players"), GAMES)
def test_a_kill_at_any_answer_loses_nothing_and_repeats_nothing(tmp_path, child, seed, players):
    ref = Reference.make(seed, players)
    script = tmp_path / "script.json"
    script.write_text(json.dumps(ref.script()))
    rng = random.Random(seed)
    answers = rng.sample(range(1, len(ref.actions) - 1), CUTS_PER_GAME)
    cuts = [Cut(k, "after a line", 0.0) for k in answers[:4]]
    cuts += [Cut(k, "mid-answer", rng.uniform(0, 0.0015)) for k in answers[4:9]]
    cuts += [Cut(k, "running", rng.uniform(0, 0.005)) for k in answers[9:]]

    with ThreadPoolExecutor(max_workers=2) as pool:  # the children and the CLI are processes: use both cores
        seen = list(pool.map(lambda n: cut_and_restart(ref, script, child, tmp_path / f"cut{n}.sqlite3", cuts[n]),
                             range(len(cuts))))
    assert sum(s != "ended by itself" for s in seen) >= 9, seen  # at least 9 real kills per game, 54 in all


def stored_count(db: Path) -> int:
    """How many events the save file holds now, read beside the writer (a reader of a WAL database never blocks it)."""
    try:
        with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)) as reader:
            return reader.execute("SELECT count(*) FROM events").fetchone()[0]
    except sqlite3.OperationalError:  # no file yet, or no tables yet
        return 0


def replay_until(script: Path, db: Path, env: dict[str, str], kill_at: int | None) -> int:
    """Run `companion replay SCRIPT --db DB`; kill it once the save file holds `kill_at` events (0: at once, before
    it could write; None: never). Its exit code."""
    process = subprocess.Popen([sys.executable, "-m", "companion", "replay", str(script), "--db", str(db)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=REPO)
    if kill_at is None:
        process.wait()
    elif kill_at > 0:
        deadline = time.monotonic() + 60
        while stored_count(db) < kill_at and process.poll() is None:
            assert time.monotonic() < deadline, "the replay never stored that many events"
            time.sleep(0.0005)
    process.kill()
    errors = process.communicate()[1]
    assert process.returncode in (0, KILLED), errors
    return process.returncode


def test_a_kill_of_companion_replay_leaves_a_save_file_that_resumes(tmp_path, shim):
    ref = Reference.make(21, 5)
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"game": GAME, **ref.script()}))
    # Each sync of the save file takes 5 ms longer (a slow SD card): a kill lands between two answers' writes,
    # as it does at the table, however fast this machine's disk is.
    env = {**ENV, "LD_PRELOAD": str(shim), "FAULTSHIM_PREFIX": str(tmp_path), "FAULTSHIM_SYNC_DELAY_MS": "5"}

    whole = tmp_path / "whole.sqlite3"
    assert replay_until(script, whole, env, None) == 0
    resumed = companion("resume", "--db", str(whole))
    assert resumed.returncode == 1 and "no unfinished game" in resumed.stderr
    assert check_log(ref, whole) == len(ref.events)

    def kill_and_resume(n: int, kill_at: int | None) -> str:
        db = tmp_path / f"replay{n}.sqlite3"
        code = replay_until(script, db, env, kill_at)
        resumed = companion("resume", "--db", str(db))
        if resumed.returncode == 1:
            assert "no unfinished game" in resumed.stderr
            game_id, events = stored_events(db)
            if game_id is None:
                return "before the game"
            assert events == ref.events  # the game ended: it is in the history
            history = companion("history", "--db", str(db))
            winners = ", ".join(ref.records[-1]["winners"])
            assert history.returncode == 0 and f"{', '.join(ref.players)}  won by {winners}" in history.stdout
            return "finished" if code == 0 else "killed after it finished"
        assert resumed.returncode == 0, resumed.stderr
        logged = check_log(ref, db)
        assert kill_at is not None and logged >= kill_at
        assert json.loads(resumed.stdout) == ref.records[logged]
        return "mid-game"

    # Killed at once; at three random moments of the game; and once it ended by itself.
    rng = random.Random(21)
    kills = [0, *sorted(rng.sample(range(1, len(ref.events) - 10), 3)), None]
    outcomes = [kill_and_resume(n, kill_at) for n, kill_at in enumerate(kills)]
    assert outcomes == ["before the game", "mid-game", "mid-game", "mid-game", "finished"], (kills, outcomes)


def test_a_cut_between_the_last_event_and_the_finish_mark_still_ends_the_game(tmp_path, child):
    ref = Reference.make(31, 4)
    script = tmp_path / "script.json"
    script.write_text(json.dumps(ref.script()))
    db = tmp_path / "cut.sqlite3"
    process = subprocess.run([sys.executable, str(child), str(script), str(db), "die-at-finish"], input="run\n",
                             capture_output=True, text=True, env=ENV, cwd=REPO, timeout=60)
    assert process.returncode in (0, KILLED), process.stderr
    assert check_log(ref, db) == len(ref.events)

    with EventStore(db) as store:  # the box restarts
        Table(store, roll_when_asked=True).resume()
    assert companion("resume", "--db", str(db)).returncode == 1  # no unfinished game
    history = companion("history", "--db", str(db))
    winners = ", ".join(ref.records[-1]["winners"])
    assert f"won by {winners} after {ref.records[-1]['round']} round(s)" in history.stdout
