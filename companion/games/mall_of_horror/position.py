"""A game as JSON: a position to start from (a game already in progress) and the table's record of a state.

The record has the same shape as a position, so a record taken at the start of a phase can be fed back as a
position and the game carries on the same. The record is the table's own book, never shown to players as is.
"""

from __future__ import annotations

import dataclasses

from companion.contract import IllegalAction
from companion.games.checks import sent, shown

from . import prompts
from .board import CACHOU, CAPACITY, DECK, DECK_SIZE, LOCATIONS, PARKING, characters_for
from .engine import PHASES, advance, new_game
from .state import Character, Options, Phase, State, Step, evolve
from .view import board

POSITION_KEYS = {"round", "phase", "chief", "elected", "characters", "zombies", "closed", "hands", "deck",
                 "destinations", "cup", "played", "hidden"}
# What a record holds beyond a position: worked out again from the position, so ignored when fed back.
RECORD_ONLY_KEYS = {"game", "players", "table_options", "waiting", "prompt", "options", "over", "scores",
                    "winners", "unplaced", "cup_request", "warnings", "narration"}


def start(players: object, options: object = None, position: object = None) -> State:
    """A new game at placement, or the game described by `position`, advanced to its first decision."""
    opts = Options.from_json(options)
    if position is None:
        return new_game(prompts.check_players(players), opts)
    return advance(from_position(prompts.check_players(players), opts, position))


def from_position(players: tuple[str, ...], options: Options, position: object) -> State:
    if not isinstance(position, dict):
        raise IllegalAction("mall.position.not_object")
    unknown = set(position) - POSITION_KEYS - RECORD_ONLY_KEYS
    if unknown:
        raise IllegalAction("mall.position.unknown_fields", fields=", ".join(shown(f) for f in sorted(unknown)))
    phase = position.get("phase", Phase.TRUCK)
    if phase not in PHASES:
        raise IllegalAction("mall.position.phase", phases=", ".join(PHASES), value=sent(phase))
    round_ = _int(position.get("round", 1), "round", 1)
    chief = position.get("chief", players[0])
    if chief not in players:
        raise IllegalAction("mall.position.chief_not_playing", value=sent(chief))
    elected = position.get("elected", False)
    if type(elected) is not bool:
        raise IllegalAction("mall.position.boolean", field="elected", first="true", second="false")

    closed = position.get("closed", [CACHOU] if len(players) <= 4 else [])
    if not isinstance(closed, list) or not all(type(c) is int and c in LOCATIONS for c in closed):
        raise IllegalAction("mall.position.closed", field="closed")
    if PARKING in closed:
        raise IllegalAction("mall.position.parking_closed", location=PARKING)
    closed = frozenset(closed)

    characters = _characters(players, position.get("characters", {}), closed)
    zombies = _per_location(position.get("zombies", {}), "zombies")
    hidden = position.get("hidden", {})
    characters = _hide(characters, hidden)

    hands = {p: 0 for p in players}
    for p, n in _colour_map(position.get("hands", {}), players, "hands").items():
        hands[p] = _int(n, f"hands.{p}", 0)
    played = dict.fromkeys(DECK, 0)
    for key, n in _object(position.get("played", {}), "played").items():
        if key not in DECK:
            raise IllegalAction("mall.position.played_unknown", field="played", value=repr(key), cards=", ".join(DECK))
        played[key] = _int(n, f"played.{key}", 0)
        if played[key] > DECK[key]:
            raise IllegalAction("mall.position.played_too_many", field="played", count=DECK[key], card=key)
    default_deck = DECK_SIZE - len(players) - sum(played.values())
    deck = _int(position.get("deck", max(0, default_deck)), "deck", 0)
    if deck + sum(hands.values()) + sum(played.values()) > DECK_SIZE:
        raise IllegalAction("mall.position.too_many_cards", count=DECK_SIZE, fields="deck + hands + played")

    destinations = {}
    for p, loc in _colour_map(position.get("destinations", {}), players, "destinations").items():
        if type(loc) is not int or loc not in LOCATIONS:
            raise IllegalAction("mall.position.destination", colour=p, value=sent(loc))
        destinations[p] = loc
    cup = position.get("cup")
    if cup is not None:
        if not isinstance(cup, list) or len(cup) != 4 or not all(type(d) is int and 1 <= d <= 6 for d in cup):
            raise IllegalAction("mall.position.cup", field="cup", example="[1, 3, 6, 6]")
        cup = tuple(cup)
    if phase not in (Phase.DESTINATION, Phase.MOVE, Phase.ATTACK) and (cup is not None or destinations):
        raise IllegalAction("mall.position.cup_phase", fields="cup, destinations", phases="destination, move, attack")
    if phase == Phase.ATTACK:  # the moves are made: only a zombie player's destination still counts (his zombie)
        missing = [p for p in players if p not in destinations and not any(c.colour == p for c in characters)]
        if missing:
            raise IllegalAction("mall.position.missing_zombie_destinations", colours=missing)

    state = State(
        players=players, options=options, chief=chief, characters=characters, zombies=zombies, closed=closed,
        hands=hands, deck=deck, played=played, round=round_, phase=phase, step=Step.START, elected=elected,
        cup=cup, lookers=frozenset({chief}) if elected and cup else frozenset(), destinations=destinations,
    )
    if phase in (Phase.MOVE, Phase.ATTACK):
        # Players already out when the destinations were chosen add a zombie at the end of the round.
        state = evolve(state, zombie_players=frozenset(p for p in players if not state.alive(p)))
    if not state.alive(chief) and state.characters:
        raise IllegalAction("mall.position.chief_out", colour=chief)
    if phase == Phase.MOVE:  # who had no legal destination chose nothing
        missing = [p for p in players if p not in destinations and not prompts.no_destination(state, p)]
        if missing:
            raise IllegalAction("mall.position.missing_destinations", phase_name=phase, colours=missing)
    return state


