"""How a game of Mall of Horror moves: answers and dice in, the next state out.

`apply(state, event)` takes one accepted answer (an action), a roll of the cup or a random pick, and then runs
every step that needs no decision, so the state it returns always waits for players or for the cup. Steps are
deterministic: the same events always fold to the same state.
"""

from __future__ import annotations

from companion.ballot import Ballot
from companion.contract import IllegalAction
from companion.games.checks import sent

from . import prompts
from .board import (
    CACHOU,
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
    SUPERMARKET,
    SUPERMARKET_BREACH,
    THREAT,
    WEAPON,
    card_key,
    characters_for,
    rescue_at,
)
from .narration import dice_lines, params
from .state import Character, Options, Phase, State, Step, Vote, Window, evolve

PHASES = (Phase.TRUCK, Phase.CHIEF, Phase.ARRIVAL, Phase.DESTINATION, Phase.MOVE, Phase.ATTACK)  # of a round


# -- a new game -----------------------------------------------------------------------------------------------


def new_game(players: list[str] | tuple[str, ...], options: Options | None = None) -> State:
    """Setup: Cachou closed at 3-4 players, one card each, the Chief is the first (oldest) player."""
    players = prompts.check_players(players)
    hands = dict.fromkeys(players, 1)
    closed = frozenset({CACHOU}) if len(players) <= 4 else frozenset()
    lines = [("mall.n.badge.setup", 0, players[0])]
    if closed:
        lines.append(("mall.n.close.setup", 0, CACHOU))
    lines.append(("mall.n.deck.setup", 0, DECK_SIZE - len(players)))
    state = State(
        players=players,
        options=options or Options(),
        chief=players[0],
        characters=tuple(Character(p, kind, 0) for p in players for kind in characters_for(len(players))),
        zombies=(0,) * 6,
        closed=closed,
        hands=hands,
        deck=DECK_SIZE - len(players),
        played=dict.fromkeys(DECK, 0),
        phase=Phase.PLACEMENT,
        step=Step.ROLL,
        told=tuple(lines),
    )
    return advance(state)


# -- events ---------------------------------------------------------------------------------------------------


def apply(state: State, event: dict) -> State:
    """The state after one event, advanced to the next decision."""
    return advance(apply_one(state, event))


def apply_one(state: State, event: dict) -> State:
    """The state right after one event, before the automatic steps that follow it."""
    if not isinstance(event, dict):
        raise IllegalAction("mall.refuse.event_not_object", value=sent(event))
    if state.over:
        raise IllegalAction("mall.refuse.over")
    if "roll" in event:
        return _on_roll(state, event["roll"])
    if "pick" in event:
        return _on_pick(state, event["pick"])
    return _on_action(state, event)  # an answer `decide` accepted (or `logged` read back): never checked twice


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
    if state.phase == Phase.PLACEMENT and state.step == Step.ROLL:
        return evolve(state, dice=dice, step=Step.PLACE)  # public: the placement says the dice
    if state.phase == Phase.PLACEMENT and state.step == Step.ZOMBIES:
        zombies = list(state.zombies)
        for d in dice:
            if state.is_open(d):
                zombies[d - 1] += 1
        lines = (("mall.n.setup.zombies", 0, dice), *dice_lines(0, dice, state.closed),
                 ("mall.n.round", 1, 1))
        return evolve(state, zombies=tuple(zombies), round=1, phase=Phase.TRUCK, step=Step.START, dice=None,
                      narration=state.narration + state.told + lines, told=())  # setup told, round 1 begins
    # The four zombie dice, rolled in secret: only the elected Chief sees what they bring.
    lookers = frozenset({state.chief}) if state.elected else frozenset()
    r = state.round
    if lookers:
        lines = (("mall.n.arrival.roll_chief", r, state.chief),
                 ("mall.n.dice.seen", r, (state.chief,), dice, state.closed))  # only the Chief reads it
    else:
        lines = (("mall.n.arrival.roll", r),)
    told = state.told + lines
    if state.phase in (Phase.DESTINATION, Phase.MOVE):  # a position entered without the dice
        return evolve(state, cup=dice, lookers=lookers, step=Step.START, told=told)
    seats = [p for p in state.clockwise() if state.hands[p] > 0 and p not in lookers]
    window = Window("camera", 0, tuple(seats)) if seats else None
    return evolve(state, cup=dice, lookers=lookers, window=window, step=Step.WINDOW if window else Step.DONE,
                  told=told)


