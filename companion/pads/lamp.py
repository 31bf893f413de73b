"""A pad's one LED, driven from the table's loop: the only thing a pad ever shows.

Blinking while the seat is asked, a short solid light when an answer is accepted, a double blink when a press
is refused. A flash plays once and then the LED goes back to blinking or off, whichever the seat is now.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class LampTiming:
    """Seconds for each part of the signals (tests slow or speed them to make the patterns easy to tell apart)."""

    blink_on: float = 0.25
    blink_off: float = 0.25
    accepted: float = 0.6
    refused_on: float = 0.1
    refused_off: float = 0.1


DEFAULT_TIMING = LampTiming()


class Lamp:
    def __init__(self, loop: asyncio.AbstractEventLoop, switch: Callable[[bool], None],
                 timing: LampTiming = DEFAULT_TIMING):
        self._loop = loop
        self._switch = switch
        self.timing = timing
        self._asked = False
        self._lit: bool | None = None
        self._flash: list[tuple[bool, float]] = []
        self._timer: asyncio.TimerHandle | None = None
        self._set(False)

    @property
    def flashing(self) -> bool:
        return bool(self._flash)

    def asked(self, asked: bool) -> None:
        if asked != self._asked:
            self._asked = asked
            if not self._flash:
                self._restart(self._base())

    def accepted(self) -> None:
        self._play([(True, self.timing.accepted)])

    def refused(self) -> None:
        t = self.timing
        # starts dark so a double blink is seen as two blinks even while the LED was blinking or lit
        self._play([(False, t.refused_off), (True, t.refused_on), (False, t.refused_off), (True, t.refused_on),
                    (False, t.refused_off)])

    def close(self) -> None:
        self._cancel()
        self._flash = []
        self._set(False)

    def _play(self, steps: list[tuple[bool, float]]) -> None:
        self._flash = list(steps)
        self._restart(self._flash)

    def _base(self) -> list[tuple[bool, float]]:
        return [(True, self.timing.blink_on), (False, self.timing.blink_off)] if self._asked else [(False, 0.0)]

    def _restart(self, steps: list[tuple[bool, float]]) -> None:
        self._cancel()
        self._step(steps, 0)

    def _step(self, steps: list[tuple[bool, float]], index: int) -> None:
        self._timer = None
        if index == len(steps):
            if self._flash:  # the flash is over: back to what the seat is now
                self._flash = []
                steps, index = self._base(), 0
            elif self._asked:
                index = 0  # keep blinking
            else:
                return
        lit, seconds = steps[index]
        self._set(lit)
        if seconds > 0 or self._flash or self._asked:
            self._timer = self._loop.call_later(seconds, self._step, steps, index + 1)

    def _set(self, lit: bool) -> None:
        if lit != self._lit:
            self._lit = lit
            self._switch(lit)

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
