"""The Pico hub's MicroPython firmware, run under CPython with the `machine` shim (hardware/pad/shim).

Keys are switches between a row pin and a column pin; the clock is fake and moves only when the test (or the
firmware's own sleep_ms) says so, so debounce and blink patterns are exact. The last test runs the firmware's
main loop on a thread, talking over a pty to the companion's SerialPads, as on the real box.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import tty
from pathlib import Path
from types import SimpleNamespace

import pytest
from padkit import RunningTable, wait_until

from companion.pads import protocol
from companion.pads.registry import PadRegistry
from companion.pads.serial import SerialPads

PAD = Path(__file__).parents[1] / "hardware" / "pad"
MODULES = ("machine", "main", "pad_hub", "pad_keys", "pad_lamps", "pad_link", "pad_pins", "pad_ticks", "pad_wire")


@pytest.fixture
def fw():
    """The firmware's modules, imported fresh with the shim first on sys.path, and removed afterwards."""
    sys.path[:0] = [str(PAD / "shim"), str(PAD)]
    for name in MODULES:
        sys.modules.pop(name, None)
    try:
        modules = {name: importlib.import_module(name) for name in MODULES}
        modules["machine"].reset()
        yield SimpleNamespace(**modules)
    finally:
        for name in MODULES:
            sys.modules.pop(name, None)
        for path in (str(PAD / "shim"), str(PAD)):
            sys.path.remove(path)


class MemoryLink:
    """The USB link as two byte queues, for tests that step the hub by hand."""

    def __init__(self) -> None:
        self.incoming = b""
        self.sent = b""

    def read(self) -> bytes:
        data, self.incoming = self.incoming, b""
        return data

    def write(self, data: bytes) -> None:
        self.sent += data

    def lines(self) -> list[str]:
        """What the hub sent, checked by the companion's own parser of the protocol."""
        out = []
        for line in self.sent.splitlines(keepends=False):
            payload = protocol.unframe(line)
            protocol.parse_hub_line(line)
            out.append(payload)
        self.sent = b""
        return out


class Bench:
    """The firmware built by main.build on shim pins, stepped 1 ms at a time."""

    def __init__(self, fw: SimpleNamespace):
        self.fw = fw
        self.link = MemoryLink()
        self.hub = fw.main.build(self.link)
        self.hub.boot = "B007"
        self.hub.start(fw.machine.ticks_ms())

    def step(self, ms: int = 1) -> None:
        for _ in range(ms):
            self.fw.machine.advance(1)
            self.hub.step(self.fw.machine.ticks_ms())

    def key(self, pad: int, button: int, down: bool) -> None:
        row, column = self.fw.pad_pins.ROWS[pad - 1], self.fw.pad_pins.COLUMNS[button - 1]
        (self.fw.machine.close_switch if down else self.fw.machine.open_switch)(row, column)

    def tell(self, payload: str) -> None:
        self.link.incoming += protocol.frame(payload)

    def led(self, pad: int) -> list[int]:
        """The LED's levels since `clear_led`, from the shim pin's history."""
        return [level for _, level in self.fw.machine.pin(self.fw.pad_pins.LEDS[pad - 1]).history]

    def led_times(self, pad: int) -> list[tuple[int, int]]:
        return list(self.fw.machine.pin(self.fw.pad_pins.LEDS[pad - 1]).history)

    def clear_led(self, pad: int) -> None:
        pin = self.fw.machine.pin(self.fw.pad_pins.LEDS[pad - 1])
        pin.history = [(self.fw.machine.ticks_ms(), pin.out)]


@pytest.fixture
def bench(fw):
    return Bench(fw)


# -- the protocol, as the companion reads it ------------------------------------------------------------------


