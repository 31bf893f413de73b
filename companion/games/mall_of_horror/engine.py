"""How a game of Mall of Horror moves: answers and dice in, the next state out.

`apply(state, event)` takes one accepted answer (an action), a roll of the cup or a random pick, and then runs
every step that needs no decision, so the state it returns always waits for players or for the cup. Steps are
deterministic: the same events always fold to the same state.
"""

from __future__ import annotations

from companion.ballot import Ballot
from companion.games.base import IllegalAction

from . import prompts
from .board import (
    CAMERA,
    DECK,
    DECK_SIZE,
    FALL_AT,
    HARDWARE,
    HIDDEN,
    LOCATIONS,
    PARKING,
    SECURITY_HQ,
    SPRINT,
    THREAT,
    WEAPON,
    card_key,
    characters_for,
)
from .state import Character, Options, State, Vote, Window, evolve

PHASES = ("truck", "chief", "arrival", "destination", "move", "attack")


# -- a new game -----------------------------------------------------------------------------------------------


def new_game(players: list[str] | tuple[str, ...], options: Options | None = None) -> State:
    """Setup: Cachou closed at 3-4 players, one card each, the Chief is the first (oldest) player."""
    players = prompts.check_players(players)
    hands = dict.fromkeys(players, 1)
    state = State(
        players=players,
        options=options or Options(),
        chief=players[0],
        characters=tuple(Character(p, kind, 0) for p in players for kind in characters_for(len(players))),
        zombies=(0,) * 6,
        closed=frozenset({2}) if len(players) <= 4 else frozenset(),
        hands=hands,
        deck=DECK_SIZE - len(players),
        played=dict.fromkeys(DECK, 0),
        phase="placement",
        step="roll",
    )
    return advance(state)


# -- events ---------------------------------------------------------------------------------------------------


def apply(state: State, event: dict) -> State:
    """The state after one event, advanced to the next decision."""
    return advance(apply_one(state, event))


def apply_one(state: State, event: dict) -> State:
    """The state right after one event, before the automatic steps that follow it."""
    if not isinstance(event, dict):
        raise IllegalAction("mall.refuse.event_not_object", value=repr(event))
    if state.over:
        raise IllegalAction("mall.refuse.over")
    if "roll" in event:
        return _on_roll(state, event["roll"])
    if "pick" in event:
        return _on_pick(state, event["pick"])
    action = prompts.check(state, event)  # raises IllegalAction with the player's reason
    return _on_action(state, action)


def advance(state: State) -> State:
    """Run automatic steps (and forced choices) until the state waits for a decision or the cup."""
    last = state
    for last in steps(state):  # noqa: B007 — only the final state is wanted
        pass
    return last


def steps(state: State):
    """Every intermediate state of `advance`, the last one waiting for a decision or the cup."""
    yield state
    while not state.over:
        nxt = _auto(state)
        if nxt is None:
            forced = prompts.forced_action(state)
            if forced is None:
                return
            nxt = _on_action(state, forced)
        state = nxt
        yield state


def cup_request(state: State):
    """The randomness the state waits for from the cup, or None."""
    return prompts.cup_request(state)


# -- the cup --------------------------------------------------------------------------------------------------


def _on_roll(state: State, dice: object) -> State:
    request = prompts.cup_request(state)
    if request is None or request.kind != "roll":
        raise IllegalAction("mall.refuse.no_roll")
    if (
        not isinstance(dice, list | tuple)
        or len(dice) != request.count
        or not all(type(d) is int and 1 <= d <= 6 for d in dice)
    ):
        raise IllegalAction("mall.refuse.bad_roll", count=request.count, value=repr(dice))
    dice = tuple(dice)
    if state.phase == "placement" and state.step == "roll":
        return evolve(state, dice=dice, step="place")
    if state.phase == "placement" and state.step == "zombies":
        zombies = list(state.zombies)
        for d in dice:
            if state.is_open(d):
                zombies[d - 1] += 1
        return evolve(state, zombies=tuple(zombies), round=1, phase="truck", step="start", dice=None)
    # The four zombie dice, rolled in secret.
    lookers = frozenset({state.chief}) if state.elected else frozenset()
    if state.phase in ("destination", "move"):  # a position entered without the dice
        return evolve(state, cup=dice, lookers=lookers, step="start")
    seats = [p for p in state.clockwise() if state.hands[p] > 0 and p not in lookers]
    window = Window("camera", 0, tuple(seats)) if seats else None
    return evolve(state, cup=dice, lookers=lookers, window=window, step="window" if window else "done")


