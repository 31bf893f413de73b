"""Serial pads: a USB pad hub (hardware/pad/, a Pico) speaking hardware/PROTOCOL.md, read with pyserial.

A reader thread finds the port, opens it, reads lines and hands each message to the table's loop. Everything
else happens on the loop: the pad registry, dropping presses the hub sends again, the answers (through
PadButtons) and the lines back to the hub (ASK/DONE as seats are asked, OK/NO for each press). If the hub goes
away the game carries on from other devices; the thread keeps looking for the port, backing off, and on return
the hub sends again the presses it has no answer for.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from functools import partial

import serial
from serial.tools import list_ports

from companion.games.base import Message
from companion.pads import protocol
from companion.pads.buttons import PadButtons, PadError, Say
from companion.pads.config import PICO_USB_ID, SerialConfig
from companion.pads.protocol import Hello, LineError, Press
from companion.pads.registry import PadRegistry

log = logging.getLogger("companion.pads.serial")

BAUDRATE = 115200  # USB CDC ignores it; a hub on a real UART would not
REMEMBERED_REPLIES = 256  # presses a hub may send again after a reconnect, answered from memory

FindPort = Callable[[], str | None]


@dataclass
class LineCounts:
    """What came from the hub: good lines, and lines ignored because they were not the protocol."""

    lines: int = 0
    garbage: int = 0
    bad_checksum: int = 0
    duplicates: int = 0  # presses sent again that were already answered or are being answered
    connects: int = 0
    disconnects: int = 0

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def hub_port(ports: Iterable[object], usb_id: tuple[int, int] = PICO_USB_ID) -> str | None:
    """The device path of the first port with that USB vendor:product id."""
    for port in ports:
        if (getattr(port, "vid", None), getattr(port, "pid", None)) == usb_id:
            return port.device
    return None


def find_hub(usb_id: tuple[int, int] = PICO_USB_ID) -> str | None:
    return hub_port(list_ports.comports(), usb_id)


def port_finder(config: SerialConfig) -> FindPort:
    """Where to look for the hub: the configured port while it exists, else the port with the hub's USB id."""
    if config.port is not None:
        return lambda: config.port if os.path.exists(config.port) else None
    return partial(find_hub, config.usb_id)


