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

Those lines, and only those, are marked `act`. Secrets never enter a public line before their reveal: a private
line (a key in PRIVATE) tells its seats what only they may know (the dice they looked at). A secret answer (a
ballot, a secret destination) says only who answered; the reveal says the rest.

Speed: the engine takes thousands of steps a game, so the state holds plain tuples, one per line,
`(key, round, *values)` (a private line: `(key, round, seats, *values)`), the values in the order PARAMS names
them (or the facts a READER turns into parameters): the earlier rounds' in `State.narration`, this round's in
`State.told`, so that adding a line copies only this round's. `lines(state)` turns them into `base.Line`s with
named parameters when someone reads them, once per state.
"""

from __future__ import annotations

from companion.contract import Line, Message

ACT_FAMILIES = ("put", "remove", "place", "move", "kill", "close", "badge", "deck")

# Every line's key and the names of its values, in order. Keys built by the engine with an f-string are listed
# with every value they take.
_MOVE = ("colour", "character", "from_location", "to_location")
_STAY = ("colour", "character", "location", "to_location")
PARAMS: dict[str, tuple[str, ...]] = {
    # setup and placement
    "mall.n.badge.setup": ("to_seat",),
    "mall.n.close.setup": ("location",),
    "mall.n.deck.setup": ("count",),
    "mall.n.place.dice": ("colour", "character", "location", "dice"),
    "mall.n.place.free": ("colour", "character", "location", "dice"),
    "mall.n.setup.zombies": ("dice",),
    "mall.n.put.dice": ("location", "count"),
    "mall.n.dice.on_closed": ("location", "count"),
    "mall.n.round": ("round",),
    # answers that change nothing on the board: who answered (a secret answer says who, never what)
    "mall.n.voted": ("colour",),
    "mall.n.chose": ("colour",),
    "mall.n.pass": ("colour",),
    # a) truck search, b) Chief election, votes
    "mall.n.truck.empty": (),
    "mall.n.truck.nobody": ("location",),
    **{f"mall.n.vote.start.{p}": ("location", "colours") for p in ("truck", "chief", "victim")},
    **{f"mall.n.vote.won.{p}": ("colour", "location", "count", "against") for p in ("truck", "chief", "victim")},
    **{f"mall.n.vote.alone.{p}": ("colour", "location") for p in ("truck", "chief", "victim")},
    "mall.n.vote.closed": ("colours",),
    "mall.n.vote.ballots": ("ballots",),
    "mall.n.vote.tie": ("location", "colours", "count"),
    "mall.n.vote.tie2.truck": ("location",),
    "mall.n.vote.tie2.chief": ("colour", "location"),
    "mall.n.vote.tie2.victim": ("location", "colours"),
    "mall.n.vote.tie2.victim_colour": ("location", "colours"),
    "mall.n.vote.drawn": ("colour", "location"),
    "mall.n.deck.search1": ("colour",),
    "mall.n.deck.search2": ("colour",),
    "mall.n.deck.search3": ("colour",),
    "mall.n.deck.gift": ("colour", "to_seat"),
    "mall.n.chief.closed": ("colour", "location"),
    "mall.n.chief.empty": ("colour", "location"),
    "mall.n.badge.elected": ("to_seat",),
    "mall.n.badge.passes": ("colour", "to_seat"),
    # c) zombie arrival, d) destination
    "mall.n.arrival.roll": (),
    "mall.n.arrival.roll_chief": ("colour",),
    "mall.n.dice.seen": ("dice", "arrivals"),
    "mall.n.card.camera": ("colour",),
    "mall.n.destination.chief": ("colour", "location"),
    "mall.n.destination.none": ("colour", "location"),
    # e) reveal and move
    "mall.n.reveal.destinations": ("destinations",),
    "mall.n.reveal.dice": ("dice",),
    "mall.n.remove.fall": ("location", "count", "limit"),
    "mall.n.close.fall": ("location",),
    "mall.n.move.go": _MOVE,
    "mall.n.move.sprint": _MOVE,
    **{f"mall.n.move.{s}{why}": (*_MOVE, "location") for s in ("", "sprint_") for why in ("full", "fallen")},
    **{f"mall.n.stay.{s}{why}": _STAY for s in ("", "sprint_") for why in ("full", "fallen")},
    "mall.n.stay.sprint": ("colour", "character", "location"),
    "mall.n.stay.none": ("colour", "location"),
    "mall.n.stay.no_destination": ("colour",),
    "mall.n.card.sprint": ("colour", "location"),
    # f) zombie attack
    "mall.n.put.crowd": ("location", "count", "most"),
    "mall.n.put.pinups": ("location", "count", "most"),
    "mall.n.attraction.tie_crowd": ("locations", "most"),
    "mall.n.attraction.tie_pinups": ("locations", "most"),
    "mall.n.attraction.no_pinups": (),
    "mall.n.breach.defence": ("location", "count", "defence"),
    "mall.n.breach.supermarket": ("location", "count", "limit", "defence"),
    "mall.n.hold": ("location", "count", "defence"),
    "mall.n.repelled": ("location", "count", "defence"),
    "mall.n.repelled.parking": ("location",),
    "mall.n.parking.eats": ("location", "count"),
    "mall.n.all_hidden": ("location", "count"),
    "mall.n.all_hidden.parking": ("location", "count"),
    "mall.n.card.threat": ("colour", "location"),
    "mall.n.card.hardware": ("colour", "location"),
    "mall.n.card.hidden": ("colour", "character", "location"),
    "mall.n.remove.weapon": ("location", "count", "colour", "kills"),
    "mall.n.card.weapon_wasted": ("colour", "location", "kills"),
    "mall.n.kill.vote": ("colour", "character", "location", "count", "against"),
    "mall.n.kill.alone": ("colour", "character", "location"),
    "mall.n.kill.drawn": ("colour", "character", "location"),
    "mall.n.kill.random": ("colour", "character", "location"),
    "mall.n.kill.eaten": ("colour", "character", "location"),
    "mall.n.remove.feast": ("location", "count"),
    "mall.n.remove.ate": ("location", "count"),
    "mall.n.remove.parking": ("location", "count"),
    "mall.n.out": ("colour",),
    "mall.n.put.zombie_player": ("location", "count", "colour"),
    "mall.n.zombie_player.closed": ("colour", "location"),
    # the end
    "mall.n.rescue.few": ("count", "limit"),
    "mall.n.rescue.together": ("location",),
    "mall.n.score": ("colour", "count"),
    "mall.n.tiebreak": ("colours", "count"),
    "mall.n.cards": ("colour", "count"),
    "mall.n.winner": ("colour",),
    "mall.n.winners": ("colours",),
}
PRIVATE = frozenset({"mall.n.dice.seen"})  # the entry's third item is the seats that may read it
# Messages only found inside another line's parameters (lists of them are joined).
NESTED: dict[str, tuple[str, ...]] = {
    "mall.n.ballot": ("voter", "count", "candidate"),
    "mall.n.ballot.none": ("voter", "count"),
    "mall.n.destination": ("colour", "location"),
    "mall.n.destination.zombie": ("colour", "location"),
    "mall.n.dice.to": ("count", "location"),
    "mall.n.dice.to_closed": ("count", "location"),
}
ACT = frozenset(key for key in PARAMS if key.split(".")[2] in ACT_FAMILIES)

Entry = tuple  # (key, round, *values), or (key, round, seats, *values) for a private key


def _ballots(ballot) -> dict:
    """Who voted what, with his weight (a voter who did not vote abstains), in the ballot's order."""
    cast = ballot.ballots
    return {"ballots": [{"key": "mall.n.ballot", "params": {"voter": v, "count": w, "candidate": cast[v]}}
                        if v in cast else {"key": "mall.n.ballot.none", "params": {"voter": v, "count": w}}
                        for v, w in ballot.weights.items()]}


