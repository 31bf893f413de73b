"""The box: the save file, the table, the seat tokens, the phone server and the pads, as one object.

`serve` (headless) and the touchscreen app both open a Box on the running loop and close it when they stop.
It opens in an order that never stores a game that cannot run: the save file, the table, the phone server
(the port is bound), the pads; only then is a new game stored or the unfinished one resumed. It closes in the
reverse order. A new game from any screen gives new seat links and sends the old phones away: the box watches
the table for it, so no screen has to remember.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from companion.games import GAMES
from companion.games.base import Message, Refusal
from companion.store import EventStore, StoreError
from companion.table import Table
from companion.web.lan import lan_address
from companion.web.server import PhoneServer
from companion.web.tokens import Tokens


class BoxError(Exception):
    """The box cannot open: one line that says why (a busy port, a bad pads file, a file that is not ours)."""


@dataclass
class BoxOptions:
    db: str
    host: str = "0.0.0.0"
    port: int = 8080
    address: str | None = None  # the address put in the URLs; found on the network when not given
    game: str = next(iter(GAMES))
    players: list[str] | None = None  # start a new game with these seats; otherwise resume the unfinished one
    options: dict | None = None
    wifi_ssid: str | None = None
    wifi_password: str | None = None
    pads: str | None = None  # a pads config (TOML): GPIO pads and/or the serial pad hub


class Box:
    def __init__(self, options: BoxOptions, tell: Callable[[Message], None] | None = None):
        self.options = options
        self.tell = tell or (lambda message: None)  # news for whoever runs the box (a terminal, a screen)
        self.store: EventStore | None = None
        self.table: Table | None = None
        self.tokens: Tokens | None = None
        self.server: PhoneServer | None = None
        self.pads = None
        self.resumed = False
        self.on_new_seats: Callable[[], None] | None = None  # told when a new game has made new seat links
        self._generation = 0
        self._unsubscribe: Callable[[], None] | None = None

    async def open(self) -> None:
        """Open everything on the running loop (BoxError with one line if the box cannot run)."""
        options = self.options
        try:
            self.store = EventStore(options.db)
        except StoreError as error:
            raise BoxError(str(error)) from None
        try:
            await self._open_rest()
        except BaseException:
            await self.close()
            raise

    async def _open_rest(self) -> None:
        options = self.options
        self.table = Table(self.store)
        self.table.loop = asyncio.get_running_loop()
        self.tokens = Tokens(self.store)
        wifi = (options.wifi_ssid, options.wifi_password) if options.wifi_ssid else None
        self.server = PhoneServer(self.table, self.tokens, options.address or lan_address(options.host),
                                  options.port, wifi)
        try:
            await self.server.start(options.host)
        except OSError as error:
            raise BoxError(f"cannot listen on {options.host}:{options.port}: {error.strerror or error}") from None
        if options.pads:
            self._open_pads(options.pads)
        self._unsubscribe = self.table.subscribe(self._table_changed)
        try:
            if options.players:
                self.table.new_game(options.game, options.players, options.options)
            else:
                self.resumed = self.table.resume() is not None
        except Refusal as refused:
            raise BoxError(str(refused)) from None

    def _open_pads(self, path: str) -> None:
        from companion.pads.buttons import PadError
        from companion.pads.config import PadConfigError
        from companion.pads.run import start_pads

        def news(message: Message) -> None:  # a device's news: for whoever runs the box, and the host screen
            self.tell(message)
            self.server.notice(message)

        try:
            self.pads = start_pads(self.table, path, news)
        except (PadConfigError, PadError) as error:
            raise BoxError(str(error)) from None
        self.server.give_pad = self.pads.give_next

    def _table_changed(self) -> None:
        table = self.table
        if table.generation == self._generation or table.state is None:
            return
        first = self._generation == 0
        self._generation = table.generation
        self.tokens.for_game(table.game_id, list(table.state.players))
        if not first:
            self.server.send_away_seats()
        if self.on_new_seats is not None:
            self.on_new_seats()

    async def close(self) -> None:
        """Close in the reverse order of opening; safe to call more than once."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.pads is not None:
            self.pads.close()
            self.pads = None
        if self.server is not None:
            await self.server.stop()
            self.server = None
        if self.store is not None:
            self.store.close()
            self.store = None
