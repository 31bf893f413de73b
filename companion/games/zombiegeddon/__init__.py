"""Reiner Knizia's Zombiegeddon (终极僵尸 / 終極殭屍): the turn tracker, who starts post-bomb, and the private score
sheets. The rules are in `rules.py`; this module offers them through the game interface of `base.Game`.

Questions: the player whose turn it is counts his two actions (PICK); at the switch every player enters his
largest zombie disc in secret (NUMBER, re-entered by the tied when the table option says so); at the end each
player fills in his score sheet line by line in secret (NUMBER), then checks it (PICK: hand it in, or correct a
kind), and may correct it until every sheet is in. Nothing of a sheet or of an entry leaves the table before its
reveal: questions and the public view carry no entered value, a seat's view holds only its own. The table corrects
the board (`edits.py`): the phase, whose turn it is and its actions, who starts post-bomb, the revealed sheets.
"""

from __future__ import annotations

from pathlib import Path

from companion.contract import (
    NUMBER,
    PICK,
    Choice,
    CupRequest,
    IllegalAction,
    Item,
    Line,
    Prompt,
    Question,
    RuleBook,
    Setup,
    TableOption,
    msg,
)

from . import rules
from .edits import correct, edits
from .parts import parts, secrets
from .rules import (
    COLOURS,
    LARGEST,
    LARGEST_HIGH,
    OPTIONS,
    POST,
    PRE,
    SHEET,
    State,
    check,
    score,
    set_bonus,
    start,
)
from .stats import STATS, statistics

NAME = "zombiegeddon"
LOCALE = Path(__file__).parent / "locale"
TERMS = {"kind": "zg.kind", "line": "zg.line"}  # parameter name -> catalogue prefix, in zg.* messages only
SOUNDS = {"zg.n.reveal": "reveal", "zg.n.starter": "reveal"}
# Which rule is behind each question and line (its words: zg.rules.* in the catalogue), in the order of play; "take"
# and "supply" are met on the board only (no step of the companion's), told in the whole book.
RULES = RuleBook(
    family="zg",
    phases=(
        ("pre", ("start", "turn", "move", "take", "supply", "stuck", "pre_end", "last_discs")),
        ("switch", ("board", "shelters", "largest", "tie")),
        ("post", ("post_start", "game_end")),
        ("end", ("sheet", "sets", "printed", "tokens", "check", "reveal", "winner")),
    ),
    about={
        "zg.n.pre_start": "start", "zg.q.turn": "turn", "zg.n.turn": "turn", "zg.n.action": "move",
        "zg.n.pass": "stuck", "zg.n.pre_over": "pre_end", "zg.n.take_remaining": "last_discs",
        "zg.n.check.remove": "board", "zg.n.check.shuffle": "board",
        "zg.n.check.figures": "shelters", "zg.n.check.tokens": "shelters",
        "zg.n.largest_ask": "largest", "zg.q.largest": "largest", "zg.n.largest": "largest",
        "zg.n.no_entry": "largest", "zg.n.starter": "largest",
        "zg.n.tie": "tie", "zg.q.next_largest": "tie", "zg.n.tie_reenter": "tie", "zg.n.starter_next": "tie",
        "zg.n.tie_order": "tie", "zg.n.tie_none": "tie",
        "zg.n.post_start": "post_start", "zg.n.post_over": "game_end",
        "zg.q.sheets": "sheet", "zg.n.sheet_ask": "sheet", "zg.n.sheets_closed": "sheet",
        "zg.q.line.food": "sets", "zg.q.line.zombies": "sets", "zg.q.line.food_points": "printed",
        "zg.q.line.zombie_points": "printed", "zg.q.line.tokens": "tokens",
        "zg.q.sheet_check": "check", "zg.q.sheet_done": "check",
        "zg.n.reveal": "reveal", "zg.n.score": "reveal", "zg.n.score_kind": "reveal",
        "zg.n.winner": "winner", "zg.n.winners_tie": "winner",
    },
    options={"tie": (rules.TIE_OPTION,), "sets": (rules.SET_BONUS_OPTION,), "reveal": (rules.SET_BONUS_OPTION,)},
)

