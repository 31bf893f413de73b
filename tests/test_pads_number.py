"""Numbers on a 6-button pad, for any game: 1 −10, 2 −1, 3 +1, 4 +10, 5 back to the lowest, 6 OK.

On GPIO pads (gpiozero's MockFactory) and on the USB hub over a pty, with a game only the tests know (a number that
is not secret: the table screen shows it as it is entered) and with Zombiegeddon's secret entries (nothing said).
"""

from __future__ import annotations

import threading

import pytest
from padkit import WAIT, RunningTable, look, wait_until

from companion.pads.config import GpioConfig, GpioPad
from companion.pads.fake_hub import FakeHub
from companion.pads.gpio import GpioPads
from companion.pads.registry import PadRegistry
from companion.pads.serial import SerialPads

BLUE_PINS = (5, 6, 13, 19, 26, 21)  # buttons 1..6
RED_PINS = (4, 17, 27, 22, 10, 9)


def pins_of(mock_factory, pins):
    def press(button: int) -> None:
        pin = mock_factory.pin(pins[button - 1])
        pin.drive_low()
        threading.Event().wait(0.01)
        pin.drive_high()
        threading.Event().wait(0.01)
    return press


@pytest.fixture
def running(tmp_path):
    running = RunningTable(tmp_path / "numbers.sqlite3", position=None)
    yield running
    running.close()


def gpio(running, *pads):
    config = GpioConfig(tuple(pads), debounce=0.001)
    device = GpioPads(running.buttons, config)
    running.call(device.start)
    return device


def test_a_number_entered_on_a_six_button_gpio_pad_shown_on_the_table_screen_then_sent(lucky_die, mock_factory,
                                                                                      running):
    running.call(lambda: running.table.new_game("lucky-die", ["red", "blue"], {"target": "1"}))
    running.call(lambda: running.table.answer({"seat": "red", "give": {"sun": "red", "moon": "blue"}}))
    running.call(lambda: running.table.answer({"seat": "red", "vote": "blue"}))
    running.call(lambda: running.table.answer({"seat": "blue", "vote": "blue"}))  # Blue names a number, 1 to 6
    pads = gpio(running, GpioPad("blue", BLUE_PINS, led=20))
    press = pins_of(mock_factory, BLUE_PINS)
    look()
    try:
        for button in (3, 3, 3, 2):  # +1 +1 +1 −1: from 1 to 3
            press(button)
        assert wait_until(lambda: len(running.said) == 4)
        assert running.said == [f"Blue's pad: {n} (button 6 sends it)" for n in (2, 3, 4, 3)]
        press(4)  # +10: stops at 6
        press(4)  # already at 6: refused, stays
        assert wait_until(lambda: len(running.said) == 6)
        assert running.said[4:] == ["Blue's pad: 6 (button 6 sends it)",
                                    "Blue's pad: the number stays between 1 and 6."]
        press(5)  # back to the lowest
        press(3)
        press(6)  # OK: Blue guesses 2
        # (The cup then rolls for real: the game may go on to round 2 or end with Blue's win, one time in six.)
        assert wait_until(lambda: running.answers()[-1:] == [{"seat": "blue", "number": 2}])
        assert running.said[6:8] == ["Blue's pad: 1 (button 6 sends it)", "Blue's pad: 2 (button 6 sends it)"]
    finally:
        running.call(pads.close)


def test_a_pad_with_fewer_buttons_still_refuses_a_number(lucky_die, mock_factory, running):
    running.call(lambda: running.table.new_game("lucky-die", ["red", "blue"], {"target": "1"}))
    for action in ({"seat": "red", "give": {"sun": "red", "moon": "blue"}}, {"seat": "red", "vote": "blue"},
                   {"seat": "blue", "vote": "blue"}):
        running.call(lambda a=action: running.table.answer(a))
    pads = gpio(running, GpioPad("blue", (5, 6, 13)))
    try:
        pins_of(mock_factory, (5, 6, 13))(3)
        assert wait_until(lambda: running.said) == [
            "Blue pressed a pad button, but this question is answered on a phone or the screen."]
    finally:
        running.call(pads.close)


def test_a_secret_number_on_gpio_pads_is_said_nowhere_and_kept_per_seat(mock_factory, running):
    running.call(lambda: running.table.new_game("zombiegeddon", ["red", "blue"]))
    running.call(lambda: running.table.answer({"seat": "red", "act": "phase_end"}))  # everyone's largest zombie disc
    pads = gpio(running, GpioPad("red", RED_PINS, led=11), GpioPad("blue", BLUE_PINS, led=20))
    red, blue = pins_of(mock_factory, RED_PINS), pins_of(mock_factory, BLUE_PINS)
    look()
    try:
        for button in (4, 3, 2, 3):  # Red: +10 +1 −1 +1 = 11
            red(button)
        blue(3)  # Blue: +1, a draft of his own
        red(6)
        assert wait_until(lambda: running.answers() == [{"seat": "red", "act": "phase_end"},
                                                        {"seat": "red", "largest": 11}])
        blue(1)  # −10 at 1: down to the lowest, 0
        blue(1)  # at the limit: refused, and nothing said of it
        blue(3)
        blue(3)
        blue(6)  # Blue: 2; Red's 11 is larger
        assert wait_until(lambda: running.call(lambda: running.table.state.phase) == "post")
        assert running.answers()[-1] == {"seat": "blue", "largest": 2}
        assert running.call(lambda: running.table.state.starter) == "red"
        assert running.said == []  # a secret number is never said on the table screen
    finally:
        running.call(pads.close)


def test_a_sheet_line_by_line_from_the_usb_hub_over_a_pty_each_line_from_zero(running):
    running.call(lambda: running.table.new_game("zombiegeddon", ["red", "blue"],
                                                position={"phase": "sheet"}))
    hub = FakeHub(pads=2, resend_after=60.0)
    hub.plug()
    serial = running.call(lambda: SerialPads(running.buttons, PadRegistry({1: "red", 2: "blue"}),
                                             find_port=lambda: hub.path, backoff=(0.01, 0.05)))
    running.call(serial.start)
    try:
        assert hub.wait_for(lambda h: h.lamps == {1: "ASK", 2: "ASK"})

        def enter(pad: int, *buttons: int) -> list[str]:
            replies = []
            look()  # each line read before it is entered
            for button in buttons:  # one after the other, as a thumb presses them
                seq = hub.press(pad, button)
                assert hub.wait_for(lambda h, seq=seq: seq in h.replies, WAIT)
                replies.append(hub.replies[seq])
            return replies

        assert enter(1, 3, 3, 3, 6) == ["OK"] * 4  # 3 food discs
        assert enter(1, 4, 3, 3, 6) == ["OK"] * 4  # their printed total, 12: a new line starts again from 0
        assert enter(1, 2) == ["NO"]  # below 0: refused
        assert enter(1, 6) + enter(1, 6) == ["OK"] * 2  # zombies 0, their total 0
        assert enter(1, 3, 6) == ["OK"] * 2  # tokens 1
        assert enter(1, 1) == ["OK"]  # the sheet's check: button 1 hands it in
        sheets = running.call(lambda: running.table.record()["sheets"])
        assert sheets["red"] == {"entries": {"food": 3, "food_points": 12, "zombies": 0, "zombie_points": 0,
                                             "tokens": 1}, "queue": [], "ready": True}
        assert hub.wait_for(lambda h: h.lamps[1] == "DONE")
        assert running.said == ["Pad hub connected: 2 pads (firmware 1.0)."]  # no secret number said
    finally:
        running.call(serial.close)
        hub.close()