def _on_pick(state: State, index: object) -> State:
    request = prompts.cup_request(state)
    if request is None or request.kind != "pick":
        raise IllegalAction("mall.refuse.no_pick")
    if type(index) is not int or not 0 <= index < request.count:
        raise IllegalAction("mall.refuse.bad_pick", high=request.count - 1)
    if state.options.second_tie_victim == "colour":
        colour = state.lottery[index][0]
        return evolve(state, lottery=(), victim_colour=colour, step="victim")
    colour, kind = state.lottery[index]
    return _kill(evolve(state, lottery=()), colour, kind)


# -- answers --------------------------------------------------------------------------------------------------


def _on_action(state: State, action: dict) -> State:
    seat = action.get("seat")
    if "close" in action:
        return _reveal(state, state.vote)
    if "vote" in action:
        ballot = state.vote.ballot.cast(seat, action["vote"])
        old = state.vote
        vote = Vote(old.purpose, old.location, ballot, old.stage, old.threats)
        return _reveal(state, vote) if ballot.complete else evolve(state, vote=vote)
    if "give" in action:
        hands = {**state.hands, action["give"]: state.hands[action["give"]] + 1}
        return evolve(state, hands=hands, searcher=None, drawn=0, phase="chief", step="start")
    if "play" in action:
        return _play(state, seat, action)
    if "pass" in action:
        return _next_in_window(state)
    if state.phase == "placement":
        return _place(state, seat, action["character"], action["go"])
    if "go" in action:
        return _choose_destination(state, seat, action["go"])
    if "move" in action:
        return _move(state, seat, action["move"])
    if "victim" in action:
        return _kill(state, seat, action["victim"])
    raise AssertionError(f"unhandled action {action}")  # prompts.check lets only known actions through


def _place(state: State, seat: str, kind: str, location: int) -> State:
    characters = tuple(
        Character(seat, kind, location) if (c.colour, c.kind) == (seat, kind) else c for c in state.characters
    )
    state = evolve(state, characters=characters, dice=None, turn=state.turn + 1)
    if all(c.location for c in characters):
        return evolve(state, step="zombies", turn=0)
    return evolve(state, step="roll")


def _choose_destination(state: State, seat: str, location: int) -> State:
    destinations = {**state.destinations, seat: location}
    if state.step == "chief":
        return evolve(state, destinations=destinations, step="secret")
    if all(p in destinations for p in state.players):
        return evolve(state, destinations=destinations, phase="move", step="start")
    return evolve(state, destinations=destinations)


def _move(state: State, seat: str, kind: str) -> State:
    target = state.sprint if state.sprint is not None else state.destinations[seat]
    mover = next(c for c in state.characters if (c.colour, c.kind) == (seat, kind))
    if mover.location != target:
        if not state.is_open(target) or not state.has_room(target):
            target = PARKING  # full or fallen: the character runs to the Parking (or stays there)
        mover_moved = Character(mover.colour, mover.kind, target, mover.hidden)
        state = evolve(state, characters=tuple(mover_moved if c is mover else c for c in state.characters))
    state = evolve(state, sprint=None, turn=state.turn + 1, step="move")
    return _end_if_rescued(state, "immediate")


def _play(state: State, seat: str, action: dict) -> State:
    kind = action["play"]
    key = card_key(kind, action.get("kills", 0))
    state = evolve(
        state,
        hands={**state.hands, seat: state.hands[seat] - 1},
        played={**state.played, key: state.played[key] + 1},
    )
    if kind == CAMERA:
        return evolve(state, lookers=state.lookers | {seat})
    if kind == SPRINT:
        return evolve(state, sprint=action["go"], step="sprint")
    location = state.window.location
    if kind == THREAT:
        return evolve(state, threats={**state.threats, seat: state.threats.get(seat, 0) + 1})
    if kind == HARDWARE:
        return evolve(state, hardware={**state.hardware, location: state.hardware.get(location, 0) + 1})
    if kind == HIDDEN:
        who = (seat, action["character"])
        characters = tuple(
            Character(c.colour, c.kind, c.location, True) if (c.colour, c.kind) == who else c for c in state.characters
        )
        return evolve(state, characters=characters)
    if kind == WEAPON:
        zombies = list(state.zombies)
        zombies[location - 1] = max(0, zombies[location - 1] - action["kills"])
        return evolve(state, zombies=tuple(zombies))
    raise AssertionError(kind)


def _next_in_window(state: State) -> State:
    window = state.window
    if window.turn + 1 < len(window.seats):
        return evolve(state, window=Window(window.kind, window.location, window.seats, window.turn + 1))
    return evolve(state, window=None, step="done" if window.kind == "camera" else "after_window")


# -- votes ----------------------------------------------------------------------------------------------------


def _start_vote(state: State, purpose: str, location: int) -> State:
    """A vote among the players with a visible character at the location; one candidate wins outright."""
    candidates = state.visible_colours(location)
    if len(candidates) == 1:
        return _vote_won(state, purpose, location, candidates[0])
    weights = {p: state.vote_weight(p, location) + state.threats.get(p, 0) for p in candidates}
    vote = Vote(purpose, location, Ballot(tuple(candidates), weights), 1, dict(state.threats))
    return evolve(state, vote=vote, threats={}, step="vote")


