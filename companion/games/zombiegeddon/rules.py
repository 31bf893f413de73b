"""Zombiegeddon's rules as the companion keeps them: turns of two actions, the switch to post-bomb with its
checklist, who starts post-bomb (a secret entry of each player's largest zombie disc), and the private score
sheets revealed at once. Pure: no I/O, no randomness (this game asks the cup for nothing).

The board, the discs and the figures stay on the table; the companion counts the actions, says what the table
must do with the pieces at the switch, and keeps every secret entry until its reveal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from companion.contract import IllegalAction, Line, Narrated
from companion.games.checks import described, whole

COLOURS = ("red", "yellow", "blue", "green")
ACTIONS_PER_TURN = 2
LARGEST_HIGH = 20  # the largest printed number a zombie disc may be said to show
TOKENS = 4  # each player's supply tokens
TOKEN_POINTS = 5  # per supply token delivered to a post-bomb shelter

# The kinds of disc that score: each has two lines on the sheet, its count (for its set bonus) and its printed total.
# Weapons left at the end score nothing at all (「剩餘的武器不計算分數」), so they have no line. A box whose discs show
# a further kind of supply adds it here (with its words in the catalogue): it gets its own lines and set bonus. The
# sheet's lines, the groups a player corrects and each line's largest number are read from these two at each use.
KINDS = ("food", "zombies")
POINTS_OF = {"food": "food_points", "zombies": "zombie_points"}  # the printed total of a kind
HIGH_COUNT, HIGH_POINTS = 99, 300  # the largest number of discs of a kind, and of their printed total


def lines() -> tuple[str, ...]:
    """The sheet's lines in order: each kind's count and printed total, then the supply tokens delivered."""
    return (*(line_ for kind in KINDS for line_ in (kind, POINTS_OF[kind])), "tokens")


def groups() -> dict[str, tuple[str, ...]]:
    """What a player may correct at once: a kind (its two lines), or the tokens."""
    return {**{kind: (kind, POINTS_OF[kind]) for kind in KINDS}, "tokens": ("tokens",)}


def high(line_: str) -> int:
    """The largest number a line of the sheet takes."""
    return TOKENS if line_ == "tokens" else HIGH_COUNT if line_ in KINDS else HIGH_POINTS


def kind_of(line_: str) -> str | None:
    """The kind whose printed total the line is; None for a count or the tokens."""
    return next((kind for kind, points in POINTS_OF.items() if points == line_), None)


RETIRED_LINES = ("weapons",)  # a line of older sheets: still folded from a save file, never asked or accepted

# Set bonus by count of discs of one kind: 1, 3, 6, 10, 15, and 20 for six or more.
SET_BONUS = (0, 1, 3, 6, 10, 15, 20)

# Table options (the seed leaves both open).
SET_BONUS_OPTION = "set_bonus"
SCORING_KINDS = "scoring_kinds"  # the ruling: each kind that scores gets its set bonus on top of its printed values
PRINTED_ONLY = "printed_only"  # printed values only, no set bonus
TIE_OPTION = "post_bomb_tie"
REENTER = "reenter"  # the tied enter their next largest zombie disc, until one is larger
TURN_ORDER = "turn_order"  # the earliest of the tied in turn order starts
OPTIONS = {SET_BONUS_OPTION: (SCORING_KINDS, PRINTED_ONLY), TIE_OPTION: (REENTER, TURN_ORDER)}
DEFAULTS = {SET_BONUS_OPTION: SCORING_KINDS, TIE_OPTION: REENTER}
# Values of older versions, still read from save files and scripts: what each now is.
OLD_VALUES = {SET_BONUS_OPTION: {"every_kind": SCORING_KINDS, "not_food_zombies": PRINTED_ONLY}}

PRE, LARGEST, POST, SHEET, OVER = "pre", "largest", "post", "sheet", "over"
PHASES = (PRE, LARGEST, POST, SHEET, OVER)


def set_bonus(count: int) -> int:
    return SET_BONUS[min(count, len(SET_BONUS) - 1)]


@dataclass(frozen=True)
class Sheet:
    """One player's score sheet: the lines entered, the lines still to enter, handed in or not."""

    entries: Mapping[str, int] = field(default_factory=dict)
    queue: tuple[str, ...] = field(default_factory=lines)
    ready: bool = False
    answers: int = 0  # how many answers the sheet has taken: each asking of its owner has an id of its own


