"""Lucky Die, the game only the tests know, played to its end from two phones on the real page in Chromium.

Nothing in the page, the server or the table was written for it: the shell renders its assignment, its secret
ballot and its number question by kind, its narration from its own catalogue, and its board (zones and a grid)
from the parts every game's board is made of.
"""

from __future__ import annotations

from pathlib import Path

from test_phone_browser import bare, browser, live, phones, said  # noqa: F401 — the page's own fixtures

SHOTS = Path(__file__).parent / "screenshots" / "toy"
SHOTS.mkdir(parents=True, exist_ok=True)


def p_text(phone, selector: str) -> str:
    return " ".join(bare(phone.page.locator(selector).inner_text()).split())


def shows_narration(phone, lines: list[dict]) -> None:
    """Every line is on the phone's screen, in its language (the page adds each colour's symbol)."""
    def shown() -> bool:
        items = phone.page.locator("#narration li .line-text").all_text_contents()  # (beside it: "Why?")
        on_screen = {" ".join(bare(item).replace("☛", "").split()) for item in items}
        return all(" ".join(said(line, phone.lang).split()) in on_screen for line in lines)
    phone.wait_until(shown, "the narration")


def test_lucky_die_is_played_to_its_end_from_two_phones(lucky_die, live, phones):  # noqa: F811
    table = live(name="lucky-die", players=["red", "blue"], options={"target": "1"}, scripted=[(3,), (5,)])
    red, blue = phones(table.seat_url("red")), phones(table.seat_url("blue"))

    # The assignment: a select per token, then send.
    asked = red.shows_question("tokens")
    assert asked["kind"] == "assign"
    red.page.locator("#question select[data-item=sun]").select_option("blue")
    red.page.locator("#question select[data-item=moon]").select_option("red")
    red.answer({"seat": "red", "give": {"sun": "blue", "moon": "red"}})
    shows_narration(red, table.call(lambda: table.table.view(None)["narration"]))

    # Its board, drawn from its parts: a zone per seat with the tokens it holds, the die's six faces as a grid.
    board = red.page.locator("#board")
    red.wait_until(lambda: board.locator(".zone").count() == 2, "the zones")
    assert board.locator(".zone[data-zone=blue] .token-name").all_text_contents() == ["the Sun token"]
    assert board.locator(".zone[data-zone=red] .token-name").all_text_contents() == ["the Moon token"]
    assert board.locator(".zone[data-zone=red] .zone-count").inner_text() == "0 points"
    assert board.locator(".cell-grid .cell .cell-label").all_text_contents() == ["1", "2", "3", "4", "5", "6"]
    assert "Lucky Die" in board.locator("h2").inner_text()
    red.page.screenshot(path=str(SHOTS / "toy-board-phone.png"), full_page=True)

    # Round 1: the secret ballot by tapping, then the roller's number.
    red.shows_question("vote")
    red.vote("blue")
    assert "ballot" not in blue.view()
    blue.shows_question("vote")
    blue.answer({"seat": "blue", "vote": "blue"})  # the last ballot: revealed at once
    blue.shows_question("guess")
    blue.page.locator("#question input.number").fill("4")
    blue.answer({"seat": "blue", "number": 4})  # the die shows 3: a miss, round 2

    # Round 2: Red rolls and guesses right.
    red.shows_question("vote")
    red.vote("red")
    blue.answer({"seat": "blue", "vote": "red"})
    red.shows_question("guess")
    red.page.locator("#question input.number").fill("5")
    red.answer({"seat": "red", "number": 5})
    assert table.call(lambda: table.table.state.winners) == ("red",)
    for phone in (red, blue):
        phone.wait_until(lambda p=phone: p.view().get("over") is True, "the end")
        shows_narration(phone, phone.view()["narration"])
        phone.wait_until(lambda p=phone: p.page.locator("#over table.scores tr.winner").count() == 1, "the scores")
        assert p_text(phone, "#over tr.winner").startswith("Red")
    assert [line["key"] for line in red.view()["narration"]][-2:] == ["toy.n.point", "toy.n.winner"]
