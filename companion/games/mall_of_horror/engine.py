"""How a game of Mall of Horror moves: answers and dice in, the next state out.

`apply(state, event)` takes one accepted answer (an action), a roll of the cup or a random pick, and then runs
every step that needs no decision, so the state it returns always waits for players or for the cup. Steps are
deterministic: the same events always fold to the same state. Every step says what it did as it goes: its lines
(narration.py) are part of the state it makes.
"""

from __future__ import annotations

from companion.ballot import Ballot
from companion.contract import IllegalAction, Line, line
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
from .narration import ballot_messages, destination_messages, dice_arrivals, dice_lines
from .state import Character, Options, Phase, State, Step, Vote, Window, evolve

PHASES = (Phase.TRUCK, Phase.CHIEF, Phase.ARRIVAL, Phase.DESTINATION, Phase.MOVE, Phase.ATTACK)  # of a round


# -- a new game -----------------------------------------------------------------------------------------------


def new_game(players: list[str] | tuple[str, ...], options: Options | None = None) -> State:
    """Setup: Cachou closed at 3-4 players, one card each, the Chief is the first (oldest) player."""
    players = prompts.check_players(players)
    hands = dict.fromkeys(players, 1)
    closed = frozenset({CACHOU}) if len(players) <= 4 else frozenset()
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
    )
    state = state.say("mall.n.badge.setup", act=True, to_seat=state.chief)
    if closed:
        state = state.say("mall.n.close.setup", act=True, location=CACHOU)
    state = state.say("mall.n.deck.setup", act=True, count=state.deck)
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
        lines = (line(0, "mall.n.setup.zombies", dice=list(dice)), *dice_lines(0, dice, state.closed),
                 line(1, "mall.n.round", round=1))  # setup told, round 1 begins
        return evolve(state, zombies=tuple(zombies), round=1, phase=Phase.TRUCK, step=Step.START, dice=None,
                      earlier=state.earlier + state.narration + lines, narration=())
    # The four zombie dice, rolled in secret: only the elected Chief sees what they bring.
    lookers = frozenset({state.chief}) if state.elected else frozenset()
    r = state.round
    if lookers:
        lines = (line(r, "mall.n.arrival.roll_chief", colour=state.chief),
                 line(r, "mall.n.dice.seen", seats=(state.chief,), dice=list(dice),  # only the Chief reads it
                      arrivals=dice_arrivals(dice, state.closed)))
    else:
        lines = (line(r, "mall.n.arrival.roll"),)
    narration = state.narration + lines
    if state.phase in (Phase.DESTINATION, Phase.MOVE):  # a position entered without the dice
        return evolve(state, cup=dice, lookers=lookers, step=Step.START, narration=narration)
    seats = [p for p in state.clockwise() if state.hands[p] > 0 and p not in lookers]
    window = Window("camera", 0, tuple(seats)) if seats else None
    return evolve(state, cup=dice, lookers=lookers, window=window, step=Step.WINDOW if window else Step.DONE,
                  narration=narration)


def _on_pick(state: State, index: object) -> State:
    request = prompts.cup_request(state)
    if request is None or request.kind != "pick":
        raise IllegalAction("mall.refuse.no_pick")
    if type(index) is not int or not 0 <= index < request.count:
        raise IllegalAction("mall.refuse.bad_pick", high=request.count - 1)
    if state.options.second_tie_victim == "colour":
        colour = state.lottery[index][0]
        only = _only_victim(state, colour, state.location)
        if only:  # nobody chooses: his one character there is eaten
            state = state.say("mall.n.vote.drawn_one", colour=colour, location=state.location, character=only)
        else:
            state = state.say("mall.n.vote.drawn", colour=colour, location=state.location)
        return evolve(state, lottery=(), victim_colour=colour, step=Step.VICTIM)
    colour, kind = state.lottery[index]
    return _kill(evolve(state, lottery=()), colour, kind, "random")


# -- answers --------------------------------------------------------------------------------------------------


