"""The phone server: aiohttp on the table's asyncio loop, one WebSocket per phone.

A seat's phone gets only that seat's view; the host gets the public board with the controls and the seat
URLs; spectators get the public board. After a change of the table each connection is sent its view, a few
connections per turn of the loop (the host and the seats first), and always the latest one: a phone that is
reached after two quick changes gets only the second; spectators are paced (SPECTATOR_PACE). Nothing is sent
ahead of the save file: an acknowledgement waits until the answer is on disk, a board until all it shows is
(`Table.stored`). Who is connected is news for the host only.

A seat's link is bound to the first device that opens it. Another device that opens it (someone who scanned
the QR code from across the table, or the player's new phone) waits, seeing only the public board, until the
table screen or the seat's own device allows it; then the seat is its, and the old device is told. Sockets are
capped per link and per address, and a WebSocket from a page of another site (its Origin is not one of the
table's own addresses) is refused. A seat's waiting devices are capped apart from its bound one, so sockets
opened by a holder of the link never lock the seat's own phone out.

A connection is never sent a state that shows it what the last one did (the same board; for the host, the same
message): a change with nothing new for a reader (a voter changing his secret ballot, for everyone but him)
reaches that reader as no frame at all.
A seat whose bound phone has gone (its socket closed) and has not come back within `drop_grace` seconds is a
lasting problem ("devices.seat_dropped": answer on the table's screen) until it comes back.

The host's page also reads the save file's statistics and history, and downloads a finished game or an evening as
one HTML file, by plain GETs under /x/<host token>/ (any other token, or none, is a 404 that says nothing). They
are read off the loop, in a thread with a read-only store of their own: folding 50 games the first time took 0.4 s
on a laptop (seconds on a Pi), which the phones' answers must not wait for; each finished game is folded once
(stats.Summaries), so a later read takes a few milliseconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import socket
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from aiohttp import WSMsgType, web
from aiohttp.http_exceptions import HttpProcessingError
from yarl import URL

from companion.catalogue import DEFAULT, LANGUAGES, catalogue, language
from companion.contract import Message, Refusal
from companion.stats import Summaries, add_up, statistics
from companion.store import EventStore, GameRecord, StoreError
from companion.table import NotStored, StaleQuestion, Table, TableError
from companion.web import protocol, qr
from companion.web.assets import Asset, Assets
from companion.web.guard import HEADER_TIMEOUT, Guard, Quiet, Tracked
from companion.web.lan import lan_addresses
from companion.web.tokens import Pass, Tokens, device_id

log = logging.getLogger("companion.web")

STATIC = Path(__file__).parent / "static"
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        "manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",  # the URL holds the seat's token
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}
# A script, a style sheet, the manifest or a catalogue, sent compressed with its validator (web/assets.py): no
# policy of its own (a document's Content-Security-Policy governs what it loads), not sniffed as another type.
ASSET_HEADERS = {"X-Content-Type-Options": "nosniff"}
PAGE_HEADERS = {k: v for k, v in SECURITY_HEADERS.items() if k != "Cache-Control"}  # the page: cached, revalidated
SOCKETS_PER_ADDRESS = 32  # a phone with a few tabs open, many times over
# "waiting": the devices asking for a seat that has one, counted apart from the seat's own device (4 waiting
# sockets once locked the seat's phone out of its link, on every reconnect).
SOCKETS_PER_LINK = {"seat": 4, "waiting": 4, "host": 8, "spectator": 256}
# Seconds a seat's phone may be gone (a reload, a Wi-Fi hiccup, the page in the background) before the table says
# it is off and its seat is answered on the table's screen.
DROP_GRACE = 5.0
# A new board is sent for this long per turn of the loop (then the loop takes what came in meanwhile, and comes
# back for the others): an answer arriving during a broadcast to 200 phones waits for 2 ms of sends, not for all.
BROADCAST_SLICE = 0.002
# Spectators (a TV, a friend's phone watching) are sent the newest board at most this often: a bench's 200 phones
# and a game answered at full speed made them most of the server's work (a send per spectator per answer).
SPECTATOR_PACE = 0.1
MAX_BEHIND = 4 * 1024 * 1024  # bytes a phone may leave unread before it is dropped (it comes back for a new board)
DEVICE_KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")  # what a page sends as ?device=: its own random key
# WebSocket close codes the page knows: taken over, new game, takeover refused, unknown token, host link renewed
TAKEN_OVER, NEW_GAME, TAKEOVER_REFUSED, UNKNOWN_TOKEN, HOST_RENEWED, TOO_MANY = 4001, 4002, 4003, 4004, 4005, 4029


class ServerLog(logging.LoggerAdapter):
    """aiohttp's server logger: a malformed request (bad method, HTTP/9.9, a 9 KB header, garbage) is one short
    line, at most one per few seconds, a device gone mid-answer a debug line; any other error keeps its
    traceback (that is a bug of ours)."""

    bad_requests = Quiet(5.0)

    def exception(self, msg: object, *args: object, exc_info: object = True, **kwargs: object) -> None:
        if isinstance(exc_info, ConnectionError):  # the phone left before its answer was written: no news
            self.debug("a device left before its answer: %s", exc_info)
            return
        if isinstance(exc_info, HttpProcessingError):
            remote = args[0] if args else "?"
            self.bad_requests.say(logging.WARNING, "a malformed request from %s: %s", remote,
                                  _short(str(exc_info.message or type(exc_info).__name__)))
            return
        super().exception(msg, *args, exc_info=exc_info, **kwargs)

    def debug(self, msg: object, *args: object, **kwargs: object) -> None:
        kwargs.pop("exc_info", None)  # aiohttp logs a bad method with its traceback at debug level
        super().debug(msg, *args, **kwargs)


def _short(text: str, limit: int = 80) -> str:
    """A client's words fit for one log line: printable, and short."""
    return "".join(c if c.isprintable() else "?" for c in text[:limit])


class Denied(Refusal):
    """A message the server will not carry out, with a stable code of its own ("faults.<code>" in the catalogue)."""

    def __init__(self, code: str, **params: object):
        super().__init__(f"faults.{code}", **params)
        self.kind = code


