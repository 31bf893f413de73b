"""Eaten by Zombies!: the board as plain data for every screen, without a zombie player's secret hand."""

from __future__ import annotations

from .state import State, kind_param, pile_json


def view(state: State, seat: str | None = None) -> dict:
    last = state.last
    out = {
        "players": list(state.players), "round": state.round, "step": state.step, "active": state.active,
        "over": state.over, "winners": list(state.winners), "total": state.total,
        "humans": list(state.humans), "zombie_players": list(state.dead),
        "deck": sum(state.deck), "discard": sum(state.discard), "discard_levels": pile_json(state.discard),
        "reshuffles": state.reshuffles, "flips": 1 + state.reshuffles,
        "field": [{"level": z.level, "speed": z.speed, "by": z.by} for z in state.field],
        "level_sum": state.level_sum, "speed_sum": state.speed_sum,
        # A human's zombies were killed in the open; a zombie player's hand is counted, its levels are his own.
        "zombies_held": {p: sum(state.held(p)) for p in state.players},
        "levels_held": {p: pile_json(state.held(p)) for p in state.humans},
        "powers": {p: list(state.powers.get(p, ())) for p in state.dead},
        "in_force": list(state.in_force),
        "market": [kind_param(k) for k in state.market],
        "rounding": state.options.rounding,
        "adders": list(state.adders),
        "last": None if last is None else {"seat": last.seat, "how": last.how, "value": last.value,
                                           "need": last.need, "result": last.result, "remove": last.remove,
                                           "budget": last.budget},
    }
    if seat is not None and seat in state.dead:
        out["hand"] = pile_json(state.held(seat))
    return out


def record(state: State) -> dict:
    out = view(state)
    out.update({"deck_levels": pile_json(state.deck),
                "cards": {p: pile_json(state.held(p)) for p in state.players},
                "level": state.level, "how": state.how, "value": state.value, "remove_left": state.remove_left,
                "drawn_left": state.drawn_left, "zombie_count": state.zombie_count})
    return out


def table_options(state: State) -> dict:
    market = state.options.market  # numbered kinds are given as their number, named ones as the names
    numbered = all(type(kind) is int for kind in market)
    return {"run_rounding": state.options.rounding, "market": len(market) if numbered else list(market)}


def scores(state: State) -> dict[str, int]:
    return {}  # the game ends with who is still human, not points