def _on_action(state: State, action: dict) -> State:
    seat = action.get("seat")
    if "close" in action:
        return _reveal(state, state.vote)
    if "vote" in action:
        old = state.vote
        ballot = old.ballot.cast(seat, action["vote"])
        vote = Vote(old.purpose, old.location, ballot, old.stage, old.threats, old.round)
        # Who, never for whom; and only his first ballot: a line for a changed one would tell that he changed it.
        said = () if seat in old.ballot.ballots else (line(state.round, "mall.n.voted", colour=seat),)
        if ballot.complete:
            return _reveal(state, vote, *said)
        return evolve(state, vote=vote, narration=state.narration + said)
    if "give" in action:
        hands = {**state.hands, action["give"]: state.hands[action["give"]] + 1}
        said = line(state.round, "mall.n.deck.gift", act=True, colour=state.searcher, to_seat=action["give"])
        return evolve(state, hands=hands, searcher=None, drawn=0, phase=Phase.CHIEF, step=Step.START,
                      narration=state.narration + (said,))
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
    said = line(0, "mall.n.place.dice" if location in dice else "mall.n.place.free", act=True, colour=seat,
                character=kind, location=location, dice=list(dice))
    characters = tuple(
        Character(seat, kind, location) if (c.colour, c.kind) == (seat, kind) else c for c in state.characters
    )
    placed = all(c.location for c in characters)
    return evolve(state, characters=characters, dice=None, turn=0 if placed else state.turn + 1,
                  step=Step.ZOMBIES if placed else Step.ROLL, narration=state.narration + (said,))


def _choose_destination(state: State, seat: str, location: int) -> State:
    destinations = {**state.destinations, seat: location}
    if state.step == Step.CHIEF:  # the elected Chief chooses first, in public
        said = line(state.round, "mall.n.destination.chief", colour=seat, location=location)
        state = evolve(state, destinations=destinations, step=Step.SECRET, narration=state.narration + (said,))
    elif seat in state.destinations:  # a secret choice changed: no line, which would tell that he changed it
        state = evolve(state, destinations=destinations)
    else:  # a secret choice: who has chosen, never where, before the reveal
        said = line(state.round, "mall.n.chose", colour=seat)
        state = evolve(state, destinations=destinations, narration=state.narration + (said,))
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
    characters = state.characters
    if mover.location == target:  # a Sprint to where he stands
        said = line(r, "mall.n.stay.sprint", colour=seat, character=kind, location=target)
    else:
        wanted, why = target, ""
        if not state.is_open(target):
            target, why = PARKING, "fallen"  # the character runs to the Parking (or stays there)
        elif not state.has_room(target):
            target, why = PARKING, "full"
        run = "sprint_" if sprint else ""
        if mover.location == target:  # already in the Parking
            said = line(r, f"mall.n.stay.{run}{why}", colour=seat, character=kind, location=wanted,
                        to_location=target)
        else:
            if why:
                said = line(r, f"mall.n.move.{run}{why}", act=True, colour=seat, character=kind,
                            from_location=mover.location, to_location=target, location=wanted)
            else:
                said = line(r, "mall.n.move.sprint" if sprint else "mall.n.move.go", act=True, colour=seat,
                            character=kind, from_location=mover.location, to_location=target)
            mover_moved = Character(mover.colour, mover.kind, target, mover.hidden)
            characters = tuple(mover_moved if c is mover else c for c in characters)
    state = evolve(state, characters=characters, sprint=None, turn=state.turn + 1, step=Step.MOVE,
                   narration=state.narration + (said,))
    return _end_if_rescued(state)


