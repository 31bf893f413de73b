"""Bad phone messages never crash: every mutated message of every type gets an answer and changes nothing.

A real box (save file, table, phone server) runs on a loop of its own thread; a seat's phone, the host and a
spectator are connected over real WebSockets. Each example takes a valid message of one type (answer, lang,
ping, close, undo, new_game, give_pad, takeover), mutates it (fuzzkit) or garbles its text, sends it, then a
marker. The only outcomes allowed: the message is carried out (ack, pong, or nothing for lang), or the server
answers with an error from the catalogue, in the device's language, on one line, and the table is exactly as
before. Never "not_stored" (the server's catch-all for a bug), never a logged exception, and the socket stays
open (the message sent after it is answered).

FUZZ_EXAMPLES sets the number of examples (default 300).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading

import aiohttp
import pytest
from fuzzkit import Chooser, DrawChooser, fuzz_settings, mutate, weird
from hypothesis import event, given
from hypothesis import strategies as st
from mall import ATTACK, MOVE

from companion.box import Box, BoxOptions
from companion.catalogue import LANGUAGES, catalogue, placeholders
from companion.contract import Message
from companion.web import protocol
from companion.web.server import RateLimit

FOUR = ["red", "blue", "yellow", "green"]
SETUPS = {"attack": ATTACK, "move": MOVE}  # a secret ballot (nothing to undo) and public moves (undo works)
REPLY_TYPES = {"ack", "error", "pong"}


class Errors(logging.Handler):
    """Every record of level ERROR or more, from any logger (the server's catch-all logs a bug's traceback)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class Station:
    """A box whose table is always at the start of one setup when an example begins, and its three phones."""

    def __init__(self, path: str, setup: str) -> None:
        self.box = Box(BoxOptions(db=path, host="127.0.0.1", port=0, address="127.0.0.1"))
        self.position = SETUPS[setup]
        self.phones: dict[str, aiohttp.ClientWebSocketResponse] = {}
        self.seen: tuple = ()  # (state, generation) when the phones were last connected
        self.given: list[str] = []

    @property
    def table(self):
        return self.box.table

    async def ready(self, session: aiohttp.ClientSession) -> None:
        """The table at the start of the setup again if anything changed, and every phone connected to it."""
        table, server = self.table, self.box.server
        if self.seen != (table.state, table.generation):
            table.new_game("mall-of-horror", FOUR, position=self.position)
        tokens = {"host": server.tokens.host, "seat": server.tokens.seats["red"], "spectator": server.tokens.spectator}
        for role, token in tokens.items():
            ws = self.phones.get(role)
            if ws is None or ws.closed or getattr(ws, "token", None) != token:
                if ws is not None:
                    await ws.close()
                ws = await session.ws_connect(f"http://127.0.0.1:{server.port}/ws/{token}")
                ws.token = token
                assert json.loads((await ws.receive()).data)["type"] == "welcome"
                self.phones[role] = ws
        for connection in server.connections:  # the fuzzer sends faster than any phone may
            connection.limit = RateLimit(rate=1e9, burst=1e9)
        self.seen = (table.state, table.generation)


class Rig:
    """A box per setup on a loop of its own thread, each with raw WebSocket clients: host, a seat, a spectator.

    A box per setup keeps every example's draws independent of the examples before it (as hypothesis needs)
    without a new game, whose save file is synced, at each example.
    """

    def __init__(self, tmp_path) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.stations = {setup: Station(str(tmp_path / f"{setup}.sqlite3"), setup) for setup in SETUPS}
        self.markers = 0
        self.call(self._open())

    def call(self, coroutine, timeout: float = 20):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    async def _open(self) -> None:
        self.session = aiohttp.ClientSession()
        for station in self.stations.values():
            await station.box.open()
            station.box.server.give_pad = station.given.append  # as if a pad hub were plugged in

    async def close(self) -> None:
        for station in self.stations.values():
            for ws in station.phones.values():
                await ws.close()
            await station.box.close()
        await self.session.close()

    def stop(self) -> None:
        self.call(self.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)

    def ready(self, setup: str) -> Station:
        station = self.stations[setup]
        self.call(station.ready(self.session))
        return station

    async def exchange(self, ws: aiohttp.ClientWebSocketResponse, data: str | bytes) -> list[dict]:
        """Send `data`, then a marker; every reply before the marker's (a socket's messages are read in order).

        The marker is a message of an unknown type, which the server names in its error: it tells this exchange's
        replies from any other, even when the fuzzed message was a ping.
        """
        if isinstance(data, bytes):
            await ws.send_bytes(data)
        else:
            await ws.send_str(data)
        self.markers += 1
        marker = f"marker-{self.markers}"
        await ws.send_str(protocol.encode(marker))
        replies = []
        while True:
            message = await asyncio.wait_for(ws.receive(), 10)
            assert message.type == aiohttp.WSMsgType.TEXT, f"the socket ended: {message.type} {message.data}"
            reply = json.loads(message.data)
            if reply["type"] == "error" and reply["params"].get("type") == marker:
                return replies
            if reply["type"] != "state":
                replies.append(reply)


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    errors = Errors()
    logging.getLogger().addHandler(errors)
    rig = Rig(tmp_path_factory.mktemp("fuzz-phone"))
    rig.errors = errors
    yield rig
    rig.stop()
    logging.getLogger().removeHandler(errors)


