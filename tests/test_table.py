"""The Table: answers in, events stored before anyone is told, the cup, undo, resume, device threads."""

from __future__ import annotations

import asyncio
import random
import threading

import pytest
from mall import ATTACK, MOVE

from companion.contract import IllegalAction, record_of
from companion.cup import DiceCup, verify
from companion.games import mall_of_horror as mall
from companion.simulate import random_game
from companion.store import EventStore
from companion.table import StaleQuestion, Table, TableError

FOUR = ["red", "blue", "yellow", "green"]


@pytest.fixture
def store(tmp_path):
    with EventStore(tmp_path / "table.sqlite3") as store:
        yield store


def test_the_cup_rolls_when_the_rules_ask_and_each_roll_is_stored_with_its_commitment(store):
    table = Table(store)
    table.new_game("mall-of-horror", FOUR)
    assert mall.prompt(table.state).step == "place"  # the placement dice are already rolled
    stored = store.events(table.game_id)
    assert len(stored) == 1 and len(stored[0]["roll"]) == 2
    assert verify(stored[0]["commitment"], stored[0]["roll"], stored[0]["nonce"])
    assert table.view("blue")["cup_rolls"] == [
        {"commitment": stored[0]["commitment"], "count": 2, "dice": stored[0]["roll"], "nonce": stored[0]["nonce"]}
    ]


def test_subscribers_are_told_after_the_event_is_stored(store):
    table = Table(store)
    table.new_game("mall-of-horror", FOUR, position=MOVE)
    seen = []
    table.subscribe(lambda: seen.append((len(store.events(table.game_id)), table.state.turn)))
    table.answer({"seat": "red", "move": "pinup"})
    assert seen == [(1, 1)]


def test_a_refused_answer_changes_nothing_and_stores_nothing(store):
    table = Table(store)
    table.new_game("mall-of-horror", FOUR, position=MOVE)
    before = table.state
    for bad in [{"seat": "blue", "move": "pinup"}, {"seat": "red", "move": "girl"}, "garbage", {"seat": "red"},
                {"seat": "red", "move": "pinup", "extra": 1}, {"seat": "mauve", "move": "pinup"}]:
        with pytest.raises(IllegalAction):
            table.answer(bad)
    assert table.state is before
    assert store.events(table.game_id) == []


def test_the_elected_chief_alone_sees_the_secret_dice_until_the_reveal(store):
    table = Table(store, DiceCup(scripted=[(1, 3, 3, 6)]))
    table.new_game("mall-of-horror", FOUR, position={
        "round": 2, "phase": "arrival", "chief": "blue", "elected": True,
        "characters": {"red": {"pinup": 1, "tough": 3, "gunman": 5}, "blue": {"pinup": 3, "tough": 6},
                       "yellow": {"pinup": 6, "tough": 1}, "green": {"pinup": 4}},
        "hands": {"red": 0, "blue": 0, "yellow": 0, "green": 0}, "deck": 17,
    })
    assert table.view("blue")["cup_seen"] == [1, 3, 3, 6]
    for seat in ("red", "yellow", "green", None):
        view = table.view(seat)
        assert "cup_seen" not in view and "cup" not in view
        assert "dice" not in view["cup_rolls"][-1] and "nonce" not in view["cup_rolls"][-1]


def test_at_the_reveal_everyone_sees_the_dice_and_can_check_the_commitment(store):
    table = Table(store, DiceCup(scripted=[(1, 3, 3, 6)]))
    table.new_game("mall-of-horror", FOUR, position={
        "round": 2, "phase": "destination", "chief": "red",
        "characters": {"red": {"pinup": 1, "tough": 3, "gunman": 5}, "blue": {"pinup": 3, "tough": 6},
                       "yellow": {"pinup": 6, "tough": 1}, "green": {"pinup": 4}},
        "hands": {"red": 0, "blue": 0, "yellow": 0, "green": 0}, "deck": 17,
    })
    for seat, go in [("red", 3), ("blue", 1), ("yellow", 3), ("green", 6)]:
        table.answer({"seat": seat, "go": go})
    public = table.view(None)
    assert public["cup"] == [1, 3, 3, 6]
    last = public["cup_rolls"][-1]
    assert verify(last["commitment"], last["dice"], last["nonce"])


def test_undo_takes_back_a_public_answer_and_is_logged(store):
    table = Table(store)
    table.new_game("mall-of-horror", FOUR, position=MOVE)
    before = table.state
    table.answer({"seat": "red", "move": "tough"})
    assert table.can_undo == 1
    table.undo()
    assert table.state == before
    assert store.events(table.game_id)[-1] == {"undo": 1}
    table.answer({"seat": "red", "move": "pinup"})  # the right move this time
    assert {c.kind: c.location for c in table.state.of("red")}["pinup"] == 6