SETUP = Setup(
    title=msg("zg.title"),
    min_players=2,
    max_players=4,
    colours=COLOURS,
    options=tuple(
        TableOption(name, msg(f"zg.option.{name}"), tuple(Item(v, msg(f"zg.option.{name}.{v}")) for v in values),
                    rules.DEFAULTS[name])
        for name, values in OPTIONS.items()),
    note=msg("zg.setup.note"),
)


# What a sheet's check says of the set bonus, by the table option.
SHEET_CHECK = {rules.SCORING_KINDS: "zg.fact.sheet_check", rules.PRINTED_ONLY: "zg.fact.sheet_check.printed_only"}


def decide(state: State, action: object) -> list[dict]:
    return [check(state, action)]


def logged(state: State, answer: object) -> dict:
    """A stored answer read back from the save file, checked as `decide` checks an answer; an earlier version's
    weapons line (a retired line, which scores nothing) is taken as stored, for `apply` to fold."""
    if rules.retired(state, answer):
        return answer
    return check(state, answer)


def apply(state: State, event: dict) -> State:
    return rules.apply(state, event)


def cup_request(state: State) -> CupRequest | None:
    return None  # no dice in this game


def dice_revealed(state: State) -> bool:
    return True


def narration(state: State) -> tuple[Line, ...]:
    return state.narration


# -- prompts ----------------------------------------------------------------------------------------------------


def _turn_actions(state: State) -> list[dict]:
    return [{"seat": state.turn, "act": act} for act in ("action", "pass", "phase_end")]


def _sheet_answers(state: State, seat: str) -> list[dict]:
    """What `seat` may answer at its sheet now: a number for the line it is asked (said by its question: [] here),
    or, its lines all entered, one of the sheet's choices (hand it in, or correct a line)."""
    sheet = state.sheets[seat]
    if sheet.queue:
        return []
    return [{"seat": seat, "sheet": c} for c in rules.sheet_choices() if not (c == "hand_in" and sheet.ready)]


def prompt(state: State) -> Prompt | None:
    if state.phase in (PRE, POST):
        return Prompt(PICK, {state.turn: _turn_actions(state)}, False, (state.round, state.phase, state.actions),
                      state.phase, msg("zg.q.turn", colour=state.turn, number=state.actions + 1))
    if state.phase == LARGEST:
        waiting = [s for s in state.asked if s not in state.entries]
        title = msg("zg.q.largest") if state.below is None else msg("zg.q.next_largest", number=state.below)
        # The round in the id: a correction that asks again for the largest discs asks under an id never asked.
        return Prompt(NUMBER, {s: [] for s in waiting}, True, ("largest", state.round, len(state.revealed)),
                      "largest", title)
    if state.phase == SHEET:
        waiting = [s for s in state.players if not state.sheets[s].ready]
        return Prompt(NUMBER, {s: _sheet_answers(state, s) for s in waiting}, True, ("sheet",), "sheet",
                      msg("zg.q.sheets"))
    return None