def test_the_firmware_and_the_companion_frame_lines_alike(fw):
    for payload in ("SYNC", "ASK 3", "DONE 6", "OK 2 65535", "NO 1 1", "PRESS 6 6 12345", "HELLO hub 1.0 6 0A1B"):
        assert fw.pad_wire.frame(payload) == protocol.frame(payload)
        assert fw.pad_wire.unframe(protocol.frame(payload)[:-1]) == payload.split(" ")
    assert fw.pad_wire.unframe(b"OK 2 7*00") is None
    assert fw.pad_wire.unframe(b"\xff\xfe*00") is None
    assert fw.pad_wire.unframe(b"OK 2 7") is None


def test_the_hub_says_hello_with_its_pads_and_boot_id(bench):
    assert bench.link.lines() == ["HELLO hub 1.1 6 B007"]


def test_a_boot_id_is_16_random_hex_digits_so_a_reboot_never_draws_the_last_one_again(fw):
    ids = {fw.pad_hub.new_boot_id() for _ in range(1000)}
    assert len(ids) == 1000
    assert all(len(boot) == 16 and int(boot, 16) >= 0 for boot in ids)
    line = fw.pad_wire.frame(f"HELLO hub {fw.pad_hub.VERSION} 6 {next(iter(ids))}")
    assert protocol.parse_hub_line(line[:-1]).boot in ids  # the companion reads it


def test_an_overlong_line_from_the_host_is_one_bad_line_however_long(bench):
    for _ in range(100):  # 12.8 KB with no newline, read 128 bytes a step as the USB link does
        bench.link.incoming = b"z" * 128
        bench.step()
    bench.tell("ASK 1")  # ends the overlong line with its newline... and is dropped with it
    bench.step()
    bench.tell("ASK 2")
    bench.step()
    assert bench.hub.bad_lines == 1
    assert bench.led(2) == [0, 1]


# -- keys -----------------------------------------------------------------------------------------------------


def test_a_bouncing_key_counts_once(bench):
    bench.link.lines()
    for down in (True, False, True, False, True):  # 5 edges in 10 ms
        bench.key(2, 4, down)
        bench.step(2)
    bench.step(40)
    for down in (False, True, False):  # and a bouncing release
        bench.key(2, 4, down)
        bench.step(2)
    bench.step(40)
    assert bench.link.lines() == ["PRESS 2 4 1"]


def test_a_key_must_stay_down_for_the_debounce_time(bench):
    bench.link.lines()
    bench.key(1, 1, True)
    bench.step(bench.fw.pad_keys.DEBOUNCE_MS - 1)
    assert bench.link.lines() == []
    bench.step(2)
    assert bench.link.lines() == ["PRESS 1 1 1"]


def test_short_glitches_on_a_line_never_make_a_press(bench):
    bench.link.lines()
    for _ in range(10):  # 1 ms of contact every 15 ms: noise, or a button brushed, never held
        bench.key(5, 2, True)
        bench.step(1)
        bench.key(5, 2, False)
        bench.step(14)
    assert bench.link.lines() == []


def test_keys_on_different_pads_at_once_are_each_reported_with_their_pad(bench):
    bench.link.lines()
    for pad, button in ((1, 3), (2, 3), (6, 1), (3, 6)):
        bench.key(pad, button, True)
    bench.step(30)
    assert bench.link.lines() == ["PRESS 1 3 1", "PRESS 2 3 2", "PRESS 3 6 3", "PRESS 6 1 4"]  # scanned by row


# -- presses until answered -----------------------------------------------------------------------------------


def test_a_press_is_sent_again_until_the_host_answers_it(bench):
    bench.link.lines()
    bench.key(1, 2, True)
    bench.step(30)
    assert bench.link.lines() == ["PRESS 1 2 1"]
    bench.step(bench.fw.pad_hub.RESEND_MS)
    assert bench.link.lines() == ["PRESS 1 2 1"]
    bench.tell("OK 1 1")
    bench.step(3 * bench.fw.pad_hub.RESEND_MS)
    assert bench.link.lines() == []


def test_sync_brings_hello_and_every_unanswered_press_in_order(bench):
    for pad in (3, 1):
        bench.key(pad, 5, True)
        bench.step(30)
    bench.tell("NO 3 1")
    bench.step()
    bench.link.lines()
    bench.tell("SYNC")
    bench.step()
    assert bench.link.lines() == ["HELLO hub 1.1 6 B007", "PRESS 1 5 2"]


