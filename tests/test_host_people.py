"""The people's names from the table's screen (the host page in Chromium): the new-game form has an optional name per
chosen seat (a labelled field of at most names.MAX_NAME characters, offering the names used before); what is typed
reaches the table with the new game, and every page names the seats with it; a name the table refuses is said in the
form's error line, in the host's language, and starts nothing. The protocol carries "names" as an object of short
text, and refuses anything else in a line of the catalogue.

Screenshots of the form with names (1280×800 and 390×844, four languages) go to $HOST_SHOTS or
tests/screenshots/host-people/.
"""

from __future__ import annotations

import asyncio
import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import aiohttp
import pytest
import test_phone_browser as page
from test_host_page import PROBLEMS
from test_phone_browser import SCREENSHOTS, bare, english_left

from companion.catalogue import catalogue
from companion.contract import Message
from companion.names import MAX_NAME
from companion.web import protocol

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
pytestmark = page.pytestmark
browser, live, phones = page.browser, page.live, page.phones  # one Chromium for the module, many pages

WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
LANGS = ["en", "zh-Hans", "zh-Hant", "vi"]
SHOTS = Path(os.environ.get("HOST_SHOTS") or SCREENSHOTS / "host-people")
GAME = "mall-of-horror"  # the registry's first game: the form's own choice with no game on the table
TRAP = "window.f = () => { window.pwned = (window.pwned || 0) + 1; };"


def said(key: str, lang: str = "en", **params) -> str:
    return catalogue().text(Message(key, params), lang)


def pick(host, *colours: str) -> None:
    for colour in colours:
        host.page.locator(f"#newgame .colour-pick[data-colour={colour}]").click()
    expect(host.page.locator("#newgame input.person-name")).to_have_count(len(colours))


def new_games(host) -> list[dict]:
    return [m for m in map(json.loads, host.sent) if m.get("type") == "new_game"]


def names_of(phone, scope: str, seat: str) -> set[str]:
    return {" ".join(bare(t).split()) for t in phone.page.locator(f"{scope} .chip[data-colour={seat}] .name")
            .all_text_contents()}


def test_names_typed_on_the_form_reach_the_table_and_every_page_names_the_seats_with_them(live, phones):
    table = live(game=False)
    host = phones(table.host_url, viewport=WIDE, init_script=TRAP)
    expect(host.page.locator("#newgame h2")).to_be_visible()
    pick(host, "red", "blue", "yellow")
    # A labelled field per seat, in seating order, at most MAX_NAME characters, nothing filled in by the browser.
    fields = host.page.locator("#newgame input.person-name")
    assert [f.get_attribute("data-seat") for f in fields.all()] == ["red", "blue", "yellow"]
    for field in fields.all():
        assert field.get_attribute("maxlength") == str(MAX_NAME) and field.get_attribute("autocomplete") == "off"
        assert field.get_attribute("type") == "text"
    expect(host.page.get_by_label(said("names.field", seat="blue"))).to_have_attribute("data-seat", "blue")
    host.page.locator("#name-red").fill("  Anna ")
    host.page.locator("#name-blue").fill("<b>Bảo</b>")
    host.page.locator("#start-game").click()

    host.wait_until(lambda: table.call(lambda: table.table.names) == {"red": "Anna", "blue": "<b>Bảo</b>"},
                    "the names at the table")
    assert new_games(host)[-1]["names"] == {"red": "  Anna ", "blue": "<b>Bảo</b>"}  # as typed: the table trims
    record = table.call(lambda: table.store.game(table.table.game_id))
    assert dict(record.names) == {"red": "Anna", "blue": "<b>Bảo</b>"} and record.players == ("red", "blue", "yellow")

    # The host's own board names the seats; the form closed behind the new game, and no markup was made of a name.
    host.wait_until(lambda: names_of(host, "#board", "blue") == {"<b>Bảo</b> (Blue)"}, "the host's board")
    assert names_of(host, "#board", "yellow") == {"Yellow"}
    expect(host.page.locator("#newgame details")).not_to_have_attribute("open", "")
    assert host.page.locator("main b").count() == 0 and host.page.evaluate("window.pwned || 0") == 0

    # The seats' new links: each phone says who it is with the name typed on the form.
    host.wait_until(lambda: set((host.states()[-1].get("host") or {}).get("seats", {})) == {"red", "blue", "yellow"},
                    "the new seats' links")
    red = phones(table.seat_url("red"))
    expect(red.page.locator("#who .chip .name")).to_have_text("Anna (Red)")
    blue = phones(table.seat_url("blue"), locale="zh-TW")
    expect(blue.page.locator("#who .chip .name")).to_have_text("<b>Bảo</b>（藍）")
    red.wait_until(lambda: names_of(red, "#board", "blue") == {"<b>Bảo</b> (Blue)"}, "Blue's name on Red's phone")
    assert blue.page.locator("main b, header b").count() == 0