def _on_pick(state: State, index: object) -> State:
    request = prompts.cup_request(state)
    if request is None or request.kind != "pick":
        raise IllegalAction("mall.refuse.no_pick")
    if type(index) is not int or not 0 <= index < request.count:
        raise IllegalAction("mall.refuse.bad_pick", high=request.count - 1)
    if state.options.second_tie_victim == "colour":
        colour = state.lottery[index][0]
        said = ("mall.n.vote.drawn", state.round, colour, state.location)
        return evolve(state, lottery=(), victim_colour=colour, step=Step.VICTIM, told=state.told + (said,))
    colour, kind = state.lottery[index]
    return _kill(evolve(state, lottery=()), colour, kind, "mall.n.kill.random")


# -- answers --------------------------------------------------------------------------------------------------


def _on_action(state: State, action: dict) -> State:
    seat = action.get("seat")
    if "close" in action:
        return _reveal(state, state.vote)
    if "vote" in action:
        old = state.vote
        ballot = old.ballot.cast(seat, action["vote"])
        vote = Vote(old.purpose, old.location, ballot, old.stage, old.threats)
        state = evolve(state, told=state.told + (("mall.n.voted", state.round, seat),))  # who, never for whom
        if ballot.complete:
            return _reveal(state, vote)
        return evolve(state, vote=vote)
    if "give" in action:
        hands = {**state.hands, action["give"]: state.hands[action["give"]] + 1}
        said = ("mall.n.deck.gift", state.round, state.searcher, action["give"])
        return evolve(state, hands=hands, searcher=None, drawn=0, phase=Phase.CHIEF, step=Step.START,
                      told=state.told + (said,))
    if "play" in action:
        return _play(state, seat, action)
    if "pass" in action:
        return _next_in_window(state)
    if state.phase == Phase.PLACEMENT:
        return _place(state, seat, action["character"], action["go"])
    if "go" in action:
        return _choose_destination(state, seat, action["go"])
    if "move" in action:
        return _move(state, seat, action["move"])
    if "victim" in action:
        return _kill(state, seat, action["victim"])
    raise AssertionError(f"unhandled action {action}")  # prompts.check lets only known actions through


def _place(state: State, seat: str, kind: str, location: int) -> State:
    dice = state.dice or ()
    # A die's location is usable unless closed or full, and then it cannot be chosen: so a location away from
    # the dice was a free choice (neither die could be used).
    said = ("mall.n.place.dice" if location in dice else "mall.n.place.free", 0, seat, kind, location, dice)
    characters = tuple(
        Character(seat, kind, location) if (c.colour, c.kind) == (seat, kind) else c for c in state.characters
    )
    state = evolve(state, characters=characters, dice=None, turn=state.turn + 1, told=state.told + (said,))
    if all(c.location for c in characters):
        return evolve(state, step=Step.ZOMBIES, turn=0)
    return evolve(state, step=Step.ROLL)


def _choose_destination(state: State, seat: str, location: int) -> State:
    destinations = {**state.destinations, seat: location}
    if state.step == Step.CHIEF:  # the elected Chief chooses first, in public
        said = ("mall.n.destination.chief", state.round, seat, location)
        state = evolve(state, destinations=destinations, step=Step.SECRET, told=state.told + (said,))
    else:  # a secret choice: who has chosen, never where, before the reveal
        state = evolve(state, destinations=destinations, told=state.told + (("mall.n.chose", state.round, seat),))
    if _all_chosen(state):
        return evolve(state, phase=Phase.MOVE, step=Step.START)
    return state


def _all_chosen(state: State) -> bool:
    """Every player has chosen, except those with no legal destination, who choose nothing."""
    return all(p in state.destinations or prompts.no_destination(state, p) for p in state.players)


