"""Eaten by Zombies!'s board as parts (companion/board.py): the turn and the zombie deck's counts, the field's
zombies as cards (level big, speed by its arrow, who added it) with both sums, each seat (human or zombie player,
his Powers, the zombies among his cards), the Powers in force, the last fight or run, the market; a zombie
player's own hand as his secret; the end."""

from __future__ import annotations

from companion.board import SEP, Board, Card, Cards, Heading, Label, Lines, ScoreRow, Scores, SeatPanel, Seats, Secret
from companion.contract import msg

from .state import LEVELS, State
from .view import view


def parts(state: State) -> Board:
    shown = view(state)
    if shown["active"]:
        heading = msg("ebz.board.turn", round=shown["round"], colour=shown["active"])
    else:
        heading = msg("ebz.board.over" if shown["over"] else "ebz.board.setup")
    counts = ((Label(msg("ebz.board.deck")), shown["deck"]), (Label(msg("ebz.board.discard")), shown["discard"]),
              (msg("ebz.board.flips", flips=shown["flips"]),))
    field = shown["field"]
    cards = tuple(Card(str(z["level"]), (msg("ebz.board.card_speed", speed=z["speed"]),), by=z["by"],
                       title=msg("ebz.board.level")) for z in field)
    sums = (msg("ebz.board.sums", level_sum=shown["level_sum"], speed_sum=shown["speed_sum"]),) if field else ()
    seats = []
    for seat in shown["players"]:
        zombie = seat in shown["zombie_players"]
        lines = [(msg("ebz.board.zombie_player" if zombie else "ebz.board.human"),)]
        powers = shown["powers"].get(seat) or []
        if powers:
            lines.append((msg("ebz.board.powers", levels=" ".join(str(p) for p in powers)),))
        lines.append((msg("ebz.board.in_hand" if zombie else "ebz.board.held", count=shown["zombies_held"][seat]),))
        if seat in shown["adders"]:
            lines.append((msg("ebz.board.adder"),))
        seats.append(SeatPanel(seat, tuple(lines), lit=shown["active"] == seat, tone="other" if zombie else None))
    in_force = shown["in_force"]
    powers = Lines(tuple((Label(msg("ebz.board.in_force")), msg(f"ebz.power.{level}")) for level in in_force),
                   tone="warning") if in_force else Lines(((msg("ebz.board.no_power"),),), tone="hint")
    facts = []
    if shown["market"]:
        facts.append((msg("ebz.board.market", kinds=shown["market"]),))
    facts.append((msg("ebz.board.count", total=shown["total"]),))
    main = (Heading((heading,), counts),
            Cards(msg("ebz.board.field" if field else "ebz.board.empty"), cards, sums),
            Seats(tuple(seats)), powers, Lines((_last(shown),), tone="plain" if shown["last"] else "hint"),
            Lines(tuple(facts), tone="hint"))
    return Board(main=main, over=_over(shown) if shown["over"] else (), title=msg("ebz.title"))


def _last(shown: dict) -> tuple:
    last = shown["last"]
    if last is None:
        return (msg("ebz.board.rounding.up" if shown["rounding"] == "up" else "ebz.board.rounding.down"),)
    out = [msg("ebz.board.last.fight" if last["how"] == "fight" else "ebz.board.last.run", colour=last["seat"],
               value=last["value"], need=last["need"]), SEP, msg(f"ebz.board.result.{last['result']}")]
    if last["remove"]:
        out += [SEP, msg("ebz.board.remove", count=last["remove"])]
    if last["budget"] is not None:
        out += [SEP, msg("ebz.board.budget", budget=last["budget"])]
    return tuple(out)


def _over(shown: dict) -> tuple:
    players, winners = shown["players"], shown["winners"]
    ranked = sorted(players, key=lambda p: (p not in winners, players.index(p)))
    end = {p: msg("ebz.board.end.zombie" if p in shown["zombie_players"] else "ebz.board.end.human") for p in players}
    rows = tuple(ScoreRow(p, ((end[p],),), p in winners) for p in ranked)
    return (Scores(msg("ebz.board.over"), (), rows),)


def secrets(state: State, seat: str) -> tuple[Secret, ...]:
    """A zombie player's hand of zombies, by level."""
    if seat not in state.dead:
        return ()
    held = state.held(seat)
    lines = tuple((msg("ebz.board.hand_levels", level=level, count=n),) for level, n in zip(LEVELS, held, strict=True)
                  if n)
    return (Secret(msg("ebz.board.your_hand"), lines),) if lines else ()
