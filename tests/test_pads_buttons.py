"""Choices on buttons: the same mapping for every pad, and presses handed to the table's loop."""

from __future__ import annotations

import threading

import pytest
from padkit import FOUR, RESTROOM_VOTE, WAIT, RunningTable, look, wait_until

from companion.catalogue import text
from companion.contract import PICK, Choice, Message, Question
from companion.cup import DiceCup
from companion.pads.buttons import PadButtons, PadError, button_actions
from companion.table import Table


@pytest.fixture
def running(tmp_path):
    running = RunningTable(tmp_path / "pads.sqlite3")
    yield running
    running.close()


def press(running: RunningTable, seat: str, button: int) -> str | None:
    """Press from a thread of its own, as a device would; the table's reply in English (None: accepted)."""
    replies: list[str | None] = []
    answered = threading.Event()

    def reply(error: Message | None) -> None:
        replies.append(None if error is None else text(error))
        answered.set()

    device = threading.Thread(target=running.buttons.press, args=(seat, button, reply))
    device.start()
    device.join(WAIT)
    assert answered.wait(WAIT), "the press got no reply"
    return replies[0]


def _question(*slots: int | None) -> Question:
    choices = tuple(Choice({"seat": "red", "n": i}, Message("x"), slot) for i, slot in enumerate(slots))
    return Question("q", "red", PICK, "step", Message("x"), choices=choices)


# -- the mapping ----------------------------------------------------------------------------------------------


def test_button_k_is_the_first_choice_whose_slot_is_k():
    buttons = button_actions(_question(3, 5, 3, None, 1))
    assert buttons == ({"seat": "red", "n": 4}, None, {"seat": "red", "n": 0}, None, {"seat": "red", "n": 1}, None)


def test_a_question_without_slots_has_no_buttons():
    assert button_actions(_question(None, None)) == (None,) * 6
    assert button_actions(None) == (None,) * 6


def test_location_buttons_are_the_location_numbers():
    table = Table()
    table.new_game("mall-of-horror", FOUR, position=RESTROOM_VOTE)
    for seat, vote in [("red", "red"), ("blue", "red"), ("yellow", "red")]:
        table.answer({"seat": seat, "vote": vote})
    asked = table.question("red")  # the Chief chooses a destination
    buttons = button_actions(asked)
    legal = [c.action for c in asked.choices]
    for k, action in enumerate(buttons, start=1):
        assert action == ({"seat": "red", "go": k} if {"seat": "red", "go": k} in legal else None)
    assert buttons[2] == {"seat": "red", "go": 3}


def test_a_placement_button_places_the_first_unplaced_character_listed():
    table = Table(cup=DiceCup(scripted=[(3, 5)]))
    table.new_game("mall-of-horror", FOUR)
    assert button_actions(table.question("red")) == (
        None, None, {"seat": "red", "go": 3, "character": "pinup"}, None,
        {"seat": "red", "go": 5, "character": "pinup"}, None)


def test_ballot_buttons_are_the_players_in_seating_order_like_the_colour_stickers():
    table = Table()
    table.new_game("mall-of-horror", FOUR, position=RESTROOM_VOTE)
    assert button_actions(table.question("blue")) == (
        {"seat": "blue", "vote": "red"}, {"seat": "blue", "vote": "blue"}, {"seat": "blue", "vote": "yellow"},
        None, None, None,  # Green has no character in the Restroom: not a candidate
    )
def test_a_seat_that_is_not_asked_has_no_buttons():
    table = Table()
    table.new_game("mall-of-horror", FOUR, position=RESTROOM_VOTE)
    assert table.question("green") is None
    assert button_actions(table.question("green")) == (None,) * 6


# -- presses --------------------------------------------------------------------------------------------------


def test_a_press_from_a_device_thread_is_answered_on_the_tables_loop(running):
    applied_on = []
    running.call(lambda: running.table.subscribe(lambda: applied_on.append(threading.get_ident())))
    assert press(running, "red", 3) is None
    assert running.votes() == [{"seat": "red", "vote": "yellow"}]
    assert set(applied_on) == {running.thread.ident}


