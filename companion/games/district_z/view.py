"""District-Z's board as plain data: the grid, the survivors, the fight on the table. Nothing is secret here."""

from __future__ import annotations

from .engine import attack_of, proposal
from .state import OPPOSITE, State


def view(state: State, seat: str | None = None) -> dict:
    cache = state.__dict__
    if "_public" not in cache:
        cache["_public"] = _public(state)
    out = dict(cache["_public"])
    if seat is not None:
        out["seat"] = seat
    return out


def _public(state: State) -> dict:
    cells = []
    for y in range(state.height):
        for x in range(state.width):
            cell = state.cell((x, y))
            cells.append({"cell": state.name((x, y)), "x": x, "y": y, "up": cell.up, "zombies": cell.zombies,
                          "items": len(cell.items), "objectives": cell.objectives})
    survivors = {}
    for s in state.survivors:
        survivors[s.seat] = {
            "cell": state.name(s.pos) if s.pos else None, "corner": s.corner,
            "start": state.name(state.corner_pos(s.corner)) if s.corner else None,
            "target": state.name(state.corner_pos(OPPOSITE[s.corner])) if s.corner else None,
            "number": s.number, "attack": s.attack, "health": s.life if s.health is not None else None,
            "damage": s.damage, "items": [g.to_json() for g in s.items], "hands": s.hands,
            "objective": s.objective, "out": s.out, "won": s.won}
    combat = None
    if state.combat is not None and state.me.pos is not None:
        c = state.combat
        combat = {"cell": state.name(state.me.pos), "zombies": state.cell(state.me.pos).zombies,
                  "round": c.rounds, "red": list(c.red), "black": list(c.black), "use": list(c.use),
                  "attack": attack_of(state.me, c.use), "seat": state.seat}
        if c.red and c.black and state.step == "pair":
            combat["proposal"] = proposal(state)
    fight = None
    if state.fight is not None:
        f = state.fight
        fight = {"attacker": f.attacker, "defender": f.defender, "red": list(f.red), "other": list(f.other)}
    return {
        "players": list(state.players), "round": state.round, "over": state.over, "winners": list(state.winners),
        "lost": state.lost, "step": state.step, "turn": None if state.over else state.seat,
        "grid": {"width": state.width, "height": state.height}, "cells": cells, "survivors": survivors,
        "hidden_objectives": state.hidden_objectives, "set_aside": state.set_aside,
        "spare_survivors": state.spare_survivors, "die": state.die, "combat": combat, "fight": fight,
    }


def record(state: State) -> dict:
    """The game's part of the table's record: the board."""
    return view(state)


def table_options(state: State) -> dict:
    return {"grid": f"{state.width}x{state.height}", "face_up_event": state.face_up_event, "play_on": state.play_on,
            "box_dice": state.box_dice}


def scores(state: State) -> dict[str, int]:
    return {}  # the game ends with survivors and their objectives, not points
