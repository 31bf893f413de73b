"""The box: the save file, the table, the seat tokens, the phone server and the pads, as one object.

`serve` (headless) and the touchscreen app both open a Box on the running loop and close it when they stop.
It opens in an order that never stores a game that cannot run: the save file (locked, and checked to take
writes), the table, the phone server (the port is bound), the pads (their config names only seats at the
table); only then is a new game stored or the unfinished one resumed. It closes in the reverse order. A new game
from any screen gives new seat links and sends the old phones away: the box watches the table for it, so no
screen has to remember. Problems that last (a pad hub's port that is not there, pads for seats not at the
table) are told to whoever runs the box and shown on the host screen until they are gone; so is a seat whose
phone went and did not come back (the phone server's `dropped()`: answered on the table's screen meanwhile).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass

from companion.contract import Message, Refusal
from companion.store import EventStore, StoreError
from companion.table import DEFAULT_REVEAL_GRACE, Table
from companion.web.lan import lan_address
from companion.web.server import PhoneServer
from companion.web.tokens import Tokens

IDLE_CHECKPOINT = 20.0  # seconds


class BoxError(Exception):
    """The box cannot open: one line that says why (a busy port, a bad pads file, a file that is not ours)."""



log = logging.getLogger(__name__)
FIRST_GAME_SETTING = "first_game_mode"  # explain each rule the first time a game meets it (the new-game form's choice)


def first_game() -> str:
    """The game a table starts when none is named: the registry's first (loaded only when a game starts)."""
    from companion.games import GAMES

    return next(iter(GAMES))


