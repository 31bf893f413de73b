"""The table's screen in Chromium (the host link on a laptop or a TV): the board first and whole, the rest below.

Every host screen (no game yet, seats to join, a ballot, a card window with an answer for a missing phone, the
move, a revealed ballot, the undo confirmation, the end) in the four languages at 800×480 and 1280×800: the six
locations inside the first screen above the bar of links, nothing of the controls above the board, each control
one tap away (the bar scrolls to it), nothing scrolls sideways, no text overflows its box, no English left in
Chinese or Vietnamese, and every character drawn by a font the page names for its language (fontTools' cmap of
the files fontconfig gives for those families: no tofu). Screenshots in tests/screenshots/host/<lang>/.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache

import pytest
import test_phone_browser as page
from test_phone_browser import ATTACK, MOVE, NO_CARDS, ROUND, SCREENSHOTS, ZOMBIE_DICE, english_left

from companion.catalogue import LANGUAGES

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
pytestmark = page.pytestmark
browser, live, phones = page.browser, page.live, page.phones  # one Chromium for the module, many pages

SIZES = {"800x480": {"width": 800, "height": 480}, "1280x800": {"width": 1280, "height": 800}}
LANGS = ["en", "zh-Hans", "zh-Hant", "vi"]
# The last attack: Red's Pin-up alone against 2 zombies in the Restroom is eaten; 4 characters live: rescue.
OVER = {"round": 5, "phase": "attack", "chief": "blue", "hands": NO_CARDS, "deck": 3,
        "characters": {"red": {"pinup": 1}, "blue": {"pinup": 3, "tough": 6}, "yellow": {"gunman": 6},
                       "green": {"tough": 3}}, "zombies": {"1": 2},
        "destinations": {"red": 1, "blue": 3, "yellow": 6, "green": 3}}


@cache
def font_file(family: str) -> tuple[str, int] | None:
    """The font file fontconfig gives for `family`, if it is that family (not a stand-in)."""
    out = subprocess.run(["fc-match", "-f", "%{family}\t%{file}\t%{index}", family], capture_output=True, text=True)
    names, _, rest = out.stdout.partition("\t")
    path, _, index = rest.partition("\t")
    if family.lower() not in [n.strip().lower() for n in names.split(",")]:
        return None
    return path, int(index or 0)


@cache
def covered(family: str) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    found = font_file(family)
    if not found:
        return frozenset()
    path, index = found
    return frozenset(TTFont(path, fontNumber=index, lazy=True).getBestCmap())


def tofu(text: str, families: str) -> set[str]:
    """The characters of `text` that no installed font of the page's font-family list has."""
    names = [f.strip().strip('"') for f in families.split(",")]
    known = frozenset().union(*(covered(n) for n in names if n not in ("sans-serif", "system-ui")))
    return {ch for ch in text if not ch.isspace() and ord(ch) not in known}


PROBLEMS = """() => {
    const out = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) out.push('scrolls sideways: ' + root.scrollWidth);
    for (const node of document.querySelectorAll('main *, header *')) {
        if (!node.offsetParent || node.clientWidth <= 1 || node.matches('select, option, img, svg, code')) continue;
        if (node.scrollWidth > node.clientWidth + 1) {
            out.push('overflows: ' + node.tagName + '.' + node.className + ' "' + node.textContent.slice(0, 40) +
                '" ' + node.scrollWidth + ' > ' + node.clientWidth);
        }
    }
    return out;
}"""

LAYOUT = """() => {
    const board = document.getElementById('board');
    const nav = document.getElementById('hostnav');
    const out = {};
    const bar = nav.getBoundingClientRect();
    out.bar = [bar.top, bar.bottom];
    if (!board.hidden && board.querySelector('.location')) {
        const b = board.getBoundingClientRect();
        out.board = [b.top, b.bottom, b.left, b.right];
        out.locations = [...board.querySelectorAll('.location')].map((n) => {
            const r = n.getBoundingClientRect();
            return [r.top, r.bottom, r.left, r.right];
        });
        out.above = [...document.querySelectorAll('#host, #join, #newgame, #narration, #waiting, #revealed, #fairness')]
            .filter((n) => !n.hidden && n.getBoundingClientRect().top + window.scrollY <
                b.top + window.scrollY).map((n) => n.id);
    }
    return out;
}"""


