"""Zombiegeddon played start to finish from phones: the real page in Chromium (Playwright), one phone per seat and
the table's screen (the host page), with nothing in the page, the server or the table written for the game but
its board renderer. The turns by tapping, the largest zombie disc and the score sheet typed in secret, a sheet
corrected after it was handed in, the reveal with every breakdown; no frame a phone or the table's screen
receives holds another seat's entry before its reveal. Screenshots of a phone in four languages."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import expect
from test_phone_browser import bare, browser, live, phones, said  # noqa: F401 — the page's own fixtures

SHOTS = Path(__file__).parent / "screenshots" / "zombiegeddon"
LOCALES = {"en": "en-GB", "zh-Hans": "zh-CN", "zh-Hant": "zh-TW", "vi": "vi-VN"}
LINES = ("food", "food_points", "zombies", "zombie_points", "tokens")


def number(phone, value: int) -> None:
    """Type the number asked and send it; wait for the table's answer."""
    asked = phone.asked()
    phone.page.locator("#question input.number").fill(str(value))
    phone.answer({**asked["answer"], asked["field"]: value})


def test_a_whole_game_from_three_phones_and_the_table_screen(live, phones, tmp_path):  # noqa: F811
    table = live(name="zombiegeddon", players=["red", "yellow", "blue"], options={"post_bomb_tie": "reenter"})
    locales = {"red": "en-GB", "yellow": "zh-TW", "blue": "vi-VN"}
    seat = {s: phones(table.seat_url(s), locale=locales[s]) for s in ("red", "yellow", "blue")}
    host = phones(table.host_url, viewport={"width": 1280, "height": 800})
    red, yellow, blue = seat["red"], seat["yellow"], seat["blue"]

    # Pre-bomb: Red's two actions by tapping; the board counts them.
    red.shows_question("pre")
    red.answer({"seat": "red", "act": "action"})
    expect(host.page.locator("#board .focus-more").last).to_have_text("Actions: 1 of 2")
    expect(host.page.locator("#board .pip.done")).to_have_count(1)
    red.answer({"seat": "red", "act": "action"})
    yellow.shows_question("pre")
    ending = yellow.choice({"seat": "yellow", "act": "phase_end"})
    ending.tap()  # one tap only arms it: "Sure? Tap again"; nothing is sent
    expect(ending).to_have_attribute("data-armed", "true")
    expect(ending).to_contain_text("確定嗎？再點一下")  # Yellow reads 繁體中文
    shot(yellow, "phone-armed")
    assert table.call(lambda: table.table.state.phase) == "pre"
    yellow.answer({"seat": "yellow", "act": "phase_end"})  # the second tap ends pre-bomb

    # The switch: the checklist marked as things to do; the largest zombie discs typed in secret.
    host.wait_until(lambda: host.view().get("phase") == "largest", "the switch")
    acts = [e["key"] for e in host.view()["narration"] if e.get("act")]
    assert acts == ["zg.n.take_remaining", "zg.n.check.remove", "zg.n.check.shuffle", "zg.n.check.figures",
                    "zg.n.check.tokens"]
    for phone, n in ((red, 7), (yellow, 9), (blue, 9)):
        phone.shows_question("largest")
        number(phone, n)
        if phone is not blue:
            expect(phone.question.locator(".received")).to_have_text(phone.say("page.answer_received"))
            assert "largest" not in host.view()
    # A tie at 9: Yellow and Blue enter their next largest; Blue's is larger.
    expect(host.page.locator("#revealed .part-line")).to_have_count(1)
    number(yellow, 4)
    number(blue, 6)
    host.wait_until(lambda: host.view().get("starter") == "blue", "Blue starts post-bomb")
    expect(host.page.locator("#board .part-line", has_text="Starts post-bomb")).to_have_text(
        re.compile(r"^Starts post-bomb: \W*Blue$"))

    # Post-bomb from Blue, clockwise; Red ends the game.
    blue.answer({"seat": "blue", "act": "action"})
    blue.answer({"seat": "blue", "act": "action"})
    red.shows_question("post")
    red.answer({"seat": "red", "act": "phase_end"})

    # The sheets: typed line by line in secret; Red corrects his supply tokens after handing his sheet in.
    sheets = {"red": (2, 5, 1, 4, 2), "yellow": (3, 7, 0, 0, 0), "blue": (1, 1, 2, 9, 4)}
    for who in ("red", "yellow"):
        phone = seat[who]
        for value in sheets[who]:
            phone.shows_question("sheet")
            number(phone, value)
        phone.answer({"seat": who, "sheet": "hand_in"})
    expect(red.question.locator(".received")).to_have_text("Answer received ✓")
    red.peek_shows("food: 2 discs, 5 printed, 3 set bonus zombies: 1 discs, 4 printed, 1 set bonus "
                   "Supply tokens: 2 × 5 = 10 Total so far: 23")
    red.answer({"seat": "red", "sheet": "tokens"})
    number(red, 3)
    red.answer({"seat": "red", "sheet": "hand_in"})
    for value in sheets["blue"][:-1]:
        number(blue, value)
    for phone in seat.values():
        shot(phone, "phone-sheet")
    number(blue, sheets["blue"][-1])
    blue.answer({"seat": "blue", "sheet": "hand_in"})

    # The reveal: every sheet at once with its breakdown, the winner named, on every screen.
    for phone in (red, yellow, blue, host):
        phone.wait_until(lambda p=phone: p.view().get("over") is True, "the end")
    final = host.view()
    assert final["scores"] == {"red": 28, "yellow": 13, "blue": 34}  # the totals, as in every game's view
    assert final["winners"] == ["blue"]
    rows = host.page.locator("#over table.scores tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.first).to_have_attribute("data-seat", "blue")
    expect(host.page.locator("#over table.scores tr[data-seat=red] td").nth(1)).to_have_text("2: 5+3")
    narration = [bare(t) for t in blue.page.locator("#narration .lines.public .line-text").all_text_contents()]
    assert said(final["narration"][-1], "vi") in narration
    for lang, locale in LOCALES.items():  # the end as any phone shows it, in each language
        watcher = phones(table.spectator_url, locale=locale)
        expect(watcher.page.locator("#over table.scores tbody tr")).to_have_count(3)
        shot(watcher, "phone-end")
        wide = watcher.page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert wide[0] <= wide[1], (lang, wide)  # the whole score table on the phone: no column off the edge
        if lang.startswith("zh"):
            expect(watcher.page.locator("#over table.scores th").nth(1)).to_have_text("食物")

    # No frame held another seat's entry before its reveal (the largest discs, then the sheets).
    entered = {"red": {7}, "yellow": {9, 4}, "blue": {9, 6}}
    for who, phone in seat.items():
        own = dict(zip(LINES, sheets[who], strict=True))
        for frame in phone.frames:
            state = json.loads(frame)
            view = (state.get("view") or {}) if state.get("type") == "state" else {}
            if "largest" in view:
                assert view["largest"] in entered[who]  # only its own entry
            for line, value in (view.get("sheet") or {}).items():  # only its own sheet, as it typed it
                assert value == own[line] or (who, line, value) == ("red", "tokens", 3)
            assert "entries" not in view and "sheets" not in view
    for frame in host.frames:
        state = json.loads(frame)
        view = (state.get("view") or {}) if state.get("type") == "state" else {}
        assert "sheet" not in view and "largest" not in view and "sheet_score" not in view
        for question in ((state.get("host") or {}).get("questions") or {}).values():
            assert not re.search(r'"(largest|number)": \d', json.dumps(question.get("answer", {})))


def shot(phone, name: str) -> None:
    """The phone's whole page, named by its language."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(SHOTS / f"{name}-{phone.lang}.png"), full_page=True)
