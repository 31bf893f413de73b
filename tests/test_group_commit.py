"""The box's save file under group commit, through a real `companion serve` and the LD_PRELOAD shim
(tests/faultshim.c): a slow disk never stalls the loop, nothing is acknowledged or shown before it is on disk, a
disk that fails to sync holds the boards back and tells the host why, and spectators are paced.

The store and table side (every acknowledged answer survives a power cut at any sync) is
tests/test_faults_power.py; these are the devices' side.
"""

from __future__ import annotations

import asyncio
import json
import os

import aiohttp
import pytest
from faultkit import FOUR, Phone, Serve, build_shim, device

from companion.cup import DiceCup
from companion.store import EventStore
from companion.table import Table


@pytest.fixture(scope="module")
def shim(tmp_path_factory):
    return build_shim(tmp_path_factory.mktemp("shim"))


def slow_disk(shim, db, **more: str) -> dict[str, str]:
    return {"LD_PRELOAD": str(shim), "FAULTSHIM_PREFIX": str(db), **more}


def asked(phone: Phone) -> tuple[str, dict]:
    view = phone.last("state")["view"]
    return view["prompt"]["id"], view["question"]["choices"][0]["action"]


def test_an_answer_is_acknowledged_once_on_disk_and_the_others_are_answered_while_the_disk_syncs(tmp_path, shim):
    db = tmp_path / "companion.sqlite3"
    env = slow_disk(shim, db, FAULTSHIM_SYNC_DELAY_MS="600", FAULTSHIM_LOG=str(tmp_path / "log"))

    async def main(serve: Serve) -> list[tuple[str, str]]:
        order: list[tuple[str, str]] = []  # (who, what) in the order it arrived
        async with aiohttp.ClientSession() as session:
            red = await Phone.open(session, serve, "red", device())
            blue = await Phone.open(session, serve, "blue", device())
            await asyncio.sleep(1.5)  # the seats' devices are on disk: nothing is syncing now
            before = len(blue.received)
            question, action = asked(red)
            await red.send(type="answer", question=question, action=action)
            await asyncio.sleep(0.05)
            await blue.send(type="ping")  # the loop answers this while the red answer's sync runs

            async def note(phone: Phone, who: str, kinds: set[str]) -> None:
                while kinds:  # each phone read by one task; the order of arrival noted across both
                    message = json.loads((await asyncio.wait_for(phone.ws.receive(), 15)).data)
                    phone.received.append(message)
                    if message["type"] in kinds:
                        kinds.discard(message["type"])
                        order.append((who, message["type"]))
            await asyncio.gather(note(red, "red", {"ack"}), note(blue, "blue", {"pong", "state"}))
            assert blue.received[before:][-1]["view"]["prompt"]["id"] != question  # the board after red's answer
        return order

    with Serve(db, env=env).ready() as serve:
        order = asyncio.run(main(serve))
    # The pong did not wait for the disk; the acknowledgement and the new board did.
    assert order[0] == ("blue", "pong"), order
    assert set(order[1:]) == {("red", "ack"), ("blue", "state")}, order
    with EventStore(db) as store:
        assert any(event.get("answer", {}).get("seat") == "red" for event in store.events(1))


def test_a_disk_that_fails_to_sync_holds_acks_and_boards_back_tells_the_host_and_catches_up(tmp_path, shim):
    db = tmp_path / "companion.sqlite3"
    failing = tmp_path / "fail-syncs"
    env = slow_disk(shim, db, FAULTSHIM_SYNC_FAILS=str(failing))

    async def main(serve: Serve) -> str:
        async with aiohttp.ClientSession() as session:
            host = await Phone.open(session, serve, "host")
            red = await Phone.open(session, serve, "red", device())
            blue = await Phone.open(session, serve, "blue", device())
            await asyncio.sleep(0.5)
            question, action = asked(red)
            failing.touch()
            await red.send(type="answer", question=question, action=action)
            notice = await host.expect("notice")
            assert notice["key"] == "faults.storage.problem" and notice["message"].startswith("The save file"), \
                notice
            await asyncio.sleep(1.0)  # tries again meanwhile, and fails
            assert not [m for m in red.received if m["type"] == "ack"]  # nothing acknowledged before the disk
            assert all(m["view"]["prompt"]["id"] == question for m in blue.received if m["type"] == "state")
            failing.unlink()  # the disk answers again: the table carries on by itself
            await red.expect("ack", timeout=15)
            moved = await blue.expect("state", where=lambda m: m["view"]["prompt"]["id"] != question, timeout=15)
            return moved["view"]["prompt"]["id"]

    with Serve(db, env=env).ready() as serve:
        asyncio.run(main(serve))
    assert "Traceback" not in serve.stderr, serve.stderr[-3000:]
    with EventStore(db) as store:
        assert any(event.get("answer", {}).get("seat") == "red" for event in store.events(1))


def test_spectators_get_the_newest_board_at_most_every_pace_and_always_the_last_one(tmp_path):
    db = tmp_path / "companion.sqlite3"

    async def main(serve: Serve) -> tuple[int, int, dict, dict]:
        async with aiohttp.ClientSession() as session:
            host = await Phone.open(session, serve, "host")
            watcher = await Phone.open(session, serve, "watch")
            changes = 0
            while changes < 16:  # the host answers for each seat asked, as fast as the table takes it
                state = host.last("state")
                prompt = state["view"]["prompt"]
                seat = prompt["waiting"][0]
                action = state["host"]["questions"][seat]["choices"][0]["action"]
                await host.send(type="answer", question=prompt["id"], action=action)
                await host.expect("ack")
                await host.expect("state")  # the board after it (the ack comes first)
                changes += 1
            await host.quiet(0.5)
            await watcher.quiet(0.5)  # the paced board after the last change has come
            boards = [m for m in watcher.received if m["type"] == "state"]
            return changes, len(boards), boards[-1]["view"], host.last("state")["view"]

    with Serve(db).ready() as serve:
        changes, boards, watched, latest = asyncio.run(main(serve))
    assert boards < changes, (boards, changes)  # paced: not one board per answer
    assert json.dumps(watched, sort_keys=True) == json.dumps(latest, sort_keys=True)  # and never left behind


def test_a_table_without_a_loop_syncs_a_group_commit_store_itself(tmp_path):
    """Replays and scripts use a table with no loop: `when_stored` syncs on the spot."""
    store = EventStore(tmp_path / "companion.sqlite3", group_commit=True)
    table = Table(store, DiceCup(scripted=[[1, 2]] * 50))
    table.new_game("mall-of-horror", FOUR)
    assert store.group_commit and store.synced < store.writes and not table.on_disk
    told = []
    table.when_stored(lambda: told.append(store.synced))
    assert told == [store.writes] and table.on_disk
    store.close()
    assert os.stat(tmp_path / "companion.sqlite3").st_mode & 0o777 == 0o600
