"""`companion bench pads [--game G]`: from a press (a mock GPIO pin edge, a PRESS line on a pty) to the answer
stored in the log.

Each press is a real answer on a running table (its own loop thread, a SQLite save file with synchronous=FULL),
arriving from another thread as it would from gpiozero or the serial reader: the first question of a random game of
G that a pad can answer (a choice with a pad button), the game played up to it again before every press.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory

from companion.bench import DEFAULT_GAME, rules_of, seats_for
from companion.contract import Game
from companion.cup import DiceCup
from companion.pads.buttons import PadButtons
from companion.pads.config import GpioConfig, GpioPad
from companion.pads.fake_hub import FakeHub
from companion.pads.flood import RateGuard
from companion.pads.gpio import GpioPads
from companion.pads.registry import PadRegistry
from companion.pads.serial import SerialPads
from companion.simulate import random_game
from companion.store import EventStore
from companion.table import Table

BUTTON_PINS = (5, 6, 13, 19, 20, 21)  # BCM pins of buttons 1..6 on the bench's GPIO pad
LED_PIN = 26
TIMEOUT = 5.0
UNGUARDED = RateGuard(presses=10**9)  # the bench presses faster than any hand: not a stuck pad here


@dataclass(frozen=True)
class Press:
    """A pad press to measure: a game's events (answers and the cup's draws) up to a question that `seat`'s pad
    answers with button `slot`."""

    game: str
    players: list[str]
    events: list[dict]
    seat: str
    slot: int


def first_press(game: str, seed: int = 1, players: int | None = None) -> Press:
    """The first question of a random game of `game` (this seed) that a pad answers: a choice with a pad button."""
    rules: Game = rules_of(game)
    seats = seats_for(rules, players)
    rng = random.Random(seed)
    for _ in range(50):  # games: one with no question a pad answers is rare, fifty never
        events, _ = random_game(rules, seats, rng)
        state = rules.start(seats)
        for played, event in enumerate(events):
            if rules.cup_request(state) is None:
                for seat in rules.prompt(state).seats:
                    question = rules.question(state, seat)
                    slots = [c.slot for c in question.choices if c.slot is not None] if question else []
                    if slots:
                        return Press(game, seats, events[:played], seat, rng.choice(slots))
            state = rules.apply(state, event)
    raise RuntimeError(f"no question of {game} is answered with a pad in 50 random games")


class _RunningTable:
    """A Table on a loop thread of its own, with a stopwatch on every stored answer."""

    def __init__(self, db: Path | None):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="bench-table", daemon=True)
        self.thread.start()
        self.stored = threading.Event()
        self.stored_at = 0.0
        self.played = 0  # the events of the game played up to the press: an answer after them is the press's
        self.store = self.call(lambda: EventStore(db)) if db else None
        self.table = self.call(self._table)

    def _table(self) -> Table:
        table = Table(self.store)
        table.loop = self.loop
        table.subscribe(self._seen)
        return table

    def _seen(self) -> None:
        if self.stored.is_set():
            return
        if any("answer" in event for event in self.table.events[self.played:]):
            self.stored_at = time.perf_counter()
            self.stored.set()

    def call(self, function: Callable[[], Any]) -> Any:
        async def run() -> Any:
            return function()
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(TIMEOUT)

    def play_up_to(self, press: Press) -> None:
        """A new game of the press's game, played up to its question (the cup draws what it drew then)."""
        def play() -> None:
            self.played = 10**9
            events = press.events
            self.table.cup = DiceCup(scripted=[e["roll"] for e in events if "roll" in e],
                                     picks=[e["pick"] for e in events if "pick" in e])
            self.table.new_game(press.game, press.players)
            for answer in events:
                if "roll" not in answer and "pick" not in answer:  # the table rolls those itself
                    self.table.answer(answer)
            self.played = len(self.table.events)
            self.stored.clear()
        self.call(play)

    def close(self) -> None:
        if self.store is not None:
            self.call(self.store.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(TIMEOUT)
        self.loop.close()


def _press_to_store(running: _RunningTable, target: Press, press: Callable[[], None],
                    after: Callable[[], None]) -> float:
    running.play_up_to(target)
    started = time.perf_counter()
    press()
    if not running.stored.wait(TIMEOUT):
        raise RuntimeError("a pad press was not answered within 5 s")
    latency = running.stored_at - started
    after()
    return latency


def _bench_gpio(running: _RunningTable, target: Press, presses: int) -> list[float]:
    factory = MockFactory()
    buttons = running.call(lambda: PadButtons(running.table, say=lambda _: None))
    buttons.guard = UNGUARDED
    running.call(buttons.start)
    # no debounce: the bench measures the path to the log, and presses come faster than a hand's
    config = GpioConfig((GpioPad(target.seat, BUTTON_PINS, led=LED_PIN),), debounce=0.0)
    pads = GpioPads(buttons, config, pin_factory=factory)
    running.call(pads.start)
    pin = factory.pin(BUTTON_PINS[target.slot - 1])
    try:
        return [_press_to_store(running, target, pin.drive_low, pin.drive_high) for _ in range(presses)]
    finally:
        running.call(pads.close)
        running.call(buttons.close)
        factory.close()


def _bench_serial(running: _RunningTable, target: Press, presses: int) -> list[float]:
    hub = FakeHub(pads=1, resend_after=60.0)
    hub.plug()
    buttons = running.call(lambda: PadButtons(running.table, say=lambda _: None))
    running.call(buttons.start)
    pads = SerialPads(buttons, PadRegistry({1: target.seat}), find_port=lambda: hub.path)
    pads.guard = UNGUARDED
    running.call(pads.start)
    sent: list[int] = []

    def answered() -> None:
        if not hub.wait_for(lambda h: sent[-1] in h.replies, TIMEOUT):
            raise RuntimeError("the hub got no answer to its press within 5 s")

    try:
        if not hub.wait_for(lambda h: h.lamps.get(1) is not None, TIMEOUT):
            raise RuntimeError("the companion did not connect to the fake hub within 5 s")
        return [_press_to_store(running, target, lambda: sent.append(hub.press(1, target.slot)), answered)
                for _ in range(presses)]
    finally:
        running.call(pads.close)
        running.call(buttons.close)
        hub.close()


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(0.99 * (len(ordered) - 1))] * 1000


