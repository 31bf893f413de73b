"""The grace before a reveal (issue 29): the last answer of a secret question waits `reveal_grace` seconds, stored
and acknowledged but not folded, so a mis-tap is not final.

A Mall of Horror ballot at 1 West Parking (tests/mall.py: ATTACK): Red and Blue vote, Blue last. Within the grace
Blue's changed ballot counts; after it, Blue's answer to the closed question is refused. The held answer is in the
save file before the device hears "stored", a power cut (SIGKILL) in the grace folds it at the restart, a grace of
0 reveals at once, undo and corrections wait for the reveal, closing the ballot reveals at once, and the table's
grace is kept in the save file (0 to 5 s; anything else refused, in four languages).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from contextlib import closing
from pathlib import Path

import pytest
from mall import ATTACK

from companion.catalogue import LANGUAGES, catalogue
from companion.contract import Message
from companion.games import mall_of_horror as mall
from companion.store import EventStore
from companion.table import HELD, StaleQuestion, Table, TableError

REPO = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
FOUR = ["red", "blue", "yellow", "green"]


@pytest.fixture
def store(tmp_path):
    with EventStore(tmp_path / "grace.sqlite3") as store:
        yield store


def at_the_ballot(store: EventStore | None, grace: int = 3) -> Table:
    table = Table(store, reveal_grace=grace)
    table.new_game("mall-of-horror", FOUR, position=ATTACK)
    assert mall.prompt(table.state).kind == "ballot" and mall.prompt(table.state).seats == ("red", "blue")
    return table


def revealed(table: Table) -> dict | None:
    """The last ballot revealed, as the public board shows it (None before any)."""
    return table.view(None).get("revealed")


def ballots(table: Table) -> dict:
    return revealed(table)["ballots"]


def saved_hold(path: Path, game_id: int) -> object:
    """The held answer as another reader of the save file finds it (a connection of its own, not the store's)."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (f"setting:{HELD}{game_id}",)).fetchone()
    return None if row is None else json.loads(row[0])


def test_a_change_within_the_grace_counts_and_an_answer_after_it_is_refused(store):
    table = at_the_ballot(store)
    asked = mall.prompt(table.state).id
    table.answer({"seat": "red", "vote": "blue"}, question=asked)
    logged = len(store.events(table.game_id))
    table.answer({"seat": "blue", "vote": "blue"}, question=asked)  # the last ballot: a mis-tap

    # Held: stored, not folded. Nothing revealed, every view counts down, Blue's own question says it is in.
    assert table.held is not None and table.held.seat == "blue"
    assert len(store.events(table.game_id)) == logged and "blue" not in table.state.vote.ballot.ballots
    public = table.view(None)
    assert revealed(table) is None and public["revealing"]["question"] == asked
    assert public["revealing"]["seconds"] == 3 and 0 < public["revealing"]["left"] <= 3
    assert public["prompt"]["waiting"] == []  # Red has voted, Blue's ballot is in
    assert all(table.view(seat)["revealing"] == public["revealing"] for seat in FOUR)
    mine = table.view("blue")["question"]
    assert mine["answered"] is True and mine["held"] is True and "held" not in table.view("red")["question"]

    table.answer({"seat": "blue", "vote": "red"}, question=asked)  # changed within the grace: replaced
    assert table.held.action == {"seat": "blue", "vote": "red"}
    assert len(store.events(table.game_id)) == logged  # still nothing folded, nothing revealed
    assert revealed(table) is None

    table.reveal_now()  # the grace is over
    assert table.held is None and table.view(None)["revealing"] is None
    assert ballots(table) == {"red": "blue", "blue": "red"}  # the changed ballot counts
    events = store.events(table.game_id)
    assert events[logged:] == [{"answer": {"seat": "blue", "vote": "red"}}]  # one event, as any answer
    assert saved_hold(store.path, table.game_id) is None  # the hold cleared

    after = table.state
    with pytest.raises(StaleQuestion):  # after the grace, the old question is closed
        table.answer({"seat": "blue", "vote": "blue"}, question=asked)
    assert table.state is after and ballots(table) == {"red": "blue", "blue": "red"}


def test_another_voter_may_still_change_his_ballot_in_the_grace_and_no_other_view_changes_for_it(store):
    table = at_the_ballot(store)
    table.answer({"seat": "red", "vote": "blue"})
    table.answer({"seat": "blue", "vote": "blue"})
    before = {seat: table.view(seat) for seat in ["yellow", "green", None]}
    table.answer({"seat": "blue", "vote": "red"})  # the held seat changes: no view but its own may differ
    assert {seat: table.view(seat) for seat in ["yellow", "green", None]} == before
    table.answer({"seat": "red", "vote": "red"})  # Red changes his own, already folded, ballot
    assert table.held is not None and table.view(None)["revealing"] == before[None]["revealing"]
    table.reveal_now()
    assert ballots(table) == {"red": "red", "blue": "red"}


def test_the_held_answer_is_in_the_save_file_before_the_device_hears_it_is_stored(tmp_path):
    path = tmp_path / "acked.sqlite3"

    async def main():
        store = EventStore(path, group_commit=True)  # the box's: the acknowledgement waits for the disk
        table = at_the_ballot(store)
        table.loop = asyncio.get_running_loop()
        table.answer({"seat": "red", "vote": "blue"})
        seen = []
        acknowledged = asyncio.Event()

        def done(outcome):
            seen.append((outcome, table.on_disk, saved_hold(path, table.game_id), table.held))
            acknowledged.set()

        threading.Thread(target=table.answer_threadsafe,
                         args=({"seat": "blue", "vote": "green"}, done)).start()  # not a candidate: refused
        await asyncio.wait_for(acknowledged.wait(), 5)
        acknowledged.clear()
        threading.Thread(target=table.answer_threadsafe, args=({"seat": "blue", "vote": "red"}, done),
                         kwargs={"source": {"device": "pad", "seq": 7}}).start()
        await asyncio.wait_for(acknowledged.wait(), 5)
        table.close()
        store.close()
        return seen

    (refused, *_), (outcome, on_disk, saved, held) = asyncio.run(main())
    assert refused is not None and refused.code == "mall.refuse.not_candidate"
    assert outcome is None and on_disk and held is not None
    assert saved["seat"] == "blue" and saved["action"] == {"seat": "blue", "vote": "red"}
    assert saved["question"] == held.question and saved["source"] == {"device": "pad", "seq": 7} and saved["at"]


def test_on_the_loop_the_grace_ends_by_itself_and_every_device_hears_of_the_reveal(store):
    async def main():
        table = at_the_ballot(store, grace=1)
        table.loop = asyncio.get_running_loop()
        told = []
        table.subscribe(lambda: told.append((table.view(None)["revealing"], revealed(table))))
        table.answer({"seat": "red", "vote": "blue"})
        table.answer({"seat": "blue", "vote": "red"})
        start = table.loop.time()
        while table.held is not None and table.loop.time() - start < 5:
            await asyncio.sleep(0.05)
        return table, table.loop.time() - start, told

    table, waited, told = asyncio.run(main())
    assert 0.8 < waited < 2  # the grace, then the reveal, without anyone asking
    assert told[-2][0] is not None and told[-2][1] is None  # first the countdown...
    assert told[-1][0] is None and told[-1][1]["ballots"] == {"red": "blue", "blue": "red"}  # ...then the reveal


def test_a_grace_of_0_reveals_the_last_answer_at_once(store):
    table = at_the_ballot(store, grace=0)
    table.answer({"seat": "red", "vote": "blue"})
    table.answer({"seat": "blue", "vote": "red"})
    assert table.held is None and table.view(None)["revealing"] is None
    assert ballots(table) == {"red": "blue", "blue": "red"}
    assert saved_hold(store.path, table.game_id) is None


def test_a_public_answer_is_never_held(store):
    from mall import MOVE

    table = Table(store, reveal_grace=5)
    table.new_game("mall-of-horror", FOUR, position=MOVE)
    assert not mall.prompt(table.state).secret
    table.answer({"seat": "red", "move": "pinup"})
    assert table.held is None and table.can_undo == 1


def test_undo_and_corrections_wait_for_the_reveal_and_closing_the_ballot_reveals_at_once(store):
    table = at_the_ballot(store)
    table.answer({"seat": "red", "vote": "blue"})
    table.answer({"seat": "blue", "vote": "red"})
    state, logged = table.state, len(store.events(table.game_id))
    view = table.view(None)
    assert view["can_undo"] == 0 and view["undo_why"]["key"] == "table.undo_why.wait_reveal"
    with pytest.raises(TableError) as undo:
        table.undo()
    assert undo.value.code == "table.undo_why.wait_reveal"
    assert table.correct_why.key == "table.correct_secret" and table.edits() == []
    with pytest.raises(TableError) as correct:
        table.correct({"anything": 1})
    assert correct.value.code == "table.correct_secret"
    assert table.state is state and len(store.events(table.game_id)) == logged and table.held is not None

    table.close_ballot()  # every ballot is in: the held one is counted, nobody abstains
    assert table.held is None
    assert ballots(table) == {"red": "blue", "blue": "red"}
    assert store.events(table.game_id)[logged:] == [{"answer": {"seat": "blue", "vote": "red"}}]


def test_a_new_game_in_the_grace_drops_the_held_answer_with_its_game(store):
    table = at_the_ballot(store)
    table.answer({"seat": "red", "vote": "blue"})
    table.answer({"seat": "blue", "vote": "red"})
    table.new_game("mall-of-horror", FOUR, position=ATTACK)
    assert table.held is None and table.view(None)["revealing"] is None and revealed(table) is None


# -- a power cut in the grace ---------------------------------------------------------------------------------

CHILD = """\
import sys, time
sys.path.insert(0, "tests")
from mall import ATTACK
from companion.store import EventStore
from companion.table import Table

table = Table(EventStore(sys.argv[1]), reveal_grace=5)
table.new_game("mall-of-horror", ["red", "blue", "yellow", "green"], position=ATTACK)
table.answer({"seat": "red", "vote": "blue"})
table.answer({"seat": "blue", "vote": "blue"})
table.answer({"seat": "blue", "vote": "red"})
print("held", flush=True)  # acknowledged: the answer is in the save file
time.sleep(60)  # the grace never ends here: the power goes first
"""


def test_a_power_cut_in_the_grace_folds_the_held_answer_at_the_restart(tmp_path):
    path = tmp_path / "cut.sqlite3"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE, text=True, env=ENV,
                             cwd=REPO)
    try:
        assert child.stdout.readline().strip() == "held"
        child.send_signal(signal.SIGKILL)
        assert child.wait(20) == -signal.SIGKILL
    finally:
        if child.poll() is None:
            child.kill()
        child.stdout.close()

    with EventStore(path) as store:
        game = store.unfinished()
        assert [e["answer"] for e in store.events(game.id)] == [{"seat": "red", "vote": "blue"}]  # not folded yet
        table = Table(store)
        assert table.resume() is not None
        assert table.held is None and table.view(None)["revealing"] is None
        assert ballots(table) == {"red": "blue", "blue": "red"}  # the last ballot as changed before the cut
        assert [e["answer"] for e in store.events(game.id)] == [{"seat": "red", "vote": "blue"},
                                                               {"seat": "blue", "vote": "red"}]
        assert saved_hold(path, game.id) is None
        state = table.state

    with EventStore(path) as store:  # a second restart folds nothing again
        table = Table(store)
        table.resume()
        assert table.state == state and len(store.events(table.game_id)) == 2