# -- valid messages, then mutated -------------------------------------------------------------------------------

SEAT_KINDS = ["answer", "answer", "lang", "ping", "takeover"]
HOST_KINDS = ["answer", "close", "undo", "undo", "new_game", "new_game", "give_pad", "lang", "ping", "takeover"]
SPECTATOR_KINDS = ["ping", "lang", "answer", "undo"]


def valid_message(c: Chooser, table, role: str, kind: str) -> dict:
    message: dict = {"v": 1, "type": kind}
    if kind == "answer":
        prompt = table.rules.prompt(table.state)
        message["question"] = prompt.id
        seat = "red" if role == "seat" and "red" in prompt.options else c.pick(list(prompt.options))
        action = dict(c.pick(prompt.options[seat]))
        if role == "seat" and c.integer(0, 1):
            del action["seat"]  # a seat's phone may leave its seat out
        message["action"] = action
    elif kind == "lang":
        message["lang"] = c.pick(["vi", "zh-Hans", "zh-Hant", "en", "zh-TW", "vi-VN"])
    elif kind == "undo":
        message["steps"] = c.integer(1, 2)
    elif kind == "new_game":
        message["game"] = "mall-of-horror"
        message["players"] = c.pick([["red", "yellow", "blue"], FOUR, ["red", "yellow", "blue", "green", "purple"]])
        message["options"] = c.pick([{}, {"end_timing": "round_end"}, {"second_tie_victim": "colour"}])
    elif kind == "give_pad":
        message["seat"] = c.pick(FOUR)
    elif kind == "takeover":  # a seat's device (or the host, for a seat) allows another device to take the seat
        message["request"] = c.pick(["r1", "0" * 16])
        message["allow"] = c.pick([True, False])
        if role == "host":
            message["seat"] = c.pick(FOUR)
    return message


def garble(c: Chooser, text: str) -> str | bytes:
    """The text of a message broken on the way: cut, spliced, doubled, as bytes, or far too long."""
    cut = c.integer(0, len(text))
    return c.pick([
        text[:cut],
        text[:cut] + c.pick(["\u0000", "}", "{", '"', ",", "]", "\\"]) + text[cut:],
        text + text,
        text.encode("utf-8"),
        text[:-1] + ',"junk":"' + "x" * protocol.MAX_MESSAGE + '"}',
        text.replace('"v":1', '"v":1,"v":1.0'),
        json.dumps(weird(c)),
    ])


def fuzzed(c: Chooser, table, role: str) -> str | bytes:
    kinds = {"seat": SEAT_KINDS, "host": HOST_KINDS, "spectator": SPECTATOR_KINDS}[role]
    message = valid_message(c, table, role, c.pick(kinds))
    how = c.integer(0, 9)
    if how == 0:
        return protocol.dumps(message)  # the message as it is: it must work, or be refused for a reason
    if how == 1:
        return garble(c, protocol.dumps(message))
    # Mostly the fields that reach the table: a broken "v" or "type" is refused before anything else.
    focus = [(key,) for key in message if key not in ("v", "type")]
    return protocol.dumps(mutate(c, message, focus=focus, only_focus=c.integer(0, 4) > 0))


def check_error(error: dict) -> None:
    """An error the device can show: a stable code, a catalogue message, its text in one of our languages."""
    assert error["code"] != "not_stored", error  # the server's catch-all: a bug, not a refusal
    key, params = error["key"], error["params"]
    assert catalogue().has(key), error
    assert isinstance(params, dict) and error["message"]
    assert "\n" not in error["message"] and "\r" not in error["message"], error  # one line, whatever was sent
    texts = {lang: catalogue().text(Message(key, params), lang) for lang in LANGUAGES}
    lang = next((lang for lang, text in texts.items() if text == error["message"]), None)
    assert lang is not None, error
    assert placeholders(catalogue().raw(key, lang, params.get("count"))) <= set(params), error


@fuzz_settings(300)
@given(st.data())
def test_property_every_mutated_message_is_carried_out_or_refused_and_the_socket_stays_open(rig, data):
    c = DrawChooser(data)
    station = rig.ready(c.pick(list(SETUPS)))
    role = c.pick(["seat", "host", "host", "spectator"])
    table = station.table
    text = fuzzed(c, table, role)
    before = (table.state, table.generation, len(table.events))
    del rig.errors.records[:]
    replies = rig.call(rig.exchange(station.phones[role], text))
    assert not rig.errors.records, rig.errors.records[0].getMessage()
    assert len(replies) <= 1 and all(r["type"] in REPLY_TYPES for r in replies), replies
    errors = [r for r in replies if r["type"] == "error"]
    # How the examples ended, shown by `pytest --hypothesis-show-statistics`.
    event(f"{role}: {', '.join(r.get('code', r['type']) for r in replies) or 'no reply'}")
    for error in errors:
        check_error(error)
    if errors:
        assert (table.state, table.generation, len(table.events)) == before, (role, text, errors)