def _characters(players: tuple[str, ...], data: object, closed: frozenset[int]) -> tuple[Character, ...]:
    allowed = characters_for(len(players))
    result = []
    for colour, kinds in _colour_map(data, players, "characters").items():
        for kind, loc in _object(kinds, f"characters.{colour}").items():
            if kind not in allowed:
                raise IllegalAction("mall.position.not_a_character", colour=colour, value=repr(kind),
                                    kinds=", ".join(allowed))
            if type(loc) is not int or loc not in LOCATIONS:
                raise IllegalAction("mall.position.character_location", colour=colour, character=kind,
                                    value=sent(loc))
            if loc in closed:
                raise IllegalAction("mall.position.character_closed", colour=colour, character=kind, location=loc)
            result.append(Character(colour, kind, loc))
    for loc in LOCATIONS:
        present = sum(c.location == loc for c in result)
        if CAPACITY[loc] is not None and present > CAPACITY[loc]:
            raise IllegalAction("mall.position.over_capacity", location=loc, count=CAPACITY[loc], present=present)
    order = {p: i for i, p in enumerate(players)}
    return tuple(sorted(result, key=lambda c: (order[c.colour], allowed.index(c.kind))))


def _hide(characters: tuple[Character, ...], hidden: object) -> tuple[Character, ...]:
    wanted = set()
    for colour, kinds in _object(hidden, "hidden").items():
        if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
            raise IllegalAction("mall.position.hidden_list", field="hidden")
        wanted |= {(colour, k) for k in kinds}
    living = {(c.colour, c.kind) for c in characters}
    if wanted - living:
        raise IllegalAction("mall.position.hidden_not_alive", field="hidden")
    return tuple(Character(c.colour, c.kind, c.location, True) if (c.colour, c.kind) in wanted else c
                 for c in characters)


def _per_location(data: object, what: str) -> tuple[int, ...]:
    counts = [0] * 6
    for key, n in _object(data, what).items():
        if key not in {str(loc) for loc in LOCATIONS}:
            raise IllegalAction("mall.position.not_a_location", field=what, value=repr(key))
        counts[int(key) - 1] = _int(n, f"{what}.{key}", 0)
    return tuple(counts)


def _colour_map(data: object, players: tuple[str, ...], what: str) -> dict:
    data = _object(data, what)
    for colour in data:
        if colour not in players:
            raise IllegalAction("mall.position.not_a_player", field=what, value=repr(colour))
    return data


def _object(data: object, what: str) -> dict:
    if not isinstance(data, dict):
        raise IllegalAction("mall.position.not_an_object", field=what)
    return data


def _int(value: object, what: str, minimum: int) -> int:
    if type(value) is not int or value < minimum:
        raise IllegalAction("mall.position.not_a_number", field=what, minimum=minimum, value=sent(value))
    return value


# -- the record -----------------------------------------------------------------------------------------------


def record(state: State) -> dict:
    """The game's part of the table's record (replay's output): the board as every view has it, in the shape of
    a position (seats with nothing to list are left out), with what the cup is asked for."""
    out = board(state)
    for listed in ("characters", "hidden", "unplaced"):
        if listed in out:
            out[listed] = {p: items for p, items in out[listed].items() if items}
    if not out["hidden"]:
        del out["hidden"]
    out.update({
        "played": dict(state.played),
    })
    if state.destinations:
        out["destinations"] = dict(state.destinations)
    if state.cup is not None:
        out["cup"] = list(state.cup)
    request = prompts.cup_request(state)
    if request is not None:
        out["cup_request"] = {"kind": request.kind, "count": request.count}
    return out


def table_options(state: State) -> dict:
    return dataclasses.asdict(state.options)


def scores(state: State) -> dict[str, int]:
    return {p: state.score(p) for p in state.players}


def position_of(state: State) -> dict:
    """A position that starts the game again from this state (taken at the start of a phase)."""
    out = record(state)
    keep = POSITION_KEYS - {"destinations", "cup"}
    if state.phase in (Phase.DESTINATION, Phase.MOVE, Phase.ATTACK):
        keep |= {"destinations", "cup"}
    return {k: v for k, v in out.items() if k in keep}
