"""Serial pads: a USB pad hub (hardware/pad/, a Pico) speaking hardware/PROTOCOL.md, read with pyserial.

A reader thread finds the port, opens it, reads lines and hands each message to the table's loop. Everything
else happens on the loop: the pad registry, dropping presses the hub sends again, the answers (through
PadButtons) and the lines back to the hub (ASK/DONE as seats are asked, OK/NO for each press). If the hub goes
away the game carries on from other devices; the thread keeps looking for the port, backing off, and on return
the hub sends again the presses it has no answer for.

A device on the port counts only once it has said a valid HELLO on this connection: until then the companion
sends SYNC again every second, presses are not counted (the hub sends them again after its HELLO), and after
HELLO_DEADLINE seconds the device is named on the host screen (garbage, or a hub of another protocol). What is on
the port (waiting, a hub and its HELLO, or no hub) is also published for `companion doctor` (hub_state.py), which
cannot ask the device itself while the port is held here.

Each answer a press gave is remembered by what it was for (boot id, sequence number, pad and button) and an
accepted press's tag is stored with its answer in the save file: a press sent again after a reconnect, or after
the companion itself restarted, is answered from that memory and never applied twice. The reader thread reads
the board as each press arrives (the question it answers) and ignores a pad pressed faster than any hand
(flood.py), so a stuck button costs the loop nothing.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from functools import partial

import serial
from serial.tools import list_ports

from companion.contract import Message
from companion.pads import protocol
from companion.pads.buttons import PadButtons, PadError, Say, Seen
from companion.pads.config import PICO_USB_ID, SerialConfig
from companion.pads.flood import RateGuard
from companion.pads.hub_state import HUB, NOT_A_HUB, WAITING, Publisher
from companion.pads.protocol import Hello, LineError, Press
from companion.pads.registry import PadRegistry

log = logging.getLogger("companion.pads.serial")

BAUDRATE = 115200  # USB CDC ignores it; a hub on a real UART would not
REMEMBERED_REPLIES = 256  # presses a hub may send again after a reconnect, answered from memory
HELLO_RETRY = 1.0  # seconds between SYNCs while the device on the port has not said HELLO
HELLO_DEADLINE = 3.0  # seconds without a valid HELLO: the device on the port is named on the host screen
HELLO_PATIENCE = 5.0  # seconds between SYNCs after that (a device that is no hub is not asked in a loop)
SYNC_ON_PRESS = 0.25  # a press before HELLO asks for the HELLO, at most this often

FindPort = Callable[[], str | None]
Problem = Callable[[Message | None], None]  # a lasting problem for the host screen (None: it is gone)
Key = tuple[str, int, int, int]  # what a reply was for: boot id, sequence number, pad, button


@dataclass
class LineCounts:
    """What came from the hub: good lines, and lines ignored because they were not the protocol."""

    lines: int = 0
    garbage: int = 0
    bad_checksum: int = 0
    duplicates: int = 0  # presses sent again that were already answered or are being answered
    unidentified: int = 0  # presses before the hub said HELLO on this connection: not counted
    ignored: int = 0  # presses from a pad pressed faster than any hand (a stuck button)
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


def probe_hub(path: str, wait: float = 2.0) -> tuple[str, Hello | str | None]:
    """What answers SYNC on `path` within `wait` seconds (for `companion doctor`, with no table running):
    ("hello", the HELLO), ("version", a HELLO's other protocol version), ("busy", None) when a running companion
    holds the port, ("garbage", None) for lines that are not the protocol, ("silent", None) for nothing."""
    try:
        port = serial.Serial(path, BAUDRATE, timeout=0.05, write_timeout=0.5, exclusive=True)
    except (OSError, ValueError, serial.SerialException) as error:
        if "exclusively lock" in str(error):
            return "busy", None
        return "garbage", str(error)
    heard, buffer = "silent", b""
    try:
        port.write(protocol.sync())
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            buffer += port.read(port.in_waiting or 1)
            *lines, buffer = buffer.split(b"\n")
            buffer = buffer[-(protocol.MAX_LINE + 2):]
            for line in lines:
                try:
                    message = protocol.parse_hub_line(line)
                except LineError as error:
                    if error.version is not None:
                        return "version", error.version
                    heard = "garbage"
                    continue
                if isinstance(message, Hello):
                    return "hello", message
    except (OSError, serial.SerialException) as error:
        return "garbage", str(error)
    finally:
        port.close()
    return (heard if heard != "silent" or not buffer else "garbage"), None


def port_finder(config: SerialConfig) -> FindPort:
    """Where to look for the hub: the configured port while it exists, else the port with the hub's USB id."""
    if config.port is not None:
        return lambda: config.port if os.path.exists(config.port) else None
    return partial(find_hub, config.usb_id)


@dataclass
class _Connection:
    """One opening of the port, as the reader thread sees it."""

    path: str
    opened: float
    last_sync: float
    identified: bool = False  # a valid HELLO came on this connection
    named: bool = False  # the host screen was told the device does not speak the protocol
    version: str | None = None  # the version of a HELLO of another protocol


def source_key(source: object) -> Key | None:
    """The reply key of a press's tag as stored with its answer, or None if it is not a hub's tag."""
    if not isinstance(source, dict):
        return None
    boot, seq, pad, button = (source.get(k) for k in ("hub", "seq", "pad", "button"))
    if not isinstance(boot, str) or not all(type(n) is int for n in (seq, pad, button)):
        return None
    return boot, seq, pad, button


class SerialPads:
    """The pad hub; create and `start` on the loop's thread, `close` when done."""

    def __init__(self, buttons: PadButtons, registry: PadRegistry | None = None, find_port: FindPort = find_hub,
                 backoff: tuple[float, float] = (0.05, 2.0), say: Say | None = None,
                 problem: Problem | None = None):
        self.buttons = buttons
        self.registry = registry or PadRegistry()
        self.find_port = find_port
        self.backoff = backoff
        self.say: Say = say or buttons.say
        self.problem: Problem = problem or (lambda message: None)
        self.counts = LineCounts()
        self.guard = RateGuard()  # per pad, on the reader thread
        self.hub: Hello | None = None  # the last hub that said HELLO
        self._told_connected = False  # "hub connected" was said for this connection
        self._loop: asyncio.AbstractEventLoop | None = None
        self._port: serial.Serial | None = None
        self._port_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._replies: OrderedDict[Key, bytes] = OrderedDict()
        self._pending: set[Key] = set()
        self._recalled = -1  # the table's game whose stored presses are in the memory of replies
        self._named = False  # the host screen shows that the device on the port is no hub
        self._unwatch: Callable[[], None] | None = None
        self._warned = False
        self._state: Publisher | None = None  # the reader thread's: what is on the port, for `companion doctor`

    @property
    def connected(self) -> bool:
        return self._port is not None

    def start(self) -> None:
        self._loop = self.buttons.table.loop
        if self._loop is None:
            raise PadError("the table is not running on a loop: start the pads from inside the running table")
        self._unwatch = self.buttons.watch(self._asked)
        store = self.buttons.table.store
        self._state = Publisher(store.path if store is not None else None)
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
        now = time.monotonic()
        connection = _Connection(path, now, now)
        buffer, skipping = bytearray(), False
        try:
            self._state.publish(path, WAITING)
            self._write(protocol.sync())
            while not self._stop.is_set():
                data = port.read(port.in_waiting or 1)
                if skipping and data:  # the rest of an overlong line, already counted once: dropped
                    end = data.find(b"\n")
                    data, skipping = (b"", True) if end < 0 else (data[end + 1:], False)
                if data:
                    buffer += data
                    while (end := buffer.find(b"\n")) >= 0:
                        line = bytes(buffer[:end])
                        del buffer[:end + 1]
                        self._line(line, connection)
                    if len(buffer) > protocol.MAX_LINE + 2:
                        self._count(LineError("a line too long to be the protocol"))
                        buffer.clear()
                        skipping = True
                if not connection.identified:
                    self._identify(connection, time.monotonic())
        except (OSError, serial.SerialException) as error:
            log.info("pad hub port %s failed: %s", path, error)
        finally:
            with self._port_lock:
                self._port = None
            port.close()
            self._state.withdraw()

    def _identify(self, connection: _Connection, now: float) -> None:
        """No valid HELLO yet: ask again (SYNC), and after HELLO_DEADLINE name the device on the host screen."""
        late = now - connection.opened >= HELLO_DEADLINE
        if now - connection.last_sync >= (HELLO_PATIENCE if connection.named else HELLO_RETRY):
            connection.last_sync = now
            self._write(protocol.sync())
        if late and not connection.named:
            connection.named = True
            self._state.publish(connection.path, NOT_A_HUB, connection.version)
            self._post(self._not_a_hub, connection.path, connection.version)

    def _line(self, line: bytes, connection: _Connection) -> None:
        try:
            message = protocol.parse_hub_line(line)
        except LineError as error:
            if error.version is not None:
                connection.version = error.version
            self._count(error)
            return
        self.counts.lines += 1
        if isinstance(message, Hello):
            connection.identified = True
            self._state.publish(connection.path, HUB, message.version, message.pads, message.boot)
            self._post(self._hello, message)
            return
        if not connection.identified:  # not counted: the hub sends it again after its HELLO
            self.counts.unidentified += 1
            now = time.monotonic()
            if now - connection.last_sync >= SYNC_ON_PRESS:
                connection.last_sync = now
                self._write(protocol.sync())
            return
        verdict = self.guard.check(message.pad)
        if verdict != "ok":  # a stuck pad: refused here, the loop never sees it
            self.counts.ignored += 1
            self._write(protocol.no(message.pad, message.seq))
            if verdict == "jammed":
                self._post(self._stuck, message.pad)
            return
        self._post(self._press, message, self.buttons.seen())  # the board as the press arrives

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
        if self._named:  # the device that was no hub has gone
            self._named = False
            self.problem(None)
        if self._told_connected:
            self._told_connected = False
            self.say(Message("pads.hub_disconnected"))

    def _not_a_hub(self, path: str, version: str | None) -> None:
        if version is not None:
            message = Message("faults.pads.hub_version", {"port": path, "version": version,
                                                          "speaks": f"{protocol.PROTOCOL_MAJOR}.x",
                                                          "folder": "hardware/pad/"})
            log.warning("pad hub on %s speaks protocol %s, not %d.x: its presses are not counted", path, version,
                        protocol.PROTOCOL_MAJOR)
        else:
            message = Message("faults.pads.not_a_hub", {"port": path, "hello": "HELLO", "folder": "hardware/pad/"})
            log.warning("the device on %s has said no valid HELLO in %.0f s: it is not counted as a pad hub",
                        path, HELLO_DEADLINE)
        self._named = True
        self.problem(message)

    def _hello(self, hello: Hello) -> None:
        if self._named:
            self._named = False
            self.problem(None)
        booted = self.hub is None or hello.boot != self.hub.boot
        self.hub = hello
        if booted or not self._told_connected:  # a second HELLO on one connection: said once
            self._told_connected = True
            self.say(Message("pads.hub_connected", {"count": hello.pads, "version": hello.version}))
        for pad in range(1, hello.pads + 1):
            self._show(pad)

    def _stuck(self, pad: int) -> None:
        log.warning("pad %d is pressed faster than a hand can: ignored for %.0f s", pad, self.guard.rest)
        self.say(Message("pads.stuck_pad", {"pad": pad, "seconds": round(self.guard.rest)}))

    def _recall(self) -> None:
        """The presses stored with this game's answers, in the memory of replies: a hub that sends one again
        (the companion restarted before its OK reached the hub) gets its OK, and the press is not applied again."""
        table = self.buttons.table
        if self._recalled == table.generation:
            return
        self._recalled = table.generation
        for event in table.events:
            key = source_key(event.get("source"))
            if key is not None and key not in self._replies:
                self._remember(key, protocol.ok(key[2], key[1]))

    def _remember(self, key: Key, line: bytes) -> None:
        self._replies[key] = line
        while len(self._replies) > REMEMBERED_REPLIES:
            self._replies.popitem(last=False)

    def _refused(self, pad: int, said: Message) -> None:
        self.buttons.refused(("hub", pad), said,
                             lambda count: Message("pads.refused_more_pad", {"pad": pad, "count": count}))

    def _press(self, press: Press, seen: Seen) -> None:
        self._recall()
        boot = self.hub.boot if self.hub else ""
        key = (boot, press.seq, press.pad, press.button)  # a rebooted hub's press with the same seq is new
        if key in self._replies or key in self._pending:
            self.counts.duplicates += 1
            if key in self._replies:
                self._write(self._replies[key])  # its answer was lost on the way: say it again
            return
        if self.hub is not None and press.pad > self.hub.pads:
            log.warning("pad hub: a press on pad %d, but the hub said it has %d pads (refused)", press.pad,
                        self.hub.pads)
            said = Message("pads.no_such_pad", {"pad": press.pad})
            self._refused(press.pad, said)
            self._reply(key, press, said)
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
            self._refused(press.pad, said)
            self._reply(key, press, said)
            return
        self._pending.add(key)
        source = {"hub": boot, "seq": press.seq, "pad": press.pad, "button": press.button}
        self.buttons.press(seat, press.button, partial(self._answered, key, press), seen=seen, source=source,
                           guard=False)

    def _answered(self, key: Key, press: Press, error: Message | None) -> None:
        self._pending.discard(key)
        self._reply(key, press, error)

    def _reply(self, key: Key, press: Press, error: Message | None) -> None:
        line = protocol.no(press.pad, press.seq) if error else protocol.ok(press.pad, press.seq)
        self._remember(key, line)
        self._write(line)

    def _asked(self, seat: str, asked: bool) -> None:
        pad = self.registry.pad_of(seat)
        if pad is not None:
            self._write(protocol.ask(pad) if asked else protocol.done(pad))

    def _show(self, pad: int) -> None:
        seat = self.registry.seat_of(pad)
        asked = seat is not None and self.buttons.asked(seat)
        self._write(protocol.ask(pad) if asked else protocol.done(pad))