@dataclass
class Request:
    """A device asking for a seat that already has one: it waits until the table or the seat allows it."""

    id: str
    device: str


class RateLimit:
    """A token bucket: `burst` messages at once, `rate` a second after that."""

    def __init__(self, rate: float = 20.0, burst: float = 40.0):
        self.rate, self.burst = rate, burst
        self.tokens, self.last = burst, time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass(eq=False)
class Connection:
    ws: web.WebSocketResponse
    who: Pass
    limit: RateLimit = field(default_factory=RateLimit)
    warned: float = 0.0  # when this device was last told to slow down
    lang: str = DEFAULT  # the language this device reads
    address: str = ""  # where it connects from
    device: str = ""  # a seat connection's device (device_id of the key its page keeps)
    waiting: bool = False  # a new device asking for a seat: it gets the public board only, until allowed
    transport: asyncio.Transport | None = None  # its socket, for the boards sent to everyone at once
    seen: int = -1  # the version of the last state it was sent (none before its welcome)
    welcomed: bool = False
    held: int = 0  # its replies waiting for the disk (the ones after them wait too)
    shown: str | None = None  # what the last state it was sent shows it: a state that shows the same is not sent

    def error(self, code: str, message: Message) -> str:
        """An error message for this device: a stable code, the catalogue's key and params, the text. The
        params may hold what the device sent: made safe here, so the frame always encodes as UTF-8."""
        message = Message(message.key, {str(k): protocol.safe(v) for k, v in message.params.items()})
        return protocol.encode("error", code=code, key=message.key, params=dict(message.params),
                               message=catalogue().text(message, self.lang))

    async def send(self, text: str) -> None:
        if self.ws.closed:
            return
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.ws.send_str(text)

    def reply(self, text: str) -> None:
        """An answer to this device's own message, written at once (before any board that is on its way)."""
        if self.transport is None:
            asyncio.ensure_future(self.send(text))
        else:
            self.push(text_frame(text))

    def push(self, frame: bytes) -> None:
        """A frame built once for many phones, written straight to the socket: no task, no encoding per phone.
        A phone that has left too much unread is dropped; it reconnects and gets the board as it is then."""
        transport = self.transport
        if transport is None or transport.is_closing() or self.ws.closed:
            return
        if transport.get_write_buffer_size() > MAX_BEHIND:
            log.info("a %s device reads nothing; dropped", self.who.role)
            transport.abort()
            return
        transport.write(frame)


def text_frame(text: str) -> bytes:
    """A WebSocket text frame as the server sends it (unmasked, uncompressed), so the same bytes go to all."""
    data = text.encode("utf-8")
    size = len(data)
    if size < 126:
        return bytes((0x81, size)) + data
    if size < 1 << 16:
        return bytes((0x81, 126)) + size.to_bytes(2, "big") + data
    return bytes((0x81, 127)) + size.to_bytes(8, "big") + data


WELCOME_SPECTATOR = text_frame(protocol.encode("welcome", role="spectator", seat=None))