def test_a_name_the_table_refuses_is_said_in_the_forms_error_line_and_starts_nothing(live, phones):
    table = live(game=False)
    host = phones(table.host_url, viewport=WIDE, locale="vi-VN")
    pick(host, "red", "blue", "yellow")
    host.page.locator("#name-red").fill("Anna")
    host.page.locator("#name-blue").fill("ANNA")
    host.page.locator("#start-game").click()
    refusal = said("names.twice", "vi", seat="blue", to_seat="red", name="ANNA")
    expect(host.page.locator("#error .error-text")).to_have_text(said("page.refused", "vi", message=refusal))
    assert table.call(lambda: table.table.state) is None  # nothing started, nothing stored
    assert table.call(lambda: table.store.unfinished()) is None
    expect(host.page.locator("#name-blue")).to_have_value("ANNA")  # the form keeps what was typed

    # A browser that ignores maxlength (or a name pasted by a script) sends a longer one: the table says so.
    host.page.locator("#name-blue").evaluate("(field) => field.removeAttribute('maxlength')")
    host.page.locator("#name-blue").fill("B" * (MAX_NAME + 1))
    host.page.locator("#start-game").click()
    refusal = said("names.too_long", "vi", seat="blue", most=MAX_NAME, count=MAX_NAME + 1)
    expect(host.page.locator("#error .error-text")).to_have_text(said("page.refused", "vi", message=refusal))
    assert table.call(lambda: table.table.state) is None

    # A character that cannot be shown (a zero-width space): refused too, in one line.
    host.page.locator("#name-blue").fill("Bảo\u200b")
    host.page.locator("#start-game").click()
    refusal = said("names.control", "vi", seat="blue")
    expect(host.page.locator("#error .error-text")).to_have_text(said("page.refused", "vi", message=refusal))
    assert table.call(lambda: table.table.state) is None

    host.page.locator("#name-blue").fill("Bảo")
    host.page.locator("#start-game").click()
    expect(host.page.locator("#error")).to_be_hidden()
    host.wait_until(lambda: table.call(lambda: table.table.names) == {"red": "Anna", "blue": "Bảo"}, "the game")


def test_the_names_used_before_are_offered_latest_first(live, phones):
    table = live(game=False)
    seats = ["red", "blue", "yellow"]
    table.call(lambda: table.table.new_game(GAME, seats, {}, names={"red": "Anna", "blue": "Bảo"}))
    table.call(lambda: table.table.new_game(GAME, seats, {}, names={"yellow": "Chi", "red": "anna"}))
    used = table.call(lambda: table.store.names_used())
    assert used == ["anna", "Chi", "Bảo"]  # the latest game's first (in seating order), each once
    host = phones(table.host_url, viewport=WIDE)
    host.wait_until(lambda: host.states() and host.states()[-1]["host"].get("names_used") == used, "names_used")
    host.page.locator("#newgame summary").click()
    pick(host, "green", "purple", "black")
    options = host.page.locator("#newgame datalist#names-used option")
    assert [o.get_attribute("value") for o in options.all()] == used
    assert host.page.locator("#name-green").get_attribute("list") == "names-used"
    # The form's seats are the new game's: named by their colours alone, whatever this game's people are called.
    labels = [" ".join(bare(t).split()) for t in host.page.locator("#newgame .name-label").all_text_contents()]
    assert labels == [said("names.field", seat=seat) for seat in ("green", "purple", "black")]
    # The table's own board still names this game's people.
    assert names_of(host, "#board", "red") == {"anna (Red)"}


