"""The phone's end shows what made each score (issue 29): the page draws Mall of Horror's scores part with its
columns (the living characters with their points, the total) in the real page in Debian's Chromium, for every seat,
the winner marked, in each phone's language; shot at 390x844 into <tmp>/shots/i29/end/. The table and the phones are
test_phone_browser's (its fixtures); the figures are read against the rules' board, not the parts the page draws."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from test_phone_browser import LAST_ATTACK, browser, live, phones, say  # noqa: F401, F811 - the fixtures

from companion.games.mall_of_horror.board import POINTS

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

SHOTS = Path(tempfile.gettempdir()) / "shots" / "i29" / "end"


def figures(lang: str, seat: str) -> str:
    """What the survivors' cell must say of `seat` once Blue's Pin-up is eaten: LAST_ATTACK's figures but his."""
    kinds = {} if seat == "blue" else LAST_ATTACK["characters"][seat]
    if not kinds:
        return say("mall.board.no_survivor", lang)
    ranked = sorted(kinds, key=lambda kind: -POINTS[kind])
    plus = " " + say("mall.board.plus", lang) + " "
    return plus.join(say("mall.board.figure_points", lang, character=k, points=POINTS[k]) for k in ranked)


@pytest.mark.parametrize("locale", ["en-GB", "zh-CN", "zh-TW", "vi-VN"])
def test_the_phone_end_shows_each_seats_living_characters_their_points_and_the_total(live, phones, locale):  # noqa: F811
    table = live(position=LAST_ATTACK)
    red = phones(table.seat_url("red"), locale=locale)
    blue = phones(table.seat_url("blue"))
    red.vote("blue")
    blue.answer({"seat": "blue", "vote": "blue"})  # Blue's Pin-up is eaten: four characters left, rescue
    lang = red.lang
    over = red.page.locator("#over")
    expect(over.locator("h2")).to_have_text(say("mall.board.over", lang), timeout=15_000)
    expect(over.locator("thead th")).to_have_text(
        ["", say("mall.board.col.survivors", lang), say("mall.board.col.points", lang), ""])
    rows = over.locator("tbody tr")
    expect(rows).to_have_count(4)
    totals = {"green": 12, "yellow": 7, "red": 7, "blue": 0}  # best first; Yellow holds 2 cards, Red none
    for row, (seat, total) in zip(range(4), totals.items(), strict=True):
        cells = rows.nth(row).locator("td")
        expect(rows.nth(row)).to_have_attribute("data-seat", seat)
        expect(cells.nth(1)).to_have_text(figures(lang, seat))
        expect(cells.nth(2)).to_have_text(say("board.points", lang, count=total))
    expect(over.locator("tr.winner")).to_have_attribute("data-seat", "green")
    expect(over.locator("tr.winner td").last).to_have_text(re.compile(".+"))  # "winner", in his language
    SHOTS.mkdir(parents=True, exist_ok=True)
    over.scroll_into_view_if_needed()
    red.page.screenshot(path=str(SHOTS / f"phone-end-{lang}-390x844.png"))