def test_a_hold_left_behind_once_its_answer_was_folded_is_dropped_at_the_restart_not_folded_twice(tmp_path):
    path = tmp_path / "twice.sqlite3"
    with EventStore(path) as store:
        table = at_the_ballot(store)
        table.answer({"seat": "red", "vote": "blue"})
        table.answer({"seat": "blue", "vote": "red"})
        left_behind = table.held.to_json()
        table.reveal_now()
        store.set_setting(f"{HELD}{table.game_id}", left_behind)  # the cut came between the fold and the clearing
        state, logged = table.state, len(store.events(table.game_id))
    with EventStore(path) as store:
        table = Table(store)
        table.resume()
        assert table.state == state and len(store.events(table.game_id)) == logged
        assert saved_hold(path, table.game_id) is None


def test_a_table_that_only_reads_the_game_leaves_the_held_answer_held(tmp_path):
    """`companion resume` prints where the game stands (roll_when_asked=False): it reveals nothing by itself."""
    path = tmp_path / "read.sqlite3"
    with EventStore(path) as store:
        table = at_the_ballot(store)
        table.answer({"seat": "red", "vote": "blue"})
        table.answer({"seat": "blue", "vote": "red"})
        game_id = table.game_id
    with EventStore(path) as store:
        Table(store, roll_when_asked=False).resume()
        assert len(store.events(game_id)) == 1 and saved_hold(path, game_id)["seat"] == "blue"