@dataclass(frozen=True)
class State(Narrated):
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

    @property
    def order(self) -> tuple[str, ...]:
        """The turn order of the phase: from the youngest pre-bomb, from the starter post-bomb."""
        if self.phase == POST and self.starter is not None:
            at = self.players.index(self.starter)
            return self.players[at:] + self.players[:at]
        return self.players


# -- setup ------------------------------------------------------------------------------------------------------


def start(players: object, options: object = None, position: object = None) -> State:
    players = _players(players)
    chosen = {**DEFAULTS, **_options(options)}
    state = State(players, chosen, turn=players[0], sheets={p: Sheet() for p in players})
    if position is None:
        return state.say("zg.n.pre_start", colour=players[0])
    return _position(state, position)


def _players(players: object) -> tuple[str, ...]:
    if not isinstance(players, list | tuple):
        raise IllegalAction("zg.refuse.players_list", value=described(players))
    for p in players:
        if not isinstance(p, str) or p not in COLOURS:
            raise IllegalAction("zg.refuse.player_colour", colours=list(COLOURS), value=described(p))
    if not 2 <= len(players) <= 4:
        raise IllegalAction("zg.refuse.player_count", number=len(players))
    twice = next((p for i, p in enumerate(players) if p in players[:i]), None)
    if twice is not None:
        raise IllegalAction("zg.refuse.same_colour", colour=twice)
    return tuple(players)


def _options(options: object) -> dict[str, str]:
    """The table options chosen; a value of an older version reads as the value it now is."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise IllegalAction("zg.refuse.options", value=described(options))
    chosen = {}
    for name, value in options.items():
        if name not in OPTIONS:
            raise IllegalAction("zg.refuse.option", value=described(name), options=", ".join(OPTIONS))
        if isinstance(value, str):
            value = OLD_VALUES.get(name, {}).get(value, value)
        if value not in OPTIONS[name] or not isinstance(value, str):
            first, second = OPTIONS[name]
            raise IllegalAction("zg.refuse.option_value", option=name, first=first, second=second,
                                value=described(value))
        chosen[name] = value
    return chosen


POSITION_FIELDS = ("phase", "turn", "starter")


def _position(state: State, position: object) -> State:
    """A game already under way: {"phase": "pre"|"post"|"sheet", "turn": seat (pre/post), "starter": seat (post)}."""
    if not isinstance(position, dict):
        raise IllegalAction("zg.refuse.position", example='{"phase": "post", "turn": "red"}', value=described(position))
    extra = next((name for name in position if name not in POSITION_FIELDS), None)
    if extra is not None:
        raise IllegalAction("zg.refuse.position_field", value=described(extra), fields=", ".join(POSITION_FIELDS))
    phase = position.get("phase")
    if not isinstance(phase, str) or phase not in (PRE, POST, SHEET):
        raise IllegalAction("zg.refuse.position_phase", value=described(phase))
    if phase == SHEET:
        return replace(state, phase=SHEET, turn="").say("zg.n.sheet_ask")
    turn = position.get("turn", state.players[0])
    starter = position.get("starter", turn) if phase == POST else None
    for name, seat in (("turn", turn), ("starter", starter)):
        if seat is not None and (not isinstance(seat, str) or seat not in state.players):
            raise IllegalAction("zg.refuse.position_seat", field=name, colours=list(state.players),
                                value=described(seat))
    state = replace(state, phase=phase, turn=turn, starter=starter)
    return state.say("zg.n.post_start" if phase == POST else "zg.n.pre_start", colour=turn)


# -- answers ----------------------------------------------------------------------------------------------------

TURN_ACTS = ("action", "pass", "phase_end")


def sheet_choices() -> tuple[str, ...]:
    """A finished sheet's choices, pad buttons 1..6 in this order: hand in, correct a kind or the tokens, again."""
    return ("hand_in", *groups(), "again")


EXAMPLES = {PRE: '{"seat": "red", "act": "action"}', LARGEST: '{"seat": "red", "largest": 5}',
            SHEET: '{"seat": "red", "line": "food", "number": 3}'}
EXAMPLES[POST] = EXAMPLES[PRE]


