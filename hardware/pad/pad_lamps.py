"""A pad's LED: blinking while its seat is asked, solid when a press is accepted, a double blink when refused."""

from pad_ticks import ticks_diff

BLINK_MS = 250
ACCEPTED = ((1, 600),)
REFUSED = ((0, 100), (1, 100), (0, 100), (1, 100), (0, 100))  # starts dark so two blinks show while blinking


class Lamp:
    def __init__(self, pin):
        self.pin = pin
        self.asked_since = None  # when the host last said ASK; None after DONE
        self.flash = None
        self.flash_since = 0
        self.level = 0
        pin.value(0)

    def ask(self, asked: bool, now: int) -> None:
        if not asked:
            self.asked_since = None
        elif self.asked_since is None:
            self.asked_since = now

    def play(self, flash, now: int) -> None:
        self.flash, self.flash_since = flash, now

    def update(self, now: int) -> None:
        level = self._level(now)
        if level != self.level:
            self.level = level
            self.pin.value(level)

    def _level(self, now: int) -> int:
        if self.flash is not None:
            elapsed = ticks_diff(now, self.flash_since)
            for level, ms in self.flash:
                if elapsed < ms:
                    return level
                elapsed -= ms
            self.flash = None
            if self.asked_since is not None:
                self.asked_since = now  # blinking starts afresh, lit, after the flash
        if self.asked_since is None:
            return 0
        return 1 if (ticks_diff(now, self.asked_since) // BLINK_MS) % 2 == 0 else 0
