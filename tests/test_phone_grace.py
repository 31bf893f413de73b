"""The grace before a reveal on the phones (Chromium, 390x844; issue 29).

The Restroom's ballot (tests/mall.py: ATTACK): Red votes, then Blue, last. Blue's phone says "Revealing in N s:
change your answer?" under its receipt and every other phone "Revealing in N s", each counting down from the view;
Blue changes its ballot within the grace (no other phone hears of it), and the ballot revealed after the grace is
the changed one. The host page's new-game form sets the grace (0 to 5 s), which the table keeps in its save file.
A colour chip never leaves its "'s" alone at the start of the next line. Screenshots of the
countdown in the four languages go to /tmp/shots/i29/phone/ for a person to look at.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
import test_phone_browser as page
from mall import ATTACK, MOVE
from test_phone_browser import bare

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
pytestmark = page.pytestmark
browser, live, phones = page.browser, page.live, page.phones  # one Chromium for the module, many pages

GRACE = 5  # seconds: the longest, so a loaded machine still sees the countdown and the change within it
SHOTS = Path("/tmp/shots/i29/phone")
LOCALES = {"en": "en-GB", "zh-Hans": "zh-CN", "zh-Hant": "zh-TW", "vi": "vi-VN"}


def at_the_ballot(live, grace: int = GRACE):
    table = live(position=ATTACK)
    table.call(table.table.set_reveal_grace, grace)
    return table


def countdown(phone, selector: str, key: str) -> int:
    """The seconds the line shows, checked against the catalogue's sentence in the phone's language."""
    line = phone.page.locator(selector)
    expect(line).to_have_count(1)
    text = bare(line.text_content())
    left = int(phone.page.locator(f"{selector} .reveal-left").text_content())
    assert text == bare(phone.say(key, seconds=left)), text
    return left


def acked(phone, action: dict) -> None:
    """Tap an answer and wait for the table's "stored" alone (a change in the grace sends no new board)."""
    acks = phone.count("ack")
    phone.tap(action)
    phone.wait_until(lambda: phone.count("ack") > acks, f"the answer {action} stored")


def test_two_phones_count_down_and_the_last_voter_changes_his_ballot_within_the_grace(live, phones):
    table = at_the_ballot(live)
    red = phones(table.seat_url("red"))
    blue = phones(table.seat_url("blue"))
    green = phones(table.seat_url("green"), locale="vi-VN")
    red.vote("blue")
    expect(red.page.locator(".revealing")).to_have_count(0)  # Blue has not voted: nothing counts down yet
    blue.vote("blue")  # the last ballot, a mis-tap
    held_at = time.monotonic()

    # Blue is asked whether to change it; everyone else sees the plain countdown (Green in Vietnamese).
    first = countdown(blue, "#question .receipt .revealing.mine", "ui.revealing")
    assert 1 <= first <= GRACE
    assert countdown(red, "#waiting .revealing", "page.revealing") <= GRACE
    assert countdown(green, "#waiting .revealing", "page.revealing") <= GRACE
    expect(blue.page.locator("#waiting .revealing")).to_have_count(0)
    expect(red.question.locator(".revealing")).to_have_count(0)
    assert blue.view()["revealing"] == red.view()["revealing"] == green.view()["revealing"]
    assert blue.asked()["held"] is True and "blue" not in red.view()["prompt"]["waiting"]
    red.wait_until(lambda: int(red.page.locator("#waiting .reveal-left").text_content()) < first,
                   "Red's countdown to go down", timeout=3)

    # Within the grace Blue changes his ballot: stored, and no other phone hears anything of it.
    others = {phone: phone.count("state") for phone in (red, green)}
    acked(blue, {"seat": "blue", "vote": "red"})
    assert time.monotonic() - held_at < GRACE - 1, "the change came too late to test the grace"
    expect(blue.choice({"seat": "blue", "vote": "red"})).to_have_attribute("aria-pressed", "true")
    expect(blue.choice({"seat": "blue", "vote": "blue"})).to_have_attribute("aria-pressed", "false")
    assert {phone: phone.count("state") for phone in (red, green)} == others

    # After the grace, the changed ballot is revealed on every phone; the countdown is gone.
    for phone in (red, blue, green):
        phone.wait_until(lambda phone=phone: (phone.view().get("revealed") or {}).get("ballots")
                         == {"red": "blue", "blue": "red"}, "the reveal", timeout=GRACE + 10)
        expect(phone.page.locator(".revealing")).to_have_count(0)
    assert time.monotonic() - held_at >= GRACE - 0.5  # not before the grace was over
    assert table.call(lambda: table.store.events(table.table.game_id))[-1] == {"answer": {"seat": "blue",
                                                                                          "vote": "red"}}


