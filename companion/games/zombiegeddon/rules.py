"""Zombiegeddon's rules as the companion keeps them: turns of two actions, the switch to post-bomb with its
checklist, who starts post-bomb (a secret entry of each player's largest zombie disc), and the private score
sheets revealed at once. Pure: no I/O, no randomness (this game asks the cup for nothing).

The board, the discs and the figures stay on the table; the companion counts the actions, says what the table
must do with the pieces at the switch, and keeps every secret entry until its reveal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from companion.games.base import IllegalAction, Line, line

COLOURS = ("red", "yellow", "blue", "green")
ACTIONS_PER_TURN = 2
LARGEST_HIGH = 20  # the largest printed number a zombie disc may be said to show
TOKENS = 4  # each player's supply tokens
TOKEN_POINTS = 5  # per supply token delivered to a post-bomb shelter

# The score sheet, line by line: a count of discs per kind, the printed total for food and zombies, the tokens.
KINDS = ("food", "zombies", "weapons")
LINES = ("food", "food_points", "zombies", "zombie_points", "weapons", "tokens")
GROUPS = {"food": ("food", "food_points"), "zombies": ("zombies", "zombie_points"), "weapons": ("weapons",),
          "tokens": ("tokens",)}
HIGH = {"food": 99, "food_points": 300, "zombies": 99, "zombie_points": 300, "weapons": 99, "tokens": TOKENS}
POINTS_OF = {"food": "food_points", "zombies": "zombie_points"}  # the printed total of a kind

# Set bonus by count of discs of one kind: 1, 3, 6, 10, 15, and 20 for six or more.
SET_BONUS = (0, 1, 3, 6, 10, 15, 20)

# Table options (the seed leaves both open).
SET_BONUS_OPTION = "set_bonus"
EVERY_KIND = "every_kind"  # the ruling: the set bonus for every kind, food and zombies on top of their values
NOT_FOOD_ZOMBIES = "not_food_zombies"  # food and zombies score their printed values only
TIE_OPTION = "post_bomb_tie"
REENTER = "reenter"  # the tied enter their next largest zombie disc, until one is larger
TURN_ORDER = "turn_order"  # the earliest of the tied in turn order starts
OPTIONS = {SET_BONUS_OPTION: (EVERY_KIND, NOT_FOOD_ZOMBIES), TIE_OPTION: (REENTER, TURN_ORDER)}
DEFAULTS = {SET_BONUS_OPTION: EVERY_KIND, TIE_OPTION: REENTER}

PRE, LARGEST, POST, SHEET, OVER = "pre", "largest", "post", "sheet", "over"
PHASES = (PRE, LARGEST, POST, SHEET, OVER)


def set_bonus(count: int) -> int:
    return SET_BONUS[min(count, len(SET_BONUS) - 1)]


@dataclass(frozen=True)
class Sheet:
    """One player's score sheet: the lines entered, the lines still to enter, handed in or not."""

    entries: Mapping[str, int] = field(default_factory=dict)
    queue: tuple[str, ...] = LINES
    ready: bool = False


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]  # in turn order: the youngest first, then clockwise
    options: Mapping[str, str]
    round: int = 1  # the turn number: each player's turn is a round of the narration
    phase: str = PRE
    turn: str = ""  # whose turn it is (pre and post)
    actions: int = 0  # actions done this turn
    starter: str | None = None  # who starts post-bomb
    asked: tuple[str, ...] = ()  # who enters a largest zombie disc now (everyone, then the tied)
    entries: Mapping[str, int] = field(default_factory=dict)  # largest zombie discs entered, secret until all are
    below: int | None = None  # a re-entry: the tied value, which the next largest may not exceed
    revealed: tuple[Mapping[str, int], ...] = ()  # each reveal of the largest discs, in order
    sheets: Mapping[str, Sheet] = field(default_factory=dict)
    scores: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # the breakdown, once revealed
    winners: tuple[str, ...] = ()
    narration: tuple[Line, ...] = ()

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def say(self, key: str, act: bool = False, **params) -> State:
        return replace(self, narration=self.narration + (line(self.round, key, act, **params),))

    @property
    def order(self) -> tuple[str, ...]:
        """The turn order of the phase: from the youngest pre-bomb, from the starter post-bomb."""
        if self.phase == POST and self.starter is not None:
            at = self.players.index(self.starter)
            return self.players[at:] + self.players[:at]
        return self.players


# -- setup ------------------------------------------------------------------------------------------------------


def start(players: object, options: object = None, position: object = None) -> State:
    if not isinstance(players, list | tuple) or not 2 <= len(players) <= 4 \
            or not all(isinstance(p, str) and p in COLOURS for p in players) or len(set(players)) != len(players):
        raise IllegalAction("zg.refuse.players", colours=list(COLOURS))
    chosen = dict(DEFAULTS)
    if options is not None:
        if not isinstance(options, dict):
            raise IllegalAction("zg.refuse.options")
        for name, value in options.items():
            if name not in OPTIONS or str(value) not in OPTIONS[name]:
                raise IllegalAction("zg.refuse.option", option=str(name)[:40], value=str(value)[:40])
            chosen[name] = str(value)
    state = State(tuple(players), chosen, turn=players[0], sheets={p: Sheet() for p in players})
    if position is None:
        return state.say("zg.n.pre_start", colour=players[0])
    return _position(state, position)


