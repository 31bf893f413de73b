"""The people at the table: an optional name per seat, shown beside the seat's colour wherever the seat is named.

A name is text only, never markup: every screen shows it as typed. It is checked once, here, wherever it comes from
(the touchscreen, the host page, the command line): refused in one line if it is too long, blank or holds a
control character, and two seats of one game never share a name (the statistics count each name as one person).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from companion.contract import Refusal

MAX_NAME = 20  # characters: a name beside a colour still fits a seat's button at 800×480


def check_name(seat: str, value: object) -> str:
    """The name as kept (spaces around it dropped); Refusal names.* if it cannot be one."""
    if not isinstance(value, str):
        raise Refusal("names.not_text", seat=seat)
    name = value.strip()
    if not name:
        raise Refusal("names.blank", seat=seat)
    if any(unicodedata.category(c).startswith("C") for c in name):  # control, format, unassigned, private
        raise Refusal("names.control", seat=seat)
    if len(name) > MAX_NAME:
        raise Refusal("names.too_long", seat=seat, most=MAX_NAME, count=len(name))
    return name


def check_names(players: list[str] | tuple[str, ...], names: object) -> dict[str, str]:
    """{seat: name} for the seats given one, in seating order; a seat left empty ("" or missing) has none."""
    if names is None:
        return {}
    if not isinstance(names, Mapping):
        raise Refusal("names.not_text", seat="")
    strangers = [seat for seat in names if seat not in players]
    if strangers:
        raise Refusal("names.not_playing", seat=str(strangers[0]))
    out: dict[str, str] = {}
    for seat in players:
        value: Any = names.get(seat)
        if value is None or value == "":
            continue
        name = check_name(seat, value)
        for other, taken in out.items():
            if taken.casefold() == name.casefold():
                raise Refusal("names.twice", seat=seat, to_seat=other, name=name)
        out[seat] = name
    return out


def person(seat: str, names: Mapping[str, str]) -> str:
    """Who sat at `seat`, for counting across evenings: the name, or "colour:<seat>" where none was given."""
    name = names.get(seat)
    return name if name else f"colour:{seat}"
