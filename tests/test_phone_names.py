"""The people's names on the phones and the table's screen (Chromium): where a seat was given a name at the new game,
every seat the page draws reads as the catalogue says it ("Anna (Red)": colour.named), the seat's own page too ("You
are …"); and a name is text only: markup in a name (HTML, a script, Kivy's [b]) shows as typed and makes no element,
runs nothing.

A Mall of Horror game is started at the table with four names, three of them hostile; the seat's phone, a
spectator and the host page are read as a player reads them.
"""

from __future__ import annotations

import re

import pytest
import test_phone_browser as page
from test_phone_browser import bare

from companion.catalogue import catalogue
from companion.contract import Message

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
pytestmark = page.pytestmark
browser, live, phones = page.browser, page.live, page.phones  # one Chromium for the module, many pages

WIDE = {"width": 1280, "height": 800}
# Each at most names.MAX_NAME characters: an image whose error calls f, a script calling f, Kivy's markup, a name.
NAMES = {"red": "<img src onerror=f>", "blue": "<script>f()</script>", "yellow": "[b]x[/b]", "green": "Anna"}
# What would run if a name were read as markup: it leaves a mark the test reads.
TRAP = "window.f = () => { window.pwned = (window.pwned || 0) + 1; }; window.alert = window.f;"
LANGS = ["en", "zh-Hans", "zh-Hant", "vi"]


def named(seat: str, lang: str = "en") -> str:
    """A seat as the catalogue says it with its person's name, in Python."""
    return catalogue().seat(seat, lang, NAMES)


def no_markup_ran(phone) -> None:
    """Nothing of any name became an element or ran: no image, no script of a name, no bold, no mark of f."""
    assert phone.page.evaluate("window.pwned || 0") == 0
    assert phone.page.locator("main img:not(.qr), header img").count() == 0
    assert phone.page.locator("main script, header script, main b, header b").count() == 0
    scripts = phone.page.evaluate("[...document.scripts].map((s) => s.getAttribute('src'))")
    assert all(src and src.startswith("/static/") for src in scripts), scripts


def chips(phone, scopes: str, seat: str) -> list[str]:
    """The names of `seat`'s chips within the page's `scopes` (CSS selectors, comma-separated)."""
    selector = ", ".join(f"{scope.strip()} .chip[data-colour={seat}] .name" for scope in scopes.split(","))
    return [" ".join(bare(text).split()) for text in phone.page.locator(selector).all_text_contents()]


@pytest.fixture
def table(live):
    table = live(game=False)
    table.call(lambda: table.table.new_game("mall-of-horror", list(NAMES), {}, names=NAMES))
    return table


def test_a_seats_own_page_says_you_are_its_person_and_names_every_seat_beside_its_colour(table, phones):
    red = phones(table.seat_url("red"), init_script=TRAP)
    green = phones(table.seat_url("green"), init_script=TRAP, locale="zh-CN")
    red.wait_until(lambda: red.view().get("names") == NAMES, "the names in the view")

    # "You are ● <img src onerror=f> (Red)": the name as typed, a text node beside the colour.
    expect(red.page.locator("#who .chip .name")).to_have_text(named("red"))
    expect(red.page.locator("#who")).to_have_text(re.compile(re.escape(red.say("page.you_are")) + r"\s*●\s*" +
                                                             re.escape(named("red"))))
    expect(green.page.locator("#who .chip .name")).to_have_text(named("green", "zh-Hans"))
    assert named("green", "zh-Hans") == "Anna（绿）"

    # Every seat the board and the narration draw reads with its name, in the phone's language.
    for phone in (red, green):
        phone.wait_until(lambda phone=phone: phone.page.locator("#board .chip").count() > 0, "the board's seats")
        for seat in NAMES:
            shown = chips(phone, "#board, #waiting, #narration, #question", seat)
            assert shown and set(shown) == {named(seat, phone.lang)}, (seat, shown)
        # A sentence (the question, or what the table waits for) names the seats as the catalogue does, in Python.
        asked = phone.asked()
        title, where = ((asked["title"], "#question .question-title") if asked
                        else (phone.view()["prompt"]["title"], "#waiting .prompt-title"))
        said = catalogue().text(Message(title["key"], title["params"]), phone.lang, NAMES)
        assert any(named(seat, phone.lang) in said for seat in NAMES), said
        phone.shows_said(phone.page.locator(where), said, "the sentence with its names")
        no_markup_ran(phone)


def test_the_host_page_and_a_spectator_name_every_seat_and_markup_in_a_name_stays_text(table, phones):
    host = phones(table.host_url, viewport=WIDE, init_script=TRAP)
    spectator = phones(table.spectator_url, init_script=TRAP, locale="vi-VN")
    for phone in (host, spectator):
        phone.wait_until(lambda phone=phone: phone.page.locator("#board .chip").count() > 0, "the board's seats")
        for seat in NAMES:
            shown = chips(phone, "#board", seat)
            assert shown and set(shown) == {named(seat, phone.lang)}, (seat, shown)
        no_markup_ran(phone)
    # The host's list of phones and its QR codes name the people too (the QR's text alternative as well).
    for seat in NAMES:
        assert set(chips(host, "#host .phones, #join", seat)) == {named(seat)}
        alt = host.page.locator(f"#join .qr-card.seat[data-seat={seat}] img.qr").get_attribute("alt")
        assert alt == host.say("page.seat_qr") + " " + named(seat)
    # The page in every language: the name stays as typed, the colour follows the language.
    for lang in LANGS:
        host.page.select_option("#lang", lang)
        host.lang = lang
        host.wait_until(lambda lang=lang: chips(host, "#board", "yellow")[:1] == [named("yellow", lang)],
                        f"the names in {lang}")
        assert "[b]x[/b]" in named("yellow", lang)
        no_markup_ran(host)


def test_a_seat_with_no_name_is_its_colour_alone(live, phones):
    table = live(game=False)
    table.call(lambda: table.table.new_game("mall-of-horror", ["red", "blue", "yellow"], {}, names={"blue": "Bảo"}))
    red = phones(table.seat_url("red"))
    expect(red.page.locator("#who .chip .name")).to_have_text(red.say("colour.red"))
    red.wait_until(lambda: red.page.locator("#board .chip[data-colour=blue]").count() > 0, "the board's seats")
    assert set(chips(red, "#board", "blue")) == {"Bảo (Blue)"}
    assert set(chips(red, "#board", "red")) == {"Red"}
    # A new game with other names: the page names the new game's people only.
    table.call(lambda: table.table.new_game("mall-of-horror", ["red", "blue", "yellow"], {}, names={"red": "Chi"}))
    red = phones(table.seat_url("red"))
    expect(red.page.locator("#who .chip .name")).to_have_text("Chi (Red)")
    red.wait_until(lambda: set(chips(red, "#board", "blue")) == {"Blue"}, "Blue without a name")
