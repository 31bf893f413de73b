"""Pad latency: from a press (a mock GPIO pin edge, a PRESS line on a pty) to the answer stored in the log.

Each press is a real secret vote on a running table (its own loop thread, a SQLite save file with
synchronous=FULL), arriving from another thread as it would from gpiozero or the serial reader.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory

from companion.pads.buttons import PadButtons
from companion.pads.config import GpioConfig, GpioPad
from companion.pads.fake_hub import FakeHub
from companion.pads.flood import RateGuard
from companion.pads.gpio import GpioPads
from companion.pads.registry import PadRegistry
from companion.pads.serial import SerialPads
from companion.store import EventStore
from companion.table import Table

PLAYERS = ["red", "blue", "yellow", "green"]
# The Restroom is breached: Red and Blue vote for the victim; button 2 on Red's pad is a vote for Blue.
BALLOT = {
    "round": 2, "phase": "attack", "chief": "red",
    "characters": {"red": {"pinup": 1, "tough": 3, "gunman": 5}, "blue": {"pinup": 1, "tough": 6, "gunman": 6},
                   "yellow": {"pinup": 6, "tough": 3}, "green": {"pinup": 3}},
    "zombies": {"1": 4}, "hands": {"red": 0, "blue": 0, "yellow": 0, "green": 0}, "deck": 17,
    "destinations": {"red": 1, "blue": 1, "yellow": 6, "green": 3},
}
RED_BUTTON_PIN = 6  # BCM pin of button 2 on Red's bench pad
TIMEOUT = 5.0
UNGUARDED = RateGuard(presses=10**9)  # the bench presses faster than any hand: not a stuck pad here


class _RunningTable:
    """A Table on a loop thread of its own, with a stopwatch on every stored answer."""

    def __init__(self, db: Path | None):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="bench-table", daemon=True)
        self.thread.start()
        self.stored = threading.Event()
        self.stored_at = 0.0
        self.store = self.call(lambda: EventStore(db)) if db else None
        self.table = self.call(self._table)

    def _table(self) -> Table:
        table = Table(self.store)
        table.loop = self.loop
        table.subscribe(self._seen)
        return table

    def _seen(self) -> None:
        events = self.table.events
        if events and "answer" in events[-1]:
            self.stored_at = time.perf_counter()
            self.stored.set()

    def call(self, function: Callable[[], Any]) -> Any:
        async def run() -> Any:
            return function()
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(TIMEOUT)

    def new_ballot(self) -> None:
        self.call(lambda: self.table.new_game("mall-of-horror", PLAYERS, position=BALLOT))
        self.stored.clear()

    def close(self) -> None:
        if self.store is not None:
            self.call(self.store.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(TIMEOUT)
        self.loop.close()


def _press_to_store(running: _RunningTable, press: Callable[[], None], after: Callable[[], None]) -> float:
    running.new_ballot()
    started = time.perf_counter()
    press()
    if not running.stored.wait(TIMEOUT):
        raise RuntimeError("a pad press was not answered within 5 s")
    latency = running.stored_at - started
    after()
    return latency


def _bench_gpio(running: _RunningTable, presses: int) -> list[float]:
    factory = MockFactory()
    buttons = running.call(lambda: PadButtons(running.table, say=lambda _: None))
    buttons.guard = UNGUARDED
    running.call(buttons.start)
    # no debounce: the bench measures the path to the log, and presses come faster than a hand's
    config = GpioConfig((GpioPad("red", (5, RED_BUTTON_PIN), led=26),), debounce=0.0)
    pads = GpioPads(buttons, config, pin_factory=factory)
    running.call(pads.start)
    pin = factory.pin(RED_BUTTON_PIN)
    try:
        return [_press_to_store(running, pin.drive_low, pin.drive_high) for _ in range(presses)]
    finally:
        running.call(pads.close)
        running.call(buttons.close)
        factory.close()


def _bench_serial(running: _RunningTable, presses: int) -> list[float]:
    hub = FakeHub(pads=1, resend_after=60.0)
    hub.plug()
    buttons = running.call(lambda: PadButtons(running.table, say=lambda _: None))
    running.call(buttons.start)
    pads = SerialPads(buttons, PadRegistry({1: "red"}), find_port=lambda: hub.path)
    pads.guard = UNGUARDED
    running.call(pads.start)
    sent: list[int] = []

    def answered() -> None:
        if not hub.wait_for(lambda h: sent[-1] in h.replies, TIMEOUT):
            raise RuntimeError("the hub got no answer to its press within 5 s")

    try:
        if not hub.wait_for(lambda h: h.lamps.get(1) is not None, TIMEOUT):
            raise RuntimeError("the companion did not connect to the fake hub within 5 s")
        return [_press_to_store(running, lambda: sent.append(hub.press(1, 2)), answered) for _ in range(presses)]
    finally:
        running.call(pads.close)
        running.call(buttons.close)
        hub.close()


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(0.99 * (len(ordered) - 1))] * 1000


def bench_pads(presses: int = 200, store: bool = True) -> dict:
    """Press-to-stored latency of GPIO and serial pads: prints p50/p99 and returns the figures (ms)."""
    if presses < 1:
        raise ValueError("bench_pads needs at least 1 press")
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        running = _RunningTable(Path(tmp) / "bench.sqlite3" if store else None)
        try:
            gpio = _bench_gpio(running, presses)
            serial = _bench_serial(running, presses)
        finally:
            running.close()
    figures: dict[str, Any] = {"presses": presses, "store": store}
    figures["gpio_p50_ms"], figures["gpio_p99_ms"] = _percentiles(gpio)
    figures["serial_p50_ms"], figures["serial_p99_ms"] = _percentiles(serial)
    where = "SQLite, synchronous=FULL" if store else "no save file"
    print(f"pads bench: {presses} presses each, press to answer stored ({where})")
    print(f"  GPIO pad (mock pin edge)   p50 {figures['gpio_p50_ms']:.2f} ms   p99 {figures['gpio_p99_ms']:.2f} ms"
          "   (goal p99 < 5 ms)")
    print(f"  serial pad (pty line)      p50 {figures['serial_p50_ms']:.2f} ms   p99 {figures['serial_p99_ms']:.2f} ms"
          "   (goal p99 < 5 ms)")
    return figures
