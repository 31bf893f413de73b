"""GPIO pads with gpiozero's MockFactory: pins driven from other threads, the table on a real asyncio loop.

The wiring is hardware/README.md's (Red, Blue and Yellow pads with LEDs). Debounce runs on a clock the pressing
threads move forward, so "5 edges in 10 ms" is exact however busy the machine is. Tests on a real Pi are kept
apart below and run only with COMPANION_REAL_PI=1.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from padkit import WAIT, RunningTable, in_thread, readme_config, wait_until

from companion.pads.config import GpioConfig, GpioPad
from companion.pads.gpio import Debounce, GpioPads
from companion.pads.lamp import LampTiming

SLOW_BLINK = LampTiming(blink_on=60.0, blink_off=60.0, accepted=0.05, refused_on=0.02, refused_off=0.02)
FAST_BLINK = LampTiming(blink_on=0.01, blink_off=0.01, accepted=0.05, refused_on=0.02, refused_off=0.02)


class Clock:
    """Seconds that move only when a pressing thread says so."""

    def __init__(self) -> None:
        self.now = 1000.0
        self._lock = threading.Lock()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.now += seconds




class Rig:
    """The README's three GPIO pads on a running table at a Restroom vote."""

    def __init__(self, db: Path, factory: MockFactory, timing: LampTiming, config: GpioConfig | None = None):
        self.running = RunningTable(db)
        self.factory = factory
        self.clock = Clock()
        self.config = config or readme_config()
        self.pads = GpioPads(self.running.buttons, self.config, clock=self.clock, timing=timing)
        self.running.call(self.pads.start)

    def pin(self, seat: str, button: int):
        pad = next(p for p in self.config.pads if p.seat == seat)
        return self.factory.pin(pad.buttons[button - 1])

    def led(self, seat: str):
        pad = next(p for p in self.config.pads if p.seat == seat)
        return self.factory.pin(pad.led)

    def press(self, seat: str, button: int) -> None:
        """A clean press and release, 100 ms each."""
        pin = self.pin(seat, button)
        pin.drive_low()
        self.clock.advance(0.1)
        pin.drive_high()
        self.clock.advance(0.1)

    def bounce(self, seat: str, button: int) -> None:
        """Pressed with 5 edges in 8 ms, held, then released with 3 edges in 4 ms."""
        pin = self.pin(seat, button)
        for edge in (pin.drive_low, pin.drive_high, pin.drive_low, pin.drive_high, pin.drive_low):
            edge()
            self.clock.advance(0.002)
        self.clock.advance(0.2)
        for edge in (pin.drive_high, pin.drive_low, pin.drive_high):
            edge()
            self.clock.advance(0.002)

    def lit(self, seat: str) -> list[bool]:
        return [state.state for state in self.led(seat).states]

    def settled(self, seat: str) -> bool:
        return not self.running.call(lambda: self.pads.lamps[seat].flashing)

    def close(self) -> None:
        self.running.call(self.pads.close)
        self.running.close()


@pytest.fixture
def rig(tmp_path, mock_factory):
    rig = Rig(tmp_path / "gpio.sqlite3", mock_factory, SLOW_BLINK)
    yield rig
    rig.close()


# -- the game from GPIO pads ----------------------------------------------------------------------------------


def test_a_secret_ballot_from_three_pads_pressed_at_once(rig):
    in_thread(lambda: rig.press("red", 3), lambda: rig.press("blue", 3), lambda: rig.press("yellow", 1))
    revealed = wait_until(rig.running.revealed)
    assert revealed["ballots"] == {"red": "yellow", "blue": "yellow", "yellow": "red"}
    assert len(rig.running.votes()) == 3
    assert rig.running.said == []


def test_bouncing_contacts_count_once(rig):
    in_thread(lambda: rig.bounce("red", 3))
    assert wait_until(lambda: rig.running.votes()) == [{"seat": "red", "vote": "yellow"}]
    assert wait_until(lambda: rig.settled("red"))
    assert rig.running.said == []  # a second press would have been refused (Red is no longer asked)
    assert rig.lit("red") == [False, True, False, True, False]  # asked, then one accepted flash: no refusal


def test_presses_outside_a_prompt_are_refused_and_change_nothing(rig):
    in_thread(lambda: rig.press("red", 3))
    wait_until(lambda: rig.running.votes())
    state = rig.running.call(lambda: rig.running.table.state)
    in_thread(lambda: rig.press("red", 2))
    assert wait_until(lambda: rig.running.said) == ["Red pressed a pad button but is not asked anything now."]
    assert rig.running.call(lambda: rig.running.table.state) is state
    assert rig.running.votes() == [{"seat": "red", "vote": "yellow"}]


def test_a_button_with_no_choice_is_refused(rig):
    in_thread(lambda: rig.press("blue", 4))  # Green is not a candidate in the Restroom
    assert wait_until(lambda: rig.running.said) == ["Blue pressed a pad button with no choice behind it now."]
    assert rig.running.answers() == []


# -- the LEDs -------------------------------------------------------------------------------------------------


def test_the_led_blinks_while_the_seat_is_asked(tmp_path, mock_factory):
    rig = Rig(tmp_path / "blink.sqlite3", mock_factory, FAST_BLINK)
    try:
        states = wait_until(lambda: rig.lit("red") if len(rig.lit("red")) >= 8 else None)
        assert states[:8] == [False, True, False, True, False, True, False, True]
    finally:
        rig.close()


