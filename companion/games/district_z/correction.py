"""What the table may correct on District-Z's board (companion/board.py: Edit), and the board so corrected.

The public facts of the city and of the survivors: each district card face up or down, its zombie tokens and the
objective cards lying there; each survivor's figure (a district, or off the board), the attack and health of his
survivor card, his damage tokens, whether he holds an objective card; where each item card is (held by a survivor,
lying on a district, or out of the game); the round, whose turn it is and the district cards set aside. An item card
the companion never heard of is not added here: the event that gave it asks for its kind and bonuses.

While a turn is under way (past its first question: an event, a combat, a fight), the rules are working with the
district it is played at and the survivors in it: that district's card and pieces, those survivors' figures,
attack and items, and whose turn it is are offered again once the turn moves on. Nothing here is secret: every die of
District-Z is rolled in the open.
"""

from __future__ import annotations

from dataclasses import replace

from companion.board import Edit, EditChoice
from companion.contract import IllegalAction, msg

from .engine import NUMBERS, _begin_turn  # a turn the table hands to another player begins as the rules begin one
from .state import HANDS, State

CALM = ("corner", "attack", "health", "turn")  # steps where no turn is under way (its first question at most)
ZOMBIES_MOST = 99  # the rules count no zombie tokens in the box: a number no district reaches
FACES = (EditChoice(True, msg("dz.edit.face_up")), EditChoice(False, msg("dz.edit.face_down")))
HOLDS = (EditChoice(True, msg("dz.edit.yes")), EditChoice(False, msg("dz.edit.no")))


def _busy_cell(state: State) -> tuple[int, int] | None:
    """The district a turn under way is played at."""
    return state.me.pos if state.step not in CALM else None


def _busy_seats(state: State) -> set[str]:
    """The survivors in a turn under way: its player, the one asked for him, the two of a fight."""
    if state.step in CALM:
        return set()
    fight = (state.fight.attacker, state.fight.defender) if state.fight is not None else ()
    return {state.seat, *([state.asked] if state.asked else []), *fight}


def _on_table(state: State) -> list:
    """The survivors whose card is on the table: in play, attack and health entered."""
    return [s for s in state.survivors if s.active and s.attack is not None and s.health is not None]


def edits(state: State) -> tuple[Edit, ...]:
    """Every public fact of the board the table may correct now, where the board draws it: the round, whose turn
    and the cards set aside for the board as a whole, each district's card and what lies there at its cell, each
    survivor's card and items at his seat's panel."""
    if state.over:
        return ()
    return (*_board(state), *_districts(state), *_items(state), *_survivors(state))


def _districts_of(state: State) -> list[tuple[tuple[int, int], str]]:
    """Each district's place and name, row by row, but the one a turn under way is played at."""
    busy = _busy_cell(state)
    return [((x, y), state.name((x, y))) for y in range(state.height) for x in range(state.width) if (x, y) != busy]


def _board(state: State) -> list[Edit]:
    out = [Edit("round", "", msg("dz.edit.round"), state.round, 1, 99)]
    active = [s.seat for s in state.survivors if s.active]
    if state.step in ("attack", "health", "turn") and len(active) > 1:
        out.append(Edit("turn", "", msg("dz.edit.turn"), state.seat,
                        choices=tuple(EditChoice(seat, msg(f"colour.{seat}")) for seat in active)))
    out.append(Edit("aside", "", msg("dz.edit.aside"), state.set_aside, 0, len(state.players)))
    return out


def _districts(state: State) -> list[Edit]:
    out = []
    for pos, name in _districts_of(state):
        cell = state.cell(pos)
        out += [Edit(f"up.{name}", name, msg("dz.edit.up", cell=name), cell.up, choices=FACES),
                Edit(f"zombies.{name}", name, msg("dz.edit.zombies", cell=name), cell.zombies, 0, ZOMBIES_MOST),
                Edit(f"objectives.{name}", name, msg("dz.edit.objectives", cell=name), cell.objectives, 0,
                     len(state.players))]
    return out


def _holders(state: State) -> list[str]:
    """The survivors whose items may be corrected now (and who may be given one)."""
    busy = _busy_seats(state)
    return [s.seat for s in _on_table(state) if s.seat not in busy]


def _items(state: State) -> list[Edit]:
    """Where each item card is: held by a survivor, lying on a district, or out of the game."""
    holders, districts = _holders(state), _districts_of(state)
    places = (*(EditChoice(f"held:{seat}", msg("dz.edit.held_by", colour=seat)) for seat in holders),
              *(EditChoice(f"lying:{name}", msg("dz.edit.lying_at", cell=name)) for _, name in districts),
              EditChoice("gone", msg("dz.edit.gone")))
    out = []
    for seat in holders:
        out += [Edit(f"item.{seat}.{i}", seat, msg("dz.edit.item_held", colour=seat, index=i + 1,
                                                     item=gear.message()), f"held:{seat}", choices=places)
                for i, gear in enumerate(state.of(seat).items)]
    for pos, name in districts:
        out += [Edit(f"item.{name}.{i}", name, msg("dz.edit.item_lying", cell=name, index=i + 1,
                                                     item=gear.message()), f"lying:{name}", choices=places)
                for i, gear in enumerate(state.cell(pos).items)]
    return out


