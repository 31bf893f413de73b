"""The hub: presses out as PRESS lines with sequence numbers, sent again until the host answers OK or NO.

hardware/PROTOCOL.md is the contract with the companion.
"""

import pad_lamps
from pad_ticks import ticks_diff
from pad_wire import MAX_LINE, frame, unframe

VERSION = "1.1"  # 1.1: a 16-digit boot id (1.0 sent 4 digits, which a reboot could draw again)
MAX_SEQ = 65535
MAX_UNANSWERED = 16  # beyond this the oldest press is dropped: its player sees no light and presses again
RESEND_MS = 1000


BOOT_BYTES = 8  # 64 random bits: a hub that reboots never draws its last boot id again in practice


def new_boot_id() -> str:
    try:
        from os import urandom
        raw = urandom(BOOT_BYTES)
    except (ImportError, NotImplementedError):
        from random import getrandbits
        raw = bytes(getrandbits(8) for _ in range(BOOT_BYTES))
    return "".join(f"{byte:02X}" for byte in raw)


class Hub:
    def __init__(self, keys, lamps, link, boot=None):
        self.keys = keys
        self.lamps = lamps
        self.link = link
        self.boot = boot or new_boot_id()
        self.seq = 0
        self.unanswered = []  # [seq, pad, button, last sent], oldest first
        self.buffer = b""
        self.skipping = False
        self.bad_lines = 0

    def start(self, now: int) -> None:
        self.hello()

    def step(self, now: int) -> None:
        for pad, button in self.keys.scan(now):
            self.press(pad, button, now)
        self.receive(self.link.read(), now)
        self.resend(now, everything=False)
        for lamp in self.lamps:
            lamp.update(now)

    def hello(self) -> None:
        self.send(f"HELLO hub {VERSION} {len(self.lamps)} {self.boot}")

    def press(self, pad: int, button: int, now: int) -> None:
        self.seq = self.seq % MAX_SEQ + 1
        self.unanswered.append([self.seq, pad, button, now])
        if len(self.unanswered) > MAX_UNANSWERED:
            self.unanswered.pop(0)
        self.send_press(self.unanswered[-1], now)

    def send_press(self, entry, now: int) -> None:
        entry[3] = now
        self.send(f"PRESS {entry[1]} {entry[2]} {entry[0]}")

    def resend(self, now: int, everything: bool) -> None:
        for entry in self.unanswered:
            if everything or ticks_diff(now, entry[3]) >= RESEND_MS:
                self.send_press(entry, now)

    def send(self, payload: str) -> None:
        self.link.write(frame(payload))

    def receive(self, data: bytes, now: int) -> None:
        if self.skipping and data:  # the rest of an overlong line, already counted once: dropped
            end = data.find(b"\n")
            if end < 0:
                return
            data, self.skipping = data[end + 1:], False
        self.buffer += data
        while True:
            end = self.buffer.find(b"\n")
            if end < 0:
                break
            line, self.buffer = self.buffer[:end], self.buffer[end + 1:]
            self.handle(line, now)
        if len(self.buffer) > MAX_LINE + 2:
            self.buffer, self.skipping = b"", True
            self.bad_lines += 1

    def handle(self, line: bytes, now: int) -> None:
        words = unframe(line)
        if not words or not self.obey(words, now):
            self.bad_lines += 1

    def obey(self, words, now: int) -> bool:
        command, numbers = words[0], words[1:]
        if command == "SYNC" and not numbers:
            self.hello()
            self.resend(now, everything=True)
            return True
        if not all(n.isdigit() for n in numbers) or not numbers:
            return False
        pad = int(numbers[0])
        if not 1 <= pad <= len(self.lamps):
            return False
        lamp = self.lamps[pad - 1]
        if command in ("ASK", "DONE") and len(numbers) == 1:
            lamp.ask(command == "ASK", now)
            return True
        if command in ("OK", "NO") and len(numbers) == 2:
            seq = int(numbers[1])
            self.unanswered = [entry for entry in self.unanswered if entry[0] != seq]
            lamp.play(pad_lamps.ACCEPTED if command == "OK" else pad_lamps.REFUSED, now)
            return True
        return False