def _move(state: State, seat: str, kind: str) -> State:
    sprint = state.sprint is not None
    target = state.sprint if sprint else state.destinations[seat]
    mover = next(c for c in state.characters if (c.colour, c.kind) == (seat, kind))
    r = state.round
    if mover.location == target:  # a Sprint to where he stands
        said = ("mall.n.stay.sprint", r, seat, kind, target)
    else:
        wanted, why = target, ""
        if not state.is_open(target):
            target, why = PARKING, "fallen"  # the character runs to the Parking (or stays there)
        elif not state.has_room(target):
            target, why = PARKING, "full"
        if mover.location == target:  # already in the Parking
            key = f"mall.n.stay.{'sprint_' if sprint else ''}{why}"
            said = (key, r, seat, kind, wanted, target)
        else:
            if why:
                key = f"mall.n.move.{'sprint_' if sprint else ''}{why}"
                said = (key, r, seat, kind, mover.location, target, wanted)
            else:
                said = ("mall.n.move.sprint" if sprint else "mall.n.move.go", r, seat, kind, mover.location, target)
            mover_moved = Character(mover.colour, mover.kind, target, mover.hidden)
            state = evolve(state, characters=tuple(mover_moved if c is mover else c for c in state.characters))
    state = evolve(state, sprint=None, turn=state.turn + 1, step=Step.MOVE, told=state.told + (said,))
    return _end_if_rescued(state, "immediate")


def _play(state: State, seat: str, action: dict) -> State:
    kind = action["play"]
    key = card_key(kind, action.get("kills", 0))
    state = evolve(
        state,
        hands={**state.hands, seat: state.hands[seat] - 1},
        played={**state.played, key: state.played[key] + 1},
    )
    r = state.round
    if kind == CAMERA:
        lines = (("mall.n.card.camera", r, seat),
                 ("mall.n.dice.seen", r, (seat,), state.cup, state.closed))  # only he reads it
        return evolve(state, lookers=state.lookers | {seat}, told=state.told + tuple(lines))
    if kind == SPRINT:
        said = ("mall.n.card.sprint", r, seat, action["go"])
        return evolve(state, sprint=action["go"], step=Step.SPRINT, told=state.told + (said,))
    location = state.window.location
    if kind == THREAT:
        said = ("mall.n.card.threat", r, seat, location)
        return evolve(state, threats={**state.threats, seat: state.threats.get(seat, 0) + 1},
                      told=state.told + (said,))
    if kind == HARDWARE:
        said = ("mall.n.card.hardware", r, seat, location)
        return evolve(state, hardware={**state.hardware, location: state.hardware.get(location, 0) + 1},
                      told=state.told + (said,))
    if kind == HIDDEN:
        who = (seat, action["character"])
        characters = tuple(
            Character(c.colour, c.kind, c.location, True) if (c.colour, c.kind) == who else c for c in state.characters
        )
        said = ("mall.n.card.hidden", r, seat, action["character"], location)
        return evolve(state, characters=characters, told=state.told + (said,))
    if kind == WEAPON:
        zombies = list(state.zombies)
        there = zombies[location - 1]
        killed = min(there, action["kills"])
        zombies[location - 1] = there - killed
        if killed:
            said = ("mall.n.remove.weapon", r, location, killed, seat, action["kills"])
        else:
            said = ("mall.n.card.weapon_wasted", r, seat, location, action["kills"])
        return evolve(state, zombies=tuple(zombies), told=state.told + (said,))
    raise AssertionError(kind)


def _next_in_window(state: State) -> State:
    window = state.window
    state = evolve(state, told=state.told + (("mall.n.pass", state.round, window.seat),))
    if window.turn + 1 < len(window.seats):
        return evolve(state, window=Window(window.kind, window.location, window.seats, window.turn + 1))
    return evolve(state, window=None, step=Step.DONE if window.kind == "camera" else Step.AFTER_WINDOW)


# -- votes ----------------------------------------------------------------------------------------------------


def _start_vote(state: State, purpose: str, location: int) -> State:
    """A vote among the players with a visible character at the location; one candidate wins outright."""
    candidates = state.visible_colours(location)
    if len(candidates) == 1:
        return _vote_won(state, purpose, location, candidates[0])
    weights = {p: state.vote_weight(p, location) + state.threats.get(p, 0) for p in candidates}
    vote = Vote(purpose, location, Ballot(tuple(candidates), weights), 1, dict(state.threats))
    said = (f"mall.n.vote.start.{purpose}", state.round, location, candidates)
    return evolve(state, vote=vote, threats={}, step=Step.VOTE, told=state.told + (said,))


