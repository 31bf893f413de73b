"""Mall of Horror's board as parts (companion/board.py): the round, the phase and the Chief; the six locations,
each with its number and name, its zombies, its capacity (or closed), the characters there as tokens in their
seat's colour with their points (a hidden one faded), who is arriving, the attack and the victim vote marked; what
lies on the table (the dice, the destinations, who has chosen); the cards in hand and the deck; the last revealed
ballot, titled with its round; each seat's secrets (the zombie dice it may look at and where they bring zombies,
its ballot, its destination); the scores at the end, each with its parts (the living characters and their points,
the cards in hand where they broke a tie).
The rule facts (capacities, points) are the rules' own (board.py), said here and nowhere else."""

from __future__ import annotations

from dataclasses import replace

from companion.board import (
    SEP,
    Board,
    Chip,
    Dice,
    Heading,
    Label,
    Lines,
    Scores,
    Secret,
    Token,
    Zone,
    Zones,
    ballot,
    scores_by_total,
)
from companion.contract import msg

from .board import CAPACITY, LOCATIONS, POINTS, characters_for
from .prompts import question
from .state import Phase, State
from .view import view


def parts(state: State) -> Board:
    shown = view(state)
    players = shown["players"]
    phase = msg(f"mall.phase.{shown['phase']}")
    line = msg("mall.board.round", round=shown["round"], phase=phase) if shown["round"] \
        else msg("mall.board.setup", phase=phase)
    side = ()
    if shown["chief"]:
        side = ((Label(msg("mall.board.chief")), Chip(shown["chief"]),
                 *((msg("mall.board.elected"),) if shown["elected"] else ())),)
    main = (Heading((line,), side), Lines(_warnings(shown), tone="warning"), Lines(_on_table(shown), tone="act"),
            Zones(_zones(shown), columns=3), Lines(_facts(shown, players), tone="hint"))
    revealed = (_ballot(shown["revealed"]),) if shown.get("revealed") else ()
    over = (_over(shown),) if shown["over"] else ()
    return Board(main=main, revealed=revealed, over=over, title=msg("mall.title"))


def _zones(shown: dict) -> tuple[Zone, ...]:
    players = shown["players"]
    closed = set(shown["closed"])
    destinations = shown.get("destinations") or {}
    chief_goes = shown.get("chief_destination")
    vote = shown.get("vote") or {}
    zones = []
    for loc in LOCATIONS:
        tokens = []
        for seat in players:
            hidden = shown["hidden"].get(seat) or []
            for kind, where in shown["characters"].get(seat, {}).items():
                if where == loc:
                    tokens.append(Token(seat, str(POINTS[kind]), msg(f"mall.character.{kind}"), faded=kind in hidden,
                                        note=msg("mall.board.hidden") if kind in hidden else None))
        arriving = [s for s in players if destinations.get(s) == loc]
        if chief_goes == loc and shown["chief"] and shown["chief"] not in arriving:
            arriving.append(shown["chief"])
        zombies = int(shown["zombies"][str(loc)])
        attacked = shown["phase"] == Phase.ATTACK and shown.get("location") == loc
        voting = vote.get("location") == loc and vote.get("purpose") == "victim"
        if loc in closed:
            detail = (msg("mall.board.closed"),)
        elif CAPACITY[loc] is None:
            detail = (msg("mall.board.capacity_unlimited", people=len(tokens)),)
        else:
            detail = (msg("mall.board.capacity", people=len(tokens), capacity=CAPACITY[loc]),)
        zones.append(Zone(str(loc), msg(f"mall.board.location_name.{loc}"), number=str(loc), count=zombies,
                          count_label=msg("mall.board.zombies", count=zombies),
                          count_word=msg("mall.board.zombie_word"),
                          detail=detail, tokens=tuple(tokens), arriving=tuple(arriving), closed=loc in closed,
                          ring="danger" if attacked else "act" if voting else None,
                          note=(msg("mall.board.under_attack"),) if attacked else (), empty=msg("mall.board.nobody")))
    return tuple(zones)


def _on_table(shown: dict) -> tuple:
    """What lies on the table this moment: the dice, who goes where, who has chosen."""
    lines = []
    if isinstance(shown.get("dice"), list):
        lines.append((Label(msg("mall.board.placement_dice")), Dice(tuple(shown["dice"]))))
    if isinstance(shown.get("cup"), list):
        lines.append((Label(msg("mall.board.zombie_dice")), Dice(tuple(shown["cup"]))))
    if shown.get("chief_destination"):
        lines.append((msg("mall.board.chief_goes", location=shown["chief_destination"]),))
    if shown.get("chosen"):
        lines.append((Label(msg("mall.board.chosen")), *(Chip(s) for s in shown["chosen"])))
    destinations = shown.get("destinations") or {}
    if destinations:
        bits: list = [Label(msg("mall.board.destinations"))]
        for k, seat in enumerate(s for s in shown["players"] if s in destinations):
            bits += [*((SEP,) if k else ()), msg("mall.board.goes_to", colour=seat, location=destinations[seat])]
        lines.append(tuple(bits))
    return tuple(lines)


