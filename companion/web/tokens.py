"""Who is who on the network: a random 128-bit token per seat, one for the host and one for spectators.

Tokens live in the save file so that after a power cut every phone gets its seat back with the URL it has.
A new game makes new seat tokens; the host and spectator tokens stay with the box.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from companion.store import EventStore


def new_token() -> str:
    return secrets.token_urlsafe(16)  # 16 random bytes: 128 bits


@dataclass(frozen=True)
class Pass:
    """What a token opens: a seat's wheel, the host's board with the controls, or the read-only board."""

    role: str  # "seat", "host" or "spectator"
    seat: str | None = None


class Tokens:
    def __init__(self, store: EventStore | None = None):
        self.store = store
        self.host = self._kept("host_token")
        self.spectator = self._kept("spectator_token")
        self.seats: dict[str, str] = {}

    def _kept(self, key: str) -> str:
        token = self.store.setting(key) if self.store else None
        if not isinstance(token, str):
            token = new_token()
            if self.store:
                self.store.set_setting(key, token)
        return token

    def for_game(self, game_id: int | None, players: list[str]) -> None:
        """The seat tokens of a game: kept ones when it is resumed, new ones for a new game."""
        key = f"seat_tokens:{game_id}"
        kept = self.store.setting(key) if self.store and game_id is not None else None
        if isinstance(kept, dict) and set(kept) == set(players):
            self.seats = dict(kept)
            return
        self.seats = {seat: new_token() for seat in players}
        if self.store and game_id is not None:
            self.store.set_setting(key, self.seats)

    def open(self, token: str) -> Pass | None:
        """What the token opens, or None for an unknown token (compared in constant time)."""
        if secrets.compare_digest(token, self.host):
            return Pass("host")
        if secrets.compare_digest(token, self.spectator):
            return Pass("spectator")
        for seat, seat_token in self.seats.items():
            if secrets.compare_digest(token, seat_token):
                return Pass("seat", seat)
        return None
