"""`companion serve`: a table with phones and no Kivy window (a laptop, a TV or a tablet is the screen)."""

from __future__ import annotations

import asyncio
import signal
import sys
from dataclasses import dataclass

from companion.games.base import IllegalAction
from companion.store import EventStore
from companion.table import Table, TableError
from companion.web import qr
from companion.web.lan import lan_address
from companion.web.server import PhoneServer
from companion.web.tokens import Tokens


@dataclass
class ServeOptions:
    db: str
    host: str = "0.0.0.0"
    port: int = 8080
    address: str | None = None  # the address put in the URLs; found on the network when not given
    game: str = "mall-of-horror"
    players: list[str] | None = None
    options: dict | None = None
    wifi_ssid: str | None = None
    wifi_password: str | None = None
    qr: bool = True
    pads: str | None = None  # a pads config (TOML): GPIO pads and/or the serial pad hub


def say(line: str) -> None:
    print(line, flush=True)


def print_seats(server: PhoneServer, draw_qr: bool) -> None:
    for seat, url in server.seat_urls().items():
        say(f"seat {seat} {url}")
        if draw_qr:
            say(qr.terminal(url))


async def serve(options: ServeOptions, ready: asyncio.Event | None = None) -> int:
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):  # before anything is printed: a quick stop is a clean one
        asyncio.get_running_loop().add_signal_handler(sig, stop.set)
    try:
        store = EventStore(options.db)
    except Exception as error:  # StoreError: a file that is not ours; say so, touch nothing
        print(f"companion serve: {error}", file=sys.stderr)
        return 2
    with store:
        table = Table(store)
        table.loop = asyncio.get_running_loop()
        tokens = Tokens(store)
        try:
            if options.players:
                table.new_game(options.game, options.players, options.options)
            elif table.resume() is not None:
                say(f"resumed game {table.game_id} (round {table.state.round})")
        except (IllegalAction, TableError) as error:
            print(f"companion serve: {error}", file=sys.stderr)
            return 2
        wifi = (options.wifi_ssid, options.wifi_password) if options.wifi_ssid else None
        server = PhoneServer(table, tokens, options.address or lan_address(options.host), options.port, wifi)
        await server.start(options.host)
        pads = None
        if options.pads:
            from companion.pads.buttons import PadError
            from companion.pads.config import PadConfigError
            from companion.pads.run import start_pads

            def tell(text: str) -> None:  # a device's news: on the terminal and on the host screen
                say(f"pads: {text}")
                server.notice(text)

            try:
                pads = start_pads(table, options.pads, tell)
            except (PadConfigError, PadError) as error:
                print(f"companion serve: {error}", file=sys.stderr)
                await server.stop()
                return 2
            server.give_pad = pads.give_next
        say(f"host {server.host_url}")
        say(f"watch {server.spectator_url}")
        if table.state is not None:
            print_seats(server, options.qr)
        else:
            say("waiting for the host page to set up a game")
        server.on_new_seats = lambda: print_seats(server, options.qr)
        if ready is not None:
            ready.set()
        await stop.wait()
        if pads is not None:
            pads.close()
        await server.stop()
    return 0