def test_the_issues_messages_get_their_errors(rig):
    station = rig.ready("attack")
    table = station.table
    qid = table.rules.prompt(table.state).id
    cases = [
        ("seat", {"v": 1, "type": "answer", "question": "x", "action": {"seat": []}}, "not_your_seat"),
        # The host's answers with an odd seat: refused (which check speaks first is the server's business).
        ("host", {"v": 1, "type": "answer", "question": "x", "action": {"seat": []}}, None),
        ("host", {"v": 1, "type": "answer", "question": qid, "action": {"seat": []}}, None),
        ("host", {"v": 1, "type": "answer", "question": qid, "action": {"seat": {"red": 1}, "vote": ["blue"]}},
         None),
        ("seat", {"v": 1, "type": []}, "no_type"),
        ("host", {"v": 1, "type": "new_game", "players": [["red"], "blue", "yellow"]}, "refused"),
        ("host", {"v": 1, "type": "new_game", "players": FOUR, "options": {"end_timing": []}}, "refused"),
        ("host", {"v": 1, "type": "new_game", "game": "chess", "players": FOUR}, "refused"),
        ("host", {"v": 1, "type": "new_game", "game": "chess" * 100, "players": FOUR}, "bad_game"),
        ("host", {"v": 1, "type": "new_game", "game": None, "players": FOUR}, "bad_game"),
        ("host", {"v": 1, "type": "undo", "steps": 10**30}, "refused"),
        ("host", {"v": 1, "type": "undo", "steps": 1.0}, "bad_undo"),
        ("host", {"v": 1, "type": "undo", "steps": True}, "bad_undo"),
        ("host", {"v": 1, "type": "give_pad", "seat": ["red"]}, "bad_give_pad"),
        ("host", {"v": 1, "type": "give_pad", "seat": "mauve"}, "refused"),
        ("host", {"v": 1, "type": "give_pad", "seat": "mauve\n" * 100}, "bad_give_pad"),
        ("host", {"v": 1, "type": "lang", "lang": "vi\n" * 100}, "bad_lang"),
        ("seat", {"v": 1, "type": "dance\n" * 100}, "unknown_type"),
        ("host", {"v": 1, "type": "lang", "lang": {"vi": 1}}, "bad_lang"),
    ]
    for role, message, code in cases:
        before = (table.state, table.generation)
        replies = rig.call(rig.exchange(station.phones[role], protocol.dumps(message)))
        assert [r["type"] for r in replies] == ["error"] and replies[0]["code"] == (code or replies[0]["code"]), \
            (message, replies)
        check_error(replies[0])
        assert (table.state, table.generation) == before
    replies = rig.call(rig.exchange(station.phones["host"], protocol.dumps({"v": 1, "type": "lang", "lang": "xx"})))
    assert replies == []  # an unknown language: English, as for a browser that asks for one
    assert not rig.errors.records


# -- the parser alone, on any JSON -------------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
    | st.sampled_from(["answer", "lang", "ping", "close", "undo", "new_game", "give_pad", "vi", "red"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["v", "type", "question", "action", "lang", "steps", "game", "players", "options", "seat"])
        | st.text(max_size=6), inner, max_size=5),
    max_leaves=12)


@fuzz_settings(300)
@given(st.sampled_from(["seat", "host", "spectator"]), JSON, st.booleans())
def test_property_parse_gives_what_the_server_relies_on_or_bad_message(role, value, versioned):
    if versioned and isinstance(value, dict):
        value = {**value, "v": 1}
    try:
        message = protocol.parse(protocol.dumps(value), role)
    except protocol.BadMessage as bad:
        assert catalogue().has(bad.code) and bad.code == f"protocol.{bad.kind}"
        assert all("\n" not in catalogue().text(bad.message, lang) for lang in LANGUAGES)
        return
    kind = message["type"]
    assert kind in (protocol.HOST_TYPES if role == "host" else protocol.SEAT_TYPES if role == "seat"
                    else protocol.SPECTATOR_TYPES)
    if kind == "answer":
        assert isinstance(message["action"], dict) and isinstance(message["question"], str)
    if kind == "lang":
        assert isinstance(message["lang"], str) and message["lang"].isprintable()
    if kind == "undo":
        assert type(message.get("steps", 1)) is int and message.get("steps", 1) >= 1
    if kind == "give_pad":
        assert isinstance(message["seat"], str) and message["seat"].isprintable() and len(message["seat"]) <= 40
    if kind == "new_game":
        assert isinstance(message["players"], list) and isinstance(message.get("game", ""), str)
        assert isinstance(message.get("options", {}), dict | None)