def _warnings(shown: dict) -> tuple:
    """More zombies on the board than the box holds figures: said, never refused."""
    return tuple((msg(w["key"], **w["params"]),) for w in shown.get("warnings") or [])


def _facts(shown: dict, players: list[str]) -> tuple:
    """The cards, the figures not yet placed, and what each figure scores."""
    lines = []
    unplaced = shown.get("unplaced") or {}
    left = [p for p in players if unplaced.get(p)]
    if left:
        bits: list = [Label(msg("mall.board.unplaced"))]
        for k, seat in enumerate(left):
            bits += [*((SEP,) if k else ()), Chip(seat), *(msg(f"mall.character.{c}") for c in unplaced[seat])]
        lines.append(tuple(bits))
    hands: list = [Label(msg("mall.board.hands"))]
    for k, seat in enumerate(players):
        hands += [*((SEP,) if k else ()), Chip(seat), shown["hands"].get(seat, 0)]
    lines.append((*hands, SEP, msg("mall.board.deck", count=shown["deck"] or 0)))
    figures = characters_for(len(players))
    points: list = []
    for k, kind in enumerate(figures):
        points += [*((SEP,) if k else ()), msg("mall.board.points_of", points=POINTS[kind], character=kind)]
    lines.append(tuple(points))
    return tuple(lines)


def _ballot(vote: dict):
    """The revealed ballot, titled with the round and the step it was cast in (it stays up into the next round)."""
    purpose = msg("mall.board.vote_at", purpose=vote["purpose"], location=vote["location"]) \
        if vote["purpose"] == "victim" and vote.get("location") else msg(f"mall.purpose.{vote['purpose']}")
    title = msg("mall.board.ballot_round", round=vote["round"], what=purpose)
    return ballot(title, vote["weights"], vote["ballots"], vote["tally"], vote["leaders"],
                  revote=vote.get("stage") == 2)


def _over(shown: dict) -> Scores:
    """The end: each seat's living characters and their points, the cards in hand where they broke a tie, the
    total; best first (a tie on points in the order the cards broke it)."""
    scores, hands = shown["scores"], shown["hands"]
    tied = sum(total == max(scores.values()) for total in scores.values()) > 1
    ranked = sorted(shown["players"], key=lambda p: (-scores[p], -hands.get(p, 0)))

    def cells(seat: str) -> tuple:
        kinds = sorted(shown["characters"].get(seat, {}), key=lambda kind: -POINTS[kind])
        figures: list = []
        for k, kind in enumerate(kinds):
            figures += [*((msg("mall.board.plus"),) if k else ()),
                        msg("mall.board.figure_points", character=kind, points=POINTS[kind])]
        out = [tuple(figures) or (msg("mall.board.no_survivor"),)]
        if tied:
            out.append((hands.get(seat, 0),))
        out.append((msg("board.points", count=scores[seat]),))
        return tuple(out)

    columns = (msg("mall.board.col.survivors"), *((msg("mall.board.col.cards"),) if tied else ()),
               msg("mall.board.col.points"))
    table = scores_by_total(msg("mall.board.over"), ranked, scores, shown["winners"], cell=cells, columns=columns)
    return replace(table, footer=(msg("mall.board.tiebreak"),)) if tied else table


def secrets(state: State, seat: str) -> tuple:
    """What this seat alone may look at: the zombie dice it may see before the reveal, its ballot, its
    destination; and, in its view alone, that it now plays the zombies."""
    mine = view(state, seat)
    out: list = []
    if not mine["over"] and mine["round"] and not mine["characters"].get(seat) and question(state, seat) is None:
        out.append(Lines(((msg("mall.fact.zombie_player"),),)))
    if isinstance(mine.get("cup_seen"), list):
        dice = sorted(mine["cup_seen"])
        others = sorted(state.lookers - {seat}, key=state.players.index)
        hint = msg("mall.fact.dice_seen", colours=others) if others else msg("mall.fact.dice_alone")
        counts: dict[int, int] = {}
        for die in dice:
            if die not in state.closed:  # a die on a closed location brings no zombie: only where zombies go
                counts[die] = counts.get(die, 0) + 1
        lines = [(Label(msg("mall.board.zombie_dice")), Dice(tuple(mine["cup_seen"])))]
        lines += [(msg("mall.board.dice_to", count=n, location=loc),) for loc, n in counts.items()]
        if not counts:
            lines.append((msg("mall.board.dice_nowhere"),))
        out.append(Secret(msg("mall.board.secret_dice"), tuple(lines), urgent=True,
                          hint=(msg("mall.board.dice_hint"), hint)))
    if isinstance(mine.get("ballot"), str):
        out.append(Secret(msg("board.secret.vote"), ((Label(msg("board.your_vote")), Chip(mine["ballot"])),)))
    if isinstance(mine.get("destination"), int):
        out.append(Secret(msg("mall.board.secret_destination"),
                          ((Label(msg("mall.board.your_destination")), msg(f"mall.location.{mine['destination']}")),)))
    return tuple(out)

