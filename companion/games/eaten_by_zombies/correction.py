"""Eaten by Zombies!: what the table may correct on the board (the board is the truth), and how.

The companion counts the box's zombie cards by level wherever they are. The zombie deck lies face down and holds
every zombie found nowhere else: a zombie the table puts in the field, the zombie discard, a human's cards or a
Power comes from the deck, and one it takes away goes back to it. So the deck is never corrected by itself (its
levels would tell a zombie player's hand, which stays his own), and a board that needs more zombies of a level than
the box has is refused. Who plays, whose turn it is and the flips a turn are corrected as a turn begins; while a
level or an addition is being entered, only the turn number is.
"""

from __future__ import annotations

from dataclasses import replace

from companion.board import Edit, EditChoice
from companion.contract import IllegalAction, msg

from .state import EMPTY, LEVELS, MAX_POWERS, SPEEDS, Pile, State, Zombie, deck_for, pile_sum

MAX_ROUND = 999
MAX_FLIPS = 10  # one more flip a turn for each reshuffle: far beyond any game
PENDING = {"flip_speed", "add", "add_speed"}  # a level, or who may add, is being worked out from the piles
FACING = {"choose", "value"}  # the active human faces the field


def starts_turn(state: State) -> bool:
    """A turn begins: a human has flipped nothing yet, or a zombie player has drawn nothing yet."""
    if state.step == "zdraw":
        return True
    return state.step == "flip" and state.active not in state.dead and state.flips_left == state.flips_total


def edits(state: State) -> tuple[Edit, ...]:
    """The turn number; as a turn begins, whose turn it is, the flips a turn and who is a zombie player; unless a
    level or an addition is being entered, the zombie discard by level, the field's zombies (a slot more to add
    one), each human's zombie cards by level and each zombie player's Powers. Never a zombie player's hand."""
    if state.over or state.step == "market":
        return ()
    out = [Edit("round", "", msg("ebz.edit.round"), state.round, 1, MAX_ROUND)]
    turn = starts_turn(state)
    if turn:
        out.append(Edit("active", "", msg("ebz.edit.active"), state.active,
                        choices=tuple(EditChoice(seat, msg(f"colour.{seat}")) for seat in state.players)))
        out.append(Edit("flips", "", msg("ebz.edit.flips"), 1 + state.reshuffles, 1, MAX_FLIPS))
    if state.step in PENDING:
        return tuple(out)
    box = deck_for(len(state.players))
    out += [Edit(f"discard.{level}", "", msg("ebz.edit.discard", level=level), n, 0, most)
            for level, n, most in zip(LEVELS, state.discard, box, strict=True)]
    out += _field_edits(state)
    for seat in state.players:
        if seat in state.dead:
            out += _power_edits(state, seat)
            continue
        out += [Edit(f"cards.{seat}.{level}", seat, msg("ebz.edit.cards", colour=seat, level=level), n, 0, most)
                for level, n, most in zip(LEVELS, state.held(seat), box, strict=True)]
        if turn:
            out.append(Edit(f"zombie.{seat}", seat, msg("ebz.edit.plays_as", colour=seat), False,
                            choices=(EditChoice(False, msg("ebz.board.human")),
                                     EditChoice(True, msg("ebz.board.zombie_player")))))
    return tuple(out)


def _field_edits(state: State) -> list[Edit]:
    """Each zombie of the field by its level and its speed, and one slot more (no zombie yet) to add one."""
    levels = (EditChoice(None, msg("ebz.edit.no_zombie")),) + tuple(
        EditChoice(level, msg("ebz.c.level", level=level)) for level in LEVELS)
    speeds = (EditChoice(None, msg("ebz.edit.no_zombie")),) + tuple(
        EditChoice(speed, msg("ebz.c.speed", speed=speed)) for speed in SPEEDS)
    out = []
    slots = [(z.level, z.speed) for z in state.field] + [(None, None)]
    for number, (level, speed) in enumerate(slots, start=1):
        out.append(Edit(f"field.{number}.level", "", msg("ebz.edit.field_level", number=number), level,
                        choices=levels))
        out.append(Edit(f"field.{number}.speed", "", msg("ebz.edit.field_speed", number=number), speed,
                        choices=speeds))
    return out


