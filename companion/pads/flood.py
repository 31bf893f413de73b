"""A flood of presses (a stuck or shorted button, a noisy cable) must not flood the table.

`RateGuard` runs on the device's own thread, before anything reaches the table's loop: a pad pressed more often
than a hand can press is ignored for a while (and named once). `Notices` runs on the loop: refused presses are
told one per pad per window, the first at once and the rest summed up when the window ends.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable

from companion.contract import Message

STUCK_PRESSES = 30  # more presses than this within STUCK_WINDOW: no hand presses that fast (the hub resends 16)
STUCK_WINDOW = 1.0  # seconds
STUCK_REST = 10.0  # seconds a stuck pad is ignored before its presses are looked at again
NOTICE_WINDOW = 5.0  # seconds: refused presses of one pad are told once per window


class RateGuard:
    """Which pads are pressed faster than any hand: thread-safe, cheap enough for 1,000 presses a second."""

    def __init__(self, presses: int = STUCK_PRESSES, window: float = STUCK_WINDOW, rest: float = STUCK_REST,
                 clock: Callable[[], float] = time.monotonic):
        self.presses, self.window, self.rest, self.clock = presses, window, rest, clock
        self._recent: dict[Hashable, deque[float]] = {}
        self._ignored_until: dict[Hashable, float] = {}
        self._lock = threading.Lock()
        self.ignored = 0  # presses ignored so far, from every pad

    def check(self, pad: Hashable) -> str:
        """"ok" (the press counts), "jammed" (this press showed the pad is stuck: name it) or "ignored"."""
        now = self.clock()
        with self._lock:
            if now < self._ignored_until.get(pad, now):
                self.ignored += 1
                return "ignored"
            recent = self._recent.setdefault(pad, deque())
            recent.append(now)
            while recent and now - recent[0] > self.window:
                recent.popleft()
            if len(recent) <= self.presses:
                return "ok"
            recent.clear()
            self._ignored_until[pad] = now + self.rest
            self.ignored += 1
            return "jammed"


class Notices:
    """Refused presses told at most once per pad per `window` seconds; on the loop only."""

    def __init__(self, loop: asyncio.AbstractEventLoop, say: Callable[[Message], None],
                 window: float = NOTICE_WINDOW):
        self.loop, self.say, self.window = loop, say, window
        self._windows: dict[Hashable, list] = {}  # pad -> [presses not told, the summary's maker, timer]
        self.refusals = 0  # refused presses, told or summed up

    def refused(self, pad: Hashable, message: Message, more: Callable[[int], Message]) -> None:
        """`message` said now if `pad` had no refusal told in this window; else counted for `more(count)`."""
        self.refusals += 1
        window = self._windows.get(pad)
        if window is not None:
            window[0] += 1
            window[1] = more
            return
        self.say(message)
        self._open(pad, more)

    def _open(self, pad: Hashable, more: Callable[[int], Message]) -> None:
        self._windows[pad] = [0, more, self.loop.call_later(self.window, self._close, pad)]

    def _close(self, pad: Hashable) -> None:
        count, more, _ = self._windows.pop(pad)
        if count:
            self.say(more(count))
            self._open(pad, more)  # a flood that goes on is summed up once per window

    def close(self) -> None:
        for _, _, timer in self._windows.values():
            timer.cancel()
        self._windows.clear()