def test_the_protocol_carries_names_as_an_object_of_short_text_and_refuses_anything_else(live):
    def parse(names) -> dict:
        return protocol.parse(json.dumps({"v": 1, "type": "new_game", "game": GAME, "players": ["red", "blue"],
                                          "names": names}), "host")

    assert parse({"red": "Anna", "blue": None})["names"] == {"red": "Anna", "blue": None}
    assert parse({})["names"] == {} and parse(None)["names"] is None
    assert parse({"red": "x" * protocol.MAX_PERSON})  # long, yet the table's to refuse (names.too_long)
    for bad in (["Anna"], "Anna", {"red": 3}, {"red": ["Anna"]}, {"red": "x" * (protocol.MAX_PERSON + 1)},
                {"": "Anna"}, {"x" * 41: "Anna"}, {f"s{i}": "A" for i in range(21)}):
        with pytest.raises(protocol.BadMessage) as refused:
            parse(bad)
        assert refused.value.kind == "bad_names"

    # Over the host's socket: a coded refusal with the catalogue's line in the host's language, nothing started.
    table = live(game=False)

    async def send() -> dict:
        async with aiohttp.ClientSession() as session, session.ws_connect(
                table.server.url(f"/ws/{table.server.tokens.host}?lang=zh-Hant")) as ws:
            await ws.send_str(json.dumps({"v": 1, "type": "new_game", "game": GAME,
                                          "players": ["red", "blue", "yellow"], "names": ["Anna"]}))
            async for message in ws:
                data = json.loads(message.data)
                if data["type"] == "error":
                    return data
        raise AssertionError("no answer")

    with ThreadPoolExecutor(1) as aside:  # Playwright's loop runs in this thread: the socket's on another
        error = aside.submit(asyncio.run, send()).result(30)
    assert error["code"] == "bad_names" and error["message"] == said("protocol.bad_names", "zh-Hant")
    assert table.call(lambda: table.table.state) is None


def test_the_form_with_names_in_four_languages_and_two_sizes(live, phones):
    SHOTS.mkdir(parents=True, exist_ok=True)
    table = live(game=False)
    table.call(lambda: table.table.new_game(GAME, ["red", "blue", "yellow"], {}, names={"red": "Anna", "blue": "Bảo"}))
    host = phones(table.host_url, viewport=WIDE)
    host.page.locator("#newgame summary").click()
    pick(host, "red", "yellow", "blue")
    host.page.locator("#name-red").fill("Anna")
    host.page.locator("#name-yellow").fill("Charlotte-Élise Roux")
    host.page.locator("#name-blue").fill("小明")
    for lang in LANGS:
        host.page.select_option("#lang", lang)
        host.lang = lang
        host.wait_until(lambda lang=lang: host.page.locator("#newgame legend").text_content() == said("names.label",
                                                                                                       lang), lang)
        # What was typed stays in the fields when the page speaks another language.
        expect(host.page.locator("#name-yellow")).to_have_value("Charlotte-Élise Roux")
        for size, viewport in (("1280x800", WIDE), ("390x844", PHONE)):
            host.page.set_viewport_size(viewport)
            form = host.page.locator("#newgame")
            form.scroll_into_view_if_needed()
            form.screenshot(path=SHOTS / f"newgame-{lang}-{size}.png")
            problems = host.page.evaluate(PROBLEMS)
            assert not problems, (lang, size, problems[:6])
            boxes = host.page.evaluate("""() => [...document.querySelectorAll('#newgame input.person-name')]
                .map((n) => { const b = n.getBoundingClientRect(); return [b.width, b.height, b.right]; })""")
            assert all(w >= 120 and h >= 43.5 and right <= viewport["width"] for w, h, right in boxes), (lang, boxes)
            if lang != "en":
                text = form.inner_text()
                for name in ("Mall of Horror",):
                    text = text.replace(name, " ")
                assert not english_left(text, lang), (lang, english_left(text, lang)[:10])
        host.page.set_viewport_size(WIDE)
