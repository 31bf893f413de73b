"""Choices on buttons: the same mapping for every pad, and presses handed to the table's loop."""

from __future__ import annotations

import threading

import pytest
from padkit import FOUR, RESTROOM_VOTE, WAIT, RunningTable, wait_until

from companion.cup import DiceCup
from companion.games.base import Prompt
from companion.pads.buttons import PadButtons, PadError, button_actions
from companion.table import Table


def _prompt(table: Table) -> Prompt:
    return table.rules.prompt(table.state)


@pytest.fixture
def running(tmp_path):
    running = RunningTable(tmp_path / "pads.sqlite3")
    yield running
    running.close()


def press(running: RunningTable, seat: str, button: int) -> str | None:
    """Press from a thread of its own, as a device would; the table's reply (None: accepted)."""
    replies: list[str | None] = []
    answered = threading.Event()

    def reply(error: str | None) -> None:
        replies.append(error)
        answered.set()

    device = threading.Thread(target=running.buttons.press, args=(seat, button, reply))
    device.start()
    device.join(WAIT)
    assert answered.wait(WAIT), "the press got no reply"
    return replies[0]


# -- the mapping ----------------------------------------------------------------------------------------------


def test_location_buttons_are_the_location_numbers():
    table = Table()
    table.new_game("mall-of-horror", FOUR, position=RESTROOM_VOTE)
    for seat, vote in [("red", "red"), ("blue", "red"), ("yellow", "red")]:
        table.answer({"seat": seat, "vote": vote})
    prompt = _prompt(table)  # the Chief chooses a destination
    assert prompt.kind == "location"
    buttons = button_actions(prompt, "red", FOUR)
    for k, action in enumerate(buttons, start=1):
        legal = {"seat": "red", "go": k}
        assert action == (legal if legal in prompt.options["red"] else None)
    assert buttons[2] == {"seat": "red", "go": 3}


def test_a_placement_button_places_the_first_unplaced_character_listed():
    table = Table(cup=DiceCup(scripted=[(3, 5)]))
    table.new_game("mall-of-horror", FOUR)
    buttons = button_actions(_prompt(table), "red", FOUR)
    assert buttons == (None, None, {"seat": "red", "go": 3, "character": "pinup"}, None,
                       {"seat": "red", "go": 5, "character": "pinup"}, None)
    listed_otherwise = Prompt("location", {"red": [{"seat": "red", "go": 3, "character": "tough"},
                                                   {"seat": "red", "go": 3, "character": "pinup"}]})
    assert button_actions(listed_otherwise, "red", FOUR)[2] == {"seat": "red", "go": 3, "character": "tough"}


def test_ballot_buttons_are_the_players_in_seating_order_like_the_colour_stickers():
    table = Table()
    table.new_game("mall-of-horror", FOUR, position=RESTROOM_VOTE)
    assert button_actions(_prompt(table), "blue", FOUR) == (
        {"seat": "blue", "vote": "red"}, {"seat": "blue", "vote": "blue"}, {"seat": "blue", "vote": "yellow"},
        None, None, None,  # Green has no character in the Restroom: not a candidate
    )


def test_gift_buttons_are_the_players_in_seating_order_and_never_oneself():
    gift = Prompt("gift", {"blue": [{"seat": "blue", "give": p} for p in ("yellow", "green", "red")]})
    assert button_actions(gift, "blue", FOUR) == (
        {"seat": "blue", "give": "red"}, None, {"seat": "blue", "give": "yellow"}, {"seat": "blue", "give": "green"},
        None, None,
    )


def test_other_kinds_take_the_options_in_their_order_at_most_six():
    window = Prompt("card", {"red": [{"seat": "red", "pass": True}] + [{"seat": "red", "n": n} for n in range(7)]})
    buttons = button_actions(window, "red", FOUR)
    assert buttons == tuple(window.options["red"][:6])
    move = Prompt("character", {"red": [{"seat": "red", "move": "pinup"}, {"seat": "red", "move": "gunman"}]})
    assert button_actions(move, "red", FOUR) == (*move.options["red"], None, None, None, None)


def test_a_seat_that_is_not_asked_has_no_buttons():
    table = Table()
    table.new_game("mall-of-horror", FOUR, position=RESTROOM_VOTE)
    assert button_actions(_prompt(table), "green", FOUR) == (None,) * 6
    assert button_actions(None, "red", FOUR) == (None,) * 6


# -- presses --------------------------------------------------------------------------------------------------


def test_a_press_from_a_device_thread_is_answered_on_the_tables_loop(running):
    applied_on = []
    running.call(lambda: running.table.subscribe(lambda: applied_on.append(threading.get_ident())))
    assert press(running, "red", 3) is None
    assert running.votes() == [{"seat": "red", "vote": "yellow"}]
    assert set(applied_on) == {running.thread.ident}


def test_a_press_with_no_prompt_for_its_seat_is_refused_and_changes_nothing(running):
    before = running.call(lambda: running.table.state)
    assert press(running, "green", 1) == "Green pressed a pad button but is not asked anything now"
    assert running.call(lambda: running.table.state) is before
    assert running.answers() == []
    assert running.said == ["Green pressed a pad button but is not asked anything now"]


def test_a_press_on_a_button_with_no_option_is_refused_and_changes_nothing(running):
    assert press(running, "red", 4) is not None  # Green is not a candidate
    assert press(running, "red", 6) is not None
    assert press(running, "red", 7) is not None  # no such button
    assert running.answers() == []


def test_a_pad_never_changes_a_ballot_already_cast(running):
    assert press(running, "red", 3) is None
    assert press(running, "red", 2) == "Red pressed a pad button but is not asked anything now"
    assert running.votes() == [{"seat": "red", "vote": "yellow"}]


def test_a_second_press_while_the_first_is_being_taken_is_refused(running):
    gate = threading.Event()
    running.loop.call_soon_threadsafe(gate.wait, WAIT)  # the loop is busy: both presses read the same board
    replies: list[str | None] = []
    running.buttons.press("red", 3, replies.append)
    running.buttons.press("red", 1, replies.append)
    gate.set()
    assert wait_until(lambda: len(replies) == 2)
    assert sorted(replies, key=str) == sorted([None, "Red's previous press is still being taken"], key=str)
    assert running.votes() == [{"seat": "red", "vote": "yellow"}]


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
    assert running.said == ["Red's pad press was refused"]


def test_pads_need_a_table_running_on_a_loop():
    with pytest.raises(PadError, match="not running on a loop"):
        PadButtons(Table()).start()
