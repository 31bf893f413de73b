"""A waiting device never takes the bound device's place: a holder of a seat's link who opens waiting sockets up to
their cap is refused more (too_many_sockets, close 4029), and the seat's own phone reconnects every time."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets

import aiohttp
from mall import ATTACK

from companion.box import Box, BoxOptions
from companion.catalogue import catalogue
from companion.contract import Message
from companion.web.server import SOCKETS_PER_LINK, TOO_MANY

FOUR = ["red", "blue", "yellow", "green"]


def run(coroutine):
    return asyncio.run(coroutine)


@contextlib.asynccontextmanager
async def running(tmp_path):
    box = Box(BoxOptions(db=str(tmp_path / "cap.sqlite3"), host="127.0.0.1", port=0, address="127.0.0.1"))
    await box.open()
    box.table.new_game("mall-of-horror", FOUR, position=ATTACK)
    try:
        async with aiohttp.ClientSession() as session:
            yield box.server, session
    finally:
        await box.close()


async def opened(session, server, seat: str, key: str) -> tuple[aiohttp.ClientWebSocketResponse, dict]:
    """A socket on the seat's link from the device with `key`, and the first message it was sent."""
    ws = await session.ws_connect(f"http://127.0.0.1:{server.port}/ws/{server.tokens.seats[seat]}?device={key}")
    return ws, json.loads((await ws.receive(5)).data)


async def bound_phone_gets_in(session, server, key: str) -> aiohttp.ClientWebSocketResponse:
    ws, first = await opened(session, server, "red", key)
    assert first == {"v": 1, "type": "welcome", "role": "seat", "seat": "red"}, first
    state = json.loads((await ws.receive(5)).data)
    assert state["type"] == "state" and state["view"]["seat"] == "red" and state["view"]["question"]
    return ws


def test_waiting_sockets_are_capped_on_their_own_and_the_bound_phone_always_reconnects(tmp_path):
    async def main():
        async with running(tmp_path) as (server, session):
            phone, holder = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
            await (await bound_phone_gets_in(session, server, phone)).close()  # bound; then its page sleeps
            waiting = []
            while len(waiting) < 64:  # meanwhile the link's holder opens waiting sockets, until one is refused
                ws, first = await opened(session, server, "red", holder)
                if first["type"] != "welcome":
                    break
                assert first.get("waiting") is True
                waiting.append(ws)
            assert first["code"] == "too_many_sockets" and 1 <= len(waiting) < 64
            assert first["message"] == catalogue().text(Message("faults.too_many_sockets"))
            assert (await ws.receive(5)).type == aiohttp.WSMsgType.CLOSE and ws.close_code == TOO_MANY

            # The seat's own phone reconnects, again and again: never refused.
            for _ in range(2 * SOCKETS_PER_LINK["seat"]):
                own = await bound_phone_gets_in(session, server, phone)
                await own.close()
            # Reloads that open a new socket before the old one is closed: the older is taken over, not the cap.
            older = await bound_phone_gets_in(session, server, phone)
            for _ in range(2 * SOCKETS_PER_LINK["seat"]):
                newer = await bound_phone_gets_in(session, server, phone)
                told = [json.loads((await older.receive(5)).data)["type"] for _ in range(2)]
                assert told == ["takeover_asked", "taken_over"]  # (the holder's device asks for the seat)
                older = newer
            assert all(not ws.closed for ws in waiting)  # the waiting ones were left as they were
            assert server.requests["red"] and server.tokens.devices["red"] != server.requests["red"].device

            # Their own cap holds still, and frees as they close.
            assert len(waiting) == SOCKETS_PER_LINK["waiting"]
            ws, first = await opened(session, server, "red", holder)
            assert first["code"] == "too_many_sockets"
            await waiting.pop().close()
            await asyncio.sleep(0.1)
            ws, first = await opened(session, server, "red", holder)
            assert first["type"] == "welcome" and first.get("waiting") is True
    run(main())