def _destinations(order, destinations, zombie_players) -> dict:
    """Every destination, in the order given (clockwise from the Chief); zombie players said as such."""
    return {"destinations": [
        {"key": "mall.n.destination.zombie" if p in zombie_players else "mall.n.destination",
         "params": {"colour": p, "location": destinations[p]}} for p in order if p in destinations]}


def _dice_seen(dice, closed) -> dict:
    return {"dice": list(dice), "arrivals": dice_arrivals(dice, closed)}


# Keys whose entries keep the facts (the revealed Ballot, the destinations, the dice and the closed locations)
# rather than their parameters: these make the parameters when the line is read.
READERS = {
    "mall.n.vote.ballots": _ballots,  # entry values: (the revealed Ballot,)
    "mall.n.reveal.destinations": _destinations,  # (seats in order, {seat: location}, zombie players)
    "mall.n.dice.seen": _dice_seen,  # (dice, closed locations)
}


def params(entry: Entry) -> dict:
    """The named parameters of an entry (tuples become lists: parameters are JSON values)."""
    key = entry[0]
    values = entry[3:] if key in PRIVATE else entry[2:]
    reader = READERS.get(key)
    if reader is not None:
        return reader(*values)
    return {name: list(value) if type(value) is tuple else value
            for name, value in zip(PARAMS[key], values, strict=True)}


