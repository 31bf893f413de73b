"""Helpers for pad tests: a Table on a real asyncio loop of its own thread, and bounded waits.

Tests drive pads from their own thread (as gpiozero and the serial reader do) and look at the table on its loop.
"""

from __future__ import annotations

import asyncio
import threading
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.catalogue import text
from companion.pads.buttons import SETTLE, PadButtons
from companion.pads.config import GpioConfig, parse_config
from companion.store import EventStore
from companion.table import Table

WAIT = 5.0
README = Path(__file__).parents[1] / "hardware" / "README.md"
FOUR = ["red", "blue", "yellow", "green"]
# Buttons by seating order: 1 Red, 2 Blue, 3 Yellow, 4 Green.
# The Restroom is breached (4 zombies, defence 3): Red, Blue and Yellow vote for the victim; Green is not asked.
RESTROOM_VOTE = {
    "round": 2, "phase": "attack", "chief": "red",
    "characters": {"red": {"pinup": 1, "tough": 3, "gunman": 5}, "blue": {"pinup": 1, "tough": 6, "gunman": 6},
                   "yellow": {"pinup": 1, "tough": 3}, "green": {"pinup": 3}},
    "zombies": {"1": 4}, "hands": {"red": 0, "blue": 0, "yellow": 0, "green": 0}, "deck": 17,
    "destinations": {"red": 1, "blue": 1, "yellow": 1, "green": 3},
}


class RunningTable:
    """A Table with a save file, living on a loop that runs on its own thread, and PadButtons on it."""

    def __init__(self, db: Path, position: dict | None = RESTROOM_VOTE, group_commit: bool = False):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="table-loop", daemon=True)
        self.thread.start()
        self.said: list[str] = []
        self.store: EventStore = self.call(lambda: EventStore(db, group_commit=group_commit))
        self.table: Table = self.call(self._table)
        if position is not None:
            self.call(lambda: self.table.new_game("mall-of-horror", FOUR, position=position))
        # what the pads say, in English as the terminal prints it
        self.buttons: PadButtons = self.call(lambda: PadButtons(self.table, say=lambda m: self.said.append(text(m))))
        self.call(self.buttons.start)

    def _table(self) -> Table:
        table = Table(self.store)
        table.loop = self.loop
        return table

    def call(self, function: Callable[[], Any]) -> Any:
        """Run `function` on the table's loop and return what it returns."""
        async def run() -> Any:
            return function()
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(WAIT)

    def answers(self) -> list[dict]:
        """The answers stored in the save file for this game."""
        return self.call(lambda: [e["answer"] for e in self.store.events(self.table.game_id) if "answer" in e])

    def votes(self) -> list[dict]:
        return [a for a in self.answers() if "vote" in a]

    def revealed(self) -> dict | None:
        return self.call(lambda: self.table.view(None).get("revealed"))

    def close(self) -> None:
        self.call(self.buttons.close)
        self.call(self.store.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(WAIT)
        self.loop.close()


def wait_until(condition: Callable[[], Any], timeout: float = WAIT) -> Any:
    """Poll until `condition()` is true (returning it) or the time is up (returning the last falsy value)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.002)


def look() -> None:
    """The player looks at his new question before he presses: a press sooner is taken for the last one's."""
    time.sleep(SETTLE)


def in_thread(*jobs: Callable[[], None]) -> None:
    """Run each job on a thread of its own, all at once, as separate pads pressed by separate players."""
    threads = [threading.Thread(target=job) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)


def readme_config() -> GpioConfig:
    """The GPIO part of the config printed in hardware/README.md, so the wiring documented is the one tested."""
    block = README.read_text().split("```toml\n", 1)[1].split("```", 1)[0]
    config = parse_config(tomllib.loads(block), "hardware/README.md")
    assert config.gpio is not None
    return config.gpio
