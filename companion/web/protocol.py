"""The phone protocol, version 1: JSON text messages over one WebSocket per device.

Phone -> server (at most MAX_MESSAGE bytes each):
    {"v": 1, "type": "answer", "question": "<prompt id>", "action": {...}}   a seat answers its question
    {"v": 1, "type": "ping"}
  host only:
    {"v": 1, "type": "answer", "question": "...", "action": {"seat": "red", ...}}   answer for any seat
    {"v": 1, "type": "close"}                        close the open ballot (missing voters abstain)
    {"v": 1, "type": "undo", "steps": 1}             take back the last public answer(s)
    {"v": 1, "type": "new_game", "game": "mall-of-horror", "players": [...], "options": {...}}
    {"v": 1, "type": "give_pad", "seat": "red"}     the next pad pressed on the hub becomes Red's

Server -> phone:
    {"v": 1, "type": "welcome", "role": "seat" | "host" | "spectator", "seat": "red" | null}
    {"v": 1, "type": "state", "view": {...}, "connected": [...], "host": {...}?}   after every change
        host only: "host": {"seats": {colour: url}, "spectator": url, "wifi": ssid | null,
                            "options": {seat: [actions]}}   the waiting seats' answers, to answer for a phone
    {"v": 1, "type": "ack", "question": "..."}       the answer is stored
    {"v": 1, "type": "error", "code": "...", "message": "..."}   refused; nothing changed
    {"v": 1, "type": "taken_over"}                   another device opened this seat; this one is closed
    {"v": 1, "type": "pong"}
    {"v": 1, "type": "notice", "message": "..."}     host only: news from the devices ("pad hub disconnected")
"""

from __future__ import annotations

import json

VERSION = 1
MAX_MESSAGE = 4096  # bytes: a real answer is under 200


class BadMessage(Exception):
    """A message the server will not act on; `code` and the message go back to the device."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


SEAT_TYPES = {"answer", "ping"}
HOST_TYPES = SEAT_TYPES | {"close", "undo", "new_game", "give_pad"}


def parse(text: str | bytes, role: str) -> dict:
    """A well-formed message this role may send, or BadMessage saying what is wrong."""
    if isinstance(text, bytes):
        raise BadMessage("binary", "messages are JSON text, not binary")
    if len(text.encode("utf-8")) > MAX_MESSAGE:
        raise BadMessage("too_large", f"message too large ({len(text)} characters; the limit is {MAX_MESSAGE})")
    try:
        message = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise BadMessage("bad_json", "that message is not valid JSON") from None
    if not isinstance(message, dict):
        raise BadMessage("bad_message", "a message is a JSON object with \"v\" and \"type\"")
    if message.get("v") != VERSION:
        raise BadMessage("version", f"this table speaks protocol version {VERSION}; reload the page")
    kind = message.get("type")
    allowed = HOST_TYPES if role == "host" else SEAT_TYPES if role == "seat" else {"ping"}
    if kind not in allowed:
        if kind in HOST_TYPES:
            raise BadMessage("forbidden", f"only the table's host may send {kind!r}")
        raise BadMessage("unknown_type", f"unknown message type {kind!r}")
    if kind == "answer":
        if not isinstance(message.get("action"), dict):
            raise BadMessage("bad_message", "an answer carries an \"action\" object")
        if not isinstance(message.get("question"), str):
            raise BadMessage("bad_message", "an answer names the \"question\" it answers")
    if kind == "undo" and (type(message.get("steps", 1)) is not int or message.get("steps", 1) < 1):
        raise BadMessage("bad_message", "undo takes \"steps\", a whole number of at least 1")
    if kind == "give_pad" and not isinstance(message.get("seat"), str):
        raise BadMessage("bad_message", "give_pad names the \"seat\" that gets the next pad pressed")
    if kind == "new_game" and not isinstance(message.get("players"), list):
        raise BadMessage("bad_message", "a new game lists its \"players\" (colours, in seating order)")
    return message


def dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def encode(kind: str, **fields) -> str:
    return dumps({"v": VERSION, "type": kind, **fields})


def state_message(view: str, connected: str, host: str | None = None) -> str:
    """A "state" message from parts already encoded (the public board is encoded once for every phone)."""
    text = f'{{"v":{VERSION},"type":"state","view":{view},"connected":{connected}'
    return text + (f',"host":{host}}}' if host is not None else "}")