def _play(state: State, seat: str, action: dict) -> State:
    kind = action["play"]
    key = card_key(kind, action.get("kills", 0))
    hands = {**state.hands, seat: state.hands[seat] - 1}
    played = {**state.played, key: state.played[key] + 1}
    r = state.round
    if kind == CAMERA:
        lines = (line(r, "mall.n.card.camera", act=True, colour=seat),
                 line(r, "mall.n.dice.seen", seats=(seat,), dice=list(state.cup),  # only he reads it
                      arrivals=dice_arrivals(state.cup, state.closed)))
        return evolve(state, hands=hands, played=played, lookers=state.lookers | {seat},
                      narration=state.narration + lines)
    if kind == SPRINT:
        said = line(r, "mall.n.card.sprint", act=True, colour=seat, location=action["go"])
        return evolve(state, hands=hands, played=played, sprint=action["go"], step=Step.SPRINT,
                      narration=state.narration + (said,))
    location = state.window.location
    if kind == THREAT:
        said = line(r, "mall.n.card.threat", act=True, colour=seat, location=location)
        return evolve(state, hands=hands, played=played,
                      threats={**state.threats, seat: state.threats.get(seat, 0) + 1},
                      narration=state.narration + (said,))
    if kind == HARDWARE:
        said = line(r, "mall.n.card.hardware", act=True, colour=seat, location=location)
        return _held_off(evolve(state, hands=hands, played=played,
                                hardware={**state.hardware, location: state.hardware.get(location, 0) + 1},
                                narration=state.narration + (said,)))
    if kind == HIDDEN:
        who = (seat, action["character"])
        characters = tuple(
            Character(c.colour, c.kind, c.location, True) if (c.colour, c.kind) == who else c for c in state.characters
        )
        said = line(r, "mall.n.card.hidden", act=True, colour=seat, character=action["character"], location=location)
        return evolve(state, hands=hands, played=played, characters=characters, narration=state.narration + (said,))
    if kind == WEAPON:
        zombies = list(state.zombies)
        there = zombies[location - 1]
        killed = min(there, action["kills"])  # never 0: the window closes once no zombie breaks in (_held_off)
        zombies[location - 1] = there - killed
        said = line(r, "mall.n.remove.weapon", act=True, location=location, count=killed, colour=seat,
                    kills=action["kills"])
        return _held_off(evolve(state, hands=hands, played=played, zombies=tuple(zombies),
                                narration=state.narration + (said,)))
    raise AssertionError(kind)


def _held_off(state: State) -> State:
    """After a Weapon or Hardware in an attack's window: once the location is no longer breached (in the Parking:
    no zombie left), the window closes, for a card window opens only against a breach and nobody is asked to play
    cards against zombies that no longer break in."""
    loc = state.window.location
    if (state.zombies[loc - 1] if loc == PARKING else state.breached(loc)):
        return state
    return evolve(state, window=None, step=Step.AFTER_WINDOW)


def _next_in_window(state: State) -> State:
    window = state.window
    narration = state.narration + (line(state.round, "mall.n.pass", colour=window.seat),)
    if window.turn + 1 < len(window.seats):
        return evolve(state, window=Window(window.kind, window.location, window.seats, window.turn + 1),
                      narration=narration)
    return evolve(state, window=None, step=Step.DONE if window.kind == "camera" else Step.AFTER_WINDOW,
                  narration=narration)


# -- votes ----------------------------------------------------------------------------------------------------


def _start_vote(state: State, purpose: str, location: int) -> State:
    """A vote among the players with a visible character at the location; one candidate wins outright."""
    candidates = state.visible_colours(location)
    if len(candidates) == 1:
        return _vote_won(state, purpose, location, candidates[0])
    weights = {p: state.vote_weight(p, location) + state.threats.get(p, 0) for p in candidates}
    vote = Vote(purpose, location, Ballot(tuple(candidates), weights), 1, dict(state.threats), state.round)
    said = line(state.round, f"mall.n.vote.start.{purpose}", location=location, colours=candidates)
    return evolve(state, vote=vote, threats={}, step=Step.VOTE, narration=state.narration + (said,))


