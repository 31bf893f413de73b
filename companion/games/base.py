"""What every game's rules share: the error a player reads, the prompt, and what the cup is asked for."""

from __future__ import annotations

from dataclasses import dataclass


class IllegalAction(ValueError):
    """An answer the rules refuse; the message is written for the player who gave it."""


@dataclass(frozen=True)
class Prompt:
    """What the rules wait for from players: who is asked, what kind of answer, and the legal answers.

    kind is one of: "ballot" (secret vote), "location" (a place to go), "character" (which character),
    "card" (a card window: play a card or pass), "gift" (who receives a card).
    options maps each seat asked to its legal answers, each written as a complete action.
    """

    kind: str
    options: dict[str, list[dict]]
    secret: bool = False  # answers stay hidden until everyone asked has answered
    key: tuple = ()  # where the game stands in its questions (see `id`)

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(self.options)

    @property
    def id(self) -> str:
        """Names this question: the same while it stays open, new once it is answered or closed."""
        return "-".join(str(part) for part in self.key)


@dataclass(frozen=True)
class CupRequest:
    """Randomness the rules need from the table's cup.

    kind "roll": `count` dice, seen only by `visible_to` until revealed (public when `public`).
    kind "pick": a uniform random index in range(count), for a random choice between tied candidates.
    """

    kind: str
    count: int
    public: bool = True
    visible_to: tuple[str, ...] = ()
