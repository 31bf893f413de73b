"""Enough of MicroPython's `machine` (and its ms clock) for the pad firmware to run under CPython in tests.

Pins are wired through switches: an input reads low when a closed switch joins it to an output driven low,
otherwise its pull. Outputs keep a history of (ms, level). The clock is fake: it moves only by `advance` or
`sleep_ms`, so debounce and blink timings are exact in tests.
"""

import time

_pins: dict = {}
_switches: set = set()
_now = [0]
SLEEP_SCALE = [0.0]  # real seconds slept per fake second in sleep_ms (a thread running the firmware sets it)


class Pin:
    IN, OUT, OPEN_DRAIN = 0, 1, 2
    PULL_UP, PULL_DOWN = 1, 2

    def __init__(self, id, mode=-1, pull=-1, *, value=None):
        self.id = id
        self.mode, self.pull, self.out = Pin.IN, None, 0
        self.history: list = []
        _pins[id] = self
        self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None):
        if mode != -1:
            self.mode = mode
        if pull != -1:
            self.pull = pull
        if value is not None:
            self._drive(value)

    def value(self, level=None):
        if level is not None:
            self._drive(level)
            return None
        if self.mode == Pin.OUT:
            return self.out
        for a, b in _switches:
            other = b if a == self.id else a if b == self.id else None
            if other is not None and other in _pins and _pins[other].mode == Pin.OUT and _pins[other].out == 0:
                return 0
        return 1 if self.pull == Pin.PULL_UP else 0

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def _drive(self, level):
        level = 1 if level else 0
        if level != self.out or not self.history:
            self.history.append((_now[0], level))
        self.out = level


def close_switch(a, b):
    _switches.add((a, b))


def open_switch(a, b):
    _switches.discard((a, b))


def pin(id) -> Pin:
    return _pins[id]


def reset():
    _pins.clear()
    _switches.clear()
    _now[0] = 0
    SLEEP_SCALE[0] = 0.0


def ticks_ms():
    return _now[0]


def ticks_add(ticks, delta):
    return ticks + delta


def ticks_diff(new, old):
    return new - old


def advance(ms):
    _now[0] += ms


def sleep_ms(ms):
    _now[0] += ms
    if SLEEP_SCALE[0]:
        time.sleep(ms / 1000 * SLEEP_SCALE[0])
