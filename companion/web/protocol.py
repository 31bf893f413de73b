"""The phone protocol, version 1: JSON text messages over one WebSocket per device.

Phone -> server (at most MAX_MESSAGE bytes each):
    {"v": 1, "type": "answer", "question": "<prompt id>", "action": {...}}   a seat answers its question
    {"v": 1, "type": "lang", "lang": "vi"}           this device reads en, zh-Hans, zh-Hant or vi
    {"v": 1, "type": "ping"}
    {"v": 1, "type": "takeover", "request": "<id>", "allow": true | false}   the seat's own device decides
        on a new device that asks for its seat (the host decides with "seat": "red" added; a seat's device that
        names another seat is refused, takeover_not_your_seat)
  host only:
    {"v": 1, "type": "answer", "question": "...", "action": {"seat": "red", ...}}   answer for any seat
    {"v": 1, "type": "close"}                        close the open ballot (missing voters abstain)
    {"v": 1, "type": "undo", "steps": 1}             take back the last public answer(s)
    {"v": 1, "type": "correct", "changes": {"<edit id>": value, ...}}   correct the board (host "edits")
    {"v": 1, "type": "new_game", "game": "<a game of the registry>", "players": [...], "options": {...},
     "names": {"red": "Anna", ...}}               the people's names by seat, optional (companion/names.py)
    {"v": 1, "type": "give_pad", "seat": "red"}     the next pad pressed on the hub becomes Red's
    {"v": 1, "type": "renew_host"}                   a new host link; every other host page is sent away

Server -> phone:
    {"v": 1, "type": "welcome", "role": "seat" | "host" | "spectator", "seat": "red" | null, "waiting"?: true}
        waiting: this device asks for a seat another device has (it opened /ws/<token>?device=<its key>); it
        sees the public board only until the table screen or the seat's device allows it
    {"v": 1, "type": "state", "view": {...}, "connected": [...], "host": {...}?}   after a change this device
        sees (never the same board twice: another seat's changed secret answer sends this device nothing)
        view: the table's view for this role (see Table.view): the game's board, "prompt", "question" (a seat's
              own), "narration" (this round), "narration_mine", "undone", "cup_rolls", "can_undo"
        host only: "host": {"seats": {colour: url}, "spectator": url, "wifi": ssid | null,
                            "questions": {seat: question}, "pads": bool, "games": [new-game forms],
                            "claimed": [seats with a device], "takeovers": {seat: request id},
                            "problems": [{key, params}: storage that takes no write, a missing pad hub,
                                         a seat whose phone went (devices.seat_dropped)...],
                            "names_used": [names given at earlier games, the latest first]}
    {"v": 1, "type": "ack", "question": "..."}       the answer is stored
    {"v": 1, "type": "error", "code": "...", "key": "...", "params": {...}, "message": "..."}
        refused; nothing changed. `code` is stable (bad_json, refused, stale, not_stored, ...); `key` and
        `params` are the catalogue's message, `message` its text in the device's language
    {"v": 1, "type": "taken_over"}                   another device opened this seat; this one is closed
    {"v": 1, "type": "takeover_asked", "request": "<id>"}   the seat's device: another device asks for the seat
    {"v": 1, "type": "takeover_settled"}             that request was decided (or its device went away)
    {"v": 1, "type": "host_link", "url": "...", "path": "/h/<token>"}   the renewed host link, to the host
                                                     that asked; the old link's sockets are closed (4005)
    {"v": 1, "type": "pong"}
    {"v": 1, "type": "notice", "key": "...", "params": {...}, "message": "..."}
        host only: news from the devices ("pad hub disconnected"), in the host's language

Every sentence comes from the catalogue; GET /i18n/<lang>.json gives the page its language's catalogue.
The host's page also reads, by plain HTTP GETs with its token: /x/<host token>/stats.json (companion/stats.py),
/x/<host token>/history.json (the finished games and their evenings), /x/<host token>/game/<id>.html and
/x/<host token>/evening/<first game id>.html (companion/export.py, as downloads; ?lang= their language).
"""

from __future__ import annotations

import json

from companion.contract import Refusal

VERSION = 1
MAX_MESSAGE = 4096  # bytes: a real answer is under 200


class BadMessage(Refusal):
    """A message the server will not act on: `code` goes back to the device with the catalogue's
    "protocol.<code>" message, in the device's language."""

    def __init__(self, code: str, **params: object):
        super().__init__(f"protocol.{code}", **params)
        self.kind = code


SEAT_TYPES = {"answer", "ping", "lang", "takeover"}
MAX_NAME = 40  # characters of a name (a language, a seat, a game): what is longer is no name of ours
# Characters of a person's name as the protocol carries it: the table refuses one over names.MAX_NAME in a line
# of its own (said in the host's language); what is far longer is no name at all.
MAX_PERSON = 200
HOST_TYPES = SEAT_TYPES | {"close", "undo", "correct", "new_game", "give_pad", "renew_host"}
SPECTATOR_TYPES = {"ping", "lang"}