def _survivors(state: State) -> list[Edit]:
    cells = tuple(EditChoice(state.name((x, y)), msg("dz.board.at", cell=state.name((x, y))))
                  for y in range(state.height) for x in range(state.width))
    off = EditChoice(None, msg("dz.edit.off"))
    holders, out = _holders(state), []
    for s in _on_table(state):
        seat = s.seat
        if seat in holders:
            # The survivor whose turn it is stands on the board: his question is where he goes from there.
            choices = cells if seat == state.seat and state.step == "turn" else (*cells, off)
            out += [Edit(f"cell.{seat}", seat, msg("dz.edit.cell", colour=seat),
                         state.name(s.pos) if s.pos else None, choices=choices),
                    Edit(f"attack.{seat}", seat, msg("dz.edit.attack", colour=seat), s.attack, *NUMBERS["attack"])]
        out += [Edit(f"health.{seat}", seat, msg("dz.edit.health", colour=seat), s.health, *NUMBERS["health"]),
                Edit(f"damage.{seat}", seat, msg("dz.edit.damage", colour=seat), s.damage, 0, s.life),
                Edit(f"objective.{seat}", seat, msg("dz.edit.objective", colour=seat), s.objective, choices=HOLDS)]
    return out


def _pos(name: str) -> tuple[int, int]:
    """A district's place from its name ("B3": the second column, the third row)."""
    return ord(name[0]) - ord("A"), int(name[1:]) - 1


def correct(state: State, changes: dict) -> State:
    """The board with these facts so (each one an Edit allowed, checked by companion/correction.py); IllegalAction
    naming what is impossible: a figure on a face-down card, pieces on a face-down card, items for more than four
    hands, more damage than health, more objective cards than the box has, more of them hidden than district cards
    set aside to replace them. The objective cards neither lying nor held are the ones still hidden in the city."""
    after = _items_moved(state, {key: value for key, value in changes.items() if key.startswith("item.")})
    for key, value in changes.items():
        kind, _, name = key.partition(".")
        if kind == "round":
            after = replace(after, round=value)
        elif kind == "aside":
            after = replace(after, set_aside=value)
        elif kind == "up":  # a card the table turned face up was seen: a district, never the objective later
            after = after.with_cell(_pos(name), up=value, seen=after.cell(_pos(name)).seen or value)
        elif kind in ("zombies", "objectives"):
            after = after.with_cell(_pos(name), **{kind: value})
        elif kind == "cell":
            after = after.with_survivor(name, pos=_pos(value) if value is not None else None)
        elif kind in ("attack", "health", "damage", "objective"):
            after = after.with_survivor(name, **{kind: value})
    _check(after)
    seen = sum(c.objectives for c in after.cells) + sum(s.objective for s in after.survivors)
    after = replace(after, hidden_objectives=len(after.players) - seen)  # the box's others: face down in the city
    if changes.get("turn", state.seat) != state.seat:  # his turn begins (a new card entered, a figure placed)
        after = _begin_turn(replace(after, turn=after.players.index(changes["turn"])))
    return after


def _items_moved(state: State, moves: dict) -> State:
    """Each item card where the table says it is: taken from where it was (its place in a list, before any of the
    moves), then added to its holder's items or to its district's, in the order of the moves."""
    taken: dict[str, set[int]] = {}
    for key in moves:
        _, owner, index = key.split(".")
        taken.setdefault(owner, set()).add(int(index))
    after = state
    for owner, indexes in taken.items():
        if owner in state.players:
            kept = tuple(g for i, g in enumerate(state.of(owner).items) if i not in indexes)
            after = after.with_survivor(owner, items=kept)
        else:
            kept = tuple(g for i, g in enumerate(state.cell(_pos(owner)).items) if i not in indexes)
            after = after.with_cell(_pos(owner), items=kept)
    for key, place in moves.items():
        _, owner, index = key.split(".")
        gear = (state.of(owner) if owner in state.players else state.cell(_pos(owner))).items[int(index)]
        where, _, name = place.partition(":")
        if where == "held":
            after = after.with_survivor(name, items=after.of(name).items + (gear,))
            if after.of(name).hands > HANDS:
                raise IllegalAction("dz.refuse.edit_hands", colour=name, hands=after.of(name).hands, most=HANDS)
        elif where == "lying":
            after = after.with_cell(_pos(name), items=after.cell(_pos(name)).items + (gear,))
    return after


def _check(state: State) -> None:
    """The board the table says it has is one the box can make."""
    for s in state.survivors:
        if s.pos is not None and not state.cell(s.pos).up:
            raise IllegalAction("dz.refuse.edit_figure_down", colour=s.seat, cell=state.name(s.pos))
    for y in range(state.height):
        for x in range(state.width):
            cell = state.cell((x, y))
            if not cell.up and (cell.zombies or cell.items or cell.objectives):
                raise IllegalAction("dz.refuse.edit_pieces_down", cell=state.name((x, y)))
    for s in _on_table(state):
        if s.damage > s.life:
            raise IllegalAction("dz.refuse.edit_damage", colour=s.seat, damage=s.damage, health=s.life)
    seen = sum(c.objectives for c in state.cells) + sum(s.objective for s in state.survivors)
    box = len(state.players)
    if seen > box:
        raise IllegalAction("dz.refuse.edit_objectives", seen=seen, box=box)
    if box - seen > state.set_aside:
        raise IllegalAction("dz.refuse.edit_aside", hidden=box - seen, aside=state.set_aside)