def test_undo_several_steps_but_not_past_what_can_be_taken_back(store):
    table = Table(store)
    table.new_game("mall-of-horror", FOUR, position=MOVE)
    start = table.state
    table.answer({"seat": "red", "move": "pinup"})
    table.answer({"seat": "blue", "move": "gunman"})
    with pytest.raises(TableError, match="Only 2 steps"):
        table.undo(3)
    table.undo(2)
    assert table.state == start


def test_undo_never_reopens_a_revealed_ballot(store):
    table = Table(store)
    table.new_game("mall-of-horror", FOUR, position=ATTACK)
    assert mall.prompt(table.state).kind == "ballot"
    table.answer({"seat": "red", "vote": "blue"})
    assert table.can_undo == 0  # a secret ballot is changed by voting again, not undone
    table.answer({"seat": "blue", "vote": "red"})  # Red 3 votes (Gunman) beat Blue's 3? a tie: re-vote
    assert table.state.vote.stage == 2
    assert table.can_undo == 0
    with pytest.raises(TableError):
        table.undo()


def test_undo_never_rerolls_the_dice(store):
    table = Table(store)
    table.new_game("mall-of-horror", FOUR)
    seat = mall.prompt(table.state).seats[0]
    table.answer(mall.prompt(table.state).options[seat][0])  # a placement: the cup rolls for the next one
    assert table.can_undo == 0
    with pytest.raises(TableError, match="dice"):
        table.undo()


def test_close_ballot_is_a_logged_table_action_and_missing_voters_abstain(store):
    table = Table(store)
    table.new_game("mall-of-horror", FOUR, position=ATTACK)
    table.answer({"seat": "red", "vote": "blue"})
    table.close_ballot()
    assert {"answer": {"close": True}} in store.events(table.game_id)
    assert table.view(None)["revealed"]["ballots"] == {"red": "blue"}
    assert "pinup" not in {c.kind for c in table.state.of("blue")}  # Blue's only character there was eaten


def test_resume_folds_the_log_to_exactly_the_state_before_the_cut(tmp_path):
    path = tmp_path / "cut.sqlite3"
    events, _ = random_game(mall, FOUR, random.Random(7))
    actions = [e for e in events if "roll" not in e and "pick" not in e]
    with EventStore(path) as store:
        table = Table(store)
        table.new_game("mall-of-horror", FOUR)
        for action in actions[:40]:
            table.answer(action) if _legal(table, action) else table.answer(_first_answer(table))
        if table.can_undo:
            table.undo()
        assert not table.state.over
        expected_state, expected_views = table.state, {s: table.view(s) for s in [*FOUR, None]}
    with EventStore(path) as store:
        resumed = Table(store)
        assert resumed.resume() is not None
        assert resumed.state == expected_state
        assert {s: resumed.view(s) for s in [*FOUR, None]} == expected_views


def _legal(table: Table, action: dict) -> bool:
    prompt = mall.prompt(table.state)
    return prompt is not None and action in prompt.options.get(action.get("seat"), [])


def _first_answer(table: Table) -> dict:
    prompt = mall.prompt(table.state)
    return prompt.options[prompt.seats[0]][0]


def test_a_finished_game_stays_in_the_history(store):
    events, final = random_game(mall, FOUR, random.Random(3))
    table = Table(store, DiceCup(scripted=[tuple(e["roll"]) for e in events if "roll" in e],
                                 picks=[e["pick"] for e in events if "pick" in e]))
    table.new_game("mall-of-horror", FOUR)
    for event in events:
        if "roll" not in event and "pick" not in event:
            table.answer(event)
    assert table.state.over and table.record() == record_of(mall, final)
    (game,) = store.history()
    assert game.players == tuple(FOUR) and game.winners == final.winners and game.rounds == final.round
    assert store.unfinished() is None


def test_answers_from_device_threads_are_handed_to_the_tables_loop(store):
    async def main():
        table = Table(store)
        table.loop = asyncio.get_running_loop()
        table.new_game("mall-of-horror", FOUR, position=ATTACK)
        loop_thread = threading.get_ident()
        applied_on, results = [], []
        table.subscribe(lambda: applied_on.append(threading.get_ident()))
        finished = asyncio.Event()

        def done(error):
            results.append(error)
            if len(results) == 3:
                finished.set()

        def device(seat, colour):
            table.answer_threadsafe({"seat": seat, "vote": colour}, done)

        threads = [threading.Thread(target=device, args=a) for a in
                   [("red", "blue"), ("blue", "blue"), ("green", "red")]]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        await asyncio.wait_for(finished.wait(), 5)
        return table, loop_thread, applied_on, results

    table, loop_thread, applied_on, results = asyncio.run(main())
    assert set(applied_on) == {loop_thread}
    errors = [r for r in results if r is not None]
    assert len(results) == 3 and len(errors) == 1 and str(errors[0]).startswith("Green cannot act now")
    assert table.view(None)["revealed"]["ballots"] == {"red": "blue", "blue": "blue"}