class PhoneServer:
    def __init__(self, table: Table, tokens: Tokens, address: str = "127.0.0.1", port: int = 8080,
                 wifi: tuple[str, str | None] | None = None, per_address: int = SOCKETS_PER_ADDRESS,
                 per_link: dict[str, int] | None = None, drop_grace: float = DROP_GRACE):
        self.table = table
        self.tokens = tokens
        self.address = address  # what goes in the URLs and QR codes
        self.port = port
        self.wifi = wifi  # (ssid, password) of the table's own network, if configured
        self.per_address = per_address
        self.per_link = {**SOCKETS_PER_LINK, **(per_link or {})}
        self.connections: set[Connection] = set()
        self.requests: dict[str, Request] = {}  # seat -> the device waiting to take it over
        self.problems: dict[str, Message] = {}  # lasting news for the host screen (a pad hub's port missing...)
        self.drop_grace = drop_grace
        self._dropped: set[str] = set()  # seats whose phone went and has not come back (a problem each)
        self._drop_timers: dict[str, asyncio.TimerHandle] = {}  # seats whose phone went just now
        self.listen_host = "0.0.0.0"
        self._sockets: Counter[str] = Counter()  # open sockets per address and per link ("link:<token>")
        self._memo: dict = {}  # the encoded states of the current table, until it changes
        self._frames: dict[str, bytes] = {}  # those states as WebSocket frames
        self._version = 0  # counts the changes of what the connections are shown
        self._sending = False  # a round of sending is under way
        self._spectators_due = 0.0  # when the spectators may be sent a new board again (they are paced)
        self._spectators_version = -1  # the board the spectators are being sent
        self._paced: asyncio.TimerHandle | None = None  # the round that sends them the next one then
        self._held_back: Message | None = None  # the storage problem the hosts were told of with a notice
        self._queue: deque[Connection] = deque()  # who is sent the latest state next (host and seats first)
        self._own_hosts: set[str] | None = None
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        self.guard = Guard()  # the connections that are not a WebSocket yet: capped, timed out
        self.give_pad: Callable[[str], None] | None = None  # the serial pads' "next pad pressed is his"
        self.on_host_renewed: Callable[[], None] | None = None  # told when the host link has changed
        # Told when who is connected, which seats have a device (claimed) or a device asking for them
        # (requests), or the host's problems change: the touchscreen's join screen redraws then.
        self.on_devices_changed: Callable[[], None] | None = None
        from companion.games import GAMES  # the registry, loaded where games are listed

        self.games_json = [game.SETUP.to_json(name) for name, game in GAMES.items()]  # the new-game forms
        self.assets = Assets(STATIC)  # the page's files, compressed once
        self.summaries = Summaries()  # every finished game folded once, for the statistics
        self._reading = threading.Lock()  # one read of the save file's history at a time (off the loop)
        self._names_used: tuple[int | None, list[str]] | None = None  # (the game it was read at, the names)
        self._words: dict[str, tuple[object, Asset]] = {}  # lang -> (the catalogue, its page as an asset)
        self.app = self._make_app()
        self._unsubscribe = table.subscribe(self._changed)

    # -- URLs -----------------------------------------------------------------------------------------------

    def url(self, path: str) -> str:
        return f"http://{self.address}:{self.port}{path}"

    @property
    def host_url(self) -> str:
        return self.url(f"/h/{self.tokens.host}")

    @property
    def spectator_url(self) -> str:
        return self.url(f"/w/{self.tokens.spectator}")

    def seat_urls(self) -> dict[str, str]:
        return {seat: self.url(f"/s/{token}") for seat, token in self.tokens.seats.items()}

    # -- the app --------------------------------------------------------------------------------------------

    def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[_security_headers], client_max_size=64 * 1024)
        app.router.add_get("/", self._home)
        for prefix in ("s", "h", "w"):
            app.router.add_get(f"/{prefix}/{{token}}", self._page)
        app.router.add_get("/ws/{token}", self._websocket)
        app.router.add_get("/qr/{token}/{what}.svg", self._qr)
        app.router.add_get("/i18n/{lang}.json", self._catalogue)
        app.router.add_get("/x/{token}/{what}", self._host_file)
        app.router.add_get("/x/{token}/{what}/{name}", self._host_file)
        app.router.add_get("/static/{name:.+}", self._static)
        return app

    async def start(self, host: str = "0.0.0.0") -> None:
        self.listen_host = host
        # An unfinished request is closed after HEADER_TIMEOUT (aiohttp's default keeps it an hour); a malformed
        # one gets its 400 with a short line in the log, not a traceback (ServerLog).
        self._runner = web.AppRunner(self.app, handle_signals=False, access_log=None,
                                     keepalive_timeout=HEADER_TIMEOUT, lingering_time=2.0,
                                     logger=ServerLog(logging.getLogger("aiohttp.server")))
        await self._runner.setup()
        loop = asyncio.get_running_loop()
        self.guard.install(loop)
        server = self._runner.server
        # Our own listener instead of web.TCPSite: each connection goes through the guard (web/guard.py).
        self._listener = await loop.create_server(lambda: Tracked(server(), self.guard), host, self.port,
                                                  reuse_address=True, backlog=128)
        if self.port == 0:  # the system chose a free port: the URLs need the real one
            self.port = self._listener.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        self._unsubscribe()
        for timer in self._drop_timers.values():
            timer.cancel()
        self._drop_timers.clear()
        if self._paced is not None:
            self._paced.cancel()
            self._paced = None
        if self._listener is not None:
            self._listener.close()
        for connection in list(self.connections):
            await connection.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self.guard.uninstall(asyncio.get_running_loop())

    async def _catalogue(self, request: web.Request) -> web.Response:
        lang = request.match_info["lang"]
        if lang not in LANGUAGES:
            return web.Response(status=404, text="unknown language\n")
        words = catalogue()
        known = self._words.get(lang)
        if known is None or known[0] is not words:  # encoded and compressed once per catalogue read
            data = protocol.dumps(words.page(lang)).encode("utf-8")
            known = self._words[lang] = (words, Asset.of(data, "application/json; charset=utf-8"))
        return known[1].response(request, ASSET_HEADERS)

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        asset = self.assets.get(name)
        if asset is None:
            raise web.HTTPNotFound()
        return asset.response(request, PAGE_HEADERS if name.endswith(".html") else ASSET_HEADERS)

    async def _home(self, request: web.Request) -> web.Response:
        return web.Response(text="Scan the QR code of your seat on the table's screen.\n")

    async def _page(self, request: web.Request) -> web.StreamResponse:
        who = self.tokens.open(request.match_info["token"])
        prefix = request.path.split("/")[1]
        expected = {"s": "seat", "h": "host", "w": "spectator"}[prefix]
        if who is None or who.role != expected:
            return web.Response(status=404, text="This link is not (or no longer) a seat at this table. "
                                                 "Scan the QR code on the table's screen again.\n")
        return self.assets.get("index.html").response(request, PAGE_HEADERS)

    async def _qr(self, request: web.Request) -> web.Response:
        who = self.tokens.open(request.match_info["token"])
        if who is None or who.role != "host":
            return web.Response(status=404, text="unknown\n")
        what = request.match_info["what"]
        if what == "wifi" and self.wifi:
            data = qr.wifi(*self.wifi)
        elif what == "watch":
            data = self.spectator_url
        elif what in self.tokens.seats:
            data = self.seat_urls()[what]
        else:
            return web.Response(status=404, text="unknown\n")
        return web.Response(text=qr.svg(data), content_type="image/svg+xml")

    # -- the host's statistics, history and downloads (off the loop) -----------------------------------------

    async def _host_file(self, request: web.Request) -> web.Response:
        """/x/<host token>/stats.json, history.json, game/<id>.html, evening/<first game id>.html: the host's only;
        anything else (another token, a seat's, an id that is no finished game) is the same 404."""
        who = self.tokens.open(request.match_info["token"])
        what, name = request.match_info["what"], request.match_info.get("name")
        lang = language(request.query.get("lang"))
        unknown = web.Response(status=404, text="unknown\n")
        if who is None or who.role != "host":
            return unknown
        if name is None and what in ("stats.json", "history.json"):
            reader = partial(_stats_json, self.summaries) if what == "stats.json" else _history_json
            try:
                body = await self._read_history(reader)
            except Exception:  # a bug of ours, or a game that cannot be folded: the page says it could not read
                log.exception("the host's %s could not be read", what)
                return web.Response(status=500, text="not read\n")
            self.summaries.keep(self.table.store)  # the games folded just now, kept by the store that writes
            return web.Response(text=protocol.dumps(body), content_type="application/json")
        number = name.removesuffix(".html") if name is not None and name.endswith(".html") else ""
        if what not in ("game", "evening") or not (number.isascii() and number.isdigit() and len(number) < 12):
            return unknown
        reader = partial(_game_file if what == "game" else _evening_file, int(number), lang)
        try:
            filename, html = await self._read_history(reader)
        except (KeyError, ValueError, StoreError):  # no such game, or not finished (or the file cannot say)
            return unknown
        except Exception:  # a bug of ours: said in the log, and the download fails plainly
            log.exception("the host's %s %s could not be written", what, number)
            return web.Response(status=500, text="not written\n")
        return web.Response(text=html, content_type="text/html", headers={
            "Content-Disposition": f'attachment; filename="{filename}"'})

    async def _read_history(self, reader: Callable[[EventStore | None], object]) -> object:
        """`reader(store)` in a thread, with a read-only store of its own (None: the table keeps no save file)."""
        path = self.table.store.path if self.table.store is not None else None

        def read() -> object:
            with self._reading:
                try:
                    store = EventStore(path, readonly=True) if path is not None else None
                except StoreError:  # a save file with no game in it yet (or one that cannot be read now)
                    store = None
                if store is None:
                    return reader(None)
                try:
                    return reader(store)
                finally:
                    store.close()

        return await asyncio.to_thread(read)

    def names_used(self) -> list[str]:
        """The names given at earlier games, the latest first: read again only when a new game has begun."""
        game_id = self.table.game_id
        if self._names_used is None or self._names_used[0] != game_id:
            try:
                names = self.table.store.names_used() if self.table.store is not None else []
            except StoreError:
                names = []  # a damaged save file: the form offers none (and says no more about it)
            self._names_used = (game_id, names)
        return self._names_used[1]

    # -- who may connect ------------------------------------------------------------------------------------

    def own_hosts(self) -> set[str]:
        """The names and addresses of this table: a page of any other origin may not open a socket."""
        if self._own_hosts is None:
            names = {self.address, self.listen_host, "localhost", "127.0.0.1", "::1", *lan_addresses()}
            with contextlib.suppress(OSError):
                hostname = socket.gethostname()
                names |= {hostname, f"{hostname}.local"}
            self._own_hosts = {name.lower() for name in names if name and name not in ("0.0.0.0", "::")}
        return self._own_hosts

    def origin_allowed(self, origin: str | None) -> bool:
        """No Origin: not a browser, which no page of another site can drive. Else one of the table's own."""
        if origin is None:
            return True
        try:
            url = URL(origin)
            host, port = (url.host or "").lower(), url.port
        except ValueError:
            return False
        return url.scheme in ("http", "https") and port == self.port and host in self.own_hosts()

    def _link(self, token: str, who: Pass, device: str) -> tuple[str, int]:
        """The count a socket is capped in, and its cap: its link's; a device asking for a seat that is bound
        to another one is counted apart, so whatever it opens never takes the bound device's place."""
        if who.role == "seat" and self.tokens.devices.get(who.seat) not in (None, device):
            return f"waiting:{token}", self.per_link["waiting"]
        return f"link:{token}", self.per_link[who.role]

    def _too_many(self, address: str, link: tuple[str, int] | None) -> bool:
        if self._sockets[address] >= self.per_address:
            return True
        return link is not None and self._sockets[link[0]] >= link[1]

    # -- one phone ------------------------------------------------------------------------------------------

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        if not self.origin_allowed(request.headers.get("Origin")):
            return web.Response(status=403, text="This socket is for the table's own page.\n")
        token = request.match_info["token"]
        who = self.tokens.open(token)
        address = request.remote or ""
        # Big enough to read an oversized message and answer it clearly instead of dropping the line.
        # No per-message deflate: on a LAN it saves nothing that matters and would compress every state once
        # per phone (200 phones: 200 compressions per change).
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=4 * 1024 * 1024, compress=False)
        if not ws.can_prepare(request).ok:  # a plain GET: no socket to say anything on
            if who is None:
                return web.Response(status=404, text="unknown\n")
            return web.Response(status=400, text="This is the table's WebSocket.\n")
        # A WebSocket from now on: it leaves the guard's count of waiting connections (its caps are per address
        # and per link, its heartbeat finds it gone); any other request stays counted until its connection closes.
        self.guard.upgraded(request.protocol)
        lang = language(request.query.get("lang"))
        device = ""
        if who is not None and who.role == "seat":
            key = request.query.get("device", "")
            device = device_id(key if DEVICE_KEY.fullmatch(key) else secrets.token_urlsafe(16))
        link = self._link(token, who, device) if who is not None else None
        if self._too_many(address, link):
            await ws.prepare(request)
            await ws.send_str(Connection(ws, Pass("spectator"), lang=lang).error(
                "too_many_sockets", Message("faults.too_many_sockets")))
            await ws.close(code=TOO_MANY, message=b"too many sockets")
            return ws
        counted = [address, link[0]] if link is not None else [address]
        self._sockets.update(counted)
        try:
            await ws.prepare(request)
            if who is None:
                await ws.send_str(Connection(ws, Pass("spectator"), lang=lang).error(
                    "unknown_token", Message("protocol.unknown_token")))
                await ws.close(code=UNKNOWN_TOKEN, message=b"unknown token")
                return ws
            connection = Connection(ws, who, lang=lang, address=address, transport=request.transport,
                                    device=device)
            await self._arrive(connection)
            try:
                async for message in ws:
                    if message.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                        await self._receive(connection, message.data)
            finally:
                self._leave(connection)
        finally:
            self._sockets.subtract(counted)
            for name in counted:
                if self._sockets[name] <= 0:
                    del self._sockets[name]
        return ws

    async def _arrive(self, connection: Connection) -> None:
        """A new socket: its seat (or its request for one), its welcome and its state; the host hears of it."""
        who = connection.who
        if who.role == "seat":
            bound = self.tokens.devices.get(who.seat)
            if bound is None:
                self.tokens.bind(who.seat, connection.device)
                self._memo.pop("host", None)
            elif bound != connection.device:
                connection.waiting = True
        if who.role == "seat" and not connection.waiting:
            # The same device again (a reload, a second tab): the older socket is told and closed.
            for other in [c for c in self.connections if c.who == who and not c.waiting]:
                self.connections.discard(other)
                await other.send(protocol.encode("taken_over"))
                await other.ws.close(code=TAKEN_OVER, message=b"taken over")
        self.connections.add(connection)
        if connection.waiting:
            await self._ask_for_seat(connection)
            return
        await self.table.stored()  # a board is never sent ahead of the save file
        if who.role == "spectator" and connection.transport is not None:
            # Spectators come and go by the hundred: their welcome and board are frames built once for all.
            connection.push(WELCOME_SPECTATOR)
            connection.seen, connection.welcomed = self._version, True
            text, connection.shown = self._state_and_shown(connection)
            connection.push(self._frame(text))
            return
        state, connection.shown = self._state_and_shown(connection)
        connection.seen, connection.welcomed = self._version, True
        await connection.send(protocol.encode("welcome", role=who.role, seat=who.seat))
        await connection.send(state)
        if who.role != "seat":
            return  # a spectator or a host coming is news for nobody: no seat got or lost a device
        request = self.requests.get(who.seat)
        if request is not None:
            await connection.send(protocol.encode("takeover_asked", request=request.id))
        self._watch_seat(who.seat)
        self._presence_changed()

    async def _ask_for_seat(self, connection: Connection) -> None:
        seat = connection.who.seat
        request = self.requests.get(seat)
        if request is not None and request.device != connection.device:
            self._refuse(seat, request)  # the latest device to ask is the one the table decides on
            request = None
        if request is None:
            request = self.requests[seat] = Request(secrets.token_hex(4), connection.device)
            log.info("a new device asks for %s's seat", seat)
            for current in self._seat_devices(seat):
                await current.send(protocol.encode("takeover_asked", request=request.id))
        await self.table.stored()  # a board is never sent ahead of the save file
        state, connection.shown = self._state_and_shown(connection)
        connection.seen, connection.welcomed = self._version, True
        await connection.send(protocol.encode("welcome", role="seat", seat=seat, waiting=True))
        await connection.send(state)
        self._memo.pop("host", None)
        self._presence_changed()

    def _leave(self, connection: Connection) -> None:
        if connection not in self.connections:
            return
        self.connections.discard(connection)
        if connection.waiting:
            seat = connection.who.seat
            request = self.requests.get(seat)
            still = [c for c in self.connections if c.waiting and c.who.seat == seat]
            if request is not None and not still:
                del self.requests[seat]  # the asking device went away: nothing left to decide
                self._memo.pop("host", None)
                self._tell_seat_settled(seat)
        if connection.who.role == "seat":
            if not connection.waiting:
                self._watch_seat(connection.who.seat)
            self._presence_changed()

    # -- a seat's phone that went --------------------------------------------------------------------------

    def dropped(self) -> list[str]:
        """The seats whose phone went (its socket closed) and has not come back within `drop_grace`: the table
        screen and the host page say so, and the seat is answered there."""
        return sorted(self._dropped)

    def _watch_seat(self, seat: str) -> None:
        """A seat's own device came or went: back, its drop news clears; gone, the news comes after the grace
        unless it is back by then (a reload, a Wi-Fi hiccup is no news)."""
        if self._seat_devices(seat):
            timer = self._drop_timers.pop(seat, None)
            if timer is not None:
                timer.cancel()
            if seat in self._dropped:
                self._dropped.discard(seat)
                log.info("%s's phone is back", seat)
                self.set_problem(f"seat_dropped:{seat}", None)
        elif seat not in self._drop_timers and seat not in self._dropped:
            self._drop_timers[seat] = asyncio.get_running_loop().call_later(self.drop_grace, self._drop, seat)

    def _drop(self, seat: str) -> None:
        self._drop_timers.pop(seat, None)
        state = self.table.state
        if self._seat_devices(seat) or seat not in self.tokens.seats or state is None or state.over:
            return  # back already, or a seat of a game gone by, or a game over: nothing to answer here
        self._dropped.add(seat)
        log.info("%s's phone is off", seat)
        self.set_problem(f"seat_dropped:{seat}", Message("devices.seat_dropped", {"seat": seat}))

    def _forget_drops(self) -> None:
        """No seat's phone is missed any more (a new game's seats, or a game over)."""
        for timer in self._drop_timers.values():
            timer.cancel()
        self._drop_timers.clear()
        for seat in sorted(self._dropped):
            self._dropped.discard(seat)
            self.set_problem(f"seat_dropped:{seat}", None)

    def _seat_devices(self, seat: str) -> list[Connection]:
        return [c for c in self.connections if c.who.role == "seat" and c.who.seat == seat and not c.waiting]

    async def _receive(self, connection: Connection, data: str | bytes) -> None:
        store = self.table.store
        writes = store.writes if store is not None else 0
        reply = self._reply_to(connection, data)
        if not reply:
            return
        if connection.held or (store is not None and store.writes != writes):
            # What this message changed is acknowledged once it is on disk, never before (and ahead of the new
            # board); a reply after it waits its turn, so a device hears back in the order it spoke. The other
            # devices' replies do not wait for this one's disk.
            connection.held += 1
            self.table.when_stored(partial(self._release, connection, reply))
        else:
            connection.reply(reply)

    @staticmethod
    def _release(connection: Connection, reply: str) -> None:
        connection.held -= 1
        connection.reply(reply)

    def _reply_to(self, connection: Connection, data: str | bytes) -> str | None:
        if not connection.limit.allow():
            now = time.monotonic()
            # Said once a second, not once per dropped message; but a dropped answer is always told, or its device
            # would wait for an acknowledgement that never comes (the soak's bots stalled so on a game's quick steps).
            if now - connection.warned > 1 or _is_answer(data):
                connection.warned = now
                return connection.error("rate_limited", Message("protocol.rate_limited"))
            return None
        try:
            message = protocol.parse(data, connection.who.role)
            return self._act(connection, message)
        except (protocol.BadMessage, Denied) as bad:
            return connection.error(bad.kind, bad.message)
        except StaleQuestion as stale:
            return connection.error("stale", stale.message)
        except NotStored as failed:
            self._tell_hosts_not_stored(connection, failed)
            return connection.error("not_stored", failed.message)
        except Refusal as refused:
            return connection.error("refused", refused.message)
        except Exception as error:  # a bug: nothing was acknowledged, and the device is told
            log.exception("a message from a device failed")
            return connection.error(
                "not_stored", Message("table.not_stored", {"detail": str(error) or type(error).__name__}))

    def _tell_hosts_not_stored(self, connection: Connection, failed: NotStored) -> None:
        """The table screen hears of every change the save file did not take (the device was told too)."""
        who = connection.who
        if who.role == "seat":
            self.notice(Message("faults.not_stored_for", {"seat": who.seat, "detail": failed.params["detail"]}))
            log.warning("%s's answer was not stored: %s", who.seat, failed.error)
        else:
            self.notice(failed.message, skip=connection)

    def _act(self, connection: Connection, message: dict) -> str | None:
        who, kind = connection.who, message["type"]
        if kind == "ping":
            return protocol.encode("pong")
        if kind == "lang":
            connection.lang = language(message["lang"])
            return None
        if connection.waiting:
            raise Denied("waiting_for_permission", seat=who.seat)
        if kind == "takeover":
            self._decide(connection, message)
            return protocol.encode("ack", question=None)
        if kind == "renew_host":
            self.renew_host(keep=connection)
            return None
        if self.table.state is None and kind != "new_game":
            raise TableError("table.no_game")
        if kind == "answer":
            action = dict(message["action"])
            if who.role == "seat":
                if action.get("seat", who.seat) != who.seat:
                    raise protocol.BadMessage("not_your_seat", colour=who.seat)
                action["seat"] = who.seat
            else:
                self._host_may_answer(action.get("seat"))
            self.table.answer(action, question=message["question"])
            return protocol.encode("ack", question=message["question"])
        if kind == "close":
            self.table.close_ballot()
        elif kind == "undo":
            self.table.undo(message.get("steps", 1))
        elif kind == "correct":
            self.table.correct(message["changes"])
        elif kind == "give_pad":
            if self.give_pad is None:
                raise TableError("pads.no_hub")
            if message["seat"] not in self.tokens.seats:
                raise TableError("pads.not_a_seat", seat=message["seat"][:40])
            self.give_pad(message["seat"])
        elif kind == "new_game":
            self.table.new_game(message.get("game", self.games_json[0]["game"]), message["players"],
                                message.get("options"), names=message.get("names"),
                                reveal_grace=message.get("reveal_grace"))
        return protocol.encode("ack", question=None)

    def _host_may_answer(self, seat: object) -> None:
        """The host answers for a seat asked that has not answered; a ballot or destination cast stays its own."""
        table = self.table
        prompt = table.rules.prompt(table.state) if not table.state.over else None
        if not isinstance(seat, str):
            raise Denied("host_needs_seat")
        if prompt is not None and seat in prompt.seats:
            return
        shown = protocol._shown(seat)
        if seat in table.state.players and table.question(seat) is not None:
            raise Denied("seat_answered", seat=shown)
        raise Denied("seat_not_asked", seat=shown)

    # -- taking a seat over ---------------------------------------------------------------------------------

    def _decide(self, connection: Connection, message: dict) -> None:
        """The host (for any seat) or a seat's own device (for its seat) allows or refuses a waiting device."""
        who = connection.who
        if who.role == "seat" and message.get("seat", who.seat) != who.seat:
            raise Denied("takeover_not_your_seat", seat=who.seat)  # a seat's device decides on its own seat only
        seat = who.seat if who.role == "seat" else message.get("seat")
        request = self.requests.get(seat) if isinstance(seat, str) else None
        if request is None or message.get("request", request.id) != request.id:
            raise Denied("no_takeover")  # decided already, or the device went away
        if message["allow"]:
            self.allow(seat)
        else:
            self._refuse(seat, request)

    def allow(self, seat: str) -> None:
        """The waiting device gets the seat; the seat's old device is told it was taken over."""
        request = self.requests.pop(seat)
        self.tokens.bind(seat, request.device)
        log.info("%s's seat was given to a new device", seat)
        for connection in [c for c in self.connections if c.who.role == "seat" and c.who.seat == seat]:
            if not connection.waiting:
                self.connections.discard(connection)
                asyncio.ensure_future(self._close(connection, protocol.encode("taken_over"), TAKEN_OVER))
            elif connection.device == request.device:
                connection.waiting = False
                asyncio.ensure_future(self._welcome(connection))
        self._watch_seat(seat)
        self._memo.pop("host", None)
        self._presence_changed()

    def refuse(self, seat: str) -> None:
        request = self.requests.get(seat)
        if request is not None:
            self._refuse(seat, request)

    def _refuse(self, seat: str, request: Request) -> None:
        if self.requests.get(seat) is request:
            del self.requests[seat]
        for connection in [c for c in self.connections if c.waiting and c.who.seat == seat
                           and c.device == request.device]:
            self.connections.discard(connection)
            text = connection.error("takeover_refused", Message("faults.takeover_refused", {"seat": seat}))
            asyncio.ensure_future(self._close(connection, text, TAKEOVER_REFUSED))
        self._tell_seat_settled(seat)
        self._memo.pop("host", None)
        self._presence_changed()

    def _tell_seat_settled(self, seat: str) -> None:
        for current in self._seat_devices(seat):
            asyncio.ensure_future(current.send(protocol.encode("takeover_settled")))

    async def _welcome(self, connection: Connection) -> None:
        who = connection.who
        await self.table.stored()  # a board is never sent ahead of the save file
        state, connection.shown = self._state_and_shown(connection)
        connection.seen, connection.welcomed = self._version, True
        await connection.send(protocol.encode("welcome", role=who.role, seat=who.seat))
        await connection.send(state)

    async def _close(self, connection: Connection, text: str, code: int) -> None:
        await connection.send(text)
        await connection.ws.close(code=code)

    def renew_host(self, keep: Connection | None = None) -> str:
        """A new host link; every socket of the old one is sent away (`keep` is told the new link first)."""
        self.tokens.renew_host()
        for connection in [c for c in self.connections if c.who.role == "host"]:
            self.connections.discard(connection)
            if connection is keep:
                text = protocol.encode("host_link", url=self.host_url, path=f"/h/{self.tokens.host}")
            else:
                text = connection.error("host_renewed", Message("faults.host_renewed"))
            asyncio.ensure_future(self._close(connection, text, HOST_RENEWED))
        self._memo.clear()
        if self.on_host_renewed is not None:
            self.on_host_renewed()
        return self.host_url

    def claimed(self) -> list[str]:
        """The seats that have a device: their QR codes leave the table screen (the host may show them again)."""
        return sorted(seat for seat in self.tokens.devices if seat in self.tokens.seats)

    def send_away_seats(self) -> None:
        """A new game has new seat links: the phones of the old seats are told and closed."""
        self.requests.clear()
        self._forget_drops()
        for connection in list(self.connections):
            if connection.who.role == "seat":
                self.connections.discard(connection)
                asyncio.ensure_future(self._send_away(connection))
        self._changed()

    async def _send_away(self, connection: Connection) -> None:
        await connection.send(connection.error("new_game", Message("protocol.new_game")))
        await connection.ws.close(code=NEW_GAME, message=b"new game")

    # -- telling everyone -----------------------------------------------------------------------------------

    def notice(self, message: Message, skip: Connection | None = None) -> None:
        """News from the devices for the host screen (e.g. "pad hub disconnected"). Called on the loop."""
        for connection in list(self.connections):
            if connection.who.role == "host" and connection is not skip:
                text = catalogue().text(message, connection.lang)
                asyncio.ensure_future(connection.send(protocol.encode(
                    "notice", key=message.key, params=dict(message.params), message=text)))

    def set_problem(self, name: str, message: Message | None) -> None:
        """A lasting problem the host screen shows until it is cleared (None)."""
        if message is None:
            if self.problems.pop(name, None) is None:
                return
        else:
            self.problems[name] = message
        self._memo.pop("host", None)
        self._presence_changed()

    def _changed(self) -> None:
        """Called after every change of the table: everyone is sent the new state soon, the latest only."""
        problem = self.table.storage_problem
        if problem is not None and problem != self._held_back and not self.table.on_disk:
            self.notice(problem)  # the disk fails to sync: boards wait for it, the host hears why meanwhile
        self._held_back = problem
        if (self._dropped or self._drop_timers) and (self.table.state is None or self.table.state.over):
            self._forget_drops()  # the game is over: no seat is answered any more
        self._memo, self._frames = {}, {}
        self._version += 1
        # The host and the seats first; then whoever has waited longest for a new state (no one starves).
        self._queue = deque(sorted(self.connections, key=lambda c: (c.who.role == "spectator" or c.waiting,
                                                                    c.seen)))
        self._send_soon()

    def _presence_changed(self) -> None:
        """Who is connected changed: the hosts hear of it soon (the phones and spectators need not)."""
        self._memo.pop("connected", None)
        self._memo.pop("host", None)
        hosts = [c for c in self.connections if c.who.role == "host"]
        for connection in hosts:
            connection.seen = -1
        self._queue.extendleft(hosts)
        self._send_soon()
        if self.on_devices_changed is not None:
            try:
                self.on_devices_changed()
            except Exception:  # a broken screen must not keep phones from their seats
                log.exception("on_devices_changed failed")

    def _send_soon(self) -> None:
        if not self._sending:
            self._sending = True
            asyncio.get_running_loop().call_soon(self._send_round)

    def _send_round(self) -> None:
        """Send the latest state to a few of those who have not seen it (the host and the seats first), and
        come back for the others on the next turn of the loop: an answer arriving meanwhile waits for a few
        sends, not for two hundred, and a phone reached late gets the latest state, never a stale one."""
        self._sending = False
        if not self.table.on_disk:  # a write not on disk yet (a change, a seat's new device): sent once it is
            self._sending = True
            self.table.when_stored(self._sent_later)
            return
        loop = asyncio.get_running_loop()
        version, queue = self._version, self._queue
        until = time.perf_counter() + BROADCAST_SLICE
        while queue and time.perf_counter() < until:
            connection = queue[0]
            if connection.seen >= version or not connection.welcomed or connection not in self.connections:
                queue.popleft()
                continue  # it has this state already (or it is gone, or not welcomed yet)
            if connection.who.role == "spectator" and not self._spectators_turn(loop):
                return  # the rest are spectators: `_paced_round` comes back for them
            queue.popleft()
            connection.seen = version
            text, shown = self._state_and_shown(connection)
            if shown == connection.shown:
                continue  # nothing new for this reader (another's changed secret answer): no frame at all
            connection.shown = shown
            if connection.transport is None:
                asyncio.ensure_future(connection.send(text))
                continue
            connection.push(self._frame(text))
        if queue:
            self._send_soon()

    def _spectators_turn(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Spectators get a new board at most once every SPECTATOR_PACE: through a quick run of changes they
        skip to the latest, and two hundred of them cost two hundred sends per pace, not per answer."""
        if self._spectators_version == self._version:
            return True  # this board's round to them has begun
        now = loop.time()
        if now >= self._spectators_due:
            self._spectators_version, self._spectators_due = self._version, now + SPECTATOR_PACE
            return True
        if self._paced is None:
            self._paced = loop.call_at(self._spectators_due, self._paced_round)
        return False

    def _sent_later(self) -> None:
        self._sending = False
        self._send_soon()

    def _paced_round(self) -> None:
        self._paced = None
        self._send_soon()

    def _frame(self, text: str) -> bytes:
        """`text` as a WebSocket frame, built once for everyone it goes to until the table changes."""
        frame = self._frames.get(text)
        if frame is None:
            frame = self._frames[text] = text_frame(text)
        return frame

    def connected(self) -> list[str]:
        return sorted({c.who.seat for c in self.connections if c.who.role == "seat" and not c.waiting})

    @staticmethod
    def _reader(connection: Connection) -> str:
        """Who a connection reads as: a seat, the host, or a spectator (a device waiting for a seat is one)."""
        who = connection.who
        return "spectator" if connection.waiting else who.seat if who.role == "seat" else who.role

    def _state_and_shown(self, connection: Connection) -> tuple[str, str]:
        """The state message for this connection, and what of it tells a new state from the one it has: a host's
        whole message (who is connected and the problems are news for it), another reader's board alone (who is
        connected comes with its next board: sent by itself after a change of the table, it would tell the
        reader that the table changed where he may not look, e.g. that a voter changed his secret ballot)."""
        text = self._state_for(connection)
        return text, self._memo[self._reader(connection) + ":shows"]

    def _state_for(self, connection: Connection, memo: dict | None = None) -> str:
        memo = self._memo if memo is None else memo
        who = connection.who
        key = self._reader(connection)
        if key in memo:
            return memo[key]
        if "connected" not in memo:
            memo["connected"] = protocol.dumps(self.connected())
        view = "null"
        if self.table.state is not None:
            if "public" not in memo:
                memo["public"] = self.table.view(None)
                memo["public_json"] = protocol.dumps(memo["public"])
            view = memo["public_json"]
            if who.role == "seat" and not connection.waiting:
                # A seat's view is the public board plus fields of its own (its options, its ballot, the dice
                # if it may look): only those are encoded again.
                own = {k: v for k, v in self.table.view(who.seat).items() if k not in memo["public"]}
                view = view[:-1] + "," + protocol.dumps(own)[1:]
        host = None
        if who.role == "host":
            # The legal answers of each waiting seat, so the host can answer for a missing phone. They hold no
            # secret: candidates and open locations are on the public board; a ballot cast is never an option.
            problems = list(self.problems.values())
            if self.table.storage_problem is not None:
                problems.insert(0, self.table.storage_problem)
            host = protocol.dumps({
                "seats": self.seat_urls(),
                "spectator": self.spectator_url,
                "wifi": self.wifi[0] if self.wifi else None,
                "questions": self._waiting_questions(),
                # What the board may be corrected in (companion/board.py: Edit): public facts only, as the board.
                "edits": self.table.edits() if self.table.state is not None else [],
                "correct_why": why.to_json() if (why := self.table.correct_why) is not None else None,
                "pads": self.give_pad is not None,  # a pad hub whose pads the host gives to seats
                "games": self.games_json,
                "claimed": self.claimed(),  # seats with a device: their QR codes are hidden
                "takeovers": {seat: request.id for seat, request in self.requests.items()},
                "problems": [problem.to_json() for problem in problems],
                "names_used": self.names_used(),  # offered on the new-game form
            })
        memo[key] = protocol.state_message(view, memo["connected"], host)
        memo[key + ":shows"] = memo[key] if host is not None else view
        return memo[key]

    def _waiting_questions(self) -> dict:
        table = self.table
        if table.state is None or table.state.over:
            return {}
        current = table.rules.prompt(table.state)
        if current is None:
            return {}
        questions = {seat: table.question(seat) for seat in current.seats}
        return {seat: q.to_json() for seat, q in questions.items() if q is not None}


def _stats_json(summaries: Summaries, store: EventStore | None) -> dict:
    """companion/stats.py's statistics of the save file (none without one)."""
    if store is None:
        return add_up([])
    return statistics(store, summaries)


