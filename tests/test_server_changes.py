"""The phone server under change and takeover, with raw WebSocket clients (aiohttp) reading every frame.

A voter who changes his secret ballot is sent his own new view; every other reader (the other seats, the host,
spectators) is sent no frame at all, so nobody learns that he changed it. A seat's device that names another
seat in a takeover message is refused with the catalogue's line, and nothing changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets

import aiohttp
from mall import ATTACK

from companion.box import Box, BoxOptions
from companion.catalogue import LANGUAGES, catalogue
from companion.contract import Message
from companion.web.server import SPECTATOR_PACE, PhoneServer

FOUR = ["red", "blue", "yellow", "green"]
QUIET = 5 * SPECTATOR_PACE  # long enough for a paced spectator's board to have come, had there been one
GRACE = 3  # seconds the last secret answer waits before its reveal (the table's option)


def run(coroutine):
    return asyncio.run(coroutine)


@contextlib.asynccontextmanager
async def running(tmp_path, position=ATTACK):
    box = Box(BoxOptions(db=str(tmp_path / "changes.sqlite3"), host="127.0.0.1", port=0, address="127.0.0.1"))
    await box.open()
    box.table.set_reveal_grace(GRACE)
    box.table.new_game("mall-of-horror", FOUR, position=position)
    try:
        async with aiohttp.ClientSession() as session:
            yield box.server, box.table, session
    finally:
        await box.close()


class Reader:
    """A raw WebSocket client that keeps every frame it receives, parsed."""

    def __init__(self, name: str, ws: aiohttp.ClientWebSocketResponse):
        self.name, self.ws = name, ws
        self.received: list[dict] = []

    @classmethod
    async def open(cls, session: aiohttp.ClientSession, server: PhoneServer, name: str, path: str,
                   lang: str = "en") -> Reader:
        reader = cls(name, await session.ws_connect(f"http://127.0.0.1:{server.port}{path}&lang={lang}"
                                                    if "?" in path else
                                                    f"http://127.0.0.1:{server.port}{path}?lang={lang}"))
        await reader.expect("state")
        return reader

    async def frame(self, timeout: float) -> dict:
        message = await self.ws.receive(timeout)
        assert message.type == aiohttp.WSMsgType.TEXT, f"{self.name}: {message.type} {message.data}"
        data = json.loads(message.data)
        self.received.append(data)
        return data

    async def expect(self, kind: str, timeout: float = 5.0) -> dict:
        """The next message of this kind (the others before it are kept in `received`)."""
        async def wait() -> dict:
            while True:
                data = await self.frame(timeout)
                if data["type"] == kind:
                    return data
        return await asyncio.wait_for(wait(), timeout)

    async def settle(self, quiet: float = QUIET) -> None:
        """Read until nothing has come for `quiet` seconds."""
        while True:
            try:
                await self.frame(quiet)
            except TimeoutError:
                return

    async def nothing(self, seconds: float) -> None:
        """No frame at all arrives for `seconds`."""
        try:
            data = await self.frame(seconds)
        except TimeoutError:
            return
        raise AssertionError(f"{self.name} was sent a frame: {json.dumps(data)[:400]}")

    async def send(self, **message) -> None:
        await self.ws.send_str(json.dumps({"v": 1, **message}))

    def state(self) -> dict:
        return next(m for m in reversed(self.received) if m["type"] == "state")


def device() -> str:
    return secrets.token_urlsafe(24)


async def seat(session, server: PhoneServer, colour: str, key: str | None = None, lang: str = "en") -> Reader:
    token = server.tokens.seats[colour]
    return await Reader.open(session, server, colour, f"/ws/{token}?device={key or device()}", lang)


async def change_unseen(voter: Reader, readers: list[Reader], vote: str, shown: bool = True) -> None:
    """The voter changes his secret ballot: he is sent his own new view (`shown`: his ballot is in it), every
    other reader no frame at all."""
    count = {reader.name: len(reader.received) for reader in readers}
    asked = voter.state()["view"]["question"]
    await voter.send(type="answer", question=asked["id"], action={"vote": vote})
    await voter.expect("ack")
    if shown:
        assert (await voter.expect("state"))["view"]["ballot"] == vote  # the voter sees his own change
    await asyncio.gather(*(reader.nothing(QUIET) for reader in readers))
    assert {reader.name: len(reader.received) for reader in readers} == count


def test_a_changed_ballot_sends_no_frame_to_any_other_reader_and_the_voter_gets_his_own(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            red = await seat(session, server, "red")
            blue = await seat(session, server, "blue")
            yellow = await seat(session, server, "yellow")
            host = await Reader.open(session, server, "host", f"/ws/{server.tokens.host}")
            watchers = [await Reader.open(session, server, f"spectator {n}", f"/ws/{server.tokens.spectator}")
                        for n in range(2)]
            everyone = [red, blue, yellow, host, *watchers]
            asked = red.state()["view"]["question"]
            assert asked["kind"] == "ballot" and blue.state()["view"]["question"]["kind"] == "ballot"

            await red.send(type="answer", question=asked["id"], action={"vote": "blue"})
            await red.expect("ack")
            for reader in everyone:  # the first ballot is news for every reader (who has voted)
                await reader.settle()
            assert red.state()["view"]["ballot"] == "blue"
            await change_unseen(red, [r for r in everyone if r is not red], "red")
            await change_unseen(red, [r for r in everyone if r is not red], "blue")
            assert table.view("red")["ballot"] == "blue"

            # Blue's ballot, the last, waits out the grace before the reveal: news for every reader (the countdown).
            await blue.send(type="answer", question=blue.state()["view"]["question"]["id"], action={"vote": "red"})
            await blue.expect("ack")
            for reader in everyone:
                assert (await reader.expect("state"))["view"]["revealing"], reader.name
            # Within the grace (the held answer is in no view, Blue's own neither: his page has its acknowledgement)
            await change_unseen(blue, [r for r in everyone if r is not blue], "blue", shown=False)
            for reader in everyone:  # then the reveal: Blue's changed ballot counted (Red 0, Blue 2)
                state = await reader.expect("state", timeout=10)
                assert not state["view"].get("revealing"), reader.name
            characters = table.view(None)["characters"]  # 2 votes to 0: Blue's Pin-up eaten (a tie would re-vote)
            assert "pinup" not in characters["blue"] and characters["red"]["pinup"] == 1
    run(main())


def test_a_change_of_the_table_that_shows_nothing_new_sends_nobody_a_frame(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            readers = [await seat(session, server, colour) for colour in FOUR]
            readers += [await Reader.open(session, server, "host", f"/ws/{server.tokens.host}"),
                        await Reader.open(session, server, "spectator", f"/ws/{server.tokens.spectator}")]
            version = server._version
            table.set_first_game_mode(table.first_game_mode)  # told to every subscriber; nothing new to see
            assert server._version == version + 1
            await asyncio.gather(*(reader.nothing(QUIET) for reader in readers))
            table.set_first_game_mode(not table.first_game_mode)  # this one every board shows
            for reader in readers:
                await reader.expect("state")
    run(main())


def test_a_seats_device_naming_another_seat_in_a_takeover_message_is_refused_and_nothing_changes(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            red = await seat(session, server, "red")
            blue_key = device()
            blue = await seat(session, server, "blue", blue_key)
            bound = dict(server.tokens.devices)
            stranger = await Reader.open(session, server, "stranger",
                                         f"/ws/{server.tokens.seats['blue']}?device={device()}")
            assert any(m["type"] == "welcome" and m.get("waiting") for m in stranger.received)
            request = (await blue.expect("takeover_asked"))["request"]
            await red.settle()

            for lang in LANGUAGES:
                await red.send(type="lang", lang=lang)
                for allow in (True, False):
                    await red.send(type="takeover", request=request, allow=allow, seat="blue")
                    error = await red.expect("error")
                    expected = Message("faults.takeover_not_your_seat", {"seat": "red"})
                    assert (error["code"], error["key"], error["params"]) == (
                        "takeover_not_your_seat", expected.key, {"seat": "red"})
                    assert error["message"] == catalogue().text(expected, lang) and "{" not in error["message"]
            for named in (7, None, "", "blue " * 20):  # not a seat's name at all: refused the same
                await red.send(type="takeover", request=request, allow=True, seat=named)
                assert (await red.expect("error"))["code"] == "takeover_not_your_seat", named

            # Nothing changed: Blue's request waits, Blue keeps its device, the stranger still waits.
            assert server.requests["blue"].id == request and server.tokens.devices == bound
            await blue.nothing(QUIET)
            await stranger.nothing(0.05)
            assert any(c.waiting and c.who.seat == "blue" for c in server.connections)
            # Red's own seat, named: decided as its own (there is no request for it)
            await red.send(type="takeover", request=request, allow=True, seat="red")
            assert (await red.expect("error"))["code"] == "no_takeover"

            # Blue's own device decides: the stranger gets the seat, Blue is told.
            await blue.send(type="takeover", request=request, allow=True)
            assert (await blue.expect("taken_over"))["type"] == "taken_over"
            welcome = await stranger.expect("welcome")
            assert welcome["seat"] == "blue" and not welcome.get("waiting")
            assert server.tokens.devices["blue"] != bound["blue"] and "blue" not in server.requests
    run(main())