def test_answer_threadsafe_needs_a_running_table(store):
    table = Table(store)
    with pytest.raises(TableError):
        table.answer_threadsafe({"seat": "red", "vote": "blue"})


def test_no_undo_once_the_game_is_over(store):
    table = Table(store)
    table.new_game("mall-of-horror", FOUR, position={
        "round": 4, "phase": "move", "chief": "blue",
        "characters": {"red": {"pinup": 6, "tough": 6}, "blue": {"pinup": 6, "gunman": 3}, "yellow": {"pinup": 6}},
        "destinations": {"red": 3, "blue": 6, "yellow": 3, "green": 1}, "cup": [2, 2, 2, 2],
        "hands": {"blue": 1},  # a Sprint could be played: Blue's move is a real choice
    })
    table.answer({"seat": "blue", "move": "gunman"})  # everyone alive now stands in the Supermarket: rescue
    assert table.state.over and table.can_undo == 0
    with pytest.raises(TableError, match="over"):
        table.undo()
    assert store.history()[0].winners == ("red",)


def test_an_answer_to_a_closed_question_is_refused_not_applied_to_the_next(store):
    table = Table(store)
    table.new_game("mall-of-horror", FOUR, position=MOVE)
    asked = mall.prompt(table.state).id
    table.answer({"seat": "red", "move": "pinup"}, question=asked)
    later = table.state
    with pytest.raises(TableError, match="already closed"):
        table.answer({"seat": "blue", "move": "gunman"}, question=asked)
    assert table.state is later
    table.answer({"seat": "blue", "move": "gunman"}, question=mall.prompt(table.state).id)


def test_a_question_keeps_its_id_while_voters_vote_and_change_their_ballots(store):
    table = Table(store)
    table.new_game("mall-of-horror", FOUR, position=ATTACK)
    asked = mall.prompt(table.state).id
    table.answer({"seat": "red", "vote": "red"}, question=asked)
    table.answer({"seat": "red", "vote": "blue"}, question=asked)  # changed his mind before the reveal
    assert mall.prompt(table.state).id == asked


def test_a_stale_answer_is_known_by_its_type_not_its_words(store):
    table = Table(store)
    table.new_game("mall-of-horror", FOUR, position=MOVE)
    with pytest.raises(StaleQuestion) as stale:
        table.answer({"seat": "red", "move": "pinup"}, question="an old question")
    assert stale.value.code == "table.stale" and isinstance(stale.value, TableError)


def test_one_failing_subscriber_does_not_keep_the_others_from_hearing(store, caplog):
    table = Table(store)
    heard = []
    table.subscribe(lambda: 1 / 0)
    table.subscribe(lambda: heard.append(table.state.round))
    table.new_game("mall-of-horror", FOUR, position=MOVE)
    table.answer({"seat": "red", "move": "pinup"})
    assert heard == [2, 2] and "a table subscriber failed" in caplog.text


def test_a_device_answer_that_fails_in_storage_is_still_answered_and_nothing_is_kept(tmp_path):
    """A storage error is an answer to the device, not silence: a pad waiting for it would stay locked."""
    async def main():
        store = EventStore(tmp_path / "fails.sqlite3")
        table = Table(store)
        table.loop = asyncio.get_running_loop()
        table.new_game("mall-of-horror", FOUR, position=ATTACK)
        before = table.state
        store.close()  # the save file is gone from under the table: every write now fails
        replies = []
        replied = asyncio.Event()

        def done(outcome):
            replies.append(outcome)
            replied.set()

        threading.Thread(target=table.answer_threadsafe, args=({"seat": "red", "vote": "blue"}, done)).start()
        await asyncio.wait_for(replied.wait(), 5)
        return table, before, replies

    table, before, replies = asyncio.run(main())
    assert len(replies) == 1 and replies[0].code == "table.not_stored"
    assert str(replies[0]).startswith("Not stored: ")
    assert table.state is before and table.view("red")["question"]["answered"] is False


def test_views_carry_the_prompt_each_seats_question_and_this_rounds_narration(store):
    table = Table(store)
    table.new_game("mall-of-horror", FOUR, position=ATTACK)
    public, red, green = table.view(None), table.view("red"), table.view("green")
    assert public["prompt"]["kind"] == "ballot" and public["prompt"]["secret"] is True
    assert set(public["prompt"]["waiting"]) == {"red", "blue"}
    assert "question" not in public and "narration_mine" not in public
    assert red["question"]["id"] == public["prompt"]["id"] and green["question"] is None
    assert public["game"] == "mall-of-horror" and "board" not in public  # the board is its parts, for every game
    assert [p["part"] for p in public["parts"]["main"]] == ["heading", "lines", "lines", "zones", "lines"]
    assert all(line["round"] == table.state.round for line in public["narration"])