def _reveal(state: State, vote: Vote) -> State:
    leaders = vote.ballot.leaders()
    state = evolve(state, vote=None, revealed=vote)
    if len(leaders) == 1:
        return _vote_won(state, vote.purpose, vote.location, leaders[0])
    if vote.stage == 1:
        return evolve(state, vote=_revote(state, vote, leaders), step="vote")
    # Second tie.
    if vote.purpose == "truck":
        return evolve(state, phase="chief", step="start")
    if vote.purpose == "chief":
        return evolve(state, elected=False, phase="arrival", step="start")
    if state.options.second_tie_victim == "colour":
        lottery = tuple((colour, "") for colour in leaders)
    else:
        lottery = tuple(
            (c.colour, c.kind) for p in leaders for c in state.of(p) if c.location == vote.location and not c.hidden
        )
    return evolve(state, lottery=lottery, step="pick")


def _revote(state: State, vote: Vote, tied: tuple[str, ...]) -> Vote:
    """Re-vote among the tied colours: same voters, and every player with no character there joins with 1."""
    weights = dict(vote.ballot.weights)
    if not state.options.threats_carry_to_revote:
        weights = {p: w - vote.threats.get(p, 0) for p, w in weights.items()}
    present = {c.colour for c in state.at(vote.location)}
    for p in state.clockwise():
        if p not in weights and p not in present:
            weights[p] = 1
    return Vote(vote.purpose, vote.location, Ballot(tied, weights), 2, vote.threats)


def _vote_won(state: State, purpose: str, location: int, winner: str) -> State:
    if purpose == "truck":
        drawn = min(3, state.deck)
        hands = {**state.hands, winner: state.hands[winner] + 1}
        state = evolve(state, hands=hands, deck=state.deck - min(drawn, 2))  # a third card goes back under
        if drawn >= 2:
            return evolve(state, searcher=winner, drawn=drawn, step="gift")
        return evolve(state, phase="chief", step="start")
    if purpose == "chief":
        return evolve(state, chief=winner, elected=True, phase="arrival", step="start")
    return evolve(state, victim_colour=winner, step="victim")


# -- deaths and the end ---------------------------------------------------------------------------------------


def _kill(state: State, colour: str, kind: str) -> State:
    victim = next(c for c in state.characters if (c.colour, c.kind) == (colour, kind))
    characters = tuple(c for c in state.characters if c is not victim)
    zombies = list(state.zombies)
    if victim.location == PARKING:
        zombies[PARKING - 1] -= 1  # this zombie has eaten; the next one gets its own vote
        step = "breach"
    else:
        zombies[victim.location - 1] = 0  # after the feast all the zombies there leave
        step = "next"
    state = evolve(state, characters=characters, zombies=tuple(zombies), victim_colour=None, step=step)
    if not state.alive(state.chief):
        state = evolve(state, chief=_next_living(state, state.chief))
    return _end_if_rescued(state, "immediate")


def _next_living(state: State, colour: str) -> str:
    for p in state.clockwise(colour)[1:]:
        if state.alive(p):
            return p
    return colour  # nobody lives: the game is over anyway


def _end_if_rescued(state: State, timing: str) -> State:
    if timing == "immediate" and state.options.end_timing != "immediate":
        return state
    if not state.rescued():
        return state
    return finish(state)


def finish(state: State) -> State:
    """The end: the highest score wins; a tie goes to the most cards in hand; still tied, it is shared."""
    best = max((state.score(p), state.hands[p]) for p in state.players)
    winners = tuple(p for p in state.players if (state.score(p), state.hands[p]) == best)
    return evolve(state, phase="over", step="over", winners=winners, vote=None, window=None)


# -- automatic steps ------------------------------------------------------------------------------------------


def _auto(state: State) -> State | None:
    """One step that needs no decision, or None when the state waits for players or the cup."""
    phase, step = state.phase, state.step
    if phase == "placement":
        return None  # the cup rolls, players place
    if step == "start" and state.options.end_timing == "immediate" and state.rescued():
        return finish(state)
    handler = _AUTO.get((phase, step))
    return handler(state) if handler else None


def _truck_start(state: State) -> State:
    state = evolve(state, elected=False)
    if state.deck == 0 or not state.visible_colours(PARKING):
        return evolve(state, phase="chief", step="start")
    return _start_vote(state, "truck", PARKING)


def _chief_start(state: State) -> State:
    if not state.is_open(SECURITY_HQ) or not state.visible_colours(SECURITY_HQ):
        return evolve(state, elected=False, phase="arrival", step="start")
    return _start_vote(state, "chief", SECURITY_HQ)