def _power_edits(state: State, seat: str) -> list[Edit]:
    """A zombie player's Powers, oldest first, one slot each (no Power in a slot he has not filled)."""
    kept = state.powers.get(seat, ())
    choices = (EditChoice(None, msg("ebz.edit.no_power")),) + tuple(
        EditChoice(level, msg(f"ebz.power.{level}")) for level in LEVELS)
    return [Edit(f"power.{seat}.{number}", seat, msg("ebz.edit.power", colour=seat, number=number),
                 kept[number - 1] if number <= len(kept) else None, choices=choices)
            for number in range(1, MAX_POWERS + 1)]


def correct(state: State, changes: dict) -> State:
    """The board as the table says (changes checked against `edits`): the deck gives and takes what the other piles
    gain and lose; refused in one line when the box has too few zombies of a level, the deck would be empty, a
    zombie of the field lacks its level or its speed, the human facing the field would face none, or one human
    would be left."""
    discard, cards, powers, dead = state.discard, dict(state.cards), dict(state.powers), state.dead
    for key, value in changes.items():
        kind, _, rest = key.partition(".")
        if kind == "discard":
            discard = _set(discard, int(rest), value)
        elif kind == "cards":
            seat, _, level = rest.partition(".")
            cards[seat] = _set(cards.get(seat, EMPTY), int(level), value)
    for seat in state.dead:  # his Powers, oldest first: an emptied slot lets the next move up
        kept = state.powers.get(seat, ())
        slots = [changes.get(f"power.{seat}.{number}", kept[number - 1] if number <= len(kept) else None)
                 for number in range(1, MAX_POWERS + 1)]
        powers[seat] = tuple(level for level in slots if level is not None)
    for seat in state.players:
        if changes.get(f"zombie.{seat}") is True:  # he died: his zombie cards go to the zombie discard
            discard, cards[seat], powers[seat] = pile_sum(discard, cards.get(seat, EMPTY)), EMPTY, ()
            dead += (seat,)
    if len(state.players) - len(dead) < 2:
        raise IllegalAction("ebz.refuse.edit_last_human")
    field = _field(state, changes)
    if state.step in FACING and not field:
        raise IllegalAction("ebz.refuse.edit_field_empty", colour=state.active)
    after = replace(state, discard=discard, cards=cards, powers=powers, dead=dead, field=field,
                    round=changes.get("round", state.round))
    after = replace(after, deck=_deck(after))
    if starts_turn(state):  # the turn begins again, as the table says: whose, how many flips
        active = changes.get("active", state.active)
        flips = changes.get("flips", 1 + state.reshuffles)
        after = replace(after, active=active, reshuffles=flips - 1, flips_left=flips, flips_total=flips,
                        step="zdraw" if active in after.dead else "flip")
    return after


def _set(pile: Pile, level: int, n: int) -> Pile:
    i = LEVELS.index(level)
    return pile[:i] + (n,) + pile[i + 1:]  # type: ignore[return-value]


def _field(state: State, changes: dict) -> tuple[Zombie, ...]:
    """The field after the changes, in its order: a slot with neither level nor speed holds no zombie."""
    out = []
    slots = list(state.field) + [None]
    for number, zombie in enumerate(slots, start=1):
        level = changes.get(f"field.{number}.level", zombie.level if zombie else None)
        speed = changes.get(f"field.{number}.speed", zombie.speed if zombie else None)
        if (level is None) != (speed is None):
            raise IllegalAction("ebz.refuse.edit_zombie_half", number=number)
        if level is not None:
            out.append(Zombie(level, speed, zombie.by if zombie else None))
    return tuple(out)


def _deck(state: State) -> Pile:
    """The rest of the box: every zombie the other piles do not hold (refused if a level is short, or none is
    left)."""
    box = deck_for(len(state.players))
    elsewhere = replace(state, deck=EMPTY).by_level()
    for level, most, held in zip(LEVELS, box, elsewhere, strict=True):
        if held > most:
            raise IllegalAction("ebz.refuse.edit_box", count=most, level=level)  # never how many: hands are secret
    deck = tuple(most - held for most, held in zip(box, elsewhere, strict=True))
    if not sum(deck):
        raise IllegalAction("ebz.refuse.edit_deck_empty")
    return deck  # type: ignore[return-value]