def _reveal(state: State, vote: Vote) -> State:
    """All ballots at once: who voted what, with his weight; then the winner, a re-vote or the second tie."""
    ballot = vote.ballot
    r = state.round
    lines = []
    if not ballot.complete:
        lines.append(("mall.n.vote.closed", r, ballot.missing))
    lines.append(("mall.n.vote.ballots", r, ballot))  # every ballot and weight, said when the line is read
    tally = ballot.tally()
    top = max(tally.values())
    leaders = tuple(c for c in ballot.candidates if tally[c] == top)  # as Ballot.leaders, from the one tally
    if len(leaders) == 1:
        winner = leaders[0]
        against = max((n for c, n in tally.items() if c != winner), default=0)
        state = evolve(state, vote=None, revealed=vote, told=state.told + tuple(lines))
        return _vote_won(state, vote.purpose, vote.location, winner, (tally[winner], against))
    if vote.stage == 1:
        lines.append(("mall.n.vote.tie", r, vote.location, leaders, tally[leaders[0]]))
        return evolve(state, vote=_revote(state, vote, leaders), revealed=vote, step=Step.VOTE,
                      told=state.told + tuple(lines))
    # Second tie.
    if vote.purpose == "truck":
        lines.append(("mall.n.vote.tie2.truck", r, vote.location))
        return evolve(state, vote=None, revealed=vote, phase=Phase.CHIEF, step=Step.START,
                      told=state.told + tuple(lines))
    if vote.purpose == "chief":
        lines.append(("mall.n.vote.tie2.chief", r, state.chief, vote.location))
        return evolve(state, vote=None, revealed=vote, elected=False, phase=Phase.ARRIVAL, step=Step.START,
                      told=state.told + tuple(lines))
    if state.options.second_tie_victim == "colour":
        lottery = tuple((colour, "") for colour in leaders)
        lines.append(("mall.n.vote.tie2.victim_colour", r, vote.location, leaders))
    else:
        lottery = tuple(
            (c.colour, c.kind) for p in leaders for c in state.of(p) if c.location == vote.location and not c.hidden
        )
        lines.append(("mall.n.vote.tie2.victim", r, vote.location, leaders))
    return evolve(state, vote=None, revealed=vote, lottery=lottery, step=Step.PICK,
                  told=state.told + tuple(lines))


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


def _vote_won(state: State, purpose: str, location: int, winner: str, votes: tuple[int, int] | None = None) -> State:
    """`votes`: the winner's votes and the runner-up's; None when he was the only candidate."""
    r = state.round
    if votes is None:
        said = (f"mall.n.vote.alone.{purpose}", r, winner, location)
    else:
        said = (f"mall.n.vote.won.{purpose}", r, winner, location, votes[0], votes[1])
    if purpose == "truck":
        drawn = min(3, state.deck)
        hands = {**state.hands, winner: state.hands[winner] + 1}
        told = state.told + (said, (f"mall.n.deck.search{drawn}", r, winner))
        # A third card goes back under the deck.
        state = evolve(state, hands=hands, deck=state.deck - min(drawn, 2), told=told)
        if drawn >= 2:
            return evolve(state, searcher=winner, drawn=drawn, step=Step.GIFT)
        return evolve(state, phase=Phase.CHIEF, step=Step.START)
    if purpose == "chief":
        lines = (said,) if winner == state.chief else (said, ("mall.n.badge.elected", r, winner))
        return evolve(state, chief=winner, elected=True, phase=Phase.ARRIVAL, step=Step.START,
                      told=state.told + tuple(lines))
    return evolve(state, victim_colour=winner, step=Step.VICTIM, told=state.told + (said,))


# -- deaths and the end ---------------------------------------------------------------------------------------


# How the victim's colour was decided (the line just before the death) -> why the death line says he died.
_DEATHS = {"mall.n.vote.won.victim": "mall.n.kill.vote", "mall.n.vote.alone.victim": "mall.n.kill.alone",
           "mall.n.vote.drawn": "mall.n.kill.drawn"}


