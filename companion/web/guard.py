"""The phone server's door on a shared Wi-Fi: no stranger, token or not, can take the table's descriptors.

aiohttp times an unfinished request out with its `keepalive_timeout` (armed when a connection is accepted and
after each response, not pushed back by a byte that trickles in), but it does not cap how many connections
wait there. The guard does: each accepted connection is counted until it becomes a WebSocket; past the cap the
oldest one still waiting is closed to make room, so a phone's short, complete request always gets in. When
the process runs out of descriptors anyway (asyncio's accept says EMFILE and retries a second later), that is
logged once per burst, without a traceback, and the oldest waiting connections are closed.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import time
from collections import OrderedDict
from typing import Any

log = logging.getLogger("companion.web")

HEADER_TIMEOUT = 5.0  # seconds for a request's line and headers to arrive (and for an idle keep-alive)
MOST_WAITING = 256  # connections not yet a WebSocket, at most (fewer if the descriptor limit is low)
FREED_ON_EMFILE = 16  # waiting connections closed when an accept finds no descriptor left


def waiting_cap() -> int:
    """Well under the descriptor limit: a quarter of it leaves room for the WebSockets (capped per link), the
    save file, the pads and the loop's own."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MOST_WAITING
    return max(16, min(MOST_WAITING, soft // 4))


class Quiet:
    """A log line said at most once per `every` seconds; the ones held back are counted in the next."""

    def __init__(self, every: float = 10.0):
        self.every = every
        self.last = -every
        self.held = 0

    def say(self, level: int, text: str, *args: object) -> None:
        now = time.monotonic()
        if now - self.last < self.every:
            self.held += 1
            return
        if self.held:
            text, args = text + " (and %d more like it)", (*args, self.held)
        self.last, self.held = now, 0
        log.log(level, text, *args)


class Tracked(asyncio.Protocol):
    """aiohttp's handler of one connection, with the guard told when the connection comes and goes."""

    def __init__(self, inner: asyncio.Protocol, guard: Guard):
        self.inner, self.guard = inner, guard

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.guard.arrived(self.inner, transport)
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.left(self.inner)
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


class Guard:
    """The connections that are not (yet) a WebSocket, oldest first, at most `cap` of them."""

    def __init__(self, cap: int | None = None):
        self.cap = waiting_cap() if cap is None else cap
        self.waiting: OrderedDict[object, asyncio.BaseTransport] = OrderedDict()
        self.made_room = Quiet(30.0)
        self.out_of_descriptors = Quiet(60.0)
        self._default: Any = None

    def arrived(self, handler: object, transport: asyncio.BaseTransport) -> None:
        self.waiting[handler] = transport
        while len(self.waiting) > self.cap:
            self._close_oldest()
            self.made_room.say(logging.WARNING, "more than %d connections without a finished request: the oldest "
                                             "closed to make room", self.cap)

    def left(self, handler: object) -> None:
        self.waiting.pop(handler, None)

    def upgraded(self, handler: object) -> None:
        """A WebSocket now: its own caps (per address, per link) and its heartbeat look after it."""
        self.waiting.pop(handler, None)

    def _close_oldest(self) -> None:
        _, transport = self.waiting.popitem(last=False)
        transport.abort()  # no lingering: the descriptor is free on the next turn of the loop

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        """Catch the loop's "out of system resource" reports of accept (one per retry, with a traceback)."""
        previous = loop.get_exception_handler()
        self._default = previous

        def handle(loop: asyncio.AbstractEventLoop, context: dict) -> None:
            if context.get("message") == "socket.accept() out of system resource":
                error = context.get("exception")
                self.out_of_descriptors.say(logging.WARNING, "the phone server ran out of descriptors (%s): "
                                            "closing the oldest waiting connections", error)
                for _ in range(min(FREED_ON_EMFILE, len(self.waiting))):
                    self._close_oldest()
                return
            if previous is not None:
                previous(loop, context)
            else:
                loop.default_exception_handler(context)

        loop.set_exception_handler(handle)

    def uninstall(self, loop: asyncio.AbstractEventLoop) -> None:
        loop.set_exception_handler(self._default)