def _arrival_start(state: State) -> State:
    return evolve(state, step="roll")


def _arrival_done(state: State) -> State:
    return evolve(state, phase="destination", step="start")


def _destination_start(state: State) -> State:
    if state.cup is None:
        return evolve(state, step="roll")  # a position entered without the dice: roll them now
    zombie_players = frozenset(p for p in state.players if not state.alive(p))
    step = "chief" if state.elected and state.chief not in state.destinations else "secret"
    state = evolve(state, zombie_players=zombie_players, step=step)
    if step == "secret" and all(p in state.destinations for p in state.players):
        return evolve(state, phase="move", step="start")
    return state


def _move_start(state: State) -> State:
    """Reveal the destinations, then the dice: one zombie per die, then empty locations may fall."""
    if state.cup is None:
        return evolve(state, step="roll")
    zombies = list(state.zombies)
    for d in state.cup:
        if state.is_open(d):
            zombies[d - 1] += 1
    closed = set(state.closed)
    for loc in LOCATIONS:
        if loc != PARKING and loc not in closed and not state.at(loc) and zombies[loc - 1] >= FALL_AT:
            closed.add(loc)
            zombies[loc - 1] = 0
    order = tuple(p for p in state.clockwise() if state.alive(p))
    return evolve(state, zombies=tuple(zombies), closed=frozenset(closed), order=order, turn=0, step="move")


def _move_turn(state: State) -> State | None:
    if state.turn >= len(state.order):
        return evolve(state, phase="attack", step="start", order=(), turn=0)
    if not prompts.move_options(state, state.order[state.turn]):
        return evolve(state, turn=state.turn + 1)  # nothing of his can move
    return None


def _attack_start(state: State) -> State:
    """Attraction: the most characters and the most Pin-ups each draw one more zombie, unless tied."""
    zombies = list(state.zombies)
    for counts in (state.crowds(), state.pinups()):
        loc = state.most(counts)
        if loc is not None:
            zombies[loc - 1] += 1
    return evolve(state, zombies=tuple(zombies), location=1, step="breach")


def _breach(state: State) -> State:
    """Open the card window where the zombies break in (in Parking: before each of its votes)."""
    loc = state.location
    if loc > 6:
        return _round_end(state)
    if not state.is_open(loc) or not state.at(loc):
        return _next_location(state)
    if loc == PARKING:
        if state.zombies[loc - 1] == 0 or not state.visible_colours(loc):
            return _next_location(state)
    elif not state.breached(loc):
        return _next_location(state)
    present = {c.colour for c in state.at(loc)}
    seats = tuple(p for p in state.clockwise() if p in present and state.hands[p] > 0)
    if not seats:
        return evolve(state, step="after_window")
    return evolve(state, window=Window("attack", loc, seats), step="window")


def _after_window(state: State) -> State:
    loc = state.location
    still = state.zombies[loc - 1] > 0 if loc == PARKING else state.breached(loc)
    if not still or not state.visible_colours(loc):
        return evolve(state, step="next", threats={})  # no breach, or everyone there is hidden
    return _start_vote(state, "victim", loc)


def _next_location(state: State) -> State:
    loc = state.location
    if loc == PARKING:
        zombies = list(state.zombies)
        zombies[PARKING - 1] = 0  # the Parking's zombies leave, even if they ate nobody
        state = evolve(state, zombies=tuple(zombies))
    return evolve(state, location=loc + 1, step="breach", threats={})


def _round_end(state: State) -> State:
    """Zombie players add their zombies; then a new round (unless rescue has come)."""
    zombies = list(state.zombies)
    for p in state.zombie_players:
        loc = state.destinations.get(p)
        if loc and state.is_open(loc):
            zombies[loc - 1] += 1
    state = evolve(state, zombies=tuple(zombies))
    if state.rescued():
        return finish(state)
    return evolve(
        state,
        round=state.round + 1,
        phase="truck",
        step="start",
        elected=False,
        cup=None,
        lookers=frozenset(),
        destinations={},
        hardware={},
        threats={},
        zombie_players=frozenset(),
        location=0,
        characters=tuple(Character(c.colour, c.kind, c.location) if c.hidden else c for c in state.characters),
    )


_AUTO = {
    ("truck", "start"): _truck_start,
    ("chief", "start"): _chief_start,
    ("arrival", "start"): _arrival_start,
    ("arrival", "done"): _arrival_done,
    ("destination", "start"): _destination_start,
    ("move", "start"): _move_start,
    ("move", "move"): _move_turn,
    ("attack", "start"): _attack_start,
    ("attack", "breach"): _breach,
    ("attack", "after_window"): _after_window,
    ("attack", "next"): _next_location,
}


__all__ = [
    "PHASES", "new_game", "apply", "apply_one", "advance", "steps", "cup_request", "finish",
]