def _kill(state: State, colour: str, kind: str, why: str | None = None) -> State:
    victim = next(c for c in state.characters if (c.colour, c.kind) == (colour, kind))
    loc = victim.location
    r = state.round
    if why is None:  # the owner chose: say how his colour was decided, as the line just before said it
        verdict = state.told[-1] if state.told else ("",)
        why = _DEATHS.get(verdict[0], "mall.n.kill.eaten")
    if why == "mall.n.kill.vote":
        votes = params(verdict)
        lines = [(why, r, colour, kind, loc, votes["count"], votes["against"])]
    else:
        lines = [(why, r, colour, kind, loc)]
    characters = tuple(c for c in state.characters if c is not victim)
    zombies = list(state.zombies)
    if loc == PARKING:
        zombies[PARKING - 1] -= 1  # this zombie has eaten; the next one gets its own vote
        lines.append(("mall.n.remove.ate", r, PARKING, 1))
        step = Step.BREACH
    else:
        if zombies[loc - 1]:
            lines.append(("mall.n.remove.feast", r, loc, zombies[loc - 1]))
        zombies[loc - 1] = 0  # after the feast all the zombies there leave
        step = Step.NEXT
    living = {c.colour for c in characters}
    if colour not in living:
        lines.append(("mall.n.out", r, colour))
    chief = state.chief
    if chief not in living:  # the badge passes to the next living player clockwise
        chief = next((p for p in state.clockwise(chief)[1:] if p in living), chief)
        if chief != state.chief:
            lines.append(("mall.n.badge.passes", r, state.chief, chief))
    state = evolve(state, characters=characters, zombies=tuple(zombies), victim_colour=None, step=step, chief=chief,
                   told=state.told + tuple(lines))
    return _end_if_rescued(state, "immediate")


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
    return evolve(state, phase=Phase.OVER, step=Step.OVER, winners=winners, vote=None, window=None,
                  told=state.told + tuple(_the_end(state, winners)))


def _the_end(state: State, winners: tuple[str, ...]) -> tuple:
    """Why rescue came, the scores, the tie-break on cards, the winners."""
    r = state.round
    alive = len(state.characters)
    if alive <= rescue_at(len(state.players)):
        lines = [("mall.n.rescue.few", r, alive, rescue_at(len(state.players)))]
    else:
        lines = [("mall.n.rescue.together", r, state.characters[0].location)]
    scores = {p: state.score(p) for p in state.players}
    lines += [("mall.n.score", r, p, scores[p]) for p in state.players]
    top = max(scores.values())
    tied = [p for p in state.players if scores[p] == top]
    if len(tied) > 1:
        lines.append(("mall.n.tiebreak", r, tied, top))
        lines += [("mall.n.cards", r, p, state.hands[p]) for p in tied]
    if len(winners) == 1:
        lines.append(("mall.n.winner", r, winners[0]))
    else:
        lines.append(("mall.n.winners", r, winners))
    return tuple(lines)


# -- automatic steps ------------------------------------------------------------------------------------------


def _auto(state: State) -> State | None:
    """One step that needs no decision, or None when the state waits for players or the cup."""
    phase, step = state.phase, state.step
    if phase == Phase.PLACEMENT:
        return None  # the cup rolls, players place
    if step == Step.START and state.options.end_timing == "immediate" and state.rescued():
        return finish(state)
    handler = _AUTO.get((phase, step))
    return handler(state) if handler else None


def _truck_start(state: State) -> State:
    if state.deck == 0:
        said = ("mall.n.truck.empty", state.round)
        return evolve(state, elected=False, phase=Phase.CHIEF, step=Step.START, told=state.told + (said,))
    if not state.visible_colours(PARKING):
        said = ("mall.n.truck.nobody", state.round, PARKING)
        return evolve(state, elected=False, phase=Phase.CHIEF, step=Step.START, told=state.told + (said,))
    return _start_vote(evolve(state, elected=False), "truck", PARKING)


def _chief_start(state: State) -> State:
    if not state.is_open(SECURITY_HQ):
        said = ("mall.n.chief.closed", state.round, state.chief, SECURITY_HQ)
    elif not state.visible_colours(SECURITY_HQ):
        said = ("mall.n.chief.empty", state.round, state.chief, SECURITY_HQ)
    else:
        return _start_vote(state, "chief", SECURITY_HQ)
    return evolve(state, elected=False, phase=Phase.ARRIVAL, step=Step.START, told=state.told + (said,))


