"""Eaten by Zombies!, pure rules: the deck-builder's referee and counter. The cards stay physical; the companion
counts the zombie cards by level wherever they are, checks each flip and addition, sums fight and flee values
against the field, says how many cards to remove and where the zombies go, runs the zombie players' turns and
applies their Powers. No I/O and no randomness here (the market's action kinds are the table cup's picks)."""

from __future__ import annotations

from pathlib import Path

from companion.contract import IllegalAction, Item, Line, RuleBook, Setup, TableOption, msg

from .correction import correct, edits
from .engine import cup_request, picked, start
from .parts import parts, secrets
from .prompts import answered, check, prompt, question
from .state import COLOURS, LEVELS, State
from .stats import STATS, statistics
from .view import record, scores, table_options, view

NAME = "eaten-by-zombies"
LOCALE = Path(__file__).parent / "locale"
TERMS: dict[str, str] = {}
SOUNDS = {"ebz.n.result.lost": "breach", "ebz.n.result.failed": "breach",
          "ebz.n.dies": "breach", "ebz.n.power": "reveal"}
# Which rule is behind each question and line (its words: ebz.rules.* in the catalogue), in the order of play.
RULES = RuleBook(
    family="ebz",
    phases=(("setup", ("starting_decks", "market", "zombie_deck")),
            ("flip", ("flip", "reshuffle", "add", "power8")),
            ("fight_or_run", ("choose", "fight", "run", "wounded", "removed_zombie", "zombies_go", "buy")),
            ("refill", ("power1", "refill", "death")),
            ("zombie_player", ("zombie_turn", "power", "powers", "put_back")),
            ("end", ("last_human", "wiped_out", "only_zombies"))),
    about={"ebz.n.setup.start": "starting_decks", "ebz.n.setup.basic": "market", "ebz.n.setup.numbered": "market",
           "ebz.n.setup.kinds": "market", "ebz.n.setup.deck": "zombie_deck",
           "ebz.n.turn": "flip", "ebz.n.flips": "flip", "ebz.q.flip": "flip", "ebz.q.flip_speed": "flip",
           "ebz.n.flipped": "flip", "ebz.n.reshuffle": "reshuffle",
           "ebz.n.may_add": "add", "ebz.n.nobody_adds": "add", "ebz.q.add": "add", "ebz.q.add_speed": "add",
           "ebz.n.added": "add", "ebz.n.no_add": "add", "ebz.n.power8": "power8",
           "ebz.q.choose": "choose", "ebz.n.field": "choose",
           "ebz.q.fight_value": "fight", "ebz.n.fights": "fight", "ebz.n.result.won": "fight",
           "ebz.q.flee_value": "run", "ebz.n.runs": "run", "ebz.n.result.escaped": "run", "ebz.n.remove_run": "run",
           "ebz.n.result.lost": "wounded", "ebz.n.result.failed": "wounded", "ebz.n.remove": "wounded",
           "ebz.q.removed": "removed_zombie", "ebz.n.removed_zombie": "removed_zombie",
           "ebz.n.to_player": "zombies_go", "ebz.n.to_discard": "zombies_go", "ebz.n.stay": "zombies_go",
           "ebz.n.waiting": "zombies_go", "ebz.q.bonus": "buy", "ebz.n.buy": "buy",
           "ebz.n.power1": "power1", "ebz.q.refill": "refill", "ebz.n.refill": "refill",
           "ebz.n.dies": "death", "ebz.n.dead_cards": "death", "ebz.n.dead_cards_none": "death",
           "ebz.n.zturn": "zombie_turn", "ebz.q.zdraw": "zombie_turn", "ebz.n.zdraw": "zombie_turn",
           "ebz.q.zlevel": "zombie_turn", "ebz.n.zdrawn": "zombie_turn",
           "ebz.q.zpower": "power", "ebz.n.power": "power", "ebz.n.power_dropped": "power", "ebz.n.in_force": "powers",
           "ebz.q.zback": "put_back", "ebz.n.put_back": "put_back", "ebz.n.put_back_level": "put_back",
           "ebz.n.win_last": "last_human", "ebz.n.deck_out": "wiped_out", "ebz.n.win_humans": "wiped_out",
           "ebz.n.cannot_play": "only_zombies", "ebz.n.win_zombies": "only_zombies"},
    options={"run": ("run_rounding",)},
)
SETUP = Setup(
    title=msg("ebz.title"), min_players=2, max_players=4, colours=COLOURS,
    options=(TableOption("run_rounding", msg("ebz.option.run_rounding"),
                         (Item("down", msg("ebz.option.run_rounding.down")),
                          Item("up", msg("ebz.option.run_rounding.up"))), "down"),),
    note=msg("ebz.setup.note"),
)


def decide(state: State, action: object) -> list[dict]:
    return [check(state, action)]


def logged(state: State, answer: object) -> dict:
    """A stored answer read back from the save file, checked as `decide` checks an answer."""
    return check(state, answer)


def apply(state: State, event: dict) -> State:
    if isinstance(event, dict) and set(event) == {"pick"}:
        return picked(state, event["pick"])
    if isinstance(event, dict) and "roll" in event:
        raise IllegalAction("ebz.refuse.shape")
    return answered(state, event)  # an answer `decide` accepted (or the log kept): never checked twice


def dice_revealed(state: State) -> bool:
    return True  # no secret dice in this game


def narration(state: State) -> tuple[Line, ...]:
    return state.narration


__all__ = ["LEVELS", "LOCALE", "NAME", "RULES", "SETUP", "SOUNDS", "STATS", "TERMS", "State", "apply", "correct",
           "cup_request", "decide", "dice_revealed", "edits", "logged", "narration", "parts", "prompt", "question",
           "record", "scores", "secrets", "start", "statistics", "table_options", "view"]