def _reveal(state: State, vote: Vote, *said: Line) -> State:
    """All ballots at once: who voted what, with his weight; then the winner, a re-vote or the second tie.
    `said`: what the answer that closed the vote said before."""
    ballot = vote.ballot
    r = state.round
    lines = [*said]
    if not ballot.complete:
        missing = list(ballot.missing)
        lines.append(line(r, "mall.n.vote.closed.one" if len(missing) == 1 else "mall.n.vote.closed", colours=missing))
    lines.append(line(r, "mall.n.vote.ballots", ballots=ballot_messages(ballot)))  # every ballot and its weight
    tally = ballot.tally()
    top = max(tally.values())
    leaders = tuple(c for c in ballot.candidates if tally[c] == top)  # as Ballot.leaders, from the one tally
    if len(leaders) == 1:
        winner = leaders[0]
        against = max((n for c, n in tally.items() if c != winner), default=0)
        return _vote_won(state, vote.purpose, vote.location, winner, (tally[winner], against), lines, vote=None,
                         revealed=vote)
    if vote.stage == 1:
        lines.append(line(r, "mall.n.vote.tie", location=vote.location, colours=list(leaders),
                          count=tally[leaders[0]]))
        return evolve(state, vote=_revote(state, vote, leaders), revealed=vote, step=Step.VOTE,
                      narration=state.narration + tuple(lines))
    # Second tie.
    if vote.purpose == "truck":
        lines.append(line(r, "mall.n.vote.tie2.truck", location=vote.location))
        return evolve(state, vote=None, revealed=vote, phase=Phase.CHIEF, step=Step.START,
                      narration=state.narration + tuple(lines))
    if vote.purpose == "chief":
        lines.append(line(r, "mall.n.vote.tie2.chief", colour=state.chief, location=vote.location))
        return evolve(state, vote=None, revealed=vote, elected=False, phase=Phase.ARRIVAL, step=Step.START,
                      narration=state.narration + tuple(lines))
    if state.options.second_tie_victim == "colour":
        lottery = tuple((colour, "") for colour in leaders)
        lines.append(line(r, "mall.n.vote.tie2.victim_colour", location=vote.location, colours=list(leaders)))
    else:
        lottery = tuple(
            (c.colour, c.kind) for p in leaders for c in state.of(p) if c.location == vote.location and not c.hidden
        )
        lines.append(line(r, "mall.n.vote.tie2.victim", location=vote.location, colours=list(leaders)))
    return evolve(state, vote=None, revealed=vote, lottery=lottery, step=Step.PICK,
                  narration=state.narration + tuple(lines))


def _revote(state: State, vote: Vote, tied: tuple[str, ...]) -> Vote:
    """Re-vote among the tied colours: same voters, and every player with no character there joins with 1."""
    weights = dict(vote.ballot.weights)
    if not state.options.threats_carry_to_revote:
        weights = {p: w - vote.threats.get(p, 0) for p, w in weights.items()}
    present = {c.colour for c in state.at(vote.location)}
    for p in state.clockwise():
        if p not in weights and p not in present:
            weights[p] = 1
    return Vote(vote.purpose, vote.location, Ballot(tied, weights), 2, vote.threats, vote.round)


def _vote_won(state: State, purpose: str, location: int, winner: str, votes: tuple[int, int] | None = None,
              said: list[Line] | tuple[Line, ...] = (), **changes: object) -> State:
    """`votes`: the winner's votes and the runner-up's; None when he was the only candidate. `said` and `changes`:
    what the step that reached the winner said before and changed (all in one evolve)."""
    r = state.round
    lines = [*said]
    # A victim's owner with one character there chooses nothing: the line says who is eaten, not "he chooses".
    only = _only_victim(state, winner, location) if purpose == "victim" else None
    if votes is None and only:
        lines.append(line(r, "mall.n.vote.alone.victim_one", colour=winner, location=location, character=only))
    elif votes is None:
        lines.append(line(r, f"mall.n.vote.alone.{purpose}", colour=winner, location=location))
    elif only:
        lines.append(line(r, "mall.n.vote.won.victim_one", colour=winner, location=location, count=votes[0],
                          against=votes[1], character=only))
    else:
        lines.append(line(r, f"mall.n.vote.won.{purpose}", colour=winner, location=location, count=votes[0],
                          against=votes[1]))
    if purpose == "truck":
        drawn = min(3, state.deck)
        hands = {**state.hands, winner: state.hands[winner] + 1}
        lines.append(line(r, f"mall.n.deck.search{drawn}", act=True, colour=winner))
        narration = state.narration + tuple(lines)
        deck = state.deck - min(drawn, 2)  # a third card goes back under the deck
        if drawn >= 2:
            return evolve(state, hands=hands, deck=deck, searcher=winner, drawn=drawn, step=Step.GIFT,
                          narration=narration, **changes)
        return evolve(state, hands=hands, deck=deck, phase=Phase.CHIEF, step=Step.START, narration=narration,
                      **changes)
    if purpose == "chief":
        if winner != state.chief:
            lines.append(line(r, "mall.n.badge.elected", act=True, to_seat=winner))
        return evolve(state, chief=winner, elected=True, phase=Phase.ARRIVAL, step=Step.START,
                      narration=state.narration + tuple(lines), **changes)
    return evolve(state, victim_colour=winner, step=Step.VICTIM, narration=state.narration + tuple(lines), **changes)