def bench_pads(presses: int = 200, store: bool = True, game: str = DEFAULT_GAME, seed: int = 1) -> dict:
    """Press-to-stored latency of GPIO and serial pads: prints p50/p99 and returns the figures (ms)."""
    if presses < 1:
        raise ValueError("bench_pads needs at least 1 press")
    target = first_press(game, seed)
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        running = _RunningTable(Path(tmp) / "bench.sqlite3" if store else None)
        try:
            gpio = _bench_gpio(running, target, presses)
            serial = _bench_serial(running, target, presses)
        finally:
            running.close()
    figures: dict[str, Any] = {"game": game, "presses": presses, "store": store, "seat": target.seat,
                               "button": target.slot}
    figures["gpio_p50_ms"], figures["gpio_p99_ms"] = _percentiles(gpio)
    figures["serial_p50_ms"], figures["serial_p99_ms"] = _percentiles(serial)
    where = "SQLite, synchronous=FULL" if store else "no save file"
    print(f"pads bench: {presses} presses each, press to answer stored ({where}): {game}, "
          f"{target.seat}'s button {target.slot} after {len(target.events)} events")
    print(f"  GPIO pad (mock pin edge)   p50 {figures['gpio_p50_ms']:.2f} ms   p99 {figures['gpio_p99_ms']:.2f} ms"
          "   (goal p99 < 5 ms)")
    print(f"  serial pad (pty line)      p50 {figures['serial_p50_ms']:.2f} ms   p99 {figures['serial_p99_ms']:.2f} ms"
          "   (goal p99 < 5 ms)")
    return figures
