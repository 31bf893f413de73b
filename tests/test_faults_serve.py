"""`companion serve` under faults, through a real process: one serve per save file, no phantom game, storage
that fails (a full tmpfs, a read-only folder) answered clearly, seats that cannot be stolen, a renewable host
link, the host answering only for seats that have not answered, and the small holes closed."""

from __future__ import annotations

import asyncio
import json
import socket
import time

import aiohttp
import pytest
from faultkit import FOUR, Phone, Serve, device, exits, in_namespace, namespaces_work

from companion.catalogue import say
from companion.store import EventStore
from companion.web.server import SECURITY_HEADERS


def run(coroutine):
    return asyncio.run(coroutine)


def one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr[-2000:]
    return lines[0]


def seats(serve: Serve) -> dict[str, str]:
    """Each seat's token, as serve printed its link."""
    return {key.split(":", 1)[1]: url.rsplit("/", 1)[1] for key, url in serve.urls.items() if key.startswith("seat:")}


PHONES = {seat: device() for seat in FOUR}  # the devices of the seats at the shared serve


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One serve for the tests that change no game."""
    with Serve(tmp_path_factory.mktemp("serve") / "companion.sqlite3").ready() as serve:
        yield serve
    assert "Traceback" not in serve.stderr, serve.stderr[-3000:]


# -- one process per save file, and no phantom game ---------------------------------------------------------


def test_a_second_serve_on_the_same_save_file_is_told_the_pid_of_the_first_and_the_first_plays_on(tmp_path):
    db = tmp_path / "companion.sqlite3"
    with Serve(db).ready() as first:
        code, stderr = exits(Serve(db, players=None))
        assert code == 2
        assert one_line(stderr) == f"companion serve: the save file {db} is in use by companion (pid " \
                                   f"{first.process.pid})"
        code, stderr = exits(Serve(db, players=["red", "blue", "yellow"]))  # nor a new game over it
        assert code == 2 and "is in use by companion" in one_line(stderr)

        async def still_plays():
            async with aiohttp.ClientSession() as session:
                host = await Phone.open(session, first, "host")
                question = host.last("state")["view"]["prompt"]["id"]
                choice = host.last("state")["host"]["questions"]["red"]["choices"][0]["action"]
                await host.send(type="answer", question=question, action=choice)
                await host.expect("ack")
        run(still_plays())
    with Serve(db, players=None).ready() as again:
        assert again.lines[0].startswith("resumed game 1 ")
        assert seats(again) == seats(first)


def test_a_new_game_on_a_busy_port_is_not_stored_and_the_unfinished_game_resumes(tmp_path):
    db = tmp_path / "companion.sqlite3"
    with Serve(db).ready() as first:
        pass
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code, stderr = exits(Serve(db, players=["red", "blue", "yellow"], port=port))
    assert code == 2
    assert one_line(stderr).startswith(f"companion serve: cannot listen on 127.0.0.1:{port}: ")
    with EventStore(db, readonly=True) as store:
        assert store.unfinished().id == 1 and store.unfinished().players == tuple(FOUR) and not store.history()
    with Serve(db, players=None).ready() as again:
        assert again.lines[0].startswith("resumed game 1 ") and seats(again) == seats(first)


@pytest.mark.parametrize(("config", "players", "said"), [
    ("[gpio.seats.red]\nbuttons = [5, 6, 99]\n", ["red", "blue", "yellow"], "99 is not a usable BCM pin"),
    ('[serial]\nport = "/dev/null"\n[serial.pads]\n1 = "red"\n2 = "purple"\n', ["red", "blue", "yellow"],
     "the pads config names purple, who is not at this table (red, blue, yellow)"),
    ('[gpio.seats.purple]\nbuttons = [5, 6]\n', None,  # resuming: the unfinished game's seats
     "the pads config names purple, who is not at this table (red, blue, yellow, green)"),
], ids=["a bad pin", "a pad for a seat not in the new game", "a pad for a seat not in the resumed game"])
def test_a_bad_pads_file_stores_no_game_and_the_unfinished_game_resumes(tmp_path, config, players, said):
    db = tmp_path / "companion.sqlite3"
    with Serve(db).ready() as first:
        pass
    pads = tmp_path / "pads.toml"
    pads.write_text(config)
    code, stderr = exits(Serve(db, "--pads", str(pads), players=players))
    assert code == 2
    line = one_line(stderr)
    assert line.startswith("companion serve: ") and str(pads) in line and said in line
    with EventStore(db, readonly=True) as store:
        assert store.unfinished().id == 1 and not store.history()
    with Serve(db, players=None).ready() as again:
        assert again.lines[0].startswith("resumed game 1 ") and seats(again) == seats(first)


def test_a_missing_pad_hub_port_is_said_on_the_terminal_and_shown_on_the_host_screen(tmp_path):
    pads = tmp_path / "pads.toml"
    pads.write_text('[serial]\nport = "/dev/ttyNOPE"\n')
    with Serve(tmp_path / "companion.sqlite3", "--pads", str(pads)).ready() as serve:
        assert "pads: The pad hub's port /dev/ttyNOPE does not exist: check its cable and the pads config; the " \
               "table keeps looking for it." in serve.lines

        async def host_sees():
            async with aiohttp.ClientSession() as session:
                host = await Phone.open(session, serve, "host")
                return host.last("state")["host"]["problems"]
        assert run(host_sees()) == [{"key": "faults.pads.port_missing", "params": {"port": "/dev/ttyNOPE"}}]
    assert "Traceback" not in serve.stderr


# -- malformed messages, odd links, strangers ---------------------------------------------------------------

MALFORMED = [
    ("seat", "{not json", "bad_json"), ("seat", "[1, 2]", "not_object"), ("seat", '{"v": 9}', "version"),
    ("seat", '{"v": 1}', "no_type"), ("seat", '{"v": 1, "type": []}', "no_type"),
    ("seat", '{"v": 1, "type": {"a": 1}}', "no_type"), ("seat", '{"v": 1, "type": "dance"}', "unknown_type"),
    ("seat", '{"v": 1, "type": "close"}', "forbidden"), ("seat", '{"v": 1, "type": "lang", "lang": 7}', "bad_lang"),
    ("seat", '{"v": 1, "type": "answer", "question": "x"}', "no_action"),
    ("seat", '{"v": 1, "type": "answer", "action": {}}', "no_question"),
    ("seat", '{"v": 1, "type": "answer", "question": "x", "action": {"seat": "blue"}}', "not_your_seat"),
    ("seat", '{"v": 1, "type": "takeover", "allow": "yes"}', "bad_takeover"),
    ("seat", '{"v": 1, "type": "takeover", "request": "x", "allow": true}', "no_takeover"),
    ("host", '{"v": 1, "type": "new_game", "game": [], "players": ["red", "blue", "yellow"]}', "bad_game"),
    ("host", '{"v": 1, "type": "new_game", "players": "red"}', "bad_players"),
    ("host", '{"v": 1, "type": "new_game", "players": [], "options": [1]}', "bad_options"),
    ("host", '{"v": 1, "type": "undo", "steps": 0}', "bad_undo"),
    ("host", '{"v": 1, "type": "give_pad", "seat": []}', "bad_give_pad"),
    ("host", '{"v": 1, "type": "takeover", "seat": "red", "allow": true}', "no_takeover"),
    ("host", '{"v": 1, "type": "takeover", "allow": true, "request": "x"}', "bad_takeover"),
    ("host", '{"v": 1, "type": "answer", "question": "x", "action": {"go": 1}}', "host_needs_seat"),
    ("host", '{"v": 1, "type": "answer", "question": "x", "action": {"seat": "blue", "go": 1}}', "seat_not_asked"),
    ("host", '{"v": 1, "type": "answer", "question": "x", "action": {"seat": "mauve\\n", "go": 1}}',
     "seat_not_asked"),
    ("watch", '{"v": 1, "type": "renew_host"}', "forbidden"),
    ("watch", '{"v": 1, "type": "takeover", "allow": true}', "forbidden"),
]


def test_every_malformed_message_gets_its_own_error_code_on_one_line_and_the_socket_stays(served):
    async def main():
        async with aiohttp.ClientSession() as session:
            phones = {"seat": await Phone.open(session, served, "red", PHONES["red"]),
                      "host": await Phone.open(session, served, "host"),
                      "watch": await Phone.open(session, served, "watch")}
            for role, text, code in MALFORMED:
                await phones[role].ws.send_str(text)
                error = await phones[role].expect("error")
                assert error["code"] == code, (role, text, error)
                assert "\n" not in error["message"] and "{" not in error["message"], error
            await phones["seat"].ws.send_bytes(b"\x00\x01")
            assert (await phones["seat"].expect("error"))["code"] == "binary"
            await phones["seat"].send(type="ping", junk="x" * 10_000)
            assert (await phones["seat"].expect("error"))["code"] == "too_large"
            for phone in phones.values():  # every socket is still open and answers
                await phone.send(type="ping")
                await phone.expect("pong")
    run(main())


def test_links_of_non_ascii_tokens_and_unknown_paths_are_404_with_the_security_headers(served):
    async def main():
        async with aiohttp.ClientSession() as session:
            for path in ("/s/é", "/h/é", "/w/é", "/qr/é/red.svg", f"/qr/{served.token('host')}/é.svg", "/ws/é",
                         "/ws/not-a-token", "/nope", "/static/nope.js", "/s/%00", "/i18n/é.json"):
                async with session.get(served.base + path) as response:
                    assert response.status == 404, path
                    for header, value in SECURITY_HEADERS.items():
                        assert response.headers.get(header) == value, (path, header)
            ws = await session.ws_connect(f"{served.base}/ws/é")
            error = json.loads((await ws.receive()).data)
            assert error["code"] == "unknown_token"
            assert (await ws.receive()).type == aiohttp.WSMsgType.CLOSE and ws.close_code == 4004
    run(main())


def test_a_socket_from_a_page_of_another_site_is_refused(served):
    async def main():
        async with aiohttp.ClientSession() as session:
            url = f"{served.base}/ws/{served.token('watch')}"
            for origin in (f"http://evil.example:{served.port}", "null", "http://127.0.0.1:1",
                           f"https://127.0.0.1.evil.example:{served.port}"):
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await session.ws_connect(url, headers={"Origin": origin})
                assert refused.value.status == 403, origin
            for origin in (served.base, served.base.replace("127.0.0.1", "localhost")):
                ws = await session.ws_connect(url, headers={"Origin": origin})
                assert json.loads((await ws.receive()).data)["type"] == "welcome"
                await ws.close()
    run(main())


def connector(address: str) -> aiohttp.TCPConnector:
    return aiohttp.TCPConnector(local_addr=(address, 0), limit=0)


def test_sockets_are_capped_per_address_and_per_link(served):
    async def main():
        async with aiohttp.ClientSession(connector=connector("127.0.0.21")) as one, \
                aiohttp.ClientSession(connector=connector("127.0.0.22")) as other:
            kept = [await Phone.open(one, served, "watch", first="welcome") for _ in range(32)]
            extra = await Phone.open(one, served, "watch", first=None)
            error = await extra.expect("error")
            assert error["code"] == "too_many_sockets" and await extra.closes() == 4029
            await (await Phone.open(other, served, "watch", first="welcome")).ws.close()  # another address: fine
            for phone in kept:
                await phone.ws.close()
            hosts = [await Phone.open(one, served, "host", first="welcome") for _ in range(8)]
            extra = await Phone.open(other, served, "host", first=None)
            assert (await extra.expect("error"))["code"] == "too_many_sockets" and await extra.closes() == 4029
            for phone in hosts:
                await phone.ws.close()
    run(main())


def test_who_connects_is_news_for_the_host_only(served):
    async def main():
        async with aiohttp.ClientSession() as session:
            host = await Phone.open(session, served, "host")
            watcher = await Phone.open(session, served, "watch")
            red = await Phone.open(session, served, "red", PHONES["red"])
            await host.expect("state", where=lambda m: "red" in m["connected"])
            await host.quiet(0.2)
            for _ in range(20):  # spectators come and go: news for nobody, not even the host
                await (await Phone.open(session, served, "watch")).ws.close()
            assert await host.quiet(0.3) == []
            blue = await Phone.open(session, served, "blue", PHONES["blue"])
            await host.expect("state", where=lambda m: m["connected"] == ["blue", "red"])
            assert await red.quiet(0.5) == [] and await watcher.quiet(0.1) == []
            for phone in (host, watcher, red, blue):
                await phone.ws.close()
    run(main())


# -- the host answers only for seats that have not answered -------------------------------------------------


def test_the_host_answers_only_for_a_seat_asked_that_has_not_answered(tmp_path):
    async def main(serve: Serve) -> list[str]:
        async with aiohttp.ClientSession() as session:
            host = await Phone.open(session, serve, "host")
            phones = {seat: await Phone.open(session, serve, seat, device()) for seat in FOUR}
            state = host.last("state")
            while not (state["view"]["prompt"]["secret"] and len(state["view"]["prompt"]["waiting"]) > 1):
                prompt = state["view"]["prompt"]
                seat = prompt["waiting"][0]
                action = state["host"]["questions"][seat]["choices"][0]["action"]
                other = next(s for s in FOUR if s not in prompt["waiting"])
                await host.send(type="answer", question=prompt["id"], action={**action, "seat": other})
                assert (await host.expect("error"))["code"] == "seat_not_asked"
                await host.send(type="answer", question=prompt["id"], action=action)
                await host.expect("ack")
                state = await host.expect("state", where=lambda m, p=prompt["id"]: m["view"]["prompt"]["id"] != p)
            prompt = state["view"]["prompt"]
            first, second = prompt["waiting"][:2]  # a secret ballot (or secret destinations) of two or more
            question = (await phones[first].expect("state", where=lambda m: (m["view"]["question"] or {}).get("id")
                                                   == prompt["id"]))["view"]["question"]
            cast = question["choices"][0]["action"]
            await phones[first].send(type="answer", question=prompt["id"], action=cast)
            await phones[first].expect("ack")
            other = next(c["action"] for c in question["choices"] if c["action"] != cast)
            await host.send(type="answer", question=prompt["id"], action=other)  # rewrite the cast secret?
            refused = await host.expect("error")
            name = say(f"colour.{first}")
            assert refused["code"] == "seat_answered"
            assert refused["message"] == f"{name} has answered already: only {name} may change it."
            mine = state["host"]["questions"][second]["choices"][0]["action"]
            await host.send(type="answer", question=prompt["id"], action=mine)  # not answered yet: the host may
            await host.expect("ack")
            for phone in (host, *phones.values()):
                await phone.ws.close()
            return [first, second]

    with Serve(tmp_path / "companion.sqlite3").ready() as serve:
        voters = run(main(serve))
    assert "Traceback" not in serve.stderr
    with EventStore(tmp_path / "companion.sqlite3", readonly=True) as store:
        answers = [e["answer"] for e in store.events(1) if "answer" in e]
    assert [a["seat"] for a in answers[-2:]] == voters  # the first voter's own answer stands


# -- seats that cannot be stolen, a host link that can be renewed -------------------------------------------


def test_a_new_device_gets_a_seat_only_when_the_table_allows_it_and_sees_no_secret_before(tmp_path):
    async def main(serve: Serve):
        async with aiohttp.ClientSession() as session:
            host = await Phone.open(session, serve, "host")
            own, thief, new_phone = device(), device(), device()
            red = await Phone.open(session, serve, "red", own)
            await host.expect("state", where=lambda m: m["host"]["claimed"] == ["red"])

            stranger = await Phone.open(session, serve, "red", thief)  # scanned Red's code across the table
            welcome = next(m for m in stranger.received if m["type"] == "welcome")
            assert welcome == {"v": 1, "type": "welcome", "role": "seat", "seat": "red", "waiting": True}
            asked = await red.expect("takeover_asked")
            wanted = await host.expect("state", where=lambda m: m["host"]["takeovers"])
            assert wanted["host"]["takeovers"] == {"red": asked["request"]}
            prompt = stranger.last("state")["view"]["prompt"]
            await stranger.send(type="answer", question=prompt["id"], action={"go": 1})
            assert (await stranger.expect("error"))["code"] == "waiting_for_permission"
            await red.send(type="takeover", request=asked["request"], allow=False)  # Red says no
            refused = await stranger.expect("error")
            assert refused["code"] == "takeover_refused" and await stranger.closes() == 4003
            await red.expect("takeover_settled")
            assert all("question" not in m.get("view", {}) and "narration_mine" not in m.get("view", {})
                       for m in stranger.received if m["type"] == "state")

            again = await Phone.open(session, serve, "red", own)  # Red's own phone reconnects: no question asked
            assert "waiting" not in next(m for m in again.received if m["type"] == "welcome")
            assert await red.closes() == 4001  # its older socket (a second tab) is closed
            new = await Phone.open(session, serve, "red", new_phone)  # Red's new phone: the host allows it
            request = (await host.expect("state", where=lambda m: m["host"]["takeovers"]))["host"]["takeovers"]["red"]
            await host.send(type="takeover", seat="red", request="stale", allow=True)
            assert (await host.expect("error"))["code"] == "no_takeover"
            await host.send(type="takeover", seat="red", request=request, allow=True)
            await host.expect("ack")
            assert await again.closes() == 4001 and again.last("taken_over")
            assert "waiting" not in await new.expect("welcome")
            state = await new.expect("state")
            assert state["view"]["seat"] == "red" and state["view"]["question"] is not None
            old = await Phone.open(session, serve, "red", own)  # the old phone now asks like any other device
            assert next(m for m in old.received if m["type"] == "welcome")["waiting"] is True
            for phone in (host, new, old):
                await phone.ws.close()

    db = tmp_path / "companion.sqlite3"
    with Serve(db).ready() as serve:
        run(main(serve))
    with Serve(db, players=None).ready() as again:  # the binding is kept in the save file
        async def after_restart():
            async with aiohttp.ClientSession() as session:
                stranger = await Phone.open(session, again, "red", device())
                assert next(m for m in stranger.received if m["type"] == "welcome")["waiting"] is True
                await stranger.ws.close()
        run(after_restart())


def test_the_host_link_is_renewed_and_the_old_one_opens_nothing(tmp_path):
    async def main(serve: Serve):
        async with aiohttp.ClientSession() as session:
            old_token = serve.token("host")
            table, stolen = await Phone.open(session, serve, "host"), await Phone.open(session, serve, "host")
            await table.send(type="renew_host")
            moved = await table.expect("host_link")
            assert moved["path"].startswith("/h/") and moved["url"] == serve.base + moved["path"]
            assert await table.closes() == 4005
            assert (await stolen.expect("error"))["code"] == "host_renewed" and await stolen.closes() == 4005
            printed = serve.wait_for_line("host ")
            assert printed == f"host {moved['url']}"
            async with session.get(f"{serve.base}/h/{old_token}") as page:
                assert page.status == 404
            async with session.get(serve.base + moved["path"]) as page:
                assert page.status == 200
            gone = await session.ws_connect(f"{serve.base}/ws/{old_token}")
            assert json.loads((await gone.receive()).data)["code"] == "unknown_token"
            return moved["path"].rsplit("/", 1)[1]

    db = tmp_path / "companion.sqlite3"
    with Serve(db).ready() as serve:
        token = run(main(serve))
    with Serve(db, players=None).ready() as again:
        assert again.token("host") == token  # kept in the save file


# -- storage that fails ---------------------------------------------------------------------------------------

needs_namespaces = pytest.mark.skipif(not namespaces_work(), reason="no private mount namespaces (unshare -rm)")


@needs_namespaces
def test_a_read_only_save_file_is_refused_at_start_in_one_plain_line(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "companion.sqlite3"
    with Serve(db).ready():
        pass
    before = db.read_bytes()
    code, stderr = exits(Serve(db, players=None, wrap=in_namespace("readonly", str(folder))))
    assert code == 2
    assert one_line(stderr) == f"companion serve: {db} is read-only (the file cannot be opened for writing): the " \
                               f"companion could not store a single answer in it; make the file and its folder " \
                               f"writable, or use another save file"
    assert db.read_bytes() == before


@needs_namespaces
def test_a_full_disk_is_refused_at_start_in_one_plain_line(tmp_path):
    folder = tmp_path / "small"
    code, stderr = exits(Serve(folder / "companion.sqlite3", wrap=in_namespace("tmpfs", "512", str(folder))))
    assert code == 2
    line = one_line(stderr)
    assert line.startswith(f"companion serve: the disk holding {folder}/companion.sqlite3 is full (")
    assert line.endswith("KB free, the companion needs 1 MB): free some space first")


@needs_namespaces
def test_a_full_disk_while_playing_is_told_to_the_phone_and_the_host_and_the_table_carries_on_by_itself(tmp_path):
    folder = tmp_path / "disk"

    async def main(serve: Serve):
        async with aiohttp.ClientSession() as session:
            host = await Phone.open(session, serve, "host")
            phones = {seat: await Phone.open(session, serve, seat, device()) for seat in FOUR}

            def asked(seat: str) -> tuple[str, dict]:
                view = phones[seat].last("state")["view"]
                return view["prompt"]["id"], view["question"]["choices"][0]["action"]

            assert serve.command("fill").startswith("#full ")
            question, action = asked("red")
            await phones["red"].send(type="answer", question=question, action=action)
            error = await phones["red"].expect("error")
            assert error["code"] == "not_stored" and error["message"] == "Not stored: the disk is full"
            notice = await host.expect("notice")
            assert notice["message"] == "Red's answer was not stored: the disk is full"
            problem = await host.seen_or_expect("state", where=lambda m: m["host"]["problems"])
            assert problem["host"]["problems"][0]["key"] == "faults.storage.problem"
            assert not [m for m in phones["red"].received if m["type"] == "ack"]  # nothing acknowledged

            assert serve.command("free").startswith("#freed ")  # the table sees storage work again by itself
            await host.expect("state", where=lambda m: not m["host"]["problems"], timeout=15)
            await phones["red"].send(type="answer", question=question, action=action)
            await phones["red"].expect("ack")
            await phones["blue"].expect("state", where=lambda m: m["view"]["question"] is not None)

            # Room for an answer and no more: it is stored and acknowledged; the roll after it is not. How many
            # WAL frames an answer takes varies (a new page, the header page): try with room for 1, 2, 3...
            room, waiting = 1, None
            for _ in range(12):
                await host.quiet(0.3)  # the host's latest state: the question now and its answers
                prompt = host.last("state")["view"]["prompt"]
                seat = prompt["waiting"][0]
                action = host.last("state")["host"]["questions"][seat]["choices"][0]["action"]
                serve.command(f"leave {room}")
                await phones[seat].send(type="answer", question=prompt["id"], action=action)
                if await asyncio.wait_for(_ack_or_error(phones[seat]), 10) == "error":
                    serve.command("free")  # it did not fit: nothing of it was stored; more room next time
                    await host.expect("state", where=lambda m: not m["host"]["problems"], timeout=15)
                    room += 1
                    continue
                after = await host.expect("state", where=lambda m, p=prompt["id"]: (
                    m["view"]["prompt"] is None and m["host"]["problems"]) or (
                    m["view"]["prompt"] is not None and m["view"]["prompt"]["id"] != p))
                if after["view"]["prompt"] is None:
                    waiting = after  # stored and acknowledged, and the roll after it waits for room
                    break
                room = max(1, room - 1)  # the roll fitted too: less room for the next seat
                serve.command("free")
            assert waiting is not None, "no answer was stored without its roll"
            next_seat = FOUR[(FOUR.index(seat) + 1) % len(FOUR)]
            started = time.monotonic()
            serve.command("free")
            rolled = await host.expect("state", where=lambda m: m["view"]["prompt"] is not None, timeout=15)
            assert rolled["view"]["prompt"]["waiting"] == [next_seat] and not rolled["host"]["problems"]
            print(f"the table rolled by itself {time.monotonic() - started:.2f} s after the disk had room again")
            await phones[next_seat].expect("state", where=lambda m: m["view"]["question"] is not None)
            for phone in (host, *phones.values()):
                await phone.ws.close()

    serve = Serve(folder / "companion.sqlite3", wrap=in_namespace("tmpfs", "4096", str(folder))).ready()
    try:
        run(main(serve))
    finally:
        serve.command("stop")
        serve.finish()
    assert serve.process.returncode == 0, serve.stderr[-3000:]
    assert "Traceback" not in serve.stderr, serve.stderr[-3000:]


async def _ack_or_error(phone: Phone) -> str:
    while True:
        message = await phone.ws.receive()
        data = json.loads(message.data)
        phone.received.append(data)
        if data["type"] == "ack":
            return "ack"
        if data["type"] == "error":
            assert data["code"] == "not_stored", data
            return "error"
