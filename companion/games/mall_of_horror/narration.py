"""The narration of Mall of Horror: what happened, and what the table must do with the physical pieces.

The engine tells each step as it goes: a message key (`mall.n.<...>`) and plain JSON parameters (the rules
never render text). A line asks the table to do one thing to the board when its key's family says an effect,
with every figure and count explicit, so that folding those lines over an empty board gives the board the
companion keeps:

    mall.n.put.<why>     put `count` zombies on `location`
    mall.n.remove.<why>  remove `count` zombies from `location`
    mall.n.place.<why>   place `colour`'s `character` on `location`
    mall.n.move.<why>    move `colour`'s `character` from `from_location` to `to_location`
    mall.n.kill.<why>    remove `colour`'s `character` from `location` (it is dead)
    mall.n.close.<why>   close `location` for the rest of the game
    mall.n.badge.<why>   give the Chief of Security badge to `to_seat`
    mall.n.deck.<why>    cards: deal, draw from the truck, give (no board effect)
    mall.n.card.<card>   a card played: discard it (no board effect; a Weapon that kills is a remove line)

Those lines, and only those, are marked `act` (ACT_FAMILIES: the key's third part). Secrets never enter a public
line before their reveal: a private line names its seats, who alone may read it (the dice they looked at). A
secret answer (a ballot, a secret destination) says only who answered; the reveal says the rest.

Each line is a `contract.Line`, made when it is said, with its parameters named where it is said. Parameters are
JSON values as `Line.to_json()` sends them (lists, never tuples); a message inside a parameter is `nested`, and a
list of them is joined. Every key, and the names its text uses, are in the catalogue (locale/*/narration.po); the
tests read the keys and parameter names said here and in the engine against it, and each key's act flag against
its family.

A line said on its own is said with the state's `say` (contract.Narrated): the setup, and the rare steps (a
truck or a Security HQ with nobody to vote, a colour drawn by lot). The steps of every answer and of the attack,
thousands a game, make their lines with `contract.line` and add them in the one evolve that makes the step's
state: a second evolve per line made the rules bench several per cent slower (callgrind). The state keeps this
round's lines in `State.narration`, where `say` adds them, and the earlier rounds' in `State.earlier` (so adding a
line copies only this round's); `lines(state)` is the whole game's, oldest first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from companion.ballot import Ballot
from companion.contract import Line, line

ACT_FAMILIES = ("put", "remove", "place", "move", "kill", "close", "badge", "deck", "card")

def nested(key: str, **values: object) -> dict:
    """A message inside a parameter (the catalogue renders it, and joins a list of them)."""
    return {"key": key, "params": values}


def ballot_messages(ballot: Ballot) -> list[dict]:
    """Who voted what, with his weight (a voter who did not vote abstains), in the ballot's order."""
    cast = ballot.ballots
    return [nested("mall.n.ballot", voter=v, count=w, candidate=cast[v]) if v in cast
            else nested("mall.n.ballot.none", voter=v, count=w) for v, w in ballot.weights.items()]


def destination_messages(order: Iterable[str], chosen: Mapping[str, int], zombie_players: frozenset[str]) -> list[dict]:
    """Every destination, in the order given (clockwise from the Chief); zombie players said as such."""
    return [nested("mall.n.destination.zombie", colour=p, location=chosen[p]) if p in zombie_players
            else nested("mall.n.destination", colour=p, location=chosen[p]) for p in order if p in chosen]


def dice_arrivals(dice: tuple[int, ...], closed: frozenset[int]) -> list[dict]:
    """Where the dice bring zombies, location by location ("2 zombies to 4 Parking"): a die on a closed location
    brings none, so the peek does not name it (the dice themselves are shown beside)."""
    arrivals = [nested("mall.n.dice.to", count=dice.count(loc), location=loc)
                for loc in sorted(set(dice)) if loc not in closed]
    return arrivals or [nested("mall.n.dice.nowhere")]


def dice_lines(round_: int, dice: tuple[int, ...], closed: frozenset[int]) -> tuple[Line, ...]:
    """One line per location the dice show: put its zombies (or none, on a closed location)."""
    return tuple(line(round_, "mall.n.dice.on_closed", location=loc, count=dice.count(loc)) if loc in closed
                 else line(round_, "mall.n.put.dice", act=True, location=loc, count=dice.count(loc))
                 for loc in sorted(set(dice)))


def lines(state) -> tuple[Line, ...]:
    """The whole game's narration, oldest first: the earlier rounds' lines, then this round's."""
    return state.earlier + state.narration


__all__ = ["ACT_FAMILIES", "ballot_messages", "destination_messages", "dice_arrivals", "dice_lines", "lines", "nested"]