def test_a_press_with_no_prompt_for_its_seat_is_refused_and_changes_nothing(running):
    before = running.call(lambda: running.table.state)
    assert press(running, "green", 1) == "Green pressed a pad button but is not asked anything now."
    assert running.call(lambda: running.table.state) is before
    assert running.answers() == []
    assert running.said == ["Green pressed a pad button but is not asked anything now."]


def test_a_press_on_a_button_with_no_option_is_refused_and_changes_nothing(running):
    assert press(running, "red", 4) is not None  # Green is not a candidate
    assert press(running, "red", 6) is not None
    assert press(running, "red", 7) is not None  # no such button
    assert running.answers() == []


def test_a_pad_never_changes_a_ballot_already_cast(running):
    assert press(running, "red", 3) is None
    assert press(running, "red", 2) == "Red pressed a pad button but is not asked anything now."
    assert running.votes() == [{"seat": "red", "vote": "yellow"}]


def test_a_second_press_while_the_first_is_being_taken_is_refused(running):
    gate = threading.Event()
    running.loop.call_soon_threadsafe(gate.wait, WAIT)  # the loop is busy: both presses read the same board
    replies: list[str | None] = []

    def reply(error: Message | None) -> None:
        replies.append(None if error is None else text(error))

    running.buttons.press("red", 3, reply)
    running.buttons.press("red", 1, reply)
    gate.set()
    assert wait_until(lambda: len(replies) == 2)
    assert sorted(replies, key=str) == sorted([None, "Red's previous press is still being taken."], key=str)
    assert running.votes() == [{"seat": "red", "vote": "yellow"}]


def test_the_next_press_is_not_refused_while_the_last_one_waits_for_the_disk(tmp_path):
    """The in-flight guard ends once the table has taken a press; its acknowledgement still waits for the disk."""
    running = RunningTable(tmp_path / "slow.sqlite3", group_commit=True)
    disk = threading.Event()
    sync = running.store.sync
    running.store.sync = lambda: (disk.wait(WAIT), sync())[1]  # a slow SD card: the sync waits for the test
    try:
        for seat in ("blue", "yellow"):  # Red's is the last vote: Red loses it 2 to 1 and is asked again at once
            running.call(lambda s=seat: running.table.answer({"seat": s, "vote": "red"}))
        replies: list[str | None] = []

        def reply(error: Message | None) -> None:
            replies.append(None if error is None else text(error))

        running.buttons.press("red", 3, reply)  # the vote for Yellow
        assert wait_until(lambda: len(running.votes()) == 3)  # taken, not yet on disk
        assert wait_until(lambda: running.call(lambda: running.table.question("red")) is not None)
        look()
        running.buttons.press("red", 1, reply)  # the next question's first button: not "still being taken"
        assert wait_until(lambda: len(running.answers()) == 4)
        assert replies == []  # nothing unstored is acknowledged
        disk.set()
        assert wait_until(lambda: len(replies) == 2) and replies == [None, None]  # on disk: both acknowledged
    finally:
        disk.set()
        running.close()


def test_a_refused_secret_answer_is_never_said_aloud(running):
    gate = threading.Event()
    running.loop.call_soon_threadsafe(gate.wait, WAIT)
    for seat in ("blue", "yellow"):
        running.loop.call_soon_threadsafe(running.table.answer, {"seat": seat, "vote": "red"})
    running.loop.call_soon_threadsafe(running.table.close_ballot)
    replies: list[str | None] = []
    running.buttons.press("red", 3, replies.append)  # read before the ballot closes, taken after
    gate.set()
    assert wait_until(lambda: replies)
    assert replies[0] is not None and running.votes() == [{"seat": "blue", "vote": "red"},
                                                          {"seat": "yellow", "vote": "red"}]
    assert running.said == ["Red's pad press came after its question had closed: it was not counted."]


def test_pads_need_a_table_running_on_a_loop():
    with pytest.raises(PadError, match="not running on a loop"):
        PadButtons(Table()).start()
