"""The phone server: aiohttp on the table's asyncio loop, one WebSocket per phone.

A seat's phone gets only that seat's view; the host gets the public board with the controls and the seat
URLs; spectators get the public board. After every change of the table each connection is sent its view.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from aiohttp import WSMsgType, web

from companion.catalogue import DEFAULT, LANGUAGES, catalogue, language
from companion.games import GAMES
from companion.games.base import Message, Refusal
from companion.table import StaleQuestion, Table, TableError
from companion.web import protocol, qr
from companion.web.tokens import Pass, Tokens

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

    def error(self, code: str, message: Message) -> str:
        """An error message for this device: a stable code, the catalogue's key and params, the text."""
        return protocol.encode("error", code=code, key=message.key, params=dict(message.params),
                               message=catalogue().text(message, self.lang))

    async def send(self, text: str) -> None:
        if self.ws.closed:
            return
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.ws.send_str(text)


class PhoneServer:
    def __init__(self, table: Table, tokens: Tokens, address: str = "127.0.0.1", port: int = 8080,
                 wifi: tuple[str, str | None] | None = None):
        self.table = table
        self.tokens = tokens
        self.address = address  # what goes in the URLs and QR codes
        self.port = port
        self.wifi = wifi  # (ssid, password) of the table's own network, if configured
        self.connections: set[Connection] = set()
        self._dirty = False
        self._runner: web.AppRunner | None = None
        self.give_pad: Callable[[str], None] | None = None  # the serial pads' "next pad pressed is his"
        self.games_json = [game.SETUP.to_json(name) for name, game in GAMES.items()]  # the new-game forms
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
        app.router.add_static("/static/", STATIC, append_version=False)
        return app

    async def start(self, host: str = "0.0.0.0") -> None:
        self._runner = web.AppRunner(self.app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, self.port)
        await site.start()
        if self.port == 0:  # the system chose a free port: the URLs need the real one
            self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        self._unsubscribe()
        for connection in list(self.connections):
            await connection.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _catalogue(self, request: web.Request) -> web.Response:
        lang = request.match_info["lang"]
        if lang not in LANGUAGES:
            return web.Response(status=404, text="unknown language\n")
        return web.json_response(catalogue().page(lang), dumps=protocol.dumps)

    async def _home(self, request: web.Request) -> web.Response:
        return web.Response(text="Scan the QR code of your seat on the table's screen.\n")

    async def _page(self, request: web.Request) -> web.StreamResponse:
        who = self.tokens.open(request.match_info["token"])
        prefix = request.path.split("/")[1]
        expected = {"s": "seat", "h": "host", "w": "spectator"}[prefix]
        if who is None or who.role != expected:
            return web.Response(status=404, text="This link is not (or no longer) a seat at this table. "
                                                 "Scan the QR code on the table's screen again.\n")
        return web.FileResponse(STATIC / "index.html")

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

    # -- one phone ------------------------------------------------------------------------------------------

    async def _websocket(self, request: web.Request) -> web.WebSocketResponse:
        # Big enough to read an oversized message and answer it clearly instead of dropping the line.
        # No per-message deflate: on a LAN it saves nothing that matters and would compress every state once
        # per phone (200 phones: 200 compressions per change).
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=4 * 1024 * 1024, compress=False)
        await ws.prepare(request)
        who = self.tokens.open(request.match_info["token"])
        lang = language(request.query.get("lang"))
        if who is None:
            await ws.send_str(Connection(ws, Pass("spectator"), lang=lang).error(
                "unknown_token", Message("protocol.unknown_token")))
            await ws.close(code=4004, message=b"unknown token")
            return ws
        connection = Connection(ws, who, lang=lang)
        await self._take_seat(connection)
        await connection.send(protocol.encode("welcome", role=who.role, seat=who.seat))
        await connection.send(self._state_for(connection))
        self._changed()  # everyone sees who is connected now
        try:
            async for message in ws:
                if message.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    await self._receive(connection, message.data)
        finally:
            self.connections.discard(connection)
            self._changed()
        return ws

    async def _take_seat(self, connection: Connection) -> None:
        """A second device opening the same seat takes it over; the first is told so."""
        if connection.who.role == "seat":
            for other in [c for c in self.connections if c.who == connection.who]:
                self.connections.discard(other)
                await other.send(protocol.encode("taken_over"))
                await other.ws.close(code=4001, message=b"taken over")
        self.connections.add(connection)

    async def _receive(self, connection: Connection, data: str | bytes) -> None:
        if not connection.limit.allow():
            now = time.monotonic()
            if now - connection.warned > 1:  # say it once a second, not once per dropped message
                connection.warned = now
                await connection.send(connection.error("rate_limited", Message("protocol.rate_limited")))
            return
        try:
            message = protocol.parse(data, connection.who.role)
            reply = self._act(connection, message)
        except protocol.BadMessage as bad:
            await connection.send(connection.error(bad.kind, bad.message))
            return
        except StaleQuestion as stale:
            await connection.send(connection.error("stale", stale.message))
            return
        except Refusal as refused:
            await connection.send(connection.error("refused", refused.message))
            return
        except Exception as error:  # storage failed (or a bug): nothing was acknowledged, and the device is told
            log.exception("a message from a device failed")
            await connection.send(connection.error(
                "not_stored", Message("table.not_stored", {"detail": str(error) or type(error).__name__})))
            return
        if reply:
            await connection.send(reply)

    def _act(self, connection: Connection, message: dict) -> str | None:
        who, kind = connection.who, message["type"]
        if kind == "ping":
            return protocol.encode("pong")
        if kind == "lang":
            connection.lang = language(message["lang"])
            return None
        if self.table.state is None and kind != "new_game":
            raise TableError("table.no_game")
        if kind == "answer":
            action = dict(message["action"])
            if who.role == "seat":
                if action.get("seat", who.seat) != who.seat:
                    raise protocol.BadMessage("not_your_seat", colour=who.seat)
                action["seat"] = who.seat
            self.table.answer(action, question=message["question"])
            return protocol.encode("ack", question=message["question"])
        if kind == "close":
            self.table.close_ballot()
        elif kind == "undo":
            self.table.undo(message.get("steps", 1))
        elif kind == "give_pad":
            if self.give_pad is None:
                raise TableError("pads.no_hub")
            if message["seat"] not in self.tokens.seats:
                raise TableError("pads.not_a_seat", seat=message["seat"][:40])
            self.give_pad(message["seat"])
        elif kind == "new_game":
            self.table.new_game(message.get("game", next(iter(GAMES))), message["players"], message.get("options"))
        return protocol.encode("ack", question=None)

    def send_away_seats(self) -> None:
        """A new game has new seat links: the phones of the old seats are told and closed."""
        for connection in list(self.connections):
            if connection.who.role == "seat":
                self.connections.discard(connection)
                asyncio.ensure_future(self._send_away(connection))
        self._changed()

    async def _send_away(self, connection: Connection) -> None:
        await connection.send(connection.error("new_game", Message("protocol.new_game")))
        await connection.ws.close(code=4002, message=b"new game")

    # -- telling everyone -----------------------------------------------------------------------------------

    def notice(self, message: Message) -> None:
        """News from the devices for the host screen (e.g. "pad hub disconnected"). Called on the loop."""
        for connection in list(self.connections):
            if connection.who.role == "host":
                text = catalogue().text(message, connection.lang)
                asyncio.ensure_future(connection.send(protocol.encode(
                    "notice", key=message.key, params=dict(message.params), message=text)))

    def _changed(self) -> None:
        """Called after every change of the table: one broadcast soon, however many changes come at once."""
        if not self._dirty:
            self._dirty = True
            asyncio.get_running_loop().call_soon(lambda: asyncio.ensure_future(self._broadcast()))

    def connected(self) -> list[str]:
        return sorted({c.who.seat for c in self.connections if c.who.role == "seat"})

    async def _broadcast(self) -> None:
        self._dirty = False
        memo: dict = {}  # one broadcast: the public board is encoded once, each seat adds its own fields
        await asyncio.gather(*[c.send(self._state_for(c, memo)) for c in list(self.connections)])

    def _state_for(self, connection: Connection, memo: dict | None = None) -> str:
        memo = {} if memo is None else memo
        who = connection.who
        key = who.seat if who.role == "seat" else who.role
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
            if who.role == "seat":
                # A seat's view is the public board plus fields of its own (its options, its ballot, the dice
                # if it may look): only those are encoded again.
                own = {k: v for k, v in self.table.view(who.seat).items() if k not in memo["public"]}
                view = view[:-1] + "," + protocol.dumps(own)[1:]
        host = None
        if who.role == "host":
            # The legal answers of each waiting seat, so the host can answer for a missing phone. They hold no
            # secret: candidates and open locations are on the public board; a ballot cast is never an option.
            host = protocol.dumps({
                "seats": self.seat_urls(),
                "spectator": self.spectator_url,
                "wifi": self.wifi[0] if self.wifi else None,
                "questions": self._waiting_questions(),
                "pads": self.give_pad is not None,  # a pad hub whose pads the host gives to seats
                "games": self.games_json,
            })
        memo[key] = protocol.state_message(view, memo["connected"], host)
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


@web.middleware
async def _security_headers(request: web.Request, handler) -> web.StreamResponse:
    response = await handler(request)
    if not isinstance(response, web.WebSocketResponse):
        response.headers.update(SECURITY_HEADERS)
    return response