def question(state: State, seat: str) -> Question | None:
    current = prompt(state)
    if current is None or seat not in state.players:
        return None
    if state.phase in (PRE, POST):
        if seat != state.turn:
            return None
        labels = {"action": msg("zg.choice.action", number=state.actions + 1), "pass": msg("zg.choice.pass"),
                  "phase_end": msg(f"zg.choice.end.{state.phase}")}
        notes = {"action": None, "pass": msg("zg.note.pass"), "phase_end": msg(f"zg.note.end.{state.phase}")}
        choices = tuple(Choice(a, labels[a["act"]], slot, note=notes[a["act"]], confirm=a["act"] == "phase_end")
                        for a, slot in zip(_turn_actions(state), (1, 2, 6), strict=True))
        facts = (msg("zg.fact.actions", count=state.actions, most=rules.ACTIONS_PER_TURN),)
        return Question(current.id, seat, PICK, state.phase, current.title, choices=choices, facts=facts)
    if state.phase == LARGEST:
        if seat not in state.asked:
            return None
        high = LARGEST_HIGH if state.below is None else state.below
        return Question(current.id, seat, NUMBER, "largest", current.title, secret=True,
                        answer={"seat": seat}, field="largest", low=0, high=high,
                        facts=(msg("zg.fact.largest"),), answered=seat in state.entries)
    sheet = state.sheets[seat]
    asked = f"{current.id}-{seat}-{sheet.answers}"  # a new id each time the sheet asks again, "again" included
    if sheet.queue:
        line_ = sheet.queue[0]
        return Question(asked, seat, NUMBER, "sheet", msg(f"zg.q.line.{line_}"), secret=True,
                        answer={"seat": seat, "line": line_}, field="number", low=0, high=rules.high(line_),
                        facts=(msg(f"zg.fact.line.{line_}"), msg("zg.fact.sheet_private")))
    slots = {c: slot for slot, c in enumerate(rules.sheet_choices(), start=1) if slot <= 6}
    choices = tuple(Choice(a, msg(f"zg.choice.sheet.{a['sheet']}"), slots.get(a["sheet"]))
                    for a in _sheet_answers(state, seat))
    title = msg("zg.q.sheet_done" if sheet.ready else "zg.q.sheet_check")
    return Question(asked, seat, PICK, "sheet", title, secret=True, choices=choices,
                    facts=(msg(SHEET_CHECK[state.options[rules.SET_BONUS_OPTION]]),), answered=sheet.ready)


# -- views ------------------------------------------------------------------------------------------------------


def view(state: State, seat: str | None = None) -> dict:
    """The public board, and for a seat its own entries: never another seat's entry before the reveal."""
    out = {
        "players": list(state.players), "round": state.round, "phase": state.phase, "over": state.over,
        "turn": state.turn or None, "actions": state.actions, "actions_per_turn": rules.ACTIONS_PER_TURN,
        "order": list(state.order), "starter": state.starter, "options": dict(state.options),
        "asked": list(state.asked) if state.phase == LARGEST else [],
        "entered": [s for s in state.asked if s in state.entries] if state.phase == LARGEST else [],
        "below": state.below,
        "revealed": [dict(r) for r in state.revealed],
        "handed_in": [s for s in state.players if state.sheets[s].ready] if state.phase in (SHEET, rules.OVER)
        else [],
        "breakdown": {s: dict(v) for s, v in state.scores.items()},  # each sheet's points by kind, once revealed
        "kinds": list(rules.KINDS),  # the kinds of disc that score, one line each on the sheet and the scores
        "winners": list(state.winners),
    }
    if seat in state.players:
        if seat in state.entries:
            out["largest"] = state.entries[seat]
        if state.phase == SHEET:
            sheet = state.sheets[seat]
            out["sheet"] = {line_: sheet.entries[line_] for line_ in rules.lines() if line_ in sheet.entries}
            out["sheet_score"] = score(sheet.entries, state.options[rules.SET_BONUS_OPTION])
    return out


def record(state: State) -> dict:
    """The table's full record (replay's JSON): the public board, plus the entries still secret."""
    return {**view(state), "entries": dict(state.entries),
            "sheets": {s: {"entries": dict(sh.entries), "queue": list(sh.queue), "ready": sh.ready}
                       for s, sh in state.sheets.items()}}


def table_options(state: State) -> dict:
    return dict(state.options)


def scores(state: State) -> dict[str, int]:
    """Each sheet's total, once the sheets are revealed."""
    return {seat: breakdown["total"] for seat, breakdown in state.scores.items()}


__all__ = [
    "LOCALE", "NAME", "RULES", "SETUP", "SOUNDS", "STATS", "TERMS", "IllegalAction", "State", "apply", "check",
    "correct", "cup_request", "decide", "dice_revealed", "edits", "logged", "narration", "parts", "prompt", "question",
    "record", "score", "scores", "secrets", "set_bonus", "start", "statistics", "table_options", "view",
]
