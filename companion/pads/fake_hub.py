"""A pad hub on a pty pair, for tests and the bench: the real serial interface, faults on demand.

It speaks hardware/PROTOCOL.md like the Pico firmware (HELLO, PRESS with sequence numbers, sending again what
has no answer) and can be unplugged and plugged back (a new pty, so a new path), send garbage or bad checksums,
or go deaf to the host's answers as if they were lost in the cable. With `says_hello` False it is a device that
never says HELLO (other firmware on the same USB id); with `version` "2.0" a hub of another protocol.
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from collections import OrderedDict
from collections.abc import Callable

from companion.pads import protocol

MAX_UNANSWERED = 16  # as the firmware: beyond this the oldest press is dropped


class FakeHub:
    def __init__(self, pads: int = 6, version: str = "1.0", boot: str = "BEEF", resend_after: float = 1.0):
        self.pads, self.version, self.boot, self.resend_after = pads, version, boot, resend_after
        self.path: str | None = None
        self.received: list[str] = []  # every payload the host sent, in order
        self.lamps: dict[int, str] = {}  # pad -> "ASK" or "DONE", as the host last said
        self.replies: dict[int, str] = {}  # seq -> "OK" or "NO"
        self.unacked: OrderedDict[int, tuple[int, int, float]] = OrderedDict()  # seq -> pad, button, last sent
        self.deaf = False  # the host's lines are lost on the way
        self.says_hello = True  # False: never says HELLO, neither at power-up nor to SYNC
        self.bad_lines = 0
        self._seq = 0
        self._fds: tuple[int, int] | None = None
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._session: tuple[threading.Thread, threading.Event] | None = None

    # -- the cable ---------------------------------------------------------------------------------------------

    def plug(self) -> str:
        """A fresh pty (a new device path, as after a real replug); the hub says HELLO on it."""
        self.unplug()
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo of the hub's own lines before the host configures the port
        with self._lock:
            self._fds = (master, slave)
            self.path = os.ttyname(slave)
        stop = threading.Event()
        thread = threading.Thread(target=self._serve, args=(master, stop), name="fake-pad-hub", daemon=True)
        self._session = (thread, stop)
        thread.start()
        self._hello()
        return self.path

    def unplug(self) -> None:
        if self._session is not None:
            thread, stop = self._session
            stop.set()
            thread.join(timeout=5)
            self._session = None
        with self._lock:
            if self._fds is not None:
                for fd in self._fds:
                    os.close(fd)
            self._fds, self.path = None, None

    close = unplug

    # -- the hub's side ----------------------------------------------------------------------------------------

    def press(self, pad: int, button: int) -> int:
        """A debounced press on a pad; it is sent now if plugged, and again until the host answers it."""
        with self._lock:
            self._seq = self._seq % protocol.MAX_SEQ + 1
            self.unacked[self._seq] = (pad, button, time.monotonic())
            while len(self.unacked) > MAX_UNANSWERED:
                self.unacked.popitem(last=False)
            self.send(f"PRESS {pad} {button} {self._seq}")
            return self._seq

    def send(self, payload: str, checksum: int | None = None) -> None:
        data = payload.encode("ascii")
        if checksum is None:
            checksum = protocol.checksum(data)
        self.write_raw(b"%s*%02X\n" % (data, checksum))

    def write_raw(self, data: bytes) -> None:
        with self._lock:
            if self._fds is not None:
                os.write(self._fds[0], data)

    def wait_for(self, predicate: Callable[[FakeHub], bool], timeout: float = 5.0) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: predicate(self), timeout)

    def _hello(self) -> None:
        if self.says_hello:
            self.send(f"HELLO hub {self.version} {self.pads} {self.boot}")

    def _serve(self, master: int, stop: threading.Event) -> None:
        buffer = b""
        while not stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.02)
            if ready:
                try:
                    data = os.read(master, 1024)
                except OSError:  # the host closed its side: wait to be unplugged
                    data = b""
                    stop.wait(0.02)
                buffer += data
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    self._host_line(line)
            self._resend(time.monotonic())

    def _host_line(self, line: bytes) -> None:
        with self._changed:
            if self.deaf:
                return
            try:
                payload = protocol.unframe(line)
            except protocol.LineError:
                self.bad_lines += 1
                return
            self.received.append(payload)
            words = payload.split()
            if words[0] == "SYNC":
                self._hello()
                for seq, (pad, button, _) in self.unacked.items():
                    self.send(f"PRESS {pad} {button} {seq}")
            elif words[0] in ("ASK", "DONE"):
                self.lamps[int(words[1])] = words[0]
            elif words[0] in ("OK", "NO"):
                seq = int(words[2])
                self.replies[seq] = words[0]
                self.unacked.pop(seq, None)
            self._changed.notify_all()

    def _resend(self, now: float) -> None:
        with self._lock:
            for seq, (pad, button, sent) in list(self.unacked.items()):
                if now - sent >= self.resend_after:
                    self.unacked[seq] = (pad, button, now)
                    self.send(f"PRESS {pad} {button} {seq}")
