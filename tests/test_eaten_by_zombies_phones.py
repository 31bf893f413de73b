"""Eaten by Zombies! played to its end from three phones (the real page in Chromium, each in its own language)
while a fourth phone watches in Tiếng Việt: the script tests/scripts/eaten-by-zombies.json, every answer tapped
or typed on the page. Nothing in the page, the server or the table was written for this game: the shell renders
its questions by kind and its board from the parts the game describes (static/parts.js). Screenshots in the four
languages go to tests/screenshots/eaten-by-zombies/."""

from __future__ import annotations

import json
import re
from pathlib import Path

from test_phone_browser import bare, browser, live, phones, said  # noqa: F401 — the page's own fixtures

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "scripts" / "eaten-by-zombies.json"
SHOTS = ROOT / "tests" / "screenshots" / "eaten-by-zombies"
LOCALES = {"red": "en-GB", "yellow": "zh-CN", "blue": "zh-TW"}


def shows_narration(phone, lines: list[dict]) -> None:
    """Every line is on the phone's screen, in its language (the page adds each colour's symbol)."""
    def shown() -> bool:
        items = phone.page.locator("#narration li .line-text").all_text_contents()  # (beside it: "Why?")
        on_screen = {" ".join(bare(item).replace("☛", "").split()) for item in items}
        return all(" ".join(said(line, phone.lang).split()) in on_screen for line in lines)
    phone.wait_until(shown, "the narration")


def photograph(name: str, everyone: list) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for phone in everyone:
        phone.page.screenshot(path=str(SHOTS / f"phone-{name}-{phone.lang}.png"), full_page=True)


def test_eaten_by_zombies_is_played_to_its_end_from_phones_in_four_languages(live, phones):  # noqa: F811
    script = json.loads(SCRIPT.read_text(encoding="utf-8"))
    table = live(name="eaten-by-zombies", players=script["players"], options=script["options"])
    seats = {seat: phones(table.seat_url(seat), locale=LOCALES[seat]) for seat in script["players"]}
    watcher = phones(table.spectator_url, locale="vi-VN")
    everyone = [*seats.values(), watcher]
    red, yellow, blue = seats["red"], seats["yellow"], seats["blue"]

    # The board is the game's own: the zombie deck counted, no zombie yet in the field, in each phone's language.
    deck = red.page.locator("#board .heading-side").first
    red.wait_until(lambda: deck.count() > 0, "the board")
    assert " ".join(deck.text_content().split()) == "Zombie deck 20"
    assert "殭屍牌库" in yellow.page.locator("#board").text_content()
    assert "殭屍牌庫" in blue.page.locator("#board").text_content()
    watcher.wait_until(lambda: "Chồng bài zombie" in (watcher.page.locator("#board").text_content() or ""),
                       "the spectator's board in Vietnamese")

    photographed = set()
    peeked = None
    for action in script["actions"]:
        phone = seats[action["seat"]]
        wanted = table.call(lambda s=action["seat"]: table.table.question(s).id)
        phone.wait_until(lambda p=phone, w=wanted: (p.asked() or {}).get("id") == w, f"the question {wanted}")
        asked = phone.shows_question()
        assert asked["kind"] in ("pick", "number")
        if asked["step"] == "choose" and "choose" not in photographed:
            photographed.add("choose")
            photograph("choose", everyone)
            labels = [bare(t).strip() for t in phone.page.locator("#question button[data-answer]").all_text_contents()]
            assert any(label.startswith(said(asked["choices"][0]["label"], phone.lang)) for label in labels)
        if asked["step"] == "zback" and peeked is None:
            # what the zombie player holds: on his phone behind hold-to-peek, nowhere else
            peeked = blue.peek()
            assert "等級 2：1" in peeked
            assert "hand" not in red.view() and "hand" not in watcher.view()
        if asked["kind"] == "number":
            value = action[asked["field"]]
            if asked["low"] == 0:  # an emptied field is no answer: Send waits (a fight of 0 lost a game once)
                phone.page.locator("#question input.number").fill("")
                assert phone.page.locator("#question button.send").is_disabled()
            phone.page.locator("#question input.number").fill(str(value))
        phone.answer(action)
        view = watcher.view()
        if len(view.get("field") or []) >= 2 and view.get("in_force") and "powers" not in photographed:
            photographed.add("powers")
            for one in everyone:
                one.wait_until(lambda o=one: len(o.page.locator(".table-card").all()) >= 2, "the field's cards")
            photograph("powers", everyone)
            assert "生效中的殭屍威能" in blue.page.locator("#board").text_content()
            status = blue.page.locator('.seat-panel[data-seat="blue"] .seat-line')
            assert status.first.is_visible() and status.all_text_contents()[:2] == ["殭屍玩家", "殭屍威能 8"]
            assert "Sức mạnh Zombie đang có hiệu lực" in watcher.page.locator("#board").text_content()

    assert peeked is not None and photographed == {"choose", "powers"}
    assert table.call(lambda: table.table.state.winners) == ("yellow",)
    for phone in everyone:
        phone.wait_until(lambda p=phone: p.view().get("over") is True, "the end")
        shows_narration(phone, phone.view()["narration"])
        row = phone.page.locator("#over tr.winner")
        phone.wait_until(lambda r=row: r.count() == 1, "the winner's row")
        assert row.get_attribute("data-seat") == "yellow"
    photograph("end", everyone)
    assert re.search("黄是最后一位人类玩家", yellow.page.locator("#narration").text_content())
    assert "Yellow is the last human: Yellow wins!" in bare(red.page.locator("#narration").text_content())