def _history_json(store: EventStore | None) -> dict:
    """The finished games, newest first, as the host's History lists them, and the evenings they make up (each
    the ids of its games, newest evening first: companion/export.py)."""
    if store is None:
        return {"games": [], "evenings": []}
    from companion.export import evenings
    from companion.games import GAMES

    records = store.history()
    games = []
    for record in records:
        rules = GAMES.get(record.game)
        title = rules.SETUP.title if rules is not None else Message("stats.unknown_game")
        games.append({
            "id": record.id, "game": record.game, "title": title.to_json(),
            "started": record.started.isoformat(timespec="seconds"),
            "finished": record.finished.isoformat(timespec="seconds") if record.finished else None,
            "players": list(record.players), "names": dict(record.names), "winners": list(record.winners or ()),
            "rounds": record.rounds,
        })
    return {"games": games, "evenings": [[record.id for record in evening] for evening in evenings(records)]}


def _game_file(game_id: int, lang: str, store: EventStore | None) -> tuple[str, str]:
    """(an ASCII file name, the finished game as one HTML document: companion/export.py)."""
    if store is None:
        raise KeyError(game_id)
    from companion.export import game_html

    html = game_html(store, game_id, lang)
    return _file_name([store.game(game_id)]), html


def _evening_file(first: int, lang: str, store: EventStore | None) -> tuple[str, str]:
    """The evening whose first game is `first`, as one HTML document (KeyError: no evening begins with it)."""
    if store is None:
        raise KeyError(first)
    from companion.export import evening_html, evenings

    evening = next((e for e in evenings(store.history()) if min(r.id for r in e) == first), None)
    if evening is None:
        raise KeyError(first)
    ids = sorted(record.id for record in evening)
    return _file_name(evening), evening_html(store, ids, lang)


def _file_name(records: list[GameRecord]) -> str:
    """export.filename ("<game>-2026-12-05-2107.html", "evening-…"), kept to what a Content-Disposition
    header may quote as it is: ASCII letters, digits, dots and dashes."""
    from companion.export import filename

    return re.sub(r"[^A-Za-z0-9_.-]", "-", filename(records))[:100]


@web.middleware
async def _security_headers(request: web.Request, handler) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as error:  # the router's own 404 and 405: headers too, and no traceback
        return web.Response(status=error.status, reason=error.reason, text=f"{error.status}: {error.reason}\n",
                            headers={**SECURITY_HEADERS, **{k: v for k, v in error.headers.items()
                                                            if k in ("Allow", "Location")}})
    if not isinstance(response, web.WebSocketResponse) and "ETag" not in response.headers:
        response.headers.update(SECURITY_HEADERS)  # (the page's files have their own: Asset.response)
    return response


def _is_answer(data: str | bytes) -> bool:
    """Whether a device's message is an answer (what it waits to hear back about), without acting on it."""
    try:
        return protocol.parse(data, "seat").get("type") == "answer"
    except (protocol.BadMessage, ValueError):  # ValueError: text that is not UTF-8 (a lone surrogate)
        return False
