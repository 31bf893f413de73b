"""`companion serve`: a table for phones with no Kivy window (a laptop, a TV or a tablet is the screen)."""

from __future__ import annotations

import asyncio
import signal
import sys

from companion.box import Box, BoxError, BoxOptions
from companion.catalogue import text
from companion.contract import Message
from companion.web import qr


def say(line: str) -> None:
    print(line, flush=True)


def print_seats(box: Box, draw_qr: bool) -> None:
    for seat, url in box.server.seat_urls().items():
        say(f"seat {seat} {url}")
        if draw_qr:
            say(qr.terminal(url))


async def serve(options: BoxOptions, ready: asyncio.Event | None = None, draw_qr: bool = True) -> int:
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):  # before anything is printed: a quick stop is a clean one
        asyncio.get_running_loop().add_signal_handler(sig, stop.set)

    def news(message: Message) -> None:
        say(f"pads: {text(message)}")

    box = Box(options, tell=news)
    try:
        await box.open()
    except BoxError as error:
        print(f"companion serve: {error}", file=sys.stderr)
        return 2
    try:
        if box.resumed:
            say(f"resumed game {box.table.game_id} (round {box.table.state.round})")
        say(f"host {box.server.host_url}")
        say(f"watch {box.server.spectator_url}")
        if box.table.state is not None:
            print_seats(box, draw_qr)
        else:
            say("waiting for the host page to set up a game")
        box.on_new_seats = lambda: print_seats(box, draw_qr)
        box.server.on_host_renewed = lambda: say(f"host {box.server.host_url}")
        if ready is not None:
            ready.set()
        await stop.wait()
    finally:
        await box.close()
    return 0
