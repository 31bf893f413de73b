"""The board is the truth: what the table may correct on Mall of Horror's board (`edits`), and the game on the
corrected board (`correct`). companion/correction.py checks each change against its Edit and says it.

The facts: where each living figure stands (or that it was eaten), the zombies at each open location, which
locations are closed, the action cards in each hand and in the truck deck, the Chief, the round and the phase.

A corrected board is checked as a position is (position.py: capacity, a figure in a closed location, the Parking
closed, a Chief with no figure left), and the step the game waits at is asked again of the corrected board: a vote
nobody has voted in yet opens again (its voters and weights follow the board), an attack's card window opens again,
the destinations and the moves go on from the board. A new phase starts the way a position starts it. Some facts
wait while a step reads them:
- nothing is corrected while a secret answer is cast (a ballot, a secret destination): the table waits for the
  reveal;
- while a revealed vote decides (a re-vote, the loser choosing who dies, the cup drawing one), the figures are
  not offered, nor the zombies of the location under attack (a re-vote's weights came from that board);
- while a player sprints, his own figures wait (he is choosing which of them runs);
- the phase never goes back before the dice were rolled (they are never rolled again) nor before the reveal.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.board import Edit, EditChoice
from companion.contract import IllegalAction, msg

from .board import BOARD_ZOMBIES, DECK_SIZE, LOCATIONS, PARKING
from .engine import PHASES, advance, finish
from .position import from_position, record
from .state import Character, Phase, State, Step, evolve
from .view import REVEALED_PHASES

EATEN = "eaten"  # a figure's place once the zombies have eaten it: off the board
ROUNDS = 99  # no rule ends the game after some rounds: a bound for the − and + only
BOARD = ("round", "chief", "elected", "characters", "zombies", "closed", "hands", "deck", "played", "hidden")


# -- what may be corrected now ----------------------------------------------------------------------------------


def edits(state: State) -> tuple[Edit, ...]:
    """Every public fact of the board the table may correct now, each where the board draws it."""
    if state.over or _secret_cast(state):
        return ()
    out: list[Edit] = []
    entering = state.phase == Phase.PLACEMENT  # a game in progress may be entered now: its round, phase and figures
    if state.round or entering:
        out.append(Edit("round", "", msg("mall.edit.round"), state.round, 1, max(ROUNDS, state.round)))
        phases = _phases(state)
        if len(phases) > 1:
            out.append(Edit("phase", "", msg("mall.edit.phase"), state.phase,
                            choices=tuple(EditChoice(p, msg(f"mall.phase.{p}")) for p in phases)))
        living = [p for p in state.players if state.alive(p)]
        # The Chief elected this round saw the secret dice and chooses his destination first, in public.
        if len(living) > 1 and not (state.elected and state.phase in (Phase.ARRIVAL, Phase.DESTINATION)):
            out.append(Edit("chief", "", msg("mall.edit.chief"), state.chief,
                            choices=tuple(EditChoice(p, msg(f"colour.{p}")) for p in living)))
    deciding = _deciding(state)
    for loc in LOCATIONS:
        here = str(loc)
        if state.is_open(loc) and not (deciding and loc == state.location):
            count = state.zombies[loc - 1]
            out.append(Edit(f"zombies.{loc}", here, msg("mall.edit.zombies", location=loc), count, 0,
                            max(BOARD_ZOMBIES, count)))
        if loc != PARKING:  # the Parking never closes (it has no limit): not offered
            out.append(Edit(f"closed.{loc}", here, msg("mall.edit.location", location=loc), loc in state.closed,
                            choices=(EditChoice(False, msg("mall.edit.open")),
                                     EditChoice(True, msg("mall.edit.closed")))))
    if not deciding:
        places = tuple(EditChoice(loc, msg(f"mall.location.{loc}")) for loc in LOCATIONS if state.is_open(loc))
        places += (EditChoice(EATEN, msg("mall.edit.eaten")),)  # (during placement: with a game entered in progress)
        sprinting = state.order[state.turn] if state.step == Step.SPRINT else None
        # A figure not yet placed (during placement) is offered too, for a game entered as it lies on the table.
        out += [Edit(f"figure.{c.colour}.{c.kind}", str(c.location),
                     msg("mall.edit.figure", colour=c.colour, character=c.kind), c.location, choices=places)
                for c in state.characters if (c.location or entering) and c.colour != sprinting]
    out += [Edit(f"hand.{p}", "", msg("mall.edit.hand", colour=p), state.hands[p], 0, DECK_SIZE)
            for p in state.players]
    searching = deciding and state.vote is not None and state.vote.purpose == "truck"  # its winner draws a card
    out.append(Edit("deck", "", msg("mall.edit.deck"), state.deck, 1 if searching else 0, DECK_SIZE))
    return tuple(out)


def _secret_cast(state: State) -> bool:
    """A ballot is cast, or a destination chosen in secret, and not yet revealed."""
    if state.step == Step.VOTE:
        return bool(state.vote.ballot.ballots)
    if state.step == Step.SECRET:
        return any(not (state.elected and p == state.chief) for p in state.destinations)
    return False


def _deciding(state: State) -> bool:
    """A revealed vote is deciding: a re-vote among the tied, the loser choosing who dies, the cup drawing."""
    return (state.step == Step.VOTE and state.vote.stage == 2) or state.step in (Step.VICTIM, Step.PICK)


def _phases(state: State) -> list[str]:
    """The phases this round may be set at: where it is, and each that starts from this board as a position
    starts there, but never before the dice of this round were rolled nor before the reveal."""
    if state.phase == Phase.PLACEMENT:  # a game entered in progress: at the start of any phase of a round
        return [Phase.PLACEMENT, *PHASES]
    if state.phase not in PHASES:
        return []
    if state.phase in REVEALED_PHASES:
        earliest = state.phase
    elif state.cup is not None:
        earliest = Phase.DESTINATION
    else:
        earliest = Phase.TRUCK
    return [phase for phase in PHASES if phase == state.phase or
            (PHASES.index(phase) >= PHASES.index(earliest) and _starts(state, phase))]


def _starts(state: State, phase: str) -> bool:
    try:
        from_position(state.players, state.options, _position(state, phase))
    except IllegalAction:
        return False
    return True


# -- the corrected board --------------------------------------------------------------------------------------


def correct(state: State, changes: Mapping[str, object]) -> State:
    """The game on the board with these facts so, waiting for what the rules ask next; IllegalAction (in one line)
    for a board the rules find impossible."""
    phase = changes.get("phase", state.phase)
    if state.phase == Phase.PLACEMENT:
        _entered(state, changes, phase)
    board = _corrected(state, changes)
    if phase != state.phase:
        return _rebuilt(board, phase)
    return _resumed(board)


def _entered(state: State, changes: Mapping[str, object], phase: str) -> None:
    """During placement, a figure placed out of turn, one eaten or a round set is a game entered in progress: it
    needs the phase it stands at, and then every figure somewhere (placed, or eaten). So does a Chief chosen."""
    placed = {c: changes.get(f"figure.{c.colour}.{c.kind}", c.location) for c in state.characters}
    unplaced = [c for c, place in placed.items() if not place]
    moved = any(place != c.location and (not c.location or place == EATEN) for c, place in placed.items())
    entering = moved or "round" in changes or "chief" in changes
    if phase == Phase.PLACEMENT and entering:
        raise IllegalAction("mall.edit.refuse.enter_phase")
    if phase != Phase.PLACEMENT and unplaced:
        raise IllegalAction("mall.edit.refuse.unplaced", count=len(unplaced))


def _corrected(state: State, changes: Mapping[str, object]) -> State:
    """The state with the board's facts changed and checked, the step it waits at as it was."""
    places = {key.removeprefix("figure."): value for key, value in changes.items() if key.startswith("figure.")}
    characters = []
    for c in state.characters:
        place = places.get(f"{c.colour}.{c.kind}", c.location)
        if place != EATEN:
            characters.append(Character(c.colour, c.kind, place, c.hidden))
    zombies = [changes.get(f"zombies.{loc}", state.zombies[loc - 1]) for loc in LOCATIONS]
    closed = frozenset(loc for loc in LOCATIONS if changes.get(f"closed.{loc}", loc in state.closed))
    hands = {p: changes.get(f"hand.{p}", state.hands[p]) for p in state.players}
    deck = changes.get("deck", state.deck)
    played = sum(state.played.values())
    if deck + sum(hands.values()) + played > DECK_SIZE:
        raise IllegalAction("mall.edit.refuse.cards", count=DECK_SIZE, deck=deck, hands=sum(hands.values()),
                            played=played, total=deck + sum(hands.values()) + played)
    board = evolve(state, characters=tuple(characters), zombies=tuple(zombies), closed=closed, hands=hands, deck=deck,
                   chief=changes.get("chief", state.chief))
    round_ = changes.get("round", state.round)
    if round_ != state.round:  # this round's lines are an earlier round's now
        board = evolve(board, round=round_, earlier=state.earlier + state.narration, narration=())
    from_position(state.players, state.options, _position(board, Phase.TRUCK))  # checked as a position is
    for loc in sorted(closed):
        if zombies[loc - 1]:  # a location falls when its zombies have left: none stay in a closed one
            raise IllegalAction("mall.edit.refuse.closed_zombies", location=loc, count=zombies[loc - 1])
    return board