def check(state: State, action: object) -> dict:
    """The answer itself once the rules accept it; IllegalAction with the reason otherwise."""
    if state.over:
        raise IllegalAction("zg.refuse.over")
    if not isinstance(action, dict):
        raise IllegalAction("zg.refuse.not_an_object", example=EXAMPLES[state.phase], value=described(action))
    if "close" in action:
        if action != {"close": True} or type(action["close"]) is not bool:
            raise IllegalAction("zg.refuse.close_form", example='{"close": true}')
        if state.phase not in (LARGEST, SHEET):
            raise IllegalAction("zg.refuse.nothing_to_close")
        return action
    if "seat" not in action:
        raise IllegalAction("zg.refuse.no_seat", example=EXAMPLES[state.phase])
    seat = action["seat"]
    if not isinstance(seat, str) or seat not in state.players:
        raise IllegalAction("zg.refuse.not_a_seat", value=described(seat), colours=list(state.players))
    if state.phase in (PRE, POST):
        _check_turn(state, seat, action)
    elif state.phase == LARGEST:
        _check_largest(state, seat, action)
    else:
        _check_sheet(state, seat, action)
    return dict(action)


def _fields(state: State, action: dict, fields: tuple[str, ...]) -> None:
    """The answer has exactly `fields` (and its seat): say the first one too many, or missing."""
    extra = next((name for name in action if name != "seat" and name not in fields), None)
    if extra is not None:
        raise IllegalAction("zg.refuse.extra_field", value=described(extra), fields=", ".join(("seat", *fields)),
                            example=EXAMPLES[state.phase])
    missing = next((name for name in fields if name not in action), None)
    if missing is not None:
        raise IllegalAction("zg.refuse.missing_field", field=missing, example=EXAMPLES[state.phase])


def _check_turn(state: State, seat: str, action: dict) -> None:
    if seat != state.turn:
        raise IllegalAction("zg.refuse.not_your_turn", colour=seat, to_seat=state.turn)
    _fields(state, action, ("act",))
    act = action["act"]
    if not isinstance(act, str) or act not in TURN_ACTS:
        raise IllegalAction("zg.refuse.act", acts=", ".join(TURN_ACTS), value=described(act))


def _check_largest(state: State, seat: str, action: dict) -> None:
    if seat not in state.asked:
        raise IllegalAction("zg.refuse.not_tied", colour=seat)
    _fields(state, action, ("largest",))
    number = action["largest"]
    if not whole(number):
        raise IllegalAction("zg.refuse.largest_type", high=LARGEST_HIGH, value=described(number))
    if not 0 <= number <= LARGEST_HIGH:
        raise IllegalAction("zg.refuse.largest", high=LARGEST_HIGH, number=number)
    if state.below is not None and number > state.below:
        raise IllegalAction("zg.refuse.next_larger", number=state.below)


def _check_sheet(state: State, seat: str, action: dict) -> None:
    sheet = state.sheets[seat]
    if "line" not in action and "sheet" not in action:
        raise IllegalAction("zg.refuse.sheet_answer", example=EXAMPLES[SHEET], other='{"seat": "red", "sheet": '
                            '"hand_in"}')
    if "line" in action:
        _fields(state, action, ("line", "number"))
        line_, number = action["line"], action["number"]
        if line_ in RETIRED_LINES:
            raise IllegalAction("zg.refuse.weapons_line")
        if not isinstance(line_, str) or line_ not in lines():
            raise IllegalAction("zg.refuse.no_such_line", lines=", ".join(lines()), value=described(line_))
        if not sheet.queue:
            raise IllegalAction("zg.refuse.sheet_complete")
        if line_ != sheet.queue[0]:
            raise IllegalAction("zg.refuse.sheet_line", line=sheet.queue[0], value=described(line_))
        if not whole(number):
            raise IllegalAction("zg.refuse.sheet_number_type", high=high(line_), value=described(number))
        if not 0 <= number <= high(line_):
            raise IllegalAction("zg.refuse.sheet_number", high=high(line_), number=number)
        kind = kind_of(line_)
        if kind is not None and sheet.entries.get(kind) == 0 and number != 0:
            raise IllegalAction("zg.refuse.points_without_discs", kind=kind)
        return
    _fields(state, action, ("sheet",))
    choice = action["sheet"]
    if choice in RETIRED_LINES:
        raise IllegalAction("zg.refuse.weapons_line")
    if not isinstance(choice, str) or choice not in sheet_choices():
        raise IllegalAction("zg.refuse.sheet_choice", choices=", ".join(sheet_choices()), value=described(choice))
    if sheet.queue:
        raise IllegalAction("zg.refuse.sheet_unfinished", line=sheet.queue[0])
    if choice == "hand_in" and sheet.ready:
        raise IllegalAction("zg.refuse.handed_in")


