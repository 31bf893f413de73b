"""The narration of Mall of Horror: what happened, and what the table must do with the physical pieces.

The engine adds `Line`s to `State.narration` as it goes, a message key and plain JSON parameters each (the rules
never render text). Keys are `mall.n.<...>`. A line marked `act` asks the table to do one thing to the board,
named by its key's family, with every figure and count explicit, so that folding the act lines over an empty
board gives the board the companion keeps (see `ACT_FAMILIES`):

    mall.n.put.<why>     put `count` zombies on `location`
    mall.n.remove.<why>  remove `count` zombies from `location`
    mall.n.place.<why>   place `colour`'s `character` on `location`
    mall.n.move.<why>    move `colour`'s `character` from `from_location` to `to_location`
    mall.n.kill.<why>    remove `colour`'s `character` from `location` (it is dead)
    mall.n.close.<why>   close `location` for the rest of the game
    mall.n.badge.<why>   give the Chief of Security badge to `to_seat`
    mall.n.deck.<why>    cards: deal, draw from the truck, give (no board effect)

Secrets never enter a public line before their reveal: a private line (`seats`) tells a seat what only it may
know (the dice it looked at).

Lines are built without dataclass __init__ (the engine makes hundreds per game); they equal `base.line(...)`.
"""

from __future__ import annotations

from companion.games.base import Line, Message

ACT_FAMILIES = ("put", "remove", "place", "move", "kill", "close", "badge", "deck")

_new = object.__new__


def _line(round_: int, key: str, params: dict, act: bool, seats: tuple[str, ...]) -> Line:
    message = _new(Message)
    fields = message.__dict__
    fields["key"] = key
    fields["params"] = params
    new = _new(Line)
    fields = new.__dict__
    fields["message"] = message
    fields["round"] = round_
    fields["act"] = act
    fields["seats"] = seats
    return new


def tell(round_: int, key: str, **params: object) -> Line:
    """A public line of what happened."""
    return _line(round_, key, params, False, ())


def act(round_: int, key: str, **params: object) -> Line:
    """A public line that asks the table to change the board (one effect, see the families above)."""
    return _line(round_, key, params, True, ())


def private(round_: int, seats: tuple[str, ...], key: str, **params: object) -> Line:
    """A line only `seats` may read."""
    return _line(round_, key, params, False, seats)


def nested(key: str, **params: object) -> dict:
    """A message inside a parameter (the catalogue renders it, and joins a list of them)."""
    return {"key": key, "params": params}


def dice_arrivals(dice: tuple[int, ...], closed: frozenset[int]) -> list[dict]:
    """What the dice bring, location by location: "2 zombies to 4 Parking", "1 die on closed 2 Cachou"."""
    out = []
    for loc in sorted(set(dice)):
        n = dice.count(loc)
        out.append(nested("mall.n.dice.to_closed" if loc in closed else "mall.n.dice.to", count=n, location=loc))
    return out


def dice_lines(round_: int, dice: tuple[int, ...], closed: frozenset[int]) -> list[Line]:
    """One line per location the dice show: put its zombies (or none, on a closed location)."""
    out = []
    for loc in sorted(set(dice)):
        n = dice.count(loc)
        if loc in closed:
            out.append(tell(round_, "mall.n.dice.on_closed", count=n, location=loc))
        else:
            out.append(act(round_, "mall.n.put.dice", count=n, location=loc))
    return out


__all__ = ["ACT_FAMILIES", "act", "dice_arrivals", "dice_lines", "nested", "private", "tell"]
