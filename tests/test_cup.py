"""The dice cup: fair dice, commitments players can check, scripted dice for tests and replays."""

from __future__ import annotations

import hashlib
import math
from collections import Counter

import pytest

from companion import cup
from companion.cup import DiceCup, Roll, commit, verify

# A fair cup fails these tests about once in a million runs.
P_FLOOR = 1e-6


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square with ``df`` degrees of freedom (closed forms, no scipy needed)."""
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for j in range(1, df // 2):
            term *= (x / 2) / j
            total += term
        return math.exp(-x / 2) * total
    term, total = math.sqrt(x), 0.0
    for j in range(1, (df + 1) // 2):
        total += term
        term *= x / (2 * j + 1)
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 / math.pi) * math.exp(-x / 2) * total


def chi2_statistic(counts: Counter[int], categories: range) -> float:
    expected = sum(counts.values()) / len(categories)
    return sum((counts[c] - expected) ** 2 / expected for c in categories)


@pytest.mark.parametrize(
    ("x", "df", "p"),
    [
        (35.888186879672865, 5, 1e-6),  # the critical value quoted for the dice test
        (11.070497693516351, 5, 0.05),
        (13.815510557964274, 2, 1e-3),
        (22.457744484825326, 6, 1e-3),
        (3.841458820694124, 1, 0.05),
    ],
)
def test_chi2_helper_matches_published_critical_values(x: float, df: int, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-6)


def test_six_hundred_thousand_dice_are_fair() -> None:
    dice_cup = DiceCup()
    counts: Counter[int] = Counter()
    for _ in range(60_000):
        counts.update(dice_cup.roll(10).dice)
    assert sum(counts.values()) == 600_000
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    statistic = chi2_statistic(counts, range(1, 7))
    assert chi2_sf(statistic, df=5) > P_FLOOR, (statistic, counts)


@pytest.mark.parametrize("n", [2, 3, 7])
def test_pick_is_uniform(n: int) -> None:
    dice_cup = DiceCup()
    counts = Counter(dice_cup.pick(n) for _ in range(10_000 * n))
    assert set(counts) == set(range(n))
    assert chi2_sf(chi2_statistic(counts, range(n)), df=n - 1) > P_FLOOR, counts


def test_pick_from_one_candidate_is_that_candidate() -> None:
    assert {DiceCup().pick(1) for _ in range(100)} == {0}


@pytest.mark.parametrize("n", [0, -1, 2.0, "3", True])
def test_pick_needs_at_least_one_candidate(n: object) -> None:
    with pytest.raises(ValueError, match="number of candidates"):
        DiceCup().pick(n)  # type: ignore[arg-type]


@pytest.mark.parametrize("count", [1, 2, 10])
def test_roll_gives_the_number_of_dice_asked(count: int) -> None:
    roll = DiceCup().roll(count)
    assert len(roll.dice) == count
    assert all(1 <= d <= 6 for d in roll.dice)


@pytest.mark.parametrize("count", [0, -3, 11, 2.5, "3", None, True])
def test_roll_refuses_a_bad_number_of_dice(count: object) -> None:
    with pytest.raises(ValueError, match=r"number of dice must be a whole number from 1 to 10"):
        DiceCup().roll(count)  # type: ignore[arg-type]


def test_roll_remembers_who_may_look() -> None:
    assert DiceCup().roll(3, visible_to=["Red", "Blue"]).visible_to == ("Red", "Blue")
    assert DiceCup().roll(3).visible_to == ()


def test_commitment_is_sha256_of_the_documented_text() -> None:
    nonce = "00" * 16
    expected = hashlib.sha256(f"3,5,1,6:{nonce}".encode("ascii")).hexdigest()
    assert commit((3, 5, 1, 6), nonce) == expected
    assert verify(expected, [3, 5, 1, 6], nonce)


def test_every_roll_verifies_and_any_tampering_is_caught() -> None:
    dice_cup = DiceCup()
    for i in range(2_000):
        roll = dice_cup.roll(i % 10 + 1)
        assert verify(roll.commitment, roll.dice, roll.nonce)
        assert roll.verifies()
        for k, die in enumerate(roll.dice):
            tampered = roll.dice[:k] + (die % 6 + 1,) + roll.dice[k + 1 :]
            assert not verify(roll.commitment, tampered, roll.nonce)
        assert not verify(roll.commitment, roll.dice + (1,), roll.nonce)
        other_nonce = f"{int(roll.nonce, 16) ^ 1:032x}"
        assert not verify(roll.commitment, roll.dice, other_nonce)


def test_nonces_are_sixteen_random_bytes() -> None:
    dice_cup = DiceCup()
    nonces = [dice_cup.roll(1).nonce for _ in range(1_000)]
    assert len(set(nonces)) == len(nonces)
    assert all(len(bytes.fromhex(n)) == 16 for n in nonces)


def test_a_printed_roll_does_not_give_away_the_dice_or_nonce() -> None:
    roll = DiceCup(scripted=[(6, 6, 6, 6, 6)]).roll(5)
    text = repr(roll)
    assert "6, 6" not in text and roll.nonce not in text
    assert roll.commitment in text


def test_roll_round_trips_through_json() -> None:
    roll = DiceCup().roll(4, visible_to=("Yellow",))
    data = roll.to_json()
    assert data["dice"] == list(roll.dice)
    assert Roll.from_json(data) == roll


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"dice": [1, 7], "nonce": "ab", "commitment": "cd"},
        {"dice": [], "nonce": "ab", "commitment": "cd"},
        {"dice": 3, "nonce": "ab", "commitment": "cd"},
        {"dice": [1, 2], "nonce": 5, "commitment": "cd"},
        {"dice": [1, 2], "nonce": "ab", "commitment": "cd", "visible_to": [1]},
    ],
)
def test_a_malformed_roll_is_refused(data: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Roll.from_json(data)


def test_scripted_dice_come_first_then_real_dice() -> None:
    dice_cup = DiceCup(scripted=[(1, 1, 1), (6, 5)])
    first, second = dice_cup.roll(3, visible_to=["Red"]), dice_cup.roll(2)
    assert first.dice == (1, 1, 1) and first.visible_to == ("Red",)
    assert second.dice == (6, 5)
    assert first.verifies() and second.verifies()
    later = [dice_cup.roll(3).dice for _ in range(50)]
    assert all(len(dice) == 3 and all(1 <= d <= 6 for d in dice) for dice in later)
    assert len(set(later)) > 1


def test_scripted_picks_come_first_then_real_picks() -> None:
    dice_cup = DiceCup(picks=[2, 0])
    assert [dice_cup.pick(3), dice_cup.pick(3)] == [2, 0]
    assert {dice_cup.pick(3) for _ in range(200)} == {0, 1, 2}


@pytest.mark.parametrize(
    ("scripted", "message"),
    [
        ([(1, 2), (3, 7)], r"scripted roll 2 \(3, 7\): 7 is not a die face"),
        ([(0,)], r"scripted roll 1 \(0,\): 0 is not a die face"),
        ([()], r"scripted roll 1 \(\): a roll has 1 to 10 dice, not 0"),
        ([(1,) * 11], r"scripted roll 1 .*not 11"),
    ],
)
def test_bad_scripted_dice_are_refused_up_front(scripted: list[tuple[int, ...]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        DiceCup(scripted=scripted)


def test_scripted_roll_with_the_wrong_number_of_dice_is_refused() -> None:
    dice_cup = DiceCup(scripted=[(1, 2, 3), (4, 5)])
    dice_cup.roll(3)
    with pytest.raises(ValueError, match=r"scripted roll 2 \(4, 5\) has 2 dice, but 3 were rolled"):
        dice_cup.roll(3)


def test_scripted_pick_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match=r"scripted pick 1 is 3, not an index in range\(3\)"):
        DiceCup(picks=[3]).pick(3)


def test_the_cup_never_uses_the_random_module() -> None:
    source = open(cup.__file__, encoding="utf-8").read()
    assert "import random" not in source and "from random" not in source