class SerialPads:
    """The pad hub; create and `start` on the loop's thread, `close` when done."""

    def __init__(self, buttons: PadButtons, registry: PadRegistry | None = None, find_port: FindPort = find_hub,
                 backoff: tuple[float, float] = (0.05, 2.0), say: Say | None = None):
        self.buttons = buttons
        self.registry = registry or PadRegistry()
        self.find_port = find_port
        self.backoff = backoff
        self.say: Say = say or buttons.say
        self.counts = LineCounts()
        self.hub: Hello | None = None  # the last hub that said HELLO
        self._told_connected = False  # "hub connected" was said for this connection
        self._loop: asyncio.AbstractEventLoop | None = None
        self._port: serial.Serial | None = None
        self._port_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._replies: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._pending: set[tuple[str, int]] = set()
        self._unwatch: Callable[[], None] | None = None
        self._warned = False

    @property
    def connected(self) -> bool:
        return self._port is not None

    def start(self) -> None:
        self._loop = self.buttons.table.loop
        if self._loop is None:
            raise PadError("the table is not running on a loop: start the pads from inside the running table")
        self._unwatch = self.buttons.watch(self._asked)
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="pad-hub", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        if self._unwatch is not None:
            self._unwatch()
            self._unwatch = None

    def give_next(self, seat: str) -> None:
        """On the loop: the next pad pressed becomes `seat`'s."""
        self.say(self.registry.give_next(seat))

    # -- the reader thread -------------------------------------------------------------------------------------

    def _run(self) -> None:
        delay, missing_said = self.backoff[0], False
        while not self._stop.is_set():
            port, path = self._open()
            if port is None:
                if not missing_said:
                    log.info("no pad hub found yet; still looking")
                    missing_said = True
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            delay, missing_said = self.backoff[0], True
            try:
                self._serve(port, path)
            except Exception:  # a bug must not silently end the pads for the rest of the evening
                log.exception("pad hub reader failed; reopening the port")
                self._stop.wait(self.backoff[1])
            if not self._stop.is_set():
                self.counts.disconnects += 1
                self._post(self._disconnected)

    def _open(self) -> tuple[serial.Serial | None, str]:
        try:
            path = self.find_port()
            if path is None:
                return None, ""
            return serial.Serial(path, BAUDRATE, timeout=0.05, write_timeout=0.5, exclusive=True), path
        except (OSError, ValueError, serial.SerialException) as error:
            log.debug("pad hub port not usable yet: %s", error)
            return None, ""

    def _serve(self, port: serial.Serial, path: str) -> None:
        with self._port_lock:
            self._port = port
        self.counts.connects += 1
        self._warned = False  # warn once per connection about lines that are not the protocol
        log.info("pad hub port %s open", path)
        self._write(protocol.sync())
        buffer, skipping = bytearray(), False
        try:
            while not self._stop.is_set():
                data = port.read(port.in_waiting or 1)
                if not data:
                    continue
                buffer += data
                while (end := buffer.find(b"\n")) >= 0:
                    line = bytes(buffer[:end])
                    del buffer[:end + 1]
                    if skipping:  # the tail of an overlong line already counted
                        skipping = False
                    else:
                        self._line(line)
                if len(buffer) > protocol.MAX_LINE + 2:
                    self._count(LineError("a line too long to be the protocol"))
                    buffer.clear()
                    skipping = True
        except (OSError, serial.SerialException) as error:
            log.info("pad hub port %s failed: %s", path, error)
        finally:
            with self._port_lock:
                self._port = None
            port.close()

    def _line(self, line: bytes) -> None:
        try:
            message = protocol.parse_hub_line(line)
        except LineError as error:
            self._count(error)
            return
        self.counts.lines += 1
        self._post(self._hello if isinstance(message, Hello) else self._press, message)

    def _count(self, error: LineError) -> None:
        if error.checksum:
            self.counts.bad_checksum += 1
        else:
            self.counts.garbage += 1
        # the line itself is never logged: a garbled PRESS still says which button a voter pressed
        level = logging.DEBUG if self._warned else logging.WARNING
        self._warned = True
        log.log(level, "pad hub: ignored a line that is not the protocol (%s); %d garbled, %d bad checksums so far",
                error, self.counts.garbage, self.counts.bad_checksum)

    def _post(self, callback: Callable[..., None], *args: object) -> None:
        try:
            self._loop.call_soon_threadsafe(callback, *args)
        except RuntimeError:  # the loop is closed: the companion is shutting down
            self._stop.set()

    def _write(self, data: bytes) -> None:
        with self._port_lock:
            port = self._port
            if port is None:
                return  # nothing to tell: the hub gets the whole state again after its SYNC
            try:
                port.write(data)
            except (OSError, serial.SerialException) as error:
                log.info("pad hub: could not write (%s); the reader will reconnect", error)

    # -- on the loop -------------------------------------------------------------------------------------------

    def _disconnected(self) -> None:
        self._told_connected = False
        self.say(Message("pads.hub_disconnected"))

    def _hello(self, hello: Hello) -> None:
        booted = self.hub is None or hello.boot != self.hub.boot
        if booted:
            self._replies.clear()  # a hub that booted again numbers its presses from 1
        self.hub = hello
        if booted or not self._told_connected:  # a second HELLO on one connection: said once
            self._told_connected = True
            self.say(Message("pads.hub_connected", {"count": hello.pads, "version": hello.version}))
        for pad in range(1, hello.pads + 1):
            self._show(pad)

    def _press(self, press: Press) -> None:
        key = (self.hub.boot if self.hub else "", press.seq)
        if key in self._replies or key in self._pending:
            self.counts.duplicates += 1
            if key in self._replies:
                self._write(self._replies[key])  # its answer was lost on the way: say it again
            return
        if self.hub is not None and press.pad > self.hub.pads:
            log.warning("pad hub: a press on pad %d, but the hub said it has %d pads (refused)", press.pad,
                        self.hub.pads)
            self._reply(key, press, Message("pads.no_such_pad", {"pad": press.pad}))
            return
        claimed = self.registry.claim(press.pad)
        if claimed is not None:
            for said in claimed:
                self.say(said)
            self._reply(key, press, None)
            for pad in range(1, (self.hub.pads if self.hub else press.pad) + 1):
                self._show(pad)
            return
        seat = self.registry.seat_of(press.pad)
        if seat is None:
            said = Message("pads.unassigned", {"pad": press.pad})
            self.say(said)
            self._reply(key, press, said)
            return
        self._pending.add(key)
        self.buttons.press(seat, press.button, partial(self._answered, key, press))

    def _answered(self, key: tuple[str, int], press: Press, error: Message | None) -> None:
        self._pending.discard(key)
        self._reply(key, press, error)

    def _reply(self, key: tuple[str, int], press: Press, error: Message | None) -> None:
        line = protocol.no(press.pad, press.seq) if error else protocol.ok(press.pad, press.seq)
        self._replies[key] = line
        while len(self._replies) > REMEMBERED_REPLIES:
            self._replies.popitem(last=False)
        self._write(line)

    def _asked(self, seat: str, asked: bool) -> None:
        pad = self.registry.pad_of(seat)
        if pad is not None:
            self._write(protocol.ask(pad) if asked else protocol.done(pad))

    def _show(self, pad: int) -> None:
        seat = self.registry.seat_of(pad)
        asked = seat is not None and self.buttons.asked(seat)
        self._write(protocol.ask(pad) if asked else protocol.done(pad))