def retired(state: State, event: dict) -> bool:
    """An answer of an older sheet, folded from a save file: the weapons line, which scores nothing."""
    return state.phase == SHEET and isinstance(event, dict) and (
        event.get("line") in RETIRED_LINES or event.get("sheet") in RETIRED_LINES) \
        and isinstance(event.get("seat"), str) and event["seat"] in state.players


def apply(state: State, event: dict) -> State:
    if retired(state, event):
        return _fold_retired(state, event)
    action = event  # an answer `decide` accepted (or the log kept): never checked twice
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
    sheet = replace(sheet, answers=sheet.answers + 1)
    if "line" in action:
        sheet = replace(sheet, entries={**sheet.entries, action["line"]: action["number"]}, queue=sheet.queue[1:])
        return _with(state, seat, sheet)
    choice = action["sheet"]
    if choice == "hand_in":
        state = _with(state, seat, replace(sheet, ready=True))
        if all(s.ready for s in state.sheets.values()):
            return _reveal(state)
        return state
    queue = lines() if choice == "again" else groups()[choice]
    return _with(state, seat, replace(sheet, queue=queue, ready=False))


def _fold_retired(state: State, event: dict) -> State:
    """An older sheet's weapons line changes nothing; correcting it took the sheet back to its check."""
    seat = event["seat"]
    if "sheet" in event:
        return _with(state, seat, replace(state.sheets[seat], queue=(), ready=False))
    return state


def _with(state: State, seat: str, sheet: Sheet) -> State:
    return replace(state, sheets={**state.sheets, seat: sheet})


def score(entries: Mapping[str, int], option: str = SCORING_KINDS) -> dict[str, int]:
    """One sheet's breakdown: per kind that scores its count, printed points and set bonus; tokens; the total.

    Weapons left at the end score nothing, neither a printed value nor a set bonus: they are not on the sheet.
    """
    option = OLD_VALUES[SET_BONUS_OPTION].get(option, option)
    out: dict[str, int] = {}
    for kind in KINDS:
        count = entries.get(kind, 0)
        out[kind] = count
        out[f"{kind}_points"] = entries.get(POINTS_OF[kind], 0)
        out[f"{kind}_bonus"] = set_bonus(count) if option == SCORING_KINDS else 0
    out["tokens"] = entries.get("tokens", 0)
    out["token_points"] = TOKEN_POINTS * out["tokens"]
    out["total"] = sum(out[f"{k}_points"] + out[f"{k}_bonus"] for k in KINDS) + out["token_points"]
    return out


def results(state: State) -> tuple[dict[str, dict[str, int]], tuple[str, ...]]:
    """Every sheet's breakdown and the winners (the best total; all of them at a tie)."""
    option = state.options[SET_BONUS_OPTION]
    scores = {seat: score(state.sheets[seat].entries, option) for seat in state.players}
    best = max(s["total"] for s in scores.values())
    return scores, tuple(seat for seat, s in scores.items() if s["total"] == best)


def _reveal(state: State) -> State:
    scores, winners = results(state)
    state = replace(state, scores=scores, round=state.round + 1)
    state = state.say("zg.n.reveal")
    for seat, s in scores.items():
        kinds = [{"key": "zg.n.score_kind", "params": {"kind": k, "count": s[k], "points": s[f"{k}_points"],
                                                        "bonus": s[f"{k}_bonus"]}} for k in KINDS]
        state = state.say("zg.n.score", colour=seat, kinds=kinds, **s)
    best = scores[winners[0]]["total"]
    if len(winners) == 1:
        state = state.say("zg.n.winner", colour=winners[0], total=best)
    else:
        state = state.say("zg.n.winners_tie", colours=list(winners), total=best)
    return replace(state, phase=OVER, winners=winners)