def test_the_led_shows_an_accepted_answer_with_one_solid_light_then_goes_dark(rig):
    assert wait_until(lambda: rig.lit("red") == [False, True])  # asked: the (slow) blink has begun, lit
    rig.led("red").clear_states()
    in_thread(lambda: rig.press("red", 3))
    assert wait_until(lambda: len(rig.lit("red")) >= 4 and rig.settled("red"))
    assert rig.lit("red") == [True, False, True, False]  # no longer asked: dark; accepted: lit; then dark


def test_the_led_double_blinks_a_refused_press_and_goes_back_to_blinking(rig):
    assert wait_until(lambda: rig.lit("blue") == [False, True])
    rig.led("blue").clear_states()
    in_thread(lambda: rig.press("blue", 5))  # no choice on button 5
    assert wait_until(lambda: len(rig.lit("blue")) >= 6 and rig.settled("blue"))
    assert rig.lit("blue") == [True, False, True, False, True, False, True]  # two blinks, then asked again


def test_the_led_double_blinks_a_press_when_nothing_is_asked(rig):
    in_thread(lambda: rig.press("yellow", 1))
    wait_until(lambda: rig.running.votes())
    assert wait_until(lambda: rig.settled("yellow") and rig.lit("yellow")[-1] is False)
    rig.led("yellow").clear_states()
    in_thread(lambda: rig.press("yellow", 2))
    assert wait_until(lambda: len(rig.lit("yellow")) >= 5 and rig.settled("yellow"))
    assert rig.lit("yellow") == [False, True, False, True, False]


def test_closing_the_pads_frees_their_pins(rig):
    rig.running.call(rig.pads.close)
    assert rig.pin("red", 1).when_changed is None
    rig.pads = GpioPads(rig.running.buttons, rig.config, clock=rig.clock, timing=SLOW_BLINK)
    rig.running.call(rig.pads.start)  # the same pins can be opened again
    in_thread(lambda: rig.press("red", 1))
    assert wait_until(lambda: rig.running.votes()) == [{"seat": "red", "vote": "red"}]


# -- debounce -------------------------------------------------------------------------------------------------


def test_five_edges_within_10_ms_are_one_press():
    clock = Clock()
    contact = Debounce(0.030, clock)
    counted = []
    for pressed in (True, False, True, False, True):
        counted.append(contact.edge(pressed))
        clock.advance(0.002)
    assert counted == [True, False, False, False, False]


def test_a_release_that_bounces_is_not_a_press_but_the_next_press_is():
    clock = Clock()
    contact = Debounce(0.030, clock)
    assert contact.edge(True)
    clock.advance(0.2)
    assert [contact.edge(p) for p in (False, True, False)] == [False, False, False]
    clock.advance(0.031)
    assert contact.edge(True)


def test_a_gpio_pad_with_no_debounce_counts_every_press(tmp_path, mock_factory):
    config = GpioConfig((GpioPad("red", (17, 27, 22)),), debounce=0.0)
    rig = Rig(tmp_path / "raw.sqlite3", mock_factory, SLOW_BLINK, config)
    try:
        in_thread(lambda: rig.bounce("red", 3))
        assert wait_until(lambda: rig.running.buttons.refusals == 3)  # 2 more edges pressing, 1 releasing
        assert rig.running.votes() == [{"seat": "red", "vote": "yellow"}]
        assert len(rig.running.said) == 1  # three refusals in 8 ms: told once
    finally:
        rig.close()


# -- no GPIO --------------------------------------------------------------------------------------------------


def _on_a_pi() -> bool:
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False


@pytest.mark.skipif(_on_a_pi() or "GPIOZERO_PIN_FACTORY" in os.environ, reason="this machine has GPIO")
def test_without_a_gpio_header_the_message_says_so(tmp_path):
    from companion.pads.buttons import PadError

    saved = Device.pin_factory
    Device.pin_factory = None  # gpiozero looks for its default factory, as on the box
    running = RunningTable(tmp_path / "nogpio.sqlite3")
    try:
        pads = GpioPads(running.buttons, readme_config())
        with pytest.raises(PadError, match="^no GPIO header found: ") as refused:
            running.call(pads.start)
        assert "Falling back from" in str(refused.value)
        assert pads.lamps == {}
    finally:
        running.close()
        Device.pin_factory = saved


# -- on a real Raspberry Pi -----------------------------------------------------------------------------------
# Like gpiozero's own real-pin tests: two pins joined by a jumper wire, one driving the other as a button would.
# COMPANION_REAL_PI=1 COMPANION_TEST_PIN=22 COMPANION_TEST_INPUT_PIN=27 python -m pytest tests/test_pads_gpio.py

real_pi = pytest.mark.skipif(os.environ.get("COMPANION_REAL_PI") != "1",
                             reason="set COMPANION_REAL_PI=1 on a Raspberry Pi with a jumper between two pins")


@real_pi
def test_a_real_pin_pulled_low_is_a_press_on_the_pi(tmp_path):
    from gpiozero import DigitalOutputDevice

    out_pin = int(os.environ.get("COMPANION_TEST_PIN", "22"))
    in_pin = int(os.environ.get("COMPANION_TEST_INPUT_PIN", "27"))
    saved = Device.pin_factory
    Device.pin_factory = None
    running = RunningTable(tmp_path / "pi.sqlite3")
    config = GpioConfig((GpioPad("red", (in_pin, 5, 6)),))
    pads = GpioPads(running.buttons, config)
    finger = DigitalOutputDevice(out_pin, active_high=False, initial_value=False)
    try:
        running.call(pads.start)
        finger.on()  # pulls the jumpered input low: button 1, a vote for Red
        assert wait_until(lambda: running.votes(), WAIT) == [{"seat": "red", "vote": "red"}]
        finger.off()
    finally:
        finger.close()
        running.call(pads.close)
        running.close()
        Device.pin_factory = saved