def check_screen(host, name: str) -> None:
    """In every language and both sizes: layout, overflow, words and glyphs; a screenshot of each."""
    for lang in LANGS:
        host.page.select_option("#lang", lang)
        host.lang = lang
        host.wait_until(lambda lang=lang: host.page.evaluate("document.documentElement.lang") == lang, "the language")
        host.wait_until(lambda: host.page.locator("#lang-label").text_content() == host.say("page.language"),
                        "the words")
        for size, viewport in SIZES.items():
            host.page.set_viewport_size(viewport)
            host.page.evaluate("window.scrollTo(0, 0)")
            folder = SCREENSHOTS / "host" / lang
            host.page.screenshot(path=folder / f"{size}-{name}.png")
            where = f"{name} in {lang} at {size}"
            problems = host.page.evaluate(PROBLEMS)
            assert not problems, f"{where}: {problems[:8]}"
            layout = host.page.evaluate(LAYOUT)
            bar_top, bar_bottom = layout["bar"]
            assert bar_bottom <= viewport["height"] + 0.5, f"{where}: the bar of links is off the screen"
            if "board" in layout:
                top, bottom, left, right = layout["board"]
                assert top >= 0 and left >= 0 and right <= viewport["width"], (where, layout["board"])
                assert len(layout["locations"]) == 6
                for loc_top, loc_bottom, _, loc_right in layout["locations"]:
                    assert loc_top >= 0 and loc_bottom <= bar_top + 0.5 and loc_right <= viewport["width"], (
                        f"{where}: a location is not on the first screen", layout)
                assert layout["above"] == [], f"{where}: {layout['above']} above the board"
            text = host.page.evaluate("document.body.innerText")
            faces = host.page.evaluate("getComputedStyle(document.body).fontFamily")
            missing = tofu(text, faces)
            assert not missing, f"{where}: no glyph in {faces} for {sorted(missing)}"
            if lang != "en":
                bare = re.sub(r"https?://\S+|[0-9a-f]{12,}|TableNet", " ", text)  # links, codes, the Wi-Fi's name
                for language_name in LANGUAGES.values():
                    bare = bare.replace(language_name, " ")
                left = english_left(bare, lang)
                assert not left, f"{where}: English left: {left[:10]}"
        # The controls, one tap away: the bar's first link brings them onto the screen.
        link = host.page.locator("#hostnav .nav-link").first
        target = host.page.locator("#" + link.get_attribute("data-to"))
        link.click()
        host.wait_until(lambda target=target, high=viewport["height"]: target.bounding_box()["y"] < high / 2,
                        "the controls on screen")
        host.page.screenshot(path=SCREENSHOTS / "host" / lang / f"{size}-{name}-controls.png")


@pytest.fixture(scope="module", autouse=True)
def fresh_folders():
    shutil.rmtree(SCREENSHOTS / "host", ignore_errors=True)
    for lang in LANGS:
        (SCREENSHOTS / "host" / lang).mkdir(parents=True, exist_ok=True)


def test_host_screens_before_and_during_a_round(live, phones):
    empty = live(game=False)
    host = phones(empty.host_url, viewport=SIZES["800x480"])
    expect(host.page.locator("#newgame h2")).to_be_visible()
    check_screen(host, "1-new-game")
    host.close()

    table = live(position=ROUND, scripted=[ZOMBIE_DICE], wifi=("TableNet", "zombies!"))
    host = phones(table.host_url, viewport=SIZES["800x480"])
    expect(host.page.locator("#join .qr-card.seat")).to_have_count(4)
    check_screen(host, "2-ballot-phones-to-join")
    host.page.locator("#hostnav .nav-link[data-to=host]").click()
    host.page.locator("#host .seat-pick[data-seat=red]").click()
    host.page.locator("#host .answer-for " + page.answer_selector({"seat": "red", "vote": "blue"})).click()
    table.answer({"seat": "blue", "vote": "blue"})  # Blue is elected: the revealed ballot
    expect(host.page.locator("#revealed h2")).to_be_visible()
    check_screen(host, "4-revealed-ballot")


def test_host_screens_of_cards_moves_and_the_end(live, phones):
    table = live(position={**ATTACK, "hands": {**NO_CARDS, "red": 1}})
    host = phones(table.host_url, viewport=SIZES["800x480"])
    host.page.locator("#hostnav .nav-link[data-to=host]").click()
    host.page.locator("#host .answer-for button.play-card").click()
    check_screen(host, "5-card-window")

    table = live(position=MOVE)
    host = phones(table.host_url, viewport=SIZES["800x480"])
    check_screen(host, "6-move")
    table.answer({"seat": "red", "move": "pinup"})  # a public answer: it may be taken back, after a confirmation
    host.page.locator("#hostnav .nav-link[data-to=host]").click()
    host.page.locator("#undo").click()
    expect(host.page.locator("#host .confirm")).to_be_visible()
    check_screen(host, "3-undo-confirm")

    table = live(position=OVER)
    host = phones(table.host_url, viewport=SIZES["800x480"])
    host.wait_until(lambda: host.view().get("over") is True, "the end")
    expect(host.page.locator("#over .scores")).to_be_visible()
    check_screen(host, "7-the-end")