def _position(state: State, position: object) -> State:
    """A game already under way: {"phase": "pre"|"post"|"sheet", "turn": seat (pre/post), "starter": seat (post)}."""
    if not isinstance(position, dict) or set(position) - {"phase", "turn", "starter"} \
            or position.get("phase") not in (PRE, POST, SHEET):
        raise IllegalAction("zg.refuse.position")
    phase = position["phase"]
    if phase == SHEET:
        return replace(state, phase=SHEET, turn="").say("zg.n.sheet_ask")
    turn = position.get("turn", state.players[0])
    starter = position.get("starter", turn) if phase == POST else None
    if turn not in state.players or (starter is not None and starter not in state.players):
        raise IllegalAction("zg.refuse.position")
    state = replace(state, phase=phase, turn=turn, starter=starter)
    return state.say("zg.n.post_start" if phase == POST else "zg.n.pre_start", colour=turn)


# -- answers ----------------------------------------------------------------------------------------------------


def check(state: State, action: object) -> dict:
    """The answer itself once the rules accept it; IllegalAction with the reason otherwise."""
    if state.over:
        raise IllegalAction("zg.refuse.over")
    if not isinstance(action, dict):
        raise IllegalAction("zg.refuse.shape")
    if set(action) == {"close"} and action["close"] is True:
        if state.phase not in (LARGEST, SHEET):
            raise IllegalAction("zg.refuse.nothing_to_close")
        return action
    seat = action.get("seat")
    if seat not in state.players:
        raise IllegalAction("zg.refuse.not_a_seat", value=str(seat)[:40])
    if state.phase in (PRE, POST):
        _check_turn(state, seat, action)
    elif state.phase == LARGEST:
        _check_largest(state, seat, action)
    else:
        _check_sheet(state, seat, action)
    return dict(action)


def _check_turn(state: State, seat: str, action: dict) -> None:
    if seat != state.turn:
        raise IllegalAction("zg.refuse.not_your_turn", colour=seat, to_seat=state.turn)
    if set(action) != {"seat", "act"} or action["act"] not in ("action", "pass", "phase_end"):
        raise IllegalAction("zg.refuse.shape")


def _check_largest(state: State, seat: str, action: dict) -> None:
    if seat not in state.asked:
        raise IllegalAction("zg.refuse.not_tied", colour=seat)
    number = action.get("largest")
    if set(action) != {"seat", "largest"} or type(number) is not int or not 0 <= number <= LARGEST_HIGH:
        raise IllegalAction("zg.refuse.largest", high=LARGEST_HIGH)
    if state.below is not None and number > state.below:
        raise IllegalAction("zg.refuse.next_larger", number=state.below)


def _check_sheet(state: State, seat: str, action: dict) -> None:
    sheet = state.sheets[seat]
    if "line" in action:
        number = action.get("number")
        if set(action) != {"seat", "line", "number"} or not sheet.queue or action["line"] != sheet.queue[0]:
            raise IllegalAction("zg.refuse.sheet_line")
        line_ = action["line"]
        if type(number) is not int or not 0 <= number <= HIGH[line_]:
            raise IllegalAction("zg.refuse.sheet_number", high=HIGH[line_])
        kind = next((k for k, points in POINTS_OF.items() if points == line_), None)
        if kind is not None and sheet.entries.get(kind) == 0 and number != 0:
            raise IllegalAction("zg.refuse.points_without_discs", zg_kind=kind)
        return
    choice = action.get("sheet")
    if set(action) != {"seat", "sheet"} or choice not in ("hand_in", "again", *GROUPS) or sheet.queue:
        raise IllegalAction("zg.refuse.sheet_line")
    if choice == "hand_in" and sheet.ready:
        raise IllegalAction("zg.refuse.handed_in")


def apply(state: State, event: dict) -> State:
    action = check(state, event)
    if state.phase in (PRE, POST):
        return _turn(state, action)
    if state.phase == LARGEST:
        return _largest(state, action)
    return _sheet(state, action)


# -- turns ------------------------------------------------------------------------------------------------------


def _turn(state: State, action: dict) -> State:
    seat, act = action["seat"], action["act"]
    if act == "phase_end":
        return _switch(state) if state.phase == PRE else _to_sheets(state)
    if act == "action":
        state = replace(state, actions=state.actions + 1).say("zg.n.action", colour=seat, number=state.actions + 1)
        if state.actions < ACTIONS_PER_TURN:
            return state
    else:
        state = state.say("zg.n.pass", colour=seat)
    order = state.order
    following = order[(order.index(seat) + 1) % len(order)]
    state = replace(state, round=state.round + 1, turn=following, actions=0)
    return state.say("zg.n.turn", colour=following)