# -- the table's option ---------------------------------------------------------------------------------------


def test_the_grace_is_kept_in_the_save_file_and_read_at_the_next_start(tmp_path):
    path = tmp_path / "kept.sqlite3"
    with EventStore(path) as store:
        table = Table(store, reveal_grace=3)
        assert table.reveal_grace == 3  # the save file keeps none: the default given
        table.set_reveal_grace(1)
        table.new_game("mall-of-horror", FOUR, position=ATTACK, reveal_grace=4)
        assert table.reveal_grace == 4
    with EventStore(path) as store:
        assert Table(store).reveal_grace == 4  # whatever the default
        assert Table(store, reveal_grace=0).reveal_grace == 4
    assert Table().reveal_grace == 0  # a table alone (the tests, the benches): at once


@pytest.mark.parametrize("wrong", [6, -1, 100, True, "3", 2.5, None])
def test_a_grace_outside_0_to_5_seconds_is_refused_in_every_language_and_nothing_changes(tmp_path, wrong):
    path = tmp_path / "refused.sqlite3"
    with EventStore(path) as store:
        table = Table(store, reveal_grace=2)
        with pytest.raises(TableError) as refused:
            table.set_reveal_grace(wrong)
        assert refused.value.code == "table.reveal_grace" and table.reveal_grace == 2
        assert store.setting("reveal_grace") is None
        if wrong is not None:  # None is "keep it" for a new game
            with pytest.raises(TableError):
                table.new_game("mall-of-horror", FOUR, reveal_grace=wrong)
            assert store.unfinished() is None and table.state is None  # no game stored, none started
        said = {lang: catalogue().text(Message(refused.value.code, refused.value.params), lang) for lang in LANGUAGES}
        assert all(str(wrong) in text and "5" in text and "{" not in text for text in said.values()), said
        assert len(set(said.values())) == 4


@pytest.mark.parametrize("seconds", range(6))
def test_every_grace_from_0_to_5_seconds_is_taken(store, seconds):
    table = Table(store)
    table.set_reveal_grace(seconds)
    assert table.reveal_grace == seconds and store.setting("reveal_grace") == seconds
