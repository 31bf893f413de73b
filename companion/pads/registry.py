"""Which hub pad belongs to which seat: "press any button on a pad to give it to Red", at any time in a game.

Used on the table's loop only.
"""

from __future__ import annotations

from companion.contract import Message


class PadRegistry:
    def __init__(self, pads: dict[int, str] | None = None):
        self._seats: dict[int, str] = dict(pads or {})
        self.waiting_for: str | None = None  # the seat that gets the next pad pressed

    def give_next(self, seat: str) -> Message:
        """The next press on any pad gives that pad to `seat` (taking it from whoever had it)."""
        self.waiting_for = seat
        return Message("pads.press_to_give", {"seat": seat})

    def claim(self, pad: int) -> list[Message] | None:
        """If a seat waits for a pad, give it `pad` and say so; None if nobody waits."""
        seat = self.waiting_for
        if seat is None:
            return None
        self.waiting_for = None
        return self.assign(pad, seat)

    def assign(self, pad: int, seat: str) -> list[Message]:
        said = [Message("pads.given", {"pad": pad, "seat": seat})]
        previous_owner = self._seats.get(pad)
        if previous_owner is not None and previous_owner != seat:
            said.append(Message("pads.seat_without_pad", {"seat": previous_owner}))
        old_pad = self.pad_of(seat)
        if old_pad is not None and old_pad != pad:
            del self._seats[old_pad]
            said.append(Message("pads.free", {"pad": old_pad}))
        self._seats[pad] = seat
        return said

    def seat_of(self, pad: int) -> str | None:
        return self._seats.get(pad)

    def pad_of(self, seat: str) -> int | None:
        return next((pad for pad, owner in self._seats.items() if owner == seat), None)

    def pads(self) -> dict[int, str]:
        return dict(self._seats)
