"""District-Z (pre-release rules, seed 004): the city grid of district cards, the event die, combat against
zombies with the best pairing of red against black dice proposed, survivor against survivor, health, death and
respawn, the first to his target corner with an objective card wins. Pure rules: dice and picks come from the cup.
"""

from __future__ import annotations

from pathlib import Path

from companion.contract import Item, Line, RuleBook, Setup, TableOption, msg

from .correction import correct, edits
from .engine import COLOURS, apply, check, cup_request, decide, logged, prompt, question, start
from .pairing import best_pairing, outcome
from .parts import parts, secrets
from .state import GRIDS, State
from .stats import STATS, statistics
from .view import record, scores, table_options, view

NAME = "district-z"
LOCALE = Path(__file__).parent / "locale"
# Parameter name -> catalogue prefix, in dz.* messages only (Zombiegeddon names its own "kind" too).
TERMS = {"dir": "dz.dir", "corner": "dz.corner", "kind": "dz.kind"}
SOUNDS = {"dz.n.event": "dice", "dz.n.combat": "dice", "dz.n.fight_dice": "dice", "dz.n.death": "breach"}
# Which rule is behind each question and line (its words: dz.rules.* in the catalogue), in the order of play.
RULES = RuleBook(
    family="dz",
    phases=(("setup", ("city", "corner", "survivor", "start")),
            ("turn", ("round", "turn", "leave", "found", "objective", "event", "special", "item", "hands",
                      "face_up", "pickup")),
            ("combat", ("zombies", "weapon", "combat", "used")),
            ("meeting", ("meet", "fight")),
            ("death", ("damage", "death")),
            ("end", ("win", "end"))),
    about={
        "dz.n.setup": "city",
        "dz.q.corner": "corner", "dz.n.corner": "corner",
        "dz.q.attack": "survivor", "dz.q.health": "survivor", "dz.n.survivor": "survivor",
        "dz.n.place": "start",
        "dz.n.round": "round",
        "dz.q.turn": "turn", "dz.n.move": "turn", "dz.n.heal": "turn",
        "dz.n.flip_back": "leave",
        "dz.q.found": "found", "dz.n.flip": "found", "dz.n.district": "found",
        "dz.n.objective": "objective", "dz.n.objective_left": "objective", "dz.n.aside": "objective",
        "dz.q.outcome": "event", "dz.n.event": "event", "dz.n.nothing": "event",
        "dz.q.special": "special", "dz.n.special": "special", "dz.n.special_done": "special",
        "dz.q.item_kind": "item", "dz.q.item_attack": "item", "dz.q.item_health": "item", "dz.n.item": "item",
        "dz.q.drop": "hands", "dz.n.drop": "hands",
        "dz.n.zombies_there": "face_up", "dz.n.face_up": "face_up",
        "dz.q.pickup": "pickup", "dz.n.pickup": "pickup", "dz.n.pickup_objective": "pickup",
        "dz.n.no_event": "pickup",
        "dz.q.zombies": "zombies", "dz.n.zombies": "zombies",
        "dz.q.weapon": "weapon", "dz.n.weapon": "weapon", "dz.n.bare": "weapon",
        "dz.n.combat": "combat", "dz.q.pair": "combat", "dz.n.paired": "combat", "dz.n.paired_own": "combat",
        "dz.n.kill": "combat", "dz.n.cleared": "combat",
        "dz.q.used": "used", "dz.n.discard": "used",
        "dz.q.meet": "meet", "dz.n.give": "meet",
        "dz.n.fight": "fight", "dz.n.fight_dice": "fight", "dz.n.tie": "fight", "dz.n.fight_won": "fight",
        "dz.q.spoils": "fight", "dz.n.steal": "fight", "dz.n.steal_objective": "fight",
        "dz.n.hurt": "damage",
        "dz.n.death": "death", "dz.n.drop_all": "death", "dz.n.drop_objective": "death",
        "dz.n.remove_figure": "death", "dz.n.respawn": "death", "dz.n.out": "death", "dz.n.lost": "death",
        "dz.n.win": "win", "dz.n.play_on": "win",
        "dz.n.over": "end", "dz.n.over_none": "end",
    },
    options={"city": ("grid",), "face_up": ("face_up_event",), "combat": ("box_dice",), "fight": ("box_dice",),
             "win": ("play_on",), "end": ("play_on",)},
)


def _choice(option: str, value: str) -> Item:
    return Item(value, msg(f"dz.option.{option}.{value}"))


SETUP = Setup(
    title=msg("dz.title"), min_players=1, max_players=4, colours=COLOURS,
    options=(
        TableOption("grid", msg("dz.option.grid"), tuple(_choice("grid", g) for g in GRIDS), "6x5"),
        TableOption("face_up_event", msg("dz.option.face_up_event"),
                    (_choice("face_up_event", "roll"), _choice("face_up_event", "skip")), "roll"),
        TableOption("play_on", msg("dz.option.play_on"),
                    (_choice("play_on", "false"), _choice("play_on", "true")), False),
        TableOption("box_dice", msg("dz.option.box_dice"),
                    (_choice("box_dice", "false"), _choice("box_dice", "true")), False),
    ),
    note=msg("dz.setup.note"),
)


def dice_revealed(state: State) -> bool:
    return True  # every roll of this game is made in the open


def narration(state: State) -> tuple[Line, ...]:
    return state.narration


__all__ = ["LOCALE", "NAME", "RULES", "SETUP", "SOUNDS", "STATS", "TERMS", "State", "apply", "best_pairing", "check",
           "correct", "cup_request", "decide", "dice_revealed", "edits", "logged", "narration", "outcome", "parts",
           "prompt", "question", "record", "scores", "secrets", "start", "statistics", "table_options", "view"]