# -- deaths and the end ---------------------------------------------------------------------------------------


# How the victim's colour was decided (the line just before the death) -> why the death line says he died.
_DEATHS = {"mall.n.vote.won.victim": "vote", "mall.n.vote.alone.victim": "alone", "mall.n.vote.drawn": "drawn",
           "mall.n.vote.won.victim_one": "vote", "mall.n.vote.alone.victim_one": "alone",
           "mall.n.vote.drawn_one": "drawn"}


def _only_victim(state: State, colour: str, location: int) -> str | None:
    """The one character `colour` may lose at `location` (his only non-hidden one there), or None when he has more
    (then he chooses)."""
    mine = [c.kind for c in state.at(location) if c.colour == colour and not c.hidden]
    return mine[0] if len(mine) == 1 else None


def _kill(state: State, colour: str, kind: str, why: str | None = None) -> State:
    """`why` he dies (mall.n.kill.<why>); None: his owner chose him, after the line that decided his colour."""
    victim = next(c for c in state.characters if (c.colour, c.kind) == (colour, kind))
    loc = victim.location
    r = state.round
    if why is None:  # the owner chose: say how his colour was decided, as the line just before said it
        verdict = state.narration[-1].message if state.narration else None
        why = _DEATHS.get(verdict.key, "eaten") if verdict else "eaten"
    if why == "vote":
        lines = [line(r, "mall.n.kill.vote", act=True, colour=colour, character=kind, location=loc,
                      count=verdict.params["count"], against=verdict.params["against"])]
    else:
        lines = [line(r, f"mall.n.kill.{why}", act=True, colour=colour, character=kind, location=loc)]
    characters = tuple(c for c in state.characters if c is not victim)
    zombies = list(state.zombies)
    if loc == PARKING:
        zombies[PARKING - 1] -= 1  # this zombie has eaten; the next one gets its own vote
        lines.append(line(r, "mall.n.remove.ate", act=True, location=PARKING, count=1))
        step = Step.BREACH
    else:
        if zombies[loc - 1]:
            lines.append(line(r, "mall.n.remove.feast", act=True, location=loc, count=zombies[loc - 1]))
        zombies[loc - 1] = 0  # after the feast all the zombies there leave
        step = Step.NEXT
    state = evolve(state, characters=characters, zombies=tuple(zombies), victim_colour=None, step=step,
                   narration=state.narration + tuple(lines))
    if _ends_now(state):  # rescue comes with this death: that he is out, or where the badge goes, matters no more
        return finish(state)
    living = {c.colour for c in characters}
    lines = []
    if colour not in living:
        lines.append(line(r, "mall.n.out", colour=colour))
    chief = state.chief
    if chief not in living:  # the badge passes to the next living player clockwise
        chief = next((p for p in state.clockwise(chief)[1:] if p in living), chief)
        if chief != state.chief:
            lines.append(line(r, "mall.n.badge.passes", act=True, colour=state.chief, to_seat=chief))
    return evolve(state, chief=chief, narration=state.narration + tuple(lines)) if lines else state


def _ends_now(state: State) -> bool:
    """Rescue has come and the table plays the rule that the game ends at once."""
    return state.options.end_timing == "immediate" and state.rescued()


def _end_if_rescued(state: State) -> State:
    return finish(state) if _ends_now(state) else state


def finish(state: State) -> State:
    """The end: the highest score wins; a tie goes to the most cards in hand; still tied, it is shared."""
    best = max((state.score(p), state.hands[p]) for p in state.players)
    winners = tuple(p for p in state.players if (state.score(p), state.hands[p]) == best)
    return evolve(state, phase=Phase.OVER, step=Step.OVER, winners=winners, vote=None, window=None,
                  narration=state.narration + _the_end(state, winners))


