"""Which hub pad belongs to which seat: "press any button on a pad to give it to Red", at any time in a game.

Used on the table's loop only.
"""

from __future__ import annotations


class PadRegistry:
    def __init__(self, pads: dict[int, str] | None = None):
        self._seats: dict[int, str] = dict(pads or {})
        self.waiting_for: str | None = None  # the seat that gets the next pad pressed

    def give_next(self, seat: str) -> str:
        """The next press on any pad gives that pad to `seat` (taking it from whoever had it)."""
        self.waiting_for = seat
        return f"press any button on a pad to give it to {seat.title()}"

    def claim(self, pad: int) -> str | None:
        """If a seat waits for a pad, give it `pad` and say so; None if nobody waits."""
        seat = self.waiting_for
        if seat is None:
            return None
        self.waiting_for = None
        return self.assign(pad, seat)

    def assign(self, pad: int, seat: str) -> str:
        said = [f"pad {pad} is {seat.title()}'s now"]
        previous_owner = self._seats.get(pad)
        if previous_owner is not None and previous_owner != seat:
            said.append(f"{previous_owner.title()} has no pad now")
        old_pad = self.pad_of(seat)
        if old_pad is not None and old_pad != pad:
            del self._seats[old_pad]
            said.append(f"pad {old_pad} is free")
        self._seats[pad] = seat
        return "; ".join(said)

    def seat_of(self, pad: int) -> str | None:
        return self._seats.get(pad)

    def pad_of(self, seat: str) -> int | None:
        return next((pad for pad, owner in self._seats.items() if owner == seat), None)

    def pads(self) -> dict[int, str]:
        return dict(self._seats)
