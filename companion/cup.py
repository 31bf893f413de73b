"""The dice cup: unbiased secret dice with a commitment anyone can re-check after the reveal.

Every roll carries a commitment, shown to the whole table when the dice are rolled, and a secret nonce.
When the dice are revealed, the nonce is revealed with them and any player can recompute the commitment by
hand, e.g. for dice 3, 5, 1, 6 and nonce ``ab12...``::

    printf '3,5,1,6:ab12...' | sha256sum

The nonce is as secret as the dice: with the nonce and the commitment, trying all 6**n dice finds them.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

MAX_DICE = 10
FACES = 6


def commit(dice: Iterable[int], nonce: str) -> str:
    """SHA-256 hex digest of the dice joined by commas, a colon, then the nonce: ``"3,5,1,6:" + nonce``.

    The text is encoded as ASCII, with no spaces and no trailing newline.
    """
    text = ",".join(str(d) for d in dice) + ":" + nonce
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def verify(commitment: str, dice: Iterable[int], nonce: str) -> bool:
    """True if ``commitment`` is the commitment of these dice with this nonce."""
    return secrets.compare_digest(commit(dice, nonce), commitment.lower())


@dataclass(frozen=True)
class Roll:
    """One roll of the cup. ``visible_to`` names the seats that may look before the reveal."""

    # repr=False so a roll printed into a log or traceback does not give the secret away.
    dice: tuple[int, ...] = field(repr=False)
    nonce: str = field(repr=False)
    commitment: str
    visible_to: tuple[str, ...] = ()

    def verifies(self) -> bool:
        """True if the commitment matches the dice and nonce."""
        return verify(self.commitment, self.dice, self.nonce)

    def to_json(self) -> dict[str, Any]:
        return {
            "dice": list(self.dice),
            "nonce": self.nonce,
            "commitment": self.commitment,
            "visible_to": list(self.visible_to),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Roll:
        """Read a roll written by ``to_json``; raises ValueError naming what is wrong."""
        try:
            dice = tuple(data["dice"])
            nonce, commitment = data["nonce"], data["commitment"]
            visible_to = tuple(data.get("visible_to", ()))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a roll: {data!r} (missing or malformed {exc})") from None
        _check_dice(dice, f"roll {data!r}")
        if not isinstance(nonce, str) or not isinstance(commitment, str):
            raise ValueError(f"roll {data!r}: nonce and commitment must be text")
        if not all(isinstance(seat, str) for seat in visible_to):
            raise ValueError(f"roll {data!r}: visible_to must be a list of seat names")
        return cls(dice=dice, nonce=nonce, commitment=commitment, visible_to=visible_to)


def _check_dice(dice: tuple[Any, ...], what: str) -> None:
    if not 1 <= len(dice) <= MAX_DICE:
        raise ValueError(f"{what}: a roll has 1 to {MAX_DICE} dice, not {len(dice)}")
    for d in dice:
        # bool is an int subclass; True is not a die face.
        if type(d) is not int or not 1 <= d <= FACES:
            raise ValueError(f"{what}: {d!r} is not a die face (1 to {FACES})")


def _check_count(count: object, what: str, low: int, high: int | None = None) -> int:
    if type(count) is not int or count < low or (high is not None and count > high):
        allowed = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise ValueError(f"{what} must be a whole number {allowed}, got {count!r}")
    return count


class DiceCup:
    """Rolls dice from the operating system's CSPRNG (``secrets``).

    ``scripted`` rolls (for tests and replays) are used first, in order, then real dice; ``picks`` does the
    same for ``pick``.
    """

    def __init__(self, scripted: Iterable[tuple[int, ...]] = (), picks: Iterable[int] = ()) -> None:
        checked = []
        for number, dice in enumerate(scripted, start=1):
            dice = tuple(dice)
            _check_dice(dice, f"scripted roll {number} {dice!r}")
            checked.append(dice)
        self._scripted: Iterator[tuple[int, ...]] = iter(checked)
        self._scripted_used = 0
        self._picks: Iterator[int] = iter(list(picks))
        self._picks_used = 0

    def roll(self, count: int, visible_to: Iterable[str] = ()) -> Roll:
        """Roll ``count`` dice (1 to 10), secret except to the seats in ``visible_to``."""
        count = _check_count(count, "the number of dice", 1, MAX_DICE)
        dice = next(self._scripted, None)
        if dice is None:
            dice = tuple(secrets.randbelow(FACES) + 1 for _ in range(count))
        else:
            self._scripted_used += 1
            if len(dice) != count:
                raise ValueError(
                    f"scripted roll {self._scripted_used} {dice!r} has {len(dice)} dice, "
                    f"but {count} were rolled"
                )
        nonce = secrets.token_hex(16)
        return Roll(dice=dice, nonce=nonce, commitment=commit(dice, nonce), visible_to=tuple(visible_to))

    def pick(self, n: int) -> int:
        """A uniform random index in ``range(n)``, e.g. to choose between ``n`` tied candidates."""
        n = _check_count(n, "the number of candidates", 1)
        index = next(self._picks, None)
        if index is None:
            return secrets.randbelow(n)
        self._picks_used += 1
        if type(index) is not int or not 0 <= index < n:
            raise ValueError(f"scripted pick {self._picks_used} is {index!r}, not an index in range({n})")
        return index