def _arrival_start(state: State) -> State:
    return evolve(state, step=Step.ROLL)


def _arrival_done(state: State) -> State:
    return evolve(state, phase=Phase.DESTINATION, step=Step.START)


def _destination_start(state: State) -> State:
    if state.cup is None:
        return evolve(state, step=Step.ROLL)  # a position entered without the dice: roll them now
    zombie_players = frozenset(p for p in state.players if not state.alive(p))
    # A living player with no legal destination is not asked: the narration says so, and he does not move.
    stuck = [p for p in state.clockwise() if prompts.no_destination(state, p)]
    lines = tuple(("mall.n.destination.none", state.round, p, state.of(p)[0].location) for p in stuck)
    chief_asked = state.elected and state.chief not in state.destinations and state.chief not in stuck
    step = Step.CHIEF if chief_asked else Step.SECRET
    state = evolve(state, zombie_players=zombie_players, step=step, told=state.told + lines)
    if step == Step.SECRET and _all_chosen(state):
        return evolve(state, phase=Phase.MOVE, step=Step.START)
    return state


def _move_start(state: State) -> State:
    """Reveal the destinations, then the dice: one zombie per die, then empty locations may fall."""
    if state.cup is None:
        return evolve(state, step=Step.ROLL)
    r = state.round
    lines = [("mall.n.reveal.destinations", r, tuple(state.clockwise()), state.destinations, state.zombie_players),
             ("mall.n.reveal.dice", r, state.cup), *dice_lines(r, state.cup, state.closed)]
    zombies = list(state.zombies)
    for d in state.cup:
        if state.is_open(d):
            zombies[d - 1] += 1
    closed = set(state.closed)
    for loc in LOCATIONS:
        if loc != PARKING and loc not in closed and not state.at(loc) and zombies[loc - 1] >= FALL_AT:
            lines.append(("mall.n.remove.fall", r, loc, zombies[loc - 1], FALL_AT))
            lines.append(("mall.n.close.fall", r, loc))
            closed.add(loc)
            zombies[loc - 1] = 0
    order = tuple(p for p in state.clockwise() if state.alive(p))
    return evolve(state, zombies=tuple(zombies), closed=frozenset(closed), order=order, turn=0, step=Step.MOVE,
                  told=state.told + tuple(lines))


def _move_turn(state: State) -> State | None:
    if state.turn >= len(state.order):
        return evolve(state, phase=Phase.ATTACK, step=Step.START, order=(), turn=0)
    seat = state.order[state.turn]
    if seat not in state.destinations:  # he had no legal destination and chose nothing
        said = ("mall.n.stay.no_destination", state.round, seat)
        return evolve(state, turn=state.turn + 1, told=state.told + (said,))
    if not prompts.move_options(state, seat):  # nothing of his can move
        said = ("mall.n.stay.none", state.round, seat, state.destinations[seat])
        return evolve(state, turn=state.turn + 1, told=state.told + (said,))
    return None


def _attack_start(state: State) -> State:
    """Attraction: the most characters and the most Pin-ups each draw one more zombie, unless tied."""
    r = state.round
    zombies = list(state.zombies)
    lines = []
    for counts, what in ((state.crowds(), "crowd"), (state.pinups(), "pinups")):
        top = max(counts.values())
        if top == 0:
            if what == "pinups":
                lines.append(("mall.n.attraction.no_pinups", r))
            continue
        leaders = [loc for loc, n in counts.items() if n == top]
        if len(leaders) == 1:
            zombies[leaders[0] - 1] += 1
            lines.append((f"mall.n.put.{what}", r, leaders[0], 1, top))
        else:
            lines.append((f"mall.n.attraction.tie_{what}", r, leaders, top))
    return evolve(state, zombies=tuple(zombies), location=1, step=Step.BREACH, told=state.told + tuple(lines))


