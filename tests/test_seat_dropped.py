"""A seat whose phone dropped: its socket closed and did not come back within the server's grace, the box's device
news says so ("devices.seat_dropped": answer here, on the table's screen) to the host page (its problems) and to
the touchscreen (the server's `dropped()` and `problems`, with on_devices_changed); when it comes back, the news
clears. A reload within the grace, a seat never connected, a waiting device and a game over are no news."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time

import aiohttp
import pytest
from mall import ATTACK

from companion.box import Box, BoxOptions
from companion.catalogue import LANGUAGES, catalogue

FOUR = ["red", "blue", "yellow", "green"]
GRACE = 0.4  # the server's grace in these tests (DROP_GRACE is a few seconds)
DROPPED = {"key": "devices.seat_dropped", "params": {"seat": "red"}}
NO_CARDS = {"red": 0, "blue": 0, "yellow": 0, "green": 0}
# The last attack of a game: Red's Pin-up alone in the Restroom is eaten and the game is over at once.
OVER = {"round": 5, "phase": "attack", "chief": "blue", "hands": NO_CARDS, "deck": 3,
        "characters": {"red": {"pinup": 1}, "blue": {"pinup": 3, "tough": 6}, "yellow": {"gunman": 6},
                       "green": {"tough": 3}}, "zombies": {"1": 2},
        "destinations": {"red": 1, "blue": 3, "yellow": 6, "green": 3}}


def run(coroutine):
    return asyncio.run(coroutine)


@contextlib.asynccontextmanager
async def running(tmp_path, position=ATTACK):
    box = Box(BoxOptions(db=str(tmp_path / "dropped.sqlite3"), host="127.0.0.1", port=0, address="127.0.0.1"))
    await box.open()
    box.server.drop_grace = GRACE
    box.table.new_game("mall-of-horror", FOUR, position=position)
    try:
        async with aiohttp.ClientSession() as session:
            yield box, session
    finally:
        await box.close()


class Host:
    """The host page's socket: every state it was sent, and the problems of the last one."""

    def __init__(self, ws):
        self.ws = ws
        self.problems: list[list[dict]] = []

    @classmethod
    async def open(cls, session, box: Box) -> Host:
        host = cls(await session.ws_connect(f"http://127.0.0.1:{box.server.port}/ws/{box.server.tokens.host}"))
        await host.until(lambda problems: True)
        return host

    async def until(self, wanted, timeout: float = 5.0) -> list[dict]:
        """Read states until one's problems are `wanted` (a test of them)."""
        async def read() -> list[dict]:
            while True:
                message = await self.ws.receive()
                assert message.type == aiohttp.WSMsgType.TEXT, message
                data = json.loads(message.data)
                if data["type"] == "state":
                    self.problems.append(data["host"]["problems"])
                    if wanted(data["host"]["problems"]):
                        return data["host"]["problems"]
        return await asyncio.wait_for(read(), timeout)

    async def read_for(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await self.until(lambda problems: False, seconds)


async def phone(session, box: Box, seat: str, key: str) -> aiohttp.ClientWebSocketResponse:
    ws = await session.ws_connect(f"http://127.0.0.1:{box.server.port}/ws/{box.server.tokens.seats[seat]}"
                                  f"?device={key}")
    assert json.loads((await ws.receive(5)).data)["type"] == "welcome"
    return ws


def test_a_dropped_phone_is_news_after_the_grace_and_the_news_clears_when_it_comes_back(tmp_path):
    async def main():
        async with running(tmp_path) as (box, session):
            server = box.server
            told: list[list[str]] = []
            server.on_devices_changed = lambda: told.append(server.dropped())  # as the touchscreen is told
            host = await Host.open(session, box)
            key = secrets.token_urlsafe(24)
            red = await phone(session, box, "red", key)
            await host.until(lambda problems: True)
            await red.close()
            gone = time.monotonic()
            problems = await host.until(lambda problems: DROPPED in problems)
            assert time.monotonic() - gone >= GRACE * 0.9  # not at once: a reload is no news
            assert server.dropped() == ["red"] and ["red"] in told
            message = server.problems["seat_dropped:red"]
            assert message.to_json() == DROPPED and problems.count(DROPPED) == 1
            said = {lang: catalogue().text(message, lang, {"red": "Anna"}) for lang in LANGUAGES}
            assert len(set(said.values())) == len(LANGUAGES)  # its own words in each language, the name in each
            assert all("Anna" in text and "{" not in text for text in said.values()), said
            seen = len(host.problems)
            await host.read_for(3 * GRACE)  # said once: no board again for it
            assert len(host.problems) == seen and server.dropped() == ["red"]

            red = await phone(session, box, "red", key)  # it is back
            await host.until(lambda problems: DROPPED not in problems)
            assert server.dropped() == [] and "seat_dropped:red" not in server.problems and told[-1] == []
            await red.close()
            await host.until(lambda problems: DROPPED in problems)  # and gone again: news again
    run(main())


def test_a_reload_a_seat_never_connected_and_a_waiting_device_are_no_news(tmp_path):
    async def main():
        async with running(tmp_path) as (box, session):
            server = box.server
            host = await Host.open(session, box)
            key = secrets.token_urlsafe(24)
            red = await phone(session, box, "red", key)
            for _ in range(3):  # reloads, each well within the grace
                await red.close()
                await asyncio.sleep(GRACE / 4)
                red = await phone(session, box, "red", key)
            stranger = await phone(session, box, "red", secrets.token_urlsafe(24))  # waits for Red's seat
            await stranger.close()
            await host.read_for(3 * GRACE)
            assert server.dropped() == [] and all(DROPPED not in problems for problems in host.problems)
            assert not any(key.startswith("seat_dropped:") for key in server.problems)  # Blue never had a phone
            await red.close()
    run(main())


def test_a_new_game_clears_the_news_and_a_game_over_makes_none(tmp_path):
    async def main():
        async with running(tmp_path) as (box, session):
            server = box.server
            host = await Host.open(session, box)
            await (await phone(session, box, "red", secrets.token_urlsafe(24))).close()
            await host.until(lambda problems: DROPPED in problems)
            box.table.new_game("mall-of-horror", FOUR, position=ATTACK)
            await host.until(lambda problems: DROPPED not in problems)
            assert server.dropped() == []

            box.table.new_game("mall-of-horror", FOUR, position=OVER)
            assert box.table.state.over
            await (await phone(session, box, "red", secrets.token_urlsafe(24))).close()
            await host.read_for(3 * GRACE)
            assert server.dropped() == [] and DROPPED not in host.problems[-1]
    run(main())


# -- the host page in Chromium ---------------------------------------------------------------------------------

page = pytest.importorskip("test_phone_browser")
browser, live, phones = page.browser, page.live, page.phones  # one Chromium for the module


@pytest.mark.parametrize("locale", ["en-GB", "zh-CN"])
def test_the_host_page_says_a_dropped_phone_and_clears_it_when_it_is_back(live, phones, locale):
    table = live(position=ATTACK)
    table.call(setattr, table.server, "drop_grace", GRACE)
    host = phones(table.host_url, locale=locale, viewport={"width": 1280, "height": 800})
    red = phones(table.seat_url("red"))
    line = host.page.locator('.problems li[data-key="devices.seat_dropped"]')
    red.page.goto("about:blank")  # the phone's page is gone: its socket closes
    host.shows_said(line, host.say("devices.seat_dropped", seat="red"), "the dropped phone's line")
    shots = page.SCREENSHOTS / "seat_dropped"
    shots.mkdir(parents=True, exist_ok=True)
    line.scroll_into_view_if_needed()
    host.page.screenshot(path=shots / f"{host.lang}.png")
    red.open(table.seat_url("red"))  # the same phone again (its key kept): the line goes
    page.expect(line).to_have_count(0)
    assert table.call(table.server.dropped) == []
