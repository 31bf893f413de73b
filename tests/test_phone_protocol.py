"""The phone protocol with raw WebSocket clients: every bad message gets its clear error and the others play on."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json

import aiohttp
from mall import ATTACK

from companion.box import Box, BoxOptions
from companion.catalogue import say
from companion.contract import Message
from companion.games import mall_of_horror as mall
from companion.store import EventStore
from companion.table import Table
from companion.web.server import PhoneServer
from companion.web.tokens import Tokens

FOUR = ["red", "blue", "yellow", "green"]


@contextlib.asynccontextmanager
async def running(tmp_path, position=ATTACK, players=FOUR):
    # reveal_grace=0: a secret question reveals at its last answer, as these tests expect (tests/test_reveal_grace.py)
    box = Box(BoxOptions(db=str(tmp_path / "phones.sqlite3"), host="127.0.0.1", port=0, address="127.0.0.1",
                         reveal_grace=0))
    await box.open()
    box.table.new_game("mall-of-horror", players, position=position)
    try:
        async with aiohttp.ClientSession() as session:
            yield box.server, box.table, session
    finally:
        await box.close()


class Phone:
    """A raw WebSocket client that keeps every message it receives."""

    def __init__(self, ws):
        self.ws = ws
        self.received: list[dict] = []

    @classmethod
    async def open(cls, server: PhoneServer, session: aiohttp.ClientSession, token: str) -> Phone:
        phone = cls(await session.ws_connect(f"http://127.0.0.1:{server.port}/ws/{token}"))
        await phone.expect("state")
        return phone

    async def send(self, **message) -> None:
        await self.ws.send_str(json.dumps({"v": 1, **message}))

    async def expect(self, kind: str, timeout: float = 5) -> dict:
        """The next message of this kind (others are kept in `received`)."""
        async def wait():
            while True:
                message = await self.ws.receive()
                if message.type != aiohttp.WSMsgType.TEXT:
                    raise AssertionError(f"connection ended while waiting for {kind}: {message.type}")
                data = json.loads(message.data)
                self.received.append(data)
                if data["type"] == kind:
                    return data
        return await asyncio.wait_for(wait(), timeout)

    async def answer(self, action: dict, question: str) -> dict:
        await self.send(type="answer", question=question, action=action)
        return await self.expect("ack")


def question(table: Table) -> str:
    return mall.prompt(table.state).id


def run(coroutine):
    return asyncio.run(coroutine)


def test_a_seat_phone_gets_its_seat_and_its_own_view(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            ws = await session.ws_connect(f"http://127.0.0.1:{server.port}/ws/{server.tokens.seats['red']}")
            welcome = json.loads((await ws.receive()).data)
            state = json.loads((await ws.receive()).data)
            assert welcome == {"v": 1, "type": "welcome", "role": "seat", "seat": "red"}
            assert state["view"]["seat"] == "red"
            asked = state["view"]["question"]
            assert asked["kind"] == "ballot" and asked["id"] == question(table)
            assert [c["action"] for c in asked["choices"]] == [{"seat": "red", "vote": c} for c in ("red", "blue")]
            assert all(c["label"]["key"] for c in asked["choices"])
            await ws.close()
    run(main())


def test_bad_json_gets_an_error_and_changes_nothing(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            red = await Phone.open(server, session, server.tokens.seats["red"])
            before = len(table.events)
            for text, code in [("{not json", "bad_json"), ("[1, 2]", "not_object"), ('{"v": 9}', "version"),
                               ('{"v": 1, "type": "dance"}', "unknown_type"),
                               ('{"v": 1, "type": []}', "no_type"),
                               ('{"v": 1, "type": "close"}', "forbidden"),
                               ('{"v": 1, "type": "lang", "lang": 7}', "bad_lang"),
                               ('{"v": 1, "type": "answer", "question": "x"}', "no_action")]:
                await red.ws.send_str(text)
                error = await red.expect("error")
                assert error["code"] == code, text
                assert error["key"] == f"protocol.{code}" and error["message"] and "{" not in error["message"]
            await red.ws.send_bytes(b"\x00\x01")
            assert (await red.expect("error"))["code"] == "binary"
            assert len(table.events) == before
            await red.answer({"vote": "blue"}, question(table))  # and the phone still plays
    run(main())


def test_a_wrong_token_gets_a_clear_error_and_is_closed(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            ws = await session.ws_connect(f"http://127.0.0.1:{server.port}/ws/not-a-seat")
            error = json.loads((await ws.receive()).data)
            assert error["code"] == "unknown_token" and "Scan the QR code" in error["message"]
            closing = await ws.receive()
            assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 4004
            page = await session.get(f"http://127.0.0.1:{server.port}/s/not-a-seat")
            assert page.status == 404
    run(main())


def test_a_stale_answer_is_refused_not_applied_to_the_next_question(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            red = await Phone.open(server, session, server.tokens.seats["red"])
            blue = await Phone.open(server, session, server.tokens.seats["blue"])
            old = question(table)
            await red.answer({"vote": "blue"}, old)
            await blue.answer({"vote": "blue"}, old)  # Blue is the victim: now Blue chooses who dies
            stored = len(table.events)
            await blue.send(type="answer", question=old, action={"victim": "pinup"})
            error = await blue.expect("error")
            assert error["code"] == "stale" and len(table.events) == stored
    run(main())


def test_a_one_megabyte_message_gets_an_error_and_the_phone_plays_on(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            red = await Phone.open(server, session, server.tokens.seats["red"])
            await red.ws.send_str(json.dumps({"v": 1, "type": "ping", "junk": "x" * 1_000_000}))
            error = await red.expect("error")
            assert error["code"] == "too_large" and "limit" in error["message"]
            await red.answer({"vote": "red"}, question(table))
    run(main())


def test_a_flood_from_one_phone_is_rate_limited_and_the_others_keep_playing(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            red = await Phone.open(server, session, server.tokens.seats["red"])
            blue = await Phone.open(server, session, server.tokens.seats["blue"])
            flood = json.dumps({"v": 1, "type": "ping"})
            for _ in range(1000):  # a thousand messages as fast as the socket takes them
                await red.ws.send_str(flood)
            await blue.answer({"vote": "blue"}, question(table))
            await red.expect("error")
            limited = [m for m in red.received if m["type"] == "error"]
            pongs = [m for m in red.received if m["type"] == "pong"]
            assert limited[0]["code"] == "rate_limited"
            assert len(pongs) < 100  # most of the flood was dropped, cheaply
            assert table.state.vote.ballot.ballots == {"blue": "blue"}
    run(main())


def test_an_answer_dropped_by_the_rate_limit_is_always_told_so_the_phone_never_waits_for_its_ack(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            red = await Phone.open(server, session, server.tokens.seats["red"])
            flood = json.dumps({"v": 1, "type": "ping"})
            for _ in range(200):  # the bucket is empty, and "slow down" was said once already
                await red.ws.send_str(flood)
            await red.expect("error")
            answers = 5
            for _ in range(answers):
                await red.send(type="answer", question=question(table), action={"vote": "blue"})
            replies = []

            async def told() -> None:
                while len(replies) < answers:
                    data = json.loads((await red.ws.receive()).data)
                    if data["type"] in ("error", "ack"):
                        replies.append(data)
            await asyncio.wait_for(told(), 5)  # before the fix: the answers after the first were dropped unsaid
            assert any(r.get("code") == "rate_limited" for r in replies)
    run(main())


def test_a_phone_answers_only_for_its_own_seat(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            red = await Phone.open(server, session, server.tokens.seats["red"])
            await red.send(type="answer", question=question(table), action={"seat": "blue", "vote": "red"})
            assert (await red.expect("error"))["code"] == "not_your_seat"
            await red.send(type="answer", question=question(table), action={"vote": "yellow"})
            refused = await red.expect("error")
            assert refused["code"] == "refused" and "Yellow is not a candidate" in refused["message"]
            assert table.state.vote.ballot.ballots == {}
    run(main())


def test_a_second_device_gets_the_seat_only_once_the_seats_device_allows_it_and_the_first_is_told(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            first = await Phone.open(server, session, server.tokens.seats["red"])
            await first.answer({"vote": "blue"}, question(table))
            second = await Phone.open(server, session, server.tokens.seats["red"])  # another device: it waits
            welcome = next(m for m in second.received if m["type"] == "welcome")
            assert welcome["waiting"] is True
            assert "\"ballot\":" not in json.dumps(second.received) and "question" not in second.received[-1]["view"]
            asked = await first.expect("takeover_asked")
            await first.send(type="takeover", request=asked["request"], allow=True)
            await first.expect("taken_over")
            assert (await second.expect("welcome")).get("waiting") is None
            state = await second.expect("state")
            assert state["view"]["ballot"] == "blue"  # the seat, with its unrevealed ballot
            assert server.connected() == ["red"]
    run(main())


def test_the_host_sees_who_is_connected_and_can_answer_for_a_missing_phone(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            host = await Phone.open(server, session, server.tokens.host)
            await Phone.open(server, session, server.tokens.seats["red"])
            state = await host.expect("state")
            while state["connected"] != ["red"]:  # the broadcast after Red's phone connected
                state = await host.expect("state")
            assert set(state["host"]["seats"]) == set(FOUR)
            assert "ballot" not in json.dumps(state["view"].get("vote", {}))
            await host.answer({"seat": "blue", "vote": "red"}, question(table))  # Blue's phone is flat
            assert table.state.vote.ballot.ballots == {"blue": "red"}
            await host.send(type="close")
            await host.expect("ack")
            assert table.view(None)["revealed"]["ballots"] == {"blue": "red"}
    run(main())


def test_a_spectator_sees_the_public_board_and_cannot_act(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            watcher = await Phone.open(server, session, server.tokens.spectator)
            state = watcher.received[-1]
            assert "seat" not in state["view"] and "host" not in state
            await watcher.send(type="answer", question=question(table), action={"seat": "red", "vote": "red"})
            assert (await watcher.expect("error"))["code"] == "forbidden"
    run(main())


def test_a_new_game_makes_new_seat_tokens_and_sends_the_old_phones_away(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            old_token = server.tokens.seats["red"]
            red = await Phone.open(server, session, old_token)
            host = await Phone.open(server, session, server.tokens.host)
            await host.send(type="new_game", players=["red", "yellow", "blue"])
            await host.expect("ack")
            error = await red.expect("error")
            assert error["code"] == "new_game"
            assert server.tokens.seats["red"] != old_token and set(server.tokens.seats) == {"red", "yellow", "blue"}
            ws = await session.ws_connect(f"http://127.0.0.1:{server.port}/ws/{old_token}")
            assert json.loads((await ws.receive()).data)["code"] == "unknown_token"
    run(main())


def test_pages_carry_a_strict_content_security_policy(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            for path in (f"/s/{server.tokens.seats['red']}", f"/h/{server.tokens.host}", "/static/index.html"):
                response = await session.get(f"http://127.0.0.1:{server.port}{path}")
                assert response.status == 200, path
                policy = response.headers["Content-Security-Policy"]
                assert "default-src 'none'" in policy and "script-src 'self'" in policy
                assert "unsafe-inline" not in policy
                assert response.headers["Referrer-Policy"] == "no-referrer"
            qr = await session.get(f"http://127.0.0.1:{server.port}/qr/{server.tokens.host}/red.svg")
            assert qr.status == 200 and "<svg" in await qr.text()
            assert (await session.get(f"http://127.0.0.1:{server.port}/qr/{server.tokens.spectator}/red.svg")).status \
                == 404
    run(main())


def test_seat_tokens_survive_a_restart_of_the_companion(tmp_path):
    path = tmp_path / "restart.sqlite3"
    with EventStore(path) as store:
        table = Table(store)
        table.new_game("mall-of-horror", FOUR, position=ATTACK)
        tokens = Tokens(store)
        tokens.for_game(table.game_id, FOUR)
        before = (tokens.host, tokens.spectator, dict(tokens.seats))
    with EventStore(path) as store:
        table = Table(store)
        table.resume()
        tokens = Tokens(store)
        tokens.for_game(table.game_id, FOUR)
        assert (tokens.host, tokens.spectator, tokens.seats) == before


def test_tokens_are_128_bit_random_and_a_new_game_makes_new_ones():
    tokens = Tokens()
    tokens.for_game(None, FOUR)
    first = dict(tokens.seats)
    assert len({*first.values(), tokens.host, tokens.spectator}) == 6
    assert all(len(base64.urlsafe_b64decode(v + "==")) == 16 for v in first.values())
    tokens.for_game(None, FOUR)
    assert not set(first.values()) & set(tokens.seats.values())


def test_the_wifi_qr_is_offered_to_the_host_when_the_tables_network_is_configured(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            server.wifi = ("Mall;Net", "brains:please")
            host = await Phone.open(server, session, server.tokens.host)
            assert host.received[-1]["host"]["wifi"] == "Mall;Net"
            svg = await session.get(f"http://127.0.0.1:{server.port}/qr/{server.tokens.host}/wifi.svg")
            assert svg.status == 200 and "<svg" in await svg.text()
            server.wifi = None
            gone = await session.get(f"http://127.0.0.1:{server.port}/qr/{server.tokens.host}/wifi.svg")
            assert gone.status == 404
    run(main())


def test_wifi_qr_payload_escapes_the_special_characters():
    from companion.web.qr import wifi

    assert wifi("Mall;Net", "brains:please") == "WIFI:T:WPA;S:Mall\\;Net;P:brains\\:please;;"
    assert wifi("Open Mall", None) == "WIFI:T:nopass;S:Open Mall;;"


def test_seat_urls_carry_the_lan_ip_address_not_a_local_name():
    from companion.web.lan import lan_address, lan_addresses

    addresses = lan_addresses()  # none on a machine without a network (a build sandbox): then the loopback's
    assert all(a.count(".") == 3 for a in addresses)
    chosen = lan_address("0.0.0.0")
    assert chosen == (addresses[0] if addresses else "127.0.0.1") and not chosen.endswith(".local")
    assert lan_address("192.0.2.7") == "192.0.2.7"  # listening on one address: that one
    tokens = Tokens()
    tokens.for_game(None, FOUR)
    server = PhoneServer.__new__(PhoneServer)
    server.tokens, server.address, server.port = tokens, chosen, 8080
    assert all(url.startswith(f"http://{chosen}:8080/s/") for url in server.seat_urls().values())


def test_the_host_gives_the_next_pad_pressed_to_a_seat_and_hears_the_devices_news(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            host = await Phone.open(server, session, server.tokens.host)
            await host.send(type="give_pad", seat="red")
            assert "no pad hub" in (await host.expect("error"))["message"]
            await host.send(type="lang", lang="zh-Hans")
            await host.send(type="give_pad", seat="red")
            assert (await host.expect("error"))["message"] == say("pads.no_hub", "zh-Hans")
            await host.send(type="lang", lang="en")
            given = []
            server.give_pad = given.append
            await host.send(type="give_pad", seat="mauve")
            assert "not a seat" in (await host.expect("error"))["message"]
            await host.send(type="give_pad", seat="red")
            await host.expect("ack")
            assert given == ["red"]
            red = await Phone.open(server, session, server.tokens.seats["red"])
            server.notice(Message("pads.hub_disconnected"))
            notice = await host.expect("notice")
            assert notice["key"] == "pads.hub_disconnected" and notice["message"].startswith("Pad hub disconnected")
            await red.send(type="give_pad", seat="red")  # only the host may
            assert (await red.expect("error"))["code"] == "forbidden"
            assert not [m for m in red.received if m["type"] == "notice"]
    run(main())


def test_each_seat_gets_exactly_its_own_view_though_the_public_board_is_encoded_once(tmp_path):
    from companion.web.server import Connection
    from companion.web.tokens import Pass

    async def main():
        async with running(tmp_path) as (server, table, session):
            table.answer({"seat": "red", "vote": "blue"})  # Red's ballot: in Red's view only
            memo: dict = {}
            for seat in FOUR:
                message = json.loads(server._state_for(Connection(None, Pass("seat", seat)), memo))
                assert message["view"] == json.loads(json.dumps(table.view(seat)))
            public = json.loads(server._state_for(Connection(None, Pass("spectator")), memo))
            assert public["view"] == json.loads(json.dumps(table.view(None)))
            assert "ballot" not in public["view"] and '"ballot":' not in memo["public_json"]
    run(main())