def _breach(state: State) -> State:
    """Open the card window where the zombies break in (in Parking: before each of its votes)."""
    loc = state.location
    if loc > 6:
        return _round_end(state)
    if not state.is_open(loc) or not state.at(loc):
        return _next_location(state)
    r = state.round
    there = state.zombies[loc - 1]
    if loc == PARKING:
        if there == 0:
            return _next_location(state)
        if not state.visible_colours(loc):
            return _next_location(state, ("mall.n.all_hidden.parking", r, loc, there))
        said = ("mall.n.parking.eats", r, loc, there)
    else:
        defence = state.defence(loc)
        if there >= defence:
            said = ("mall.n.breach.defence", r, loc, there, defence)
        elif loc == SUPERMARKET and there >= SUPERMARKET_BREACH:
            said = ("mall.n.breach.supermarket", r, loc, there, SUPERMARKET_BREACH, defence)
        else:
            return _next_location(state, ("mall.n.hold", r, loc, there, defence))
    told = state.told + (said,)
    present = {c.colour for c in state.at(loc)}
    seats = tuple(p for p in state.clockwise() if p in present and state.hands[p] > 0)
    if not seats:
        return evolve(state, step=Step.AFTER_WINDOW, told=told)
    return evolve(state, window=Window("attack", loc, seats), step=Step.WINDOW, told=told)


def _after_window(state: State) -> State:
    loc = state.location
    r = state.round
    if loc == PARKING:
        if state.zombies[loc - 1] == 0:
            said = ("mall.n.repelled.parking", r, loc)
            return evolve(state, step=Step.NEXT, threats={}, told=state.told + (said,))
    elif not state.breached(loc):
        said = ("mall.n.repelled", r, loc, state.zombies[loc - 1], state.defence(loc))
        return evolve(state, step=Step.NEXT, threats={}, told=state.told + (said,))
    if not state.visible_colours(loc):  # everyone there is hidden
        key = "mall.n.all_hidden.parking" if loc == PARKING else "mall.n.all_hidden"
        said = (key, r, loc, state.zombies[loc - 1])
        return evolve(state, step=Step.NEXT, threats={}, told=state.told + (said,))
    return _start_vote(state, "victim", loc)


def _next_location(state: State, *lines) -> State:
    loc = state.location
    if loc == PARKING and state.zombies[PARKING - 1]:
        zombies = list(state.zombies)
        # The Parking's zombies leave, even if they ate nobody.
        lines += (("mall.n.remove.parking", state.round, PARKING, zombies[PARKING - 1]),)
        zombies[PARKING - 1] = 0
        state = evolve(state, zombies=tuple(zombies))
    if lines:
        return evolve(state, location=loc + 1, step=Step.BREACH, threats={}, told=state.told + tuple(lines))
    return evolve(state, location=loc + 1, step=Step.BREACH, threats={})


def _round_end(state: State) -> State:
    """Zombie players add their zombies; then a new round (unless rescue has come)."""
    r = state.round
    zombies = list(state.zombies)
    lines = []
    for p in state.clockwise():  # in seat order, never a set's order: the narration is replayed
        if p not in state.zombie_players:
            continue
        loc = state.destinations.get(p)
        if loc and state.is_open(loc):
            zombies[loc - 1] += 1
            lines.append(("mall.n.put.zombie_player", r, loc, 1, p))
        elif loc:
            lines.append(("mall.n.zombie_player.closed", r, p, loc))
    state = evolve(state, zombies=tuple(zombies), told=state.told + tuple(lines))
    if state.rescued():
        return finish(state)
    return evolve(
        state,
        narration=state.narration + state.told + (("mall.n.round", r + 1, r + 1),),  # the round told
        told=(),
        round=state.round + 1,
        phase=Phase.TRUCK,
        step=Step.START,
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
    (Phase.TRUCK, Step.START): _truck_start,
    (Phase.CHIEF, Step.START): _chief_start,
    (Phase.ARRIVAL, Step.START): _arrival_start,
    (Phase.ARRIVAL, Step.DONE): _arrival_done,
    (Phase.DESTINATION, Step.START): _destination_start,
    (Phase.MOVE, Step.START): _move_start,
    (Phase.MOVE, Step.MOVE): _move_turn,
    (Phase.ATTACK, Step.START): _attack_start,
    (Phase.ATTACK, Step.BREACH): _breach,
    (Phase.ATTACK, Step.AFTER_WINDOW): _after_window,
    (Phase.ATTACK, Step.NEXT): _next_location,
}


__all__ = [
    "PHASES", "new_game", "apply", "apply_one", "advance", "steps", "cup_request", "finish",
]
