"""The fixed facts of Mall of Horror: colours, characters, locations and cards (their names are in the catalogue:
terms.po, "mall.location.4" is "4 Parking")."""

from __future__ import annotations

COLOURS = ("red", "yellow", "blue", "green", "purple", "black")
THREE_PLAYER_COLOURS = frozenset({"red", "yellow", "blue"})

PINUP, TOUGH, GUNMAN, GIRL = "pinup", "tough", "gunman", "girl"
POINTS = {PINUP: 7, TOUGH: 5, GUNMAN: 3, GIRL: 1}


def characters_for(player_count: int) -> tuple[str, ...]:
    """The characters each player controls: the Little Girl joins only in a 3-player game."""
    return (PINUP, TOUGH, GUNMAN, GIRL) if player_count == 3 else (PINUP, TOUGH, GUNMAN)


RESTROOM, CACHOU, MEGATOYS, PARKING, SECURITY_HQ, SUPERMARKET = 1, 2, 3, 4, 5, 6
LOCATIONS = (RESTROOM, CACHOU, MEGATOYS, PARKING, SECURITY_HQ, SUPERMARKET)
CAPACITY: dict[int, int | None] = {  # None: unlimited
    RESTROOM: 3, CACHOU: 4, MEGATOYS: 4, PARKING: None, SECURITY_HQ: 3, SUPERMARKET: 6,
}
FALL_AT = 8  # zombies before an empty location that make it fall
SUPERMARKET_BREACH = 4  # the Supermarket is breached by this many zombies whatever its defence
BOARD_ZOMBIES = 30  # figures in the box: more on the board is a warning, not an error


def rescue_at(player_count: int) -> int:
    """Rescue comes when this many characters or fewer live."""
    return 6 if player_count == 6 else 4


# Action cards: 21 in all. A Weapon is named by how many zombies it kills.
THREAT, CAMERA, SPRINT, HARDWARE, HIDDEN, WEAPON = "threat", "camera", "sprint", "hardware", "hidden", "weapon"
CARD_KINDS = (THREAT, CAMERA, SPRINT, HARDWARE, HIDDEN, WEAPON)
DECK = {THREAT: 3, CAMERA: 3, SPRINT: 3, HARDWARE: 3, HIDDEN: 3, "weapon2": 3, "weapon1": 3}
DECK_SIZE = sum(DECK.values())


def card_key(kind: str, kills: int = 0) -> str:
    """The deck entry a played card counts against: weapons are counted by how many zombies they kill."""
    return f"weapon{kills}" if kind == WEAPON else kind
