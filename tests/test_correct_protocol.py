"""Correcting the board over the phones' WebSocket (protocol v1, "correct"): only the host page may; the host's state
carries what may be corrected; every phone's next board shows the correction with its line; a bad correction is a
coded refusal that changes nothing. Raw WebSocket clients, against the toy game of tests/ (it knows no more)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from pathlib import Path

import aiohttp
import pytest
from test_phone_protocol import Phone

from companion.box import Box, BoxOptions

sys.path.insert(0, str(Path(__file__).parent))
import toy_game  # noqa: E402


@pytest.fixture(autouse=True)
def toy_registered(lucky_die):
    """The toy game in the registry, its words in the catalogue (conftest's lucky_die)."""
    return lucky_die


@contextlib.asynccontextmanager
async def running(tmp_path):
    box = Box(BoxOptions(db=str(tmp_path / "phones.sqlite3"), host="127.0.0.1", port=0, address="127.0.0.1"))
    await box.open()
    box.table.new_game(toy_game.NAME, ["red", "blue"])
    box.table.answer({"seat": "red", "give": {"sun": "red", "moon": "blue"}})
    box.table.close_ballot()  # nobody voted: red names a number
    try:
        async with aiohttp.ClientSession() as session:
            yield box.server, box.table, session
    finally:
        await box.close()


def test_the_host_corrects_the_board_and_every_phone_sees_it_with_its_line(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            host = await Phone.open(server, session, server.tokens.host)
            blue = await Phone.open(server, session, server.tokens.seats["blue"])
            edits = {edit["id"]: edit for edit in host.received[-1]["host"]["edits"]}
            assert edits["points.blue"] == {"id": "points.blue", "at": "blue", "label": edits["points.blue"]["label"],
                                            "value": 0, "low": 0, "high": 1}
            assert "edits" not in json.dumps(blue.received[-1].get("host") or {})  # a seat is sent no host part
            await host.send(type="correct", changes={"points.blue": 1, "token.moon": "red"})
            assert (await host.expect("ack"))["question"] is None
            seen = await blue.expect("state")
            zones = {zone["id"]: zone for part in seen["view"]["parts"]["main"] if part["part"] == "zones"
                     for zone in part["zones"]}
            assert zones["blue"]["count"] == 1 and [t["name"]["params"] for t in zones["red"]["tokens"]] == [{}, {}]
            assert [line["key"] for line in seen["view"]["narration"]][-2:] == ["correction.n.changed"] * 2
            assert table.events[-1] == {"correct": {"points.blue": 1, "token.moon": "red"}}
            assert seen["view"]["can_undo"] == 1

    asyncio.run(main())


def test_a_seat_may_not_correct_and_a_bad_correction_is_refused_with_its_code_changing_nothing(tmp_path):
    async def main():
        async with running(tmp_path) as (server, table, session):
            red = await Phone.open(server, session, server.tokens.seats["red"])
            host = await Phone.open(server, session, server.tokens.host)
            count = len(table.events)
            await red.send(type="correct", changes={"points.red": 1})
            assert (await red.expect("error"))["code"] == "forbidden"
            for changes, code, key in [({}, "bad_correct", "protocol.bad_correct"),
                                       ("points", "bad_correct", "protocol.bad_correct"),
                                       ({"points.red": 9}, "refused", "correction.value"),
                                       ({"points.green": 1}, "refused", "correction.unknown"),
                                       ({"\ud800": 1}, "bad_text", "protocol.bad_text")]:
                await host.ws.send_str(json.dumps({"v": 1, "type": "correct", "changes": changes}))
                error = await host.expect("error")
                assert (error["code"], error["key"]) == (code, key), changes
            assert len(table.events) == count and not host.ws.closed
            await host.send(type="ping")
            await host.expect("pong")

    asyncio.run(main())