def _switch(state: State) -> State:
    """Pre-bomb is over: the checklist for the table, then everyone's largest zombie disc in secret."""
    state = replace(state, round=state.round + 1, turn="", actions=0)
    state = state.say("zg.n.pre_over")
    state = state.say("zg.n.take_remaining", act=True)
    for step in ("remove", "shuffle", "figures", "tokens"):
        state = state.say(f"zg.n.check.{step}", act=True)
    state = replace(state, phase=LARGEST, asked=state.players, entries={}, below=None)
    return state.say("zg.n.largest_ask")


def _to_sheets(state: State) -> State:
    state = replace(state, round=state.round + 1, turn="", actions=0, phase=SHEET)
    state = state.say("zg.n.post_over")
    state = state.say("zg.n.take_remaining", act=True)
    return state.say("zg.n.sheet_ask")


# -- who starts post-bomb ---------------------------------------------------------------------------------------


def _largest(state: State, action: dict) -> State:
    if "close" in action:
        for seat in state.asked:
            if seat not in state.entries:
                state = state.say("zg.n.no_entry", colour=seat)
        entries = {seat: state.entries.get(seat, 0) for seat in state.asked}
    else:
        entries = {**state.entries, action["seat"]: action["largest"]}
        if set(entries) != set(state.asked):
            return replace(state, entries=entries)  # secret until everyone asked has entered
    entries = {seat: entries[seat] for seat in state.asked}  # in turn order
    state = replace(state, revealed=state.revealed + (entries,), entries={})
    for seat, number in entries.items():
        state = state.say("zg.n.largest", colour=seat, number=number)
    top = max(entries.values())
    tied = tuple(seat for seat, number in entries.items() if number == top)
    if len(tied) == 1:
        key = "zg.n.starter" if state.below is None else "zg.n.starter_next"  # a re-entry compares the next
        state = state.say(key, colour=tied[0], number=top)
        return _post(state, tied[0])
    state = state.say("zg.n.tie", colours=list(tied), number=top)
    if state.options[TIE_OPTION] == REENTER and top > 0:
        state = replace(state, asked=tied, below=top)
        return state.say("zg.n.tie_reenter", colours=list(tied), number=top)
    first = tied[0]  # the players are in turn order
    key = "zg.n.tie_order" if state.options[TIE_OPTION] == TURN_ORDER else "zg.n.tie_none"
    state = state.say(key, colour=first)
    return _post(state, first)


def _post(state: State, starter: str) -> State:
    state = replace(state, phase=POST, starter=starter, turn=starter, actions=0, asked=(), below=None,
                    round=state.round + 1)
    return state.say("zg.n.post_start", colour=starter)


# -- the score sheets -------------------------------------------------------------------------------------------


def _sheet(state: State, action: dict) -> State:
    if "close" in action:
        missing = [seat for seat in state.players if not state.sheets[seat].ready]
        state = state.say("zg.n.sheets_closed", colours=missing)
        return _reveal(state)
    seat = action["seat"]
    sheet = state.sheets[seat]
    if "line" in action:
        sheet = replace(sheet, entries={**sheet.entries, action["line"]: action["number"]}, queue=sheet.queue[1:])
        return _with(state, seat, sheet)
    choice = action["sheet"]
    if choice == "hand_in":
        state = _with(state, seat, replace(sheet, ready=True))
        if all(s.ready for s in state.sheets.values()):
            return _reveal(state)
        return state
    queue = LINES if choice == "again" else GROUPS[choice]
    return _with(state, seat, replace(sheet, queue=queue, ready=False))


def _with(state: State, seat: str, sheet: Sheet) -> State:
    return replace(state, sheets={**state.sheets, seat: sheet})


def score(entries: Mapping[str, int], option: str = EVERY_KIND) -> dict[str, int]:
    """One sheet's breakdown: printed points, set bonus per kind, tokens, and the total."""
    out: dict[str, int] = {}
    for kind in KINDS:
        count = entries.get(kind, 0)
        out[kind] = count
        out[f"{kind}_points"] = entries.get(POINTS_OF[kind], 0) if kind in POINTS_OF else 0
        gets_bonus = option == EVERY_KIND or kind not in POINTS_OF
        out[f"{kind}_bonus"] = set_bonus(count) if gets_bonus else 0
    out["tokens"] = entries.get("tokens", 0)
    out["token_points"] = TOKEN_POINTS * out["tokens"]
    out["total"] = sum(out[f"{k}_points"] + out[f"{k}_bonus"] for k in KINDS) + out["token_points"]
    return out


def _reveal(state: State) -> State:
    option = state.options[SET_BONUS_OPTION]
    scores = {seat: score(state.sheets[seat].entries, option) for seat in state.players}
    state = replace(state, scores=scores, round=state.round + 1)
    state = state.say("zg.n.reveal")
    for seat, s in scores.items():
        state = state.say("zg.n.score", colour=seat, **s)
    best = max(s["total"] for s in scores.values())
    winners = tuple(seat for seat, s in scores.items() if s["total"] == best)
    if len(winners) == 1:
        state = state.say("zg.n.winner", colour=winners[0], total=best)
    else:
        state = state.say("zg.n.winners_tie", colours=list(winners), total=best)
    return replace(state, phase=OVER, winners=winners)
