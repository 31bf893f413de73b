"""The key matrix: one row per pad, one column per button, a diode per button; scanned and debounced.

A row is pulled low while it is scanned and left floating otherwise, so two buttons pressed on different pads
never short two driven rows together; a column reads low when its button on the scanned row is down.
"""

from machine import Pin
from pad_ticks import ticks_diff

DEBOUNCE_MS = 20


class KeyMatrix:
    def __init__(self, rows, columns, debounce_ms: int = DEBOUNCE_MS):
        self.rows = rows
        self.columns = columns
        self.debounce_ms = debounce_ms
        keys = len(rows) * len(columns)
        self.down = [False] * keys  # the debounced state of each key
        self.since = [None] * keys  # when a key first read differently from its debounced state
        for row in rows:
            row.init(Pin.IN, None)

    def scan(self, now: int) -> list:
        """The keys that went down (pad, button), counted once each after reading the same for debounce_ms."""
        pressed = []
        width = len(self.columns)
        for r, row in enumerate(self.rows):
            row.init(Pin.OUT, value=0)
            for c, column in enumerate(self.columns):
                key = r * width + c
                reading = column.value() == 0
                if reading == self.down[key]:
                    self.since[key] = None  # a bounce back: the change has to start again
                elif self.since[key] is None:
                    self.since[key] = now
                elif ticks_diff(now, self.since[key]) >= self.debounce_ms:
                    self.down[key], self.since[key] = reading, None
                    if reading:
                        pressed.append((r + 1, c + 1))
            row.init(Pin.IN, None)
        return pressed
