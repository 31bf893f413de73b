"""District-Z's board as parts (companion/board.py): the round and whose turn, the dice of the combat or the fight
on the table, the city as a grid (each district face down or up, its zombie tokens, the objective cards and items
lying there, the survivors standing there, each player's target corner outlined in his colour, the turn's district
lit), one row per survivor, the stock of cards, and the end. Nothing of this game is secret."""

from __future__ import annotations

from companion.board import SEP, Board, Cell, Dice, Grid, Heading, Label, Lines, ScoreRow, Scores, SeatPanel, Seats
from companion.contract import msg

from .state import State
from .view import view

EVENT_STEPS = ("outcome", "special", "zombies", "item_kind", "item_attack", "item_health")


def parts(state: State) -> Board:
    shown = view(state)
    survivors, players, turn = shown["survivors"], shown["players"], shown["turn"]
    heading = [msg("dz.board.round", round=shown["round"] or 1)]
    if shown["over"]:
        heading += [SEP, msg("dz.board.lost" if shown["lost"] else "dz.board.over")]
    elif turn:
        heading += [SEP, msg("dz.board.turn", colour=turn)]
    here: dict[str, list[str]] = {}
    targets: dict[str, list[str]] = {}
    for seat in players:
        s = survivors.get(seat) or {}
        if s.get("cell"):
            here.setdefault(s["cell"], []).append(seat)
        if s.get("target") and not s.get("out"):
            targets.setdefault(s["target"], []).append(seat)
    turn_cell = (survivors.get(turn) or {}).get("cell") if turn else None
    cells = tuple(Cell(c["cell"], c["cell"], up=c["up"], count=c["zombies"] or None, lying=_lying(c),
                       seats=tuple(here.get(c["cell"], ())), outline=tuple(targets.get(c["cell"], ())),
                       lit=c["cell"] == turn_cell) for c in shown["cells"])
    rows = tuple(_survivor(seat, survivors.get(seat) or {}) for seat in players)
    stock = msg("dz.board.stock", hidden=shown["hidden_objectives"], aside=shown["set_aside"],
                spare=shown["spare_survivors"])
    main = (Heading(tuple(heading)), Grid(shown["grid"]["width"], cells, label=msg("dz.board.city")),
            Lines(_on_table(shown), tone="act"), Seats(rows, rows=True),
            Lines(((stock,), (msg("dz.board.legend"),)), tone="hint"))
    return Board(main=main, over=_over(shown) if shown["over"] else (), title=msg("dz.title"))


def _lying(cell: dict) -> tuple:
    out = []
    if cell["objectives"]:
        out.append(msg("dz.board.objectives_here", stars="★" * cell["objectives"]))
    if cell["items"]:
        out.append(msg("dz.board.items_here", count=cell["items"]))
    return tuple(out)


def _on_table(shown: dict) -> tuple:
    """The dice on the table now: a combat's, a fight between survivors', or the event die."""
    combat, fight = shown["combat"], shown["fight"]
    if combat is not None:
        line = [msg("dz.board.combat", cell=combat["cell"], count=combat["zombies"], attack=combat["attack"])]
        if combat["red"]:
            line += [SEP, Label(msg("dz.board.red")), Dice(tuple(combat["red"]))]
        if combat["black"]:
            line += [SEP, Label(msg("dz.board.black")), Dice(tuple(combat["black"]))]
        return (tuple(line),)
    if fight is not None:
        line = [msg("dz.board.fight", colour=fight["attacker"], to_seat=fight["defender"])]
        for dice in (fight["red"], fight["other"]):
            if dice:
                line += [SEP, Dice(tuple(dice)), msg("dz.board.sum", total=sum(dice))]
        return (tuple(line),)
    if shown["die"] and shown["step"] in EVENT_STEPS:
        return ((Label(msg("dz.board.event")), Dice((shown["die"],))),)
    return ()


def _survivor(seat: str, s: dict) -> SeatPanel:
    if s.get("won"):
        return SeatPanel(seat, ((msg("dz.board.won"),),), tone="winner")
    if s.get("out"):
        return SeatPanel(seat, ((msg("dz.board.out"),),), tone="out")
    if s.get("attack") is None or s.get("health") is None:
        return SeatPanel(seat, ((msg("dz.board.waiting"),),), tone="out")
    line = [msg("dz.board.survivor", attack=s["attack"], health=s["health"], damage=s.get("damage", 0))]
    if s.get("cell"):
        line = [msg("dz.board.at", cell=s["cell"]), SEP, *line]
    if s.get("items"):
        line += [SEP, msg("dz.board.items", count=len(s["items"]), hands=s.get("hands", 0))]
    if s.get("objective"):
        line += [SEP, msg("dz.board.objective_to", cell=s["target"])]
    elif s.get("target"):
        line += [SEP, msg("dz.board.target", cell=s["target"])]
    hurt = s.get("damage", 0) and s["health"] - s["damage"] <= 1
    return SeatPanel(seat, (tuple(line),), tone="danger" if hurt else None)


def _over(shown: dict) -> tuple:
    winners, survivors = shown["winners"], shown["survivors"]
    ranked = winners + [p for p in shown["players"] if p not in winners]
    rows = tuple(ScoreRow(p, ((msg("dz.board.result." + ("won" if p in winners else "out"
                                                            if (survivors.get(p) or {}).get("out") else "alive")),),),
                          p in winners) for p in ranked)
    return (Scores(msg("dz.board.lost" if shown["lost"] else "dz.board.over"), (), rows),)


def secrets(state: State, seat: str) -> tuple:
    return ()  # every die of District-Z is rolled in the open