def _the_end(state: State, winners: tuple[str, ...]) -> tuple:
    """Why rescue came, the scores, the tie-break on cards, the winners."""
    r = state.round
    alive = len(state.characters)
    if alive <= rescue_at(len(state.players)):
        lines = [line(r, "mall.n.rescue.few", count=alive, limit=rescue_at(len(state.players)))]
    else:
        lines = [line(r, "mall.n.rescue.together", location=state.characters[0].location)]
    scores = {p: state.score(p) for p in state.players}
    lines += [line(r, "mall.n.score", colour=p, count=scores[p]) for p in state.players]
    top = max(scores.values())
    tied = [p for p in state.players if scores[p] == top]
    if len(tied) > 1:
        lines.append(line(r, "mall.n.tiebreak", colours=tied, count=top))
        lines += [line(r, "mall.n.cards", colour=p, count=state.hands[p]) for p in tied]
    if len(winners) == 1:
        lines.append(line(r, "mall.n.winner", colour=winners[0]))
    else:
        lines.append(line(r, "mall.n.winners", colours=list(winners)))
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
        return evolve(state.say("mall.n.truck.empty"), elected=False, phase=Phase.CHIEF, step=Step.START)
    if not state.visible_colours(PARKING):
        return evolve(state.say("mall.n.truck.nobody", location=PARKING), elected=False, phase=Phase.CHIEF,
                      step=Step.START)
    return _start_vote(evolve(state, elected=False), "truck", PARKING)


def _chief_start(state: State) -> State:
    if not state.is_open(SECURITY_HQ):
        state = state.say("mall.n.chief.closed", colour=state.chief, location=SECURITY_HQ)
    elif not state.visible_colours(SECURITY_HQ):
        state = state.say("mall.n.chief.empty", colour=state.chief, location=SECURITY_HQ)
    else:
        return _start_vote(state, "chief", SECURITY_HQ)
    return evolve(state, elected=False, phase=Phase.ARRIVAL, step=Step.START)


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
    lines = tuple(line(state.round, "mall.n.destination.none", colour=p, location=state.of(p)[0].location)
                  for p in stuck)
    chief_asked = state.elected and state.chief not in state.destinations and state.chief not in stuck
    step = Step.CHIEF if chief_asked else Step.SECRET
    state = evolve(state, zombie_players=zombie_players, step=step, narration=state.narration + lines)
    if step == Step.SECRET and _all_chosen(state):
        return evolve(state, phase=Phase.MOVE, step=Step.START)
    return state


def _move_start(state: State) -> State:
    """Reveal the destinations, then the dice: one zombie per die, then empty locations may fall."""
    if state.cup is None:
        return evolve(state, step=Step.ROLL)
    r = state.round
    lines = [line(r, "mall.n.reveal.destinations",
                  destinations=destination_messages(state.clockwise(), state.destinations, state.zombie_players)),
             line(r, "mall.n.reveal.dice", dice=list(state.cup)), *dice_lines(r, state.cup, state.closed)]
    zombies = list(state.zombies)
    for d in state.cup:
        if state.is_open(d):
            zombies[d - 1] += 1
    closed = set(state.closed)
    for loc in LOCATIONS:
        if loc != PARKING and loc not in closed and not state.at(loc) and zombies[loc - 1] >= FALL_AT:
            lines.append(line(r, "mall.n.remove.fall", act=True, location=loc, count=zombies[loc - 1], limit=FALL_AT))
            lines.append(line(r, "mall.n.close.fall", act=True, location=loc))
            closed.add(loc)
            zombies[loc - 1] = 0
    order = tuple(p for p in state.clockwise() if state.alive(p))
    return evolve(state, zombies=tuple(zombies), closed=frozenset(closed), order=order, turn=0, step=Step.MOVE,
                  narration=state.narration + tuple(lines))


