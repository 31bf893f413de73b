"""The new-game form of Mall of Horror, and the game's words that messages take as parameters."""

from __future__ import annotations

from companion.contract import Item, Setup, TableOption, msg

from .board import COLOURS

# Parameter name -> catalogue prefix: {"location": 4} reads "4 Parking" (key "mall.location.4").
TERMS = {
    "location": "mall.location", "from_location": "mall.location", "to_location": "mall.location",
    "locations": "mall.location",
    "character": "mall.character", "characters": "mall.character",
    "card": "mall.card",
    "purpose": "mall.purpose",
    "phase": "mall.phase",
}

# Narration key (or family) -> the sound a screen plays when such a public line appears (base.SOUND_NAMES).
SOUNDS = {
    "mall.n.setup.zombies": "dice", "mall.n.place.dice": "dice", "mall.n.arrival": "dice",
    "mall.n.reveal": "reveal", "mall.n.vote.ballots": "reveal",
    "mall.n.breach": "breach", "mall.n.parking.eats": "breach",
}


def _choice(option: str, value: str) -> Item:
    return Item(value, msg(f"mall.option.{option}.{value}"))


SETUP = Setup(
    title=msg("mall.title"),
    min_players=3,
    max_players=6,
    colours=COLOURS,
    options=(
        TableOption("threats_carry_to_revote", msg("mall.option.threats_carry_to_revote"),
                    (_choice("threats_carry_to_revote", "true"), _choice("threats_carry_to_revote", "false")),
                    True),
        TableOption("second_tie_victim", msg("mall.option.second_tie_victim"),
                    (_choice("second_tie_victim", "character"), _choice("second_tie_victim", "colour")),
                    "character"),
        TableOption("end_timing", msg("mall.option.end_timing"),
                    (_choice("end_timing", "immediate"), _choice("end_timing", "round_end")), "immediate"),
    ),
    note=msg("mall.setup.three_players", colours=["red", "yellow", "blue"]),
)