def nested(key: str, **values: object) -> dict:
    """A message inside a parameter (the catalogue renders it, and joins a list of them)."""
    return {"key": key, "params": values}


def dice_arrivals(dice: tuple[int, ...], closed: frozenset[int]) -> list[dict]:
    """What the dice bring, location by location: "2 zombies to 4 Parking", "1 die on closed 2 Cachou"."""
    return [nested("mall.n.dice.to_closed" if loc in closed else "mall.n.dice.to", count=dice.count(loc), location=loc)
            for loc in sorted(set(dice))]


def dice_lines(round_: int, dice: tuple[int, ...], closed: frozenset[int]) -> tuple[Entry, ...]:
    """One line per location the dice show: put its zombies (or none, on a closed location)."""
    return tuple(("mall.n.dice.on_closed" if loc in closed else "mall.n.put.dice", round_, loc, dice.count(loc))
                 for loc in sorted(set(dice)))


# -- reading ----------------------------------------------------------------------------------------------------

_new = object.__new__


def to_line(entry: Entry) -> Line:
    """The `base.Line` of an entry (built without the dataclass __init__; equal to `base.line(...)`)."""
    key = entry[0]
    message = _new(Message)
    fields = message.__dict__
    fields["key"] = key
    fields["params"] = params(entry)
    new = _new(Line)
    fields = new.__dict__
    fields["message"] = message
    fields["round"] = entry[1]
    fields["act"] = key in ACT
    fields["seats"] = entry[2] if key in PRIVATE else ()
    return new


def lines(state) -> tuple[Line, ...]:
    """The whole game's narration as Lines, oldest first (worked out once per state).

    The cache rides in the state's __dict__ and is copied to the states evolved from it: it is used only for
    the very entries it was made from, and extended when the state's entries continue them.
    """
    cache = state.__dict__.get("_lines")
    if cache is not None and cache[0] is state.narration and cache[1] is state.told:
        return cache[3]
    told = entries(state)
    if cache is not None and told[:len(cache[2])] == cache[2]:  # equal entries make equal lines
        made = cache[3] + tuple(map(to_line, told[len(cache[2]):]))
    else:
        made = tuple(map(to_line, told))
    state.__dict__["_lines"] = (state.narration, state.told, told, made)
    return made


def entries(state) -> tuple[Entry, ...]:
    """Every entry of the game's narration, oldest first."""
    return state.narration + state.told


__all__ = ["ACT", "ACT_FAMILIES", "NESTED", "PARAMS", "PRIVATE", "READERS", "Entry", "dice_arrivals", "dice_lines",
           "entries", "lines", "nested", "params", "to_line"]
