"""Every player can play: axe-core (WCAG 2.1 A and AA) on the seat page (390×844) and the table's screen
(1280×800) of the four games, in the four languages, in the states a game passes through (a question open, answered,
a secret shown, a revealed ballot, the end), in one Chromium; the seat page reflows at 200 % zoom (195 px wide) and
at 320 px without scrolling sideways (the host page at 640 px), and every control is at least 44×44 px. axe-core is
the one axe-playwright-python ships (no download at test time).

Figures for a person (every rule's nodes per state) are printed, and kept as JSON lines where A11Y_REPORT names a
file; the test fails on any serious or critical node, a sideways scroll or a small target.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest
import test_phone_browser as page
from test_district_z_phone import DICE as DZ_DICE
from test_district_z_phone import GAME as DZ_GAME
from test_host_page import OVER
from test_phone_browser import ROUND, ZOMBIE_DICE, answer_selector

sync_api = pytest.importorskip("playwright.sync_api")
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright",
                                     reason="axe-playwright-python is not installed (sh scripts/setup test)")
expect = sync_api.expect
pytestmark = page.pytestmark
browser, live, phones = page.browser, page.live, page.phones  # one Chromium for the module, many pages

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "tests" / "scripts"
LANGS = ["en", "zh-Hans", "zh-Hant", "vi"]
SEAT = {"width": 390, "height": 844}
HOST = {"width": 1280, "height": 800}
NARROW = [195, 320]  # a 390 px phone at 200 % zoom, and the narrowest phone WCAG's reflow names
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
SERIOUS = {"serious", "critical"}
AXE = axe_playwright.Axe().axe_script


class Audit:
    """What axe and the reflow check found, state by state."""

    def __init__(self, game: str):
        self.game = game
        self.states = 0
        self.found: list[tuple[str, str, str, str, str, int, str]] = []  # where, rule, impact, nodes, first
        self.sideways: list[str] = []
        self.small: list[str] = []

    def axe(self, phone, where: str) -> None:
        if not phone.page.evaluate("typeof window.axe === 'object'"):
            phone.page.evaluate(AXE)
        results = phone.page.evaluate("(options) => axe.run(document, options)", AXE_OPTIONS)
        self.states += 1
        for violation in results["violations"]:
            nodes = violation["nodes"]
            self.found.append((where, violation["id"], violation["impact"] or "", len(nodes),
                               " ".join(nodes[0]["target"]) if nodes else "", nodes[0]["html"][:160] if nodes else ""))

    def reflow(self, phone, where: str, widths: list[int], height: int, restore: dict) -> None:
        for width in widths:
            phone.page.set_viewport_size({"width": width, "height": height})
            wide = phone.page.evaluate("""() => {
                const root = document.documentElement;
                if (root.scrollWidth <= root.clientWidth) return null;
                const out = [];
                for (const node of document.querySelectorAll('body *')) {
                    const box = node.getBoundingClientRect();
                    if (box.width && box.right > root.clientWidth + 0.5 && node.children.length === 0) {
                        out.push(node.tagName + '.' + node.className + ' "' + node.textContent.slice(0, 30) + '"');
                    }
                }
                return root.scrollWidth + ': ' + out.slice(0, 4).join(' | ');
            }""")
            if wide:
                self.sideways.append(f"{where} at {width} px: {wide}")
        phone.page.set_viewport_size(restore)

    def targets(self, phone, where: str) -> None:
        """Every control a finger may need at least 44×44 px (a checkbox by its label, which takes the tap)."""
        small = phone.page.evaluate("""() => {
            const out = [];
            const controls = 'button, select, input:not([type=checkbox]):not([type=radio]), summary, a[href], ' +
                'label.check';
            for (const node of document.querySelectorAll(controls)) {
                const box = node.getBoundingClientRect();
                if (!box.width || !node.checkVisibility()) continue;
                if (box.width < 43.5 || box.height < 43.5) {
                    out.push(node.tagName + '.' + node.className + ' "' + node.textContent.trim().slice(0, 24) +
                        '" ' + Math.round(box.width) + '×' + Math.round(box.height));
                }
            }
            return out;
        }""")
        self.small += [f"{where}: {s}" for s in small]

    def serious(self) -> list:
        return [f for f in self.found if f[2] in SERIOUS]

    def report(self) -> str:
        nodes = Counter()
        for _where, rule, impact, count, _t, _h in self.found:
            nodes[(rule, impact)] += count
        serious_states = len({f[0] for f in self.serious()})
        lines = [f"{self.game}: {self.states} page states, {sum(f[3] for f in self.serious())} serious/critical "
                 f"nodes in {serious_states} states; {len(self.sideways)} states scroll sideways; "
                 f"{len(self.small)} controls under 44×44 px"]
        lines += [f"  {rule} ({impact}): {count} nodes" for (rule, impact), count in sorted(nodes.items())]
        return "\n".join(lines)


def switch(phone, lang: str) -> None:
    phone.page.select_option("#lang", lang)
    phone.lang = lang
    phone.wait_until(lambda: phone.page.evaluate("document.documentElement.lang") == lang, f"the page in {lang}")
    phone.wait_until(lambda: phone.page.locator("#lang-label").text_content() == phone.say("page.language"),
                     "the words")


def check(audit: Audit, state: str, seat, host, prepare=None) -> None:
    """Both pages in the four languages: axe, and the seat page's reflow. `prepare(seat)` opens what the state
    shows (a secret) after each switch of language."""
    for lang in LANGS:
        for phone, name in ((seat, "seat"), (host, "host")):
            if phone is None:
                continue
            switch(phone, lang)
            if prepare and phone is seat:
                prepare(phone)
            where = f"{audit.game} {state} {name} {lang}"
            audit.axe(phone, where)
            audit.targets(phone, where)
            if phone is seat:
                audit.reflow(phone, where, NARROW, SEAT["height"], SEAT)
            else:
                audit.reflow(phone, where, [HOST["width"] // 2], HOST["height"], HOST)


def open_secret(phone) -> None:
    """The seat's first secret, opened by a plain activation (a screen reader's double-tap, a switch)."""
    button = phone.page.locator("#secrets .peek-button").first
    phone.wait_until(lambda: button.count() > 0, "a secret to see")
    if not phone.page.locator(".peek-secret").count():
        button.evaluate("(b) => b.click()")


def corrected(audit: Audit, host) -> None:
    """The table's screen correcting the board (static/host.js): the corrector open on the board's first place with
    a change drafted, in the four languages; then closed again, nothing applied."""
    host.page.locator("#hostnav .nav-link[data-to=correct]").click()
    places = host.page.locator("#correct .edit-place")
    if places.count():
        places.first.click()
        expect(places.first).to_have_attribute("aria-expanded", "true")
    host.page.locator("#correct .edit-fact .step.more:not([aria-disabled]), "
                      "#correct .edit-fact .edit-choice:not(.on)").first.click()
    expect(host.page.locator("#correct .edit-draft li")).to_have_count(1)
    check(audit, "corrector", None, host)
    host.page.locator("#correct-cancel").click()
    expect(host.page.locator("#correct")).to_be_hidden()


def scripted(live, phones, game: str, seat: str):
    """A table for the game's script in tests/scripts/, with `seat`'s phone and the host page: (table, actions, phone,
    host)."""
    script = json.loads((SCRIPTS / f"{game}.json").read_text(encoding="utf-8"))
    table = live(name=game, players=script["players"], options=script["options"])
    return (table, script["actions"], phones(table.seat_url(seat), viewport=SEAT, touch=True),
            phones(table.host_url, viewport=HOST))


def play(table, actions) -> None:
    for action in actions:
        table.answer(action)


def wait_question(phone, step: str | None = None) -> None:
    phone.wait_until(lambda: (phone.asked() or {}).get("step") == step if step else phone.asked(), f"step {step}")
    phone.shows_question()


def finish(audit: Audit) -> None:
    print(audit.report())
    if os.environ.get("A11Y_REPORT"):
        Path(os.environ["A11Y_REPORT"]).open("a").write(json.dumps({"game": audit.game, "states": audit.states,
                                                                    "found": audit.found,
                                                                    "sideways": audit.sideways,
                                                                    "small": audit.small}) + "\n")
    assert not audit.serious(), "\n".join(map(str, audit.serious()[:20]))
    assert not audit.sideways, "\n".join(audit.sideways[:20])
    assert not audit.small, "\n".join(audit.small[:20])


def test_mall_of_horror_pages_pass_axe_and_reflow(live, phones):
    audit = Audit("mall-of-horror")
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red = phones(table.seat_url("red"), viewport=SEAT, touch=True)
    host = phones(table.host_url, viewport=HOST)
    wait_question(red, "vote")
    check(audit, "question", red, host)
    corrected(audit, host)
    red.answer({"seat": "red", "vote": "blue"})
    check(audit, "answered", red, host)
    check(audit, "secret", red, None, prepare=open_secret)
    table.answer({"seat": "blue", "vote": "blue"})
    red.wait_until(lambda: red.view().get("revealed"), "the reveal")
    check(audit, "revealed", red, host)
    over = live(position=OVER)
    red, host = phones(over.seat_url("red"), viewport=SEAT, touch=True), phones(over.host_url, viewport=HOST)
    red.wait_until(lambda: red.view().get("over") is True, "the end")
    check(audit, "end", red, host)
    finish(audit)


def test_eaten_by_zombies_pages_pass_axe_and_reflow(live, phones):
    audit = Audit("eaten-by-zombies")
    table, actions, blue, host = scripted(live, phones, "eaten-by-zombies", "blue")
    play(table, actions[:14])
    wait_question(blue, "flip")
    check(audit, "pick", blue, host)
    corrected(audit, host)
    play(table, actions[14:17])
    wait_question(blue, "value")
    check(audit, "number", blue, host)
    play(table, actions[17:35])
    wait_question(blue, "zlevel")
    blue.wait_until(lambda: blue.view().get("secrets"), "the zombie player's hand")
    check(audit, "zombie-player", blue, host)
    check(audit, "secret", blue, None, prepare=open_secret)
    play(table, actions[35:])
    blue.wait_until(lambda: blue.view().get("over") is True, "the end")
    check(audit, "end", blue, host)
    finish(audit)


def test_zombiegeddon_pages_pass_axe_and_reflow(live, phones):
    audit = Audit("zombiegeddon")
    table, actions, red, host = scripted(live, phones, "zombiegeddon", "red")
    wait_question(red, "pre")
    check(audit, "question", red, host)
    corrected(audit, host)
    play(table, actions[:11])
    wait_question(red)
    ending = red.choice({"seat": "red", "act": "phase_end"})
    ending.click()
    expect(ending).to_have_attribute("data-armed", "true")
    check(audit, "armed", red, host)
    expect(ending).to_have_attribute("data-armed", "true")
    expect(ending).to_be_enabled()
    acks = red.count("ack")
    ending.click()  # the second tap, on the answer armed
    red.wait_until(lambda: red.count("ack") > acks, "the end of pre-bomb sent")
    wait_question(red, "largest")
    red.page.locator("#question input.number").fill("4")
    red.answer({"seat": "red", "largest": 4})
    check(audit, "answered", red, host)
    check(audit, "secret", red, None, prepare=open_secret)
    play(table, actions[13:17])
    host.wait_until(lambda: host.view().get("starter"), "the largest discs revealed")
    check(audit, "revealed", red, host)
    play(table, actions[17:29])
    wait_question(red, "sheet")
    check(audit, "sheet", red, host)
    play(table, actions[29:])
    red.wait_until(lambda: red.view().get("over") is True, "the end")
    check(audit, "end", red, host)
    finish(audit)


def test_district_z_pages_pass_axe_and_reflow(live, phones):
    audit = Audit("district-z")
    table = live(name="district-z", players=["red", "blue"], options={"grid": "4x4"}, scripted=DZ_DICE)
    red = phones(table.seat_url("red"), viewport=SEAT, touch=True)
    host = phones(table.host_url, viewport=HOST)
    actions = [{"seat": seat, **fields} for seat, fields in DZ_GAME]
    wait_question(red)
    check(audit, "corner", red, host)
    play(table, actions[:2])
    wait_question(red)
    check(audit, "number", red, host)
    corrected(audit, host)
    rest = actions[2:]
    while table.call(lambda: (table.table.question("red") or SimpleNamespace(kind=None)).kind) != "assign":
        table.answer(rest.pop(0))  # up to the first fight's dice, paired in the assignment's selects
    wait_question(red)
    check(audit, "assign", red, host)
    play(table, rest)
    red.wait_until(lambda: red.view().get("over") is True, "the end")
    check(audit, "end", red, host)
    finish(audit)


def test_the_board_corrector_of_a_game_only_the_tests_know_passes_axe_and_reflow(lucky_die, live, phones):
    audit = Audit("lucky-die")
    table = live(name="lucky-die", players=["red", "blue"])
    table.answer({"seat": "red", "give": {"sun": "red", "moon": "blue"}})
    host = phones(table.host_url, viewport=HOST)
    host.wait_until(lambda: host.states() and host.states()[-1]["host"]["edits"], "the facts the table may correct")
    corrected(audit, host)
    finish(audit)


__all__ = ["answer_selector"]