def test_the_countdown_in_four_languages_on_a_phone(live, phones):
    SHOTS.mkdir(parents=True, exist_ok=True)
    for lang, locale in LOCALES.items():
        table = at_the_ballot(live)
        red = phones(table.seat_url("red"), locale=locale)
        blue = phones(table.seat_url("blue"), locale=locale)
        red.vote("blue")
        blue.vote("blue")
        assert countdown(blue, "#question .revealing.mine", "ui.revealing") >= 1
        assert countdown(red, "#waiting .revealing", "page.revealing") >= 1
        blue.page.screenshot(path=SHOTS / f"{lang}-last-voter.png")
        red.page.screenshot(path=SHOTS / f"{lang}-others.png")
        assert red.lang == blue.lang == lang


def test_a_chip_keeps_its_possessive_on_its_line_at_every_width(live, phones):
    table = live(position=MOVE)
    red = phones(table.seat_url("red"))
    table.answer({"seat": "red", "move": "pinup"})  # "Move Red's Pin-up from 1 Restroom to 6 Supermarket"
    ties = red.page.locator("main .chip-tie")
    red.wait_until(lambda: any(re.search(r"'s$", bare(text)) for text in ties.all_text_contents()),
                   "a chip and its 's on the page")
    for width in range(200, 391, 6):
        red.page.set_viewport_size({"width": width, "height": 844})
        # Each chip with the text after it is one box on one line: the break falls before the chip or after "'s".
        split = red.page.evaluate("""() => [...document.querySelectorAll('main .chip-tie')]
            .filter((tie) => {
              const chip = tie.querySelector('.chip').getBoundingClientRect();
              const range = document.createRange();
              range.selectNodeContents(tie.lastChild);
              const rects = [...range.getClientRects()];
              return rects.some((r) => r.top >= chip.bottom - 1);
            }).map((tie) => tie.textContent)""")
        assert split == [], (width, split)


def test_the_host_page_sets_the_grace_with_a_new_game_and_the_table_keeps_it(live, phones):
    table = live(game=False)
    host = phones(table.host_url, viewport={"width": 1280, "height": 800})
    form = host.page.locator("#newgame")
    grace = form.locator("select#reveal-grace")
    expect(grace.locator("option")).to_have_text([host.say("page.reveal_at_once")] + [
        host.say("page.reveal_seconds", count=n) for n in range(1, 6)])
    expect(grace.locator("option:checked")).to_have_text(host.say("page.reveal_seconds", count=3))
    expect(grace).to_have_accessible_description(host.say("page.reveal_grace_hint"))
    for colour in ("red", "yellow", "blue"):
        form.locator(f".colour-pick[data-colour={colour}]").click()
    grace.select_option("1")
    host.page.locator("#start-game").click()
    expect(host.page.locator("#join .qr-card.seat")).to_have_count(3)
    assert table.call(lambda: table.table.reveal_grace) == 1
    assert table.call(lambda: table.store.setting("reveal_grace")) == 1
    sent = [json.loads(f) for f in host.sent if json.loads(f).get("type") == "new_game"]
    assert sent[-1]["reveal_grace"] == 1