@dataclass
class BoxOptions:
    db: str
    host: str = "0.0.0.0"
    port: int = 8080
    address: str | None = None  # the address put in the URLs; found on the network when not given
    game: str | None = None  # None: the registry's first game
    players: list[str] | None = None  # start a new game with these seats; otherwise resume the unfinished one
    options: dict | None = None
    wifi_ssid: str | None = None
    wifi_password: str | None = None
    pads: str | None = None  # a pads config (TOML): GPIO pads and/or the serial pad hub
    # Seconds the last secret answer waits before its reveal while the save file keeps no grace of its own (the
    # table's option, kept in the save file once set, wins).
    reveal_grace: int = DEFAULT_REVEAL_GRACE


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
        self.pad_seats: list[str] = []  # the seats the pads config names
        self._generation = 0
        self._unsubscribe: Callable[[], None] | None = None
        self.idle_checkpoint = IDLE_CHECKPOINT  # seconds without a write before the save file is checkpointed
        self._checkpointer: asyncio.Task | None = None

    async def open(self) -> None:
        """Open everything on the running loop (BoxError with one line if the box cannot run)."""
        options = self.options
        try:
            self.store = EventStore(options.db, group_commit=True)
        except StoreError as error:
            raise BoxError(str(error)) from None
        try:
            await self._open_rest()
        except BaseException:
            await self.close()
            raise

    def setting(self, key: str):
        """A setting kept in the save file (None where it was never set, or the file keeps none)."""
        try:
            return self.store.setting(key) if self.store is not None else None
        except Exception:  # an old save file without settings: the default
            return None

    def set_first_game_mode(self, on: bool) -> None:
        """First-game mode on or off, for the table and in the save file (kept across a restart)."""
        self.table.set_first_game_mode(on)
        if self.store is not None:
            try:
                self.store.set_setting(FIRST_GAME_SETTING, bool(on))
            except Exception:
                log.warning("first-game mode could not be kept in the save file")

    async def _open_rest(self) -> None:
        options = self.options
        self.table = Table(self.store, reveal_grace=options.reveal_grace)
        self.table.first_game_mode = bool(self.setting(FIRST_GAME_SETTING))
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
            try:
                unfinished = self.store.unfinished() if not options.players else None
            except StoreError as error:
                raise BoxError(str(error)) from None
            self._open_pads(options.pads, options.players or (list(unfinished.players) if unfinished else None))
        self._unsubscribe = self.table.subscribe(self._table_changed)
        try:
            if options.players:
                self.table.new_game(options.game or first_game(), options.players, options.options)
            else:
                self.resumed = self.table.resume() is not None
        except Refusal as refused:
            raise BoxError(str(refused)) from None
        except StoreError as error:  # the unfinished game's record or log is damaged
            raise BoxError(str(error)) from None
        self._checkpointer = asyncio.create_task(self._checkpoint_when_idle())

    async def _checkpoint_when_idle(self) -> None:
        """The save file checkpointed once the table has been quiet for `idle_checkpoint` seconds: the WAL's
        answers copied into the file itself and the WAL emptied, so a card pulled later finds one whole file."""
        done = -1  # what the box wrote while opening (a new game, seat links) is checkpointed too
        while True:
            seen = self.store.writes
            await asyncio.sleep(self.idle_checkpoint)
            store = self.store
            if store is None:
                return
            if store.writes == seen and seen != done and store.checkpoint():
                done = seen

    def _open_pads(self, path: str, players: list[str] | None) -> None:
        from companion.pads.buttons import PadError
        from companion.pads.config import PadConfigError, load_config
        from companion.pads.run import start_pads
        from companion.pads.serial import port_finder

        try:
            config = load_config(path)
        except PadConfigError as error:
            raise BoxError(str(error)) from None
        self.pad_seats = [pad.seat for pad in config.gpio.pads] if config.gpio else []
        self.pad_seats += [seat for seat in (config.serial.pads.values() if config.serial else ())
                           if seat not in self.pad_seats]
        if players is not None:
            strangers = [seat for seat in self.pad_seats if seat not in players]
            if strangers:
                raise BoxError(PadConfigError(f"{path}: the pads config names {', '.join(strangers)}, who "
                                              f"{'is' if len(strangers) == 1 else 'are'} not at this table "
                                              f"({', '.join(players)})"))

        def news(message: Message) -> None:  # a device's news: for whoever runs the box, and the host screen
            if message.key == "pads.hub_connected":
                self.server.set_problem("pad_hub", None)
            self.tell(message)
            self.server.notice(message)

        try:
            self.pads = start_pads(self.table, path, news, lambda problem: self.server.set_problem("pad_hub", problem))
        except (PadConfigError, PadError) as error:
            raise BoxError(str(error)) from None
        self.server.give_pad = self.pads.give_next
        if config.serial is not None and not (self.pads.serial and self.pads.serial.connected):
            if config.serial.port is not None and not os.path.exists(config.serial.port):
                missing = Message("faults.pads.port_missing", {"port": config.serial.port})
            elif config.serial.port is None and port_finder(config.serial)() is None:
                vid, pid = config.serial.usb_id
                missing = Message("faults.pads.no_hub", {"usb_id": f"{vid:04X}:{pid:04X}"})
            else:
                missing = None
            if missing is not None:
                self.tell(missing)
                self.server.set_problem("pad_hub", missing)

    def _table_changed(self) -> None:
        table = self.table
        if table.storage_problem is None and self.tokens.unsaved:
            self.tokens.flush()  # seat links the save file could not take while storage failed
        if table.generation == self._generation or table.state is None:
            return
        first = self._generation == 0
        self._generation = table.generation
        self.tokens.for_game(table.game_id, list(table.state.players))
        strangers = [seat for seat in self.pad_seats if seat not in table.state.players]
        self.server.set_problem("pad_seats", Message("faults.pads.not_at_table", {"colours": strangers})
                                if strangers else None)
        if not first:
            self.server.send_away_seats()
        if self.on_new_seats is not None:
            self.on_new_seats()

    async def close(self) -> None:
        """Close in the reverse order of opening; safe to call more than once."""
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            self._checkpointer = None
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.table is not None:
            self.table.close()
        if self.pads is not None:
            self.pads.close()
            self.pads = None
        if self.server is not None:
            await self.server.stop()
            self.server = None
        if self.store is not None:
            self.store.checkpoint()  # the file whole before a shutdown: nothing left in the WAL
            self.store.close()
            self.store = None
