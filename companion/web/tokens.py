"""Who is who on the network: a random 128-bit token per seat, one for the host and one for spectators.

Tokens live in the save file so that after a power cut every phone gets its seat back with the URL it has.
A new game makes new seat tokens; the host and spectator tokens stay with the box (the host's can be renewed,
which sends every other holder of the old host link away).

A seat's link may be scanned by anyone who sees its QR code, so the first device that opens it is bound to the
seat (a hash of a key the page keeps); another device gets the seat only once the table allows it. The bindings
are kept in the save file with the seat tokens: after a restart the same phones get their seats back.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from dataclasses import dataclass
from typing import Any

from companion.store import EventStore, StorageError

log = logging.getLogger("companion.web")


def new_token() -> str:
    return secrets.token_urlsafe(16)  # 16 random bytes: 128 bits


def device_id(key: str) -> str:
    """What the save file keeps of a device's key: a hash, never the key a page presents."""
    return hashlib.sha256(key.encode("ascii")).hexdigest()[:32]


@dataclass(frozen=True)
class Pass:
    """What a token opens: a seat's wheel, the host's board with the controls, or the read-only board."""

    role: str  # "seat", "host" or "spectator"
    seat: str | None = None


class Tokens:
    def __init__(self, store: EventStore | None = None):
        self.store = store
        self._unsaved: dict[str, Any] = {}  # settings the save file did not take yet (a full disk)
        self.host = self._kept("host_token")
        self.spectator = self._kept("spectator_token")
        self.seats: dict[str, str] = {}
        self.devices: dict[str, str] = {}  # seat -> the device bound to it (device_id)
        self.game_id: int | None = None

    def _kept(self, key: str) -> str:
        token = self.store.setting(key) if self.store else None
        if not isinstance(token, str):
            token = new_token()
            self._save(key, token)
        return token

    def _save(self, key: str, value: Any) -> None:
        """Keep a setting in the save file; if it takes no write now, keep it here until `flush` can."""
        if self.store is None:
            return
        self._unsaved[key] = value
        self.flush()

    @property
    def unsaved(self) -> bool:
        return bool(self._unsaved)

    def flush(self) -> None:
        """Store what the save file could not take before (called again once storage works)."""
        for key, value in list(self._unsaved.items()):
            try:
                self.store.set_setting(key, value)
            except StorageError as error:
                log.warning("seat links not stored yet: %s", error)
                return
            self._unsaved.pop(key, None)

    def for_game(self, game_id: int | None, players: list[str]) -> None:
        """The seat tokens of a game: kept ones when it is resumed, new ones for a new game."""
        key = f"seat_tokens:{game_id}"
        self.game_id = game_id
        kept = self.store.setting(key) if self.store and game_id is not None else None
        devices = self.store.setting(f"seat_devices:{game_id}") if self.store and game_id is not None else None
        if isinstance(kept, dict) and set(kept) == set(players):
            self.seats = dict(kept)
            self.devices = {s: d for s, d in (devices or {}).items() if s in kept and isinstance(d, str)}
            return
        self.seats = {seat: new_token() for seat in players}
        self.devices = {}
        if game_id is not None:
            self._save(key, self.seats)

    def bind(self, seat: str, device: str) -> None:
        """`device` (a device_id) is now the one device of `seat`."""
        self.devices[seat] = device
        if self.game_id is not None:
            self._save(f"seat_devices:{self.game_id}", dict(self.devices))

    def renew_host(self) -> str:
        """A new host link: the old one opens nothing any more."""
        self.host = new_token()
        self._save("host_token", self.host)
        return self.host

    def open(self, token: str) -> Pass | None:
        """What the token opens, or None for an unknown token (compared in constant time)."""
        if not token.isascii():  # compare_digest takes ASCII text only; no token of ours is anything else
            return None
        if secrets.compare_digest(token, self.host):
            return Pass("host")
        if secrets.compare_digest(token, self.spectator):
            return Pass("spectator")
        for seat, seat_token in self.seats.items():
            if secrets.compare_digest(token, seat_token):
                return Pass("seat", seat)
        return None