def _move_turn(state: State) -> State | None:
    if state.turn >= len(state.order):
        return evolve(state, phase=Phase.ATTACK, step=Step.START, order=(), turn=0)
    seat = state.order[state.turn]
    if seat not in state.destinations:  # he had no legal destination and chose nothing
        said = line(state.round, "mall.n.stay.no_destination", colour=seat)
        return evolve(state, turn=state.turn + 1, narration=state.narration + (said,))
    if not prompts.move_options(state, seat):  # nothing of his can move
        said = line(state.round, "mall.n.stay.none", colour=seat, location=state.destinations[seat])
        return evolve(state, turn=state.turn + 1, narration=state.narration + (said,))
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
                lines.append(line(r, "mall.n.attraction.no_pinups"))
            continue
        leaders = [loc for loc, n in counts.items() if n == top]
        if len(leaders) == 1:
            zombies[leaders[0] - 1] += 1
            lines.append(line(r, f"mall.n.put.{what}", act=True, location=leaders[0], count=1, most=top))
        else:
            lines.append(line(r, f"mall.n.attraction.tie_{what}", locations=leaders, most=top))
    return evolve(state, zombies=tuple(zombies), location=1, step=Step.BREACH,
                  narration=state.narration + tuple(lines))


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
            return _next_location(state, line(r, "mall.n.all_hidden.parking", location=loc, count=there))
        said = line(r, "mall.n.parking.eats", location=loc, count=there)
    else:
        defence = state.defence(loc)
        if there >= defence:
            said = line(r, "mall.n.breach.defence", location=loc, count=there, defence=defence)
        elif loc == SUPERMARKET and there >= SUPERMARKET_BREACH:
            said = line(r, "mall.n.breach.supermarket", location=loc, count=there, limit=SUPERMARKET_BREACH,
                        defence=defence)
        else:
            return _next_location(state, line(r, "mall.n.hold", location=loc, count=there, defence=defence))
    present = {c.colour for c in state.at(loc)}
    seats = tuple(p for p in state.clockwise() if p in present and state.hands[p] > 0)
    if not seats:
        return evolve(state, step=Step.AFTER_WINDOW, narration=state.narration + (said,))
    return evolve(state, window=Window("attack", loc, seats), step=Step.WINDOW, narration=state.narration + (said,))


def _after_window(state: State) -> State:
    loc = state.location
    r = state.round
    if loc == PARKING:
        if state.zombies[loc - 1] == 0:
            said = line(r, "mall.n.repelled.parking", location=loc)
            return evolve(state, step=Step.NEXT, threats={}, narration=state.narration + (said,))
    elif not state.breached(loc):
        said = line(r, "mall.n.repelled", location=loc, count=state.zombies[loc - 1], defence=state.defence(loc))
        return evolve(state, step=Step.NEXT, threats={}, narration=state.narration + (said,))
    if not state.visible_colours(loc):  # everyone there is hidden
        said = line(r, "mall.n.all_hidden.parking" if loc == PARKING else "mall.n.all_hidden", location=loc,
                    count=state.zombies[loc - 1])
        return evolve(state, step=Step.NEXT, threats={}, narration=state.narration + (said,))
    return _start_vote(state, "victim", loc)


def _next_location(state: State, *lines: Line) -> State:
    """On to the next location, after `lines` said why this one is done."""
    loc = state.location
    if loc == PARKING and state.zombies[PARKING - 1]:
        zombies = list(state.zombies)
        # The Parking's zombies leave, even if they ate nobody.
        lines += (line(state.round, "mall.n.remove.parking", act=True, location=PARKING, count=zombies[PARKING - 1]),)
        zombies[PARKING - 1] = 0
        return evolve(state, zombies=tuple(zombies), location=loc + 1, step=Step.BREACH, threats={},
                      narration=state.narration + lines)
    if lines:
        return evolve(state, location=loc + 1, step=Step.BREACH, threats={}, narration=state.narration + lines)
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
            lines.append(line(r, "mall.n.put.zombie_player", act=True, location=loc, count=1, colour=p))
        elif loc:
            lines.append(line(r, "mall.n.zombie_player.closed", colour=p, location=loc))
    state = evolve(state, zombies=tuple(zombies), narration=state.narration + tuple(lines))
    if state.rescued():
        return finish(state)
    return evolve(
        state,
        earlier=state.earlier + state.narration + (line(r + 1, "mall.n.round", round=r + 1),),  # the round told
        narration=(),
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