def _position(state: State, phase: str) -> dict:
    """The board as a position at the start of `phase` (position.py), with the dice of this round and the
    destinations everyone has seen where the phase has them."""
    board = record(state)
    position = {key: board[key] for key in BOARD if key in board}
    position.update(round=max(1, state.round), phase=phase)
    if phase in (Phase.DESTINATION, Phase.MOVE, Phase.ATTACK):
        if state.cup is not None:
            position["cup"] = list(state.cup)
        position["destinations"] = _public_destinations(state)
    return position


def _public_destinations(state: State) -> dict[str, int]:
    if state.phase in REVEALED_PHASES:
        return dict(state.destinations)
    if state.elected and state.chief in state.destinations:  # the elected Chief chose first, in public
        return {state.chief: state.destinations[state.chief]}
    return {}


def _rebuilt(state: State, phase: str) -> State:
    """The game at the start of `phase` on this board, as a position starts it, its narration and the last revealed
    ballot kept (and who may look at the dice, while they stay secret)."""
    rebuilt = from_position(state.players, state.options, _position(state, phase))
    kept = {"earlier": state.earlier, "narration": state.narration, "revealed": state.revealed}
    if rebuilt.cup is not None:
        kept["lookers"] = state.lookers
    return advance(evolve(rebuilt, **kept))


def _resumed(state: State) -> State:
    """The step the game waits at, asked again of the corrected board."""
    step = state.step
    if step == Step.VOTE and state.vote.stage == 1:  # nobody has voted (or the table would wait): open it again
        vote = state.vote
        if vote.purpose == "victim":  # its Threats count again
            state = evolve(state, vote=None, threats=dict(vote.threats), step=Step.AFTER_WINDOW)
        else:  # the truck search or the Chief election looks at its location again
            state = evolve(state, vote=None, step=Step.START)
    elif step == Step.WINDOW and state.window.kind == "attack":  # breached still? who is there to play?
        state = evolve(state, window=None, step=Step.BREACH)
    elif state.phase == Phase.DESTINATION and step in (Step.CHIEF, Step.SECRET):  # who is out, who has no choice
        state = evolve(state, step=Step.START)
    if state.phase != Phase.PLACEMENT and state.options.end_timing == "immediate" and state.rescued():
        return finish(state)
    return advance(state)