def test_bad_lines_from_the_host_are_ignored_and_counted(bench):
    bench.link.incoming = b"ASK 1*00\nhello\n" + b"z" * 300 + b"\n" + protocol.frame("ASK 9") + protocol.frame("OK x")
    bench.step(5)
    assert bench.hub.bad_lines == 5
    assert bench.led(1) == [0]
    bench.tell("ASK 1")
    bench.step()
    assert bench.led(1) == [0, 1]


# -- the LEDs -------------------------------------------------------------------------------------------------


def test_the_led_blinks_while_asked_and_goes_dark_when_done(bench):
    bench.tell("ASK 4")
    bench.step(1000)
    blink = bench.fw.pad_lamps.BLINK_MS
    assert bench.led_times(4) == [(0, 0), (1, 1), (1 + blink, 0), (1 + 2 * blink, 1), (1 + 3 * blink, 0)]
    bench.tell("DONE 4")
    bench.step(1000)
    assert bench.led(4) == [0, 1, 0, 1, 0]


def test_an_accepted_press_lights_the_led_once(bench):
    bench.tell("DONE 2")
    bench.tell("OK 2 1")
    bench.step(2000)
    assert bench.led_times(2) == [(0, 0), (1, 1), (601, 0)]


def test_a_refused_press_double_blinks_then_blinking_resumes(bench):
    bench.tell("ASK 5")
    bench.step(100)
    bench.clear_led(5)
    bench.tell("NO 5 1")
    bench.step(600)
    assert bench.led(5) == [1, 0, 1, 0, 1, 0, 1]  # dark, two blinks, then asked again: lit


# -- the firmware and the companion together over a pty -------------------------------------------------------


def test_the_firmware_runs_a_ballot_with_the_companion_over_a_pty(fw, tmp_path):
    master, slave = os.openpty()
    os.set_blocking(master, False)
    tty.setraw(slave)
    stream = os.fdopen(master, "r+b", buffering=0)
    link = fw.pad_link.UsbLink(stream, stream)
    hub = fw.main.build(link)
    fw.machine.SLEEP_SCALE[0] = 0.1  # a fake millisecond takes 0.1 ms of real time
    running = threading.Event()
    running.set()
    firmware = threading.Thread(target=fw.main.run, args=(hub, running.is_set), name="pico", daemon=True)
    firmware.start()

    table = RunningTable(tmp_path / "pico.sqlite3")
    path = os.ttyname(slave)
    serial = table.call(lambda: SerialPads(table.buttons, PadRegistry({1: "red", 2: "blue", 3: "yellow"}),
                                           find_port=lambda: path, backoff=(0.01, 0.05)))
    leds = [fw.machine.pin(n) for n in fw.pad_pins.LEDS]
    try:
        table.call(serial.start)
        assert wait_until(lambda: all(any(level for _, level in leds[p].history) for p in range(3))), \
            "the asked pads' LEDs never lit"
        assert not any(level for _, level in leds[3].history)  # pad 4 is nobody's: dark
        for pad, button in ((1, 3), (2, 3), (3, 1)):  # Red and Blue vote Yellow, Yellow votes Red
            row, column = fw.pad_pins.ROWS[pad - 1], fw.pad_pins.COLUMNS[button - 1]
            fw.machine.close_switch(row, column)
            assert wait_until(lambda p=pad: not hub.unanswered and len(table.votes()) == p), f"pad {pad}'s press"
            fw.machine.open_switch(row, column)
        revealed = wait_until(table.revealed)
        assert revealed["ballots"] == {"red": "yellow", "blue": "yellow", "yellow": "red"}
        assert serial.counts.garbage == serial.counts.bad_checksum == serial.counts.duplicates == 0
        assert hub.bad_lines == 0
    finally:
        table.call(serial.close)
        running.clear()
        firmware.join(5)
        table.close()
        stream.close()
        os.close(slave)