def parse(text: str | bytes, role: str) -> dict:
    """A well-formed message this role may send, or BadMessage saying what is wrong."""
    if isinstance(text, bytes):
        raise BadMessage("binary")
    if len(text.encode("utf-8")) > MAX_MESSAGE:
        raise BadMessage("too_large", size=len(text), limit=MAX_MESSAGE)
    try:
        message = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise BadMessage("bad_json") from None
    if not isinstance(message, dict):
        raise BadMessage("not_object")
    if not _unicode(message):
        raise BadMessage("bad_text")  # "\ud800" and the like: no name, no answer, and nothing a frame can carry
    if message.get("v") != VERSION or type(message.get("v")) is not int:
        raise BadMessage("version", version=VERSION)
    kind = message.get("type")
    if not isinstance(kind, str):
        raise BadMessage("no_type")
    allowed = HOST_TYPES if role == "host" else SEAT_TYPES if role == "seat" else SPECTATOR_TYPES
    if kind not in allowed:
        if kind in HOST_TYPES:
            raise BadMessage("forbidden", type=kind)
        raise BadMessage("unknown_type", type=_shown(kind))
    if kind == "answer":
        if not isinstance(message.get("action"), dict):
            raise BadMessage("no_action")
        if not isinstance(message.get("question"), str):
            raise BadMessage("no_question")
    if kind == "lang" and not _name(message.get("lang")):
        raise BadMessage("bad_lang")
    if kind == "undo" and (type(message.get("steps", 1)) is not int or message.get("steps", 1) < 1):
        raise BadMessage("bad_undo")
    if kind == "correct" and (not isinstance(message.get("changes"), dict) or not message["changes"]
                              or not all(_name(key) for key in message["changes"])):
        raise BadMessage("bad_correct")
    if kind == "give_pad" and not _name(message.get("seat")):
        raise BadMessage("bad_give_pad")
    if kind == "takeover" and (type(message.get("allow")) is not bool or not _name(message.get("request", "-"))
                               or (role == "host" and not _name(message.get("seat")))):
        raise BadMessage("bad_takeover")
    if kind == "new_game":
        if not isinstance(message.get("players"), list):
            raise BadMessage("bad_players")
        if "game" in message and not _name(message["game"]):
            raise BadMessage("bad_game")
        if not isinstance(message.get("options", {}), dict | None):
            raise BadMessage("bad_options")
        if not _names(message.get("names", {})):
            raise BadMessage("bad_names")
        if type(message.get("reveal_grace", 0)) is not int:  # seconds; which the table takes is its to say
            raise BadMessage("bad_reveal_grace")
    return message


def _names(value: object) -> bool:
    """The people's names of a new game: an object of seats to short text (or null, no name). Whether each is a
    name the table takes (its length, its characters) is the table's to say (companion/names.py)."""
    if value is None:
        return True
    return isinstance(value, dict) and len(value) <= 20 and all(
        _name(seat) and (name is None or (isinstance(name, str) and len(name) <= MAX_PERSON))
        for seat, name in value.items())


def _unicode(message: dict) -> bool:
    """Every string of the message, keys too, is text UTF-8 can carry: JSON escapes can make lone surrogates."""
    try:
        dumps(message).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def safe(value: object, limit: int = 200) -> object:
    """A refusal's parameter as it may go back to the device: what came from it is cut short and never holds
    a character UTF-8 cannot carry (a lone surrogate is written as its escape)."""
    if isinstance(value, str):
        value = value[:limit]
        return value if value.isprintable() and _encodes(value) else _shown(value)
    if isinstance(value, dict):
        return {str(safe(k, MAX_NAME)): safe(v, limit) for k, v in list(value.items())[:20]}
    if isinstance(value, list | tuple):
        return [safe(v, limit) for v in value[:20]]
    return value if value is None or isinstance(value, bool | int | float) else _shown(str(value))


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _name(value: object) -> bool:
    """A name the server may act on and echo in an error: short text on one line."""
    return isinstance(value, str) and 0 < len(value) <= MAX_NAME and value.isprintable()


def _shown(text: str, limit: int = MAX_NAME) -> str:
    """Text from a device, as an error may quote it: on one line, short, and encodable (a lone surrogate,
    which str.isprintable() calls printable, is written as its escape)."""
    return "".join(c if c.isprintable() and not "\ud800" <= c <= "\udfff" else repr(c)[1:-1]
                   for c in text[:limit])


def dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def encode(kind: str, **fields) -> str:
    return dumps({"v": VERSION, "type": kind, **fields})


def state_message(view: str, connected: str, host: str | None = None) -> str:
    """A "state" message from parts already encoded (the public board is encoded once for every phone)."""
    text = f'{{"v":{VERSION},"type":"state","view":{view},"connected":{connected}'
    return text + (f',"host":{host}}}' if host is not None else "}")
