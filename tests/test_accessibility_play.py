"""Playing by ear, by switch, by keyboard: the seat page in Chromium as a blind or switch-access player uses it.

A plain activation (a screen reader's double-tap, a switch, Enter: a click with no held pointer) opens the player's
own secret in every game that has one, says it once in this phone's own voice (#say, a polite live region), and
closes it again on a second activation or after a while, leaving nothing of it in the page; a short tap opens it
too, a hold still shows it only while held. The chosen answer is pressed (aria-pressed) and said; the focus stays
on the answer through every redraw and the "Sure? Tap again" confirmation, or goes to the new question, never to the
top of the page. One polite announcement per new question, none on a redraw. District-Z's survivors and target
corners have names.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import test_phone_browser as page
from test_district_z_phone import DICE as DZ_DICE
from test_phone_browser import ROUND, ZOMBIE_DICE, answer_selector, said

from companion.catalogue import catalogue
from companion.contract import Message

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
pytestmark = page.pytestmark
browser, live, phones = page.browser, page.live, page.phones  # one Chromium for the module, many pages

SCRIPTS = Path(__file__).resolve().parent / "scripts"
SEAT = {"width": 390, "height": 844}
OPEN_FOR_MS = 10_000  # how long a secret opened by a plain activation stays (app.js OPEN_FOR)
# Everything this phone's own voice says, as it says it.
LISTEN = """
window.__said = [];
document.addEventListener('DOMContentLoaded', () => {
  const voice = document.getElementById('say');
  new MutationObserver(() => {
    const text = voice.innerText.replace(/\\s+/g, ' ').trim();
    if (text) window.__said.push(text);
  }).observe(voice, { childList: true, characterData: true, subtree: true });
});
"""
SPOKEN = """(node) => {
  const copy = node.cloneNode(true);
  for (const hidden of copy.querySelectorAll('[aria-hidden=true]')) hidden.remove();
  for (const piece of copy.querySelectorAll('*')) piece.after(' ');
  return copy.textContent.replace(/\\s+/g, ' ').trim();
}"""


SPOKEN_PAGE = "() => (" + SPOKEN + ")(document.body)"


def listening(phones, url: str, **kwargs):
    return phones(url, init_script=LISTEN, viewport=SEAT, touch=True, **kwargs)


def voice(phone) -> list[str]:
    return phone.page.evaluate("window.__said")


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def hears(phone, text: str, what: str) -> None:
    phone.wait_until(lambda: any(squeezed(text) in squeezed(s) for s in voice(phone)), f"{what}: {text!r} said")


def script(name: str) -> dict:
    return json.loads((SCRIPTS / f"{name}.json").read_text(encoding="utf-8"))


def focused(phone) -> dict:
    return phone.page.evaluate("""() => {
        const node = document.activeElement;
        return { tag: node.tagName, answer: node.dataset.answer || null, armed: node.dataset.armed || null,
                 inQuestion: !!node.closest('#question'), classes: node.className, id: node.id };
    }""")


def press(phone, locator, key: str = "Enter") -> None:
    """A keyboard's or a switch's press on a control (it has the focus, nothing is held)."""
    locator.focus()
    phone.page.keyboard.press(key)


def answered(phone, before: int) -> None:
    phone.wait_until(lambda: phone.count("ack") > before, "the table's ack")


def you_chose(phone, label) -> str:
    return said({"key": "page.you_chose", "params": {"choice": label}}, phone.lang)


# -- 1. a secret for every way of pressing ------------------------------------------------------------------------


def opens_and_closes(phone, button_selector: str) -> str:
    """A plain activation opens the secret and says it once; a second one takes it out of the page again."""
    button = phone.page.locator(button_selector)
    secret = phone.page.locator(".peek-secret")
    expect(secret).to_have_count(0)
    expect(button).to_have_attribute("aria-expanded", "false")
    button.evaluate("(b) => b.click()")  # a click alone: no pointer down, no key (a screen reader, a switch)
    expect(secret).to_have_count(1)
    expect(secret).to_be_visible()
    expect(button).to_have_attribute("aria-expanded", "true")
    text = secret.evaluate(SPOKEN)
    assert text, "an empty secret"
    hears(phone, text, "the secret")
    phone.page.wait_for_timeout(200)
    assert sum(squeezed(text) in squeezed(s) for s in voice(phone)) == 1, ("said more than once", voice(phone))
    button.evaluate("(b) => b.click()")  # activated again: gone
    expect(secret).to_have_count(0)
    expect(button).to_have_attribute("aria-expanded", "false")
    assert squeezed(text) not in squeezed(phone.page.evaluate(SPOKEN_PAGE)), "the secret left in the page"

    # Enter (a keyboard, a switch's "select"): open, and Enter again: closed.
    press(phone, button)
    expect(secret).to_have_count(1)
    phone.page.keyboard.press("Enter")
    expect(secret).to_have_count(0)
    # A short tap opens it too; a tap on the open secret closes it (nothing under it is hit).
    button.tap()
    expect(secret).to_have_count(1)
    secret.tap()
    expect(secret).to_have_count(0)
    button.tap()
    expect(secret).to_have_count(1)
    button.tap()  # the button again
    expect(secret).to_have_count(0)
    # A hold still shows it only while held.
    button.hover()
    phone.page.mouse.down()
    expect(secret).to_have_count(1)
    phone.page.wait_for_timeout(page.HOLD_MS)
    assert squeezed(secret.evaluate(SPOKEN)) == squeezed(text)
    phone.page.mouse.up()
    expect(secret).to_have_count(0)
    # Left open, it closes by itself after a while.
    button.evaluate("(b) => b.click()")
    expect(secret).to_have_count(1)
    phone.page.clock.fast_forward(OPEN_FOR_MS + 500)
    expect(secret).to_have_count(0)
    return text


def clocked(phones, url: str):
    """A listening phone whose timers the test can move on (the page's clock installed before it loads)."""
    phone = phones(None, init_script=LISTEN, viewport=SEAT, touch=True)
    phone.page.clock.install()
    phone.open(url)
    return phone


def test_a_plain_activation_opens_says_and_closes_mall_of_horrors_secrets(live, phones):
    # The elected Chief's dice, and the lines only he reads; a voter's own ballot.
    mall = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red, blue = clocked(phones, mall.seat_url("red")), clocked(phones, mall.seat_url("blue"))
    red.answer({"seat": "red", "vote": "red"})
    red.wait_until(lambda: red.view().get("secrets"), "Red's ballot behind its button")
    assert "Red" in opens_and_closes(red, "#secrets .peek-button")
    blue.answer({"seat": "blue", "vote": "blue"})
    blue.wait_until(lambda: blue.view().get("narration_mine"), "the Chief's dice")
    dice = opens_and_closes(blue, "#secrets .peek-button")
    assert dice.startswith(said({"key": "mall.board.zombie_dice"}) + " 1 4 5 5 "), dice  # a die at a time
    opens_and_closes(blue, "#narration .peek-button")



def test_a_plain_activation_opens_says_and_closes_eaten_by_zombies_hand(live, phones):
    # The zombie player's hand.
    ebz_script = script("eaten-by-zombies")
    ebz = live(name="eaten-by-zombies", players=ebz_script["players"], options=ebz_script["options"])
    for action in ebz_script["actions"][:36]:
        ebz.answer(action)
    zombie = clocked(phones, ebz.seat_url("blue"))
    zombie.wait_until(lambda: zombie.view().get("secrets"), "the zombie player's hand")
    opens_and_closes(zombie, "#secrets .peek-button")



def test_a_plain_activation_opens_says_and_closes_zombiegeddons_largest_disc(live, phones):
    # The largest disc, typed in secret.
    zg_script = script("zombiegeddon")
    zg = live(name="zombiegeddon", players=zg_script["players"], options=zg_script["options"])
    for action in zg_script["actions"][:13]:  # up to Red's largest disc, 4
        zg.answer(action)
    typist = clocked(phones, zg.seat_url("red"))
    typist.wait_until(lambda: typist.view().get("secrets"), "Red's largest disc behind its button")
    assert "4" in opens_and_closes(typist, "#secrets .peek-button")


# -- 2. the chosen answer, said; the focus kept -------------------------------------------------------------------


def test_the_chosen_ballot_is_pressed_and_said_and_the_focus_stays_on_it(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red = listening(phones, table.seat_url("red"))
    red.shows_question("vote")
    options = red.question.locator("button.option")
    assert options.count() >= 2
    for option in options.all():  # toggles from the start: each says whether it is the one chosen
        expect(option).to_have_attribute("aria-pressed", "false")
    blue_vote, red_vote = red.choice({"seat": "red", "vote": "blue"}), red.choice({"seat": "red", "vote": "red"})
    acks = red.count("ack")
    press(red, blue_vote)
    answered(red, acks)
    expect(blue_vote).to_have_attribute("aria-pressed", "true")
    expect(red_vote).to_have_attribute("aria-pressed", "false")
    expect(red.question.locator(".received")).to_have_text(red.say("page.vote_received"))
    label = next(c["label"] for c in red.asked()["choices"] if c["action"] == {"seat": "red", "vote": "blue"})
    hears(red, you_chose(red, label), "the vote")
    # A secret ballot's choice is said and pressed, never shown to a neighbour's eye: no tick, and the focus (its
    # ring) goes from the answer to its receipt.
    red.wait_until(lambda: "received" in focused(red)["classes"], "the focus on the vote's receipt")
    assert red.question.locator(".chosen, .chosen-mark").count() == 0
    acks = red.count("ack")
    press(red, red_vote)  # changed his mind: another answer, by keyboard
    answered(red, acks)
    expect(red_vote).to_have_attribute("aria-pressed", "true")
    expect(blue_vote).to_have_attribute("aria-pressed", "false")
    red.wait_until(lambda: "received" in focused(red)["classes"], "the focus on the new receipt")
    for lang in ("vi", "en"):  # a redraw keeps it there
        red.page.select_option("#lang", lang)
        red.wait_until(lambda lang=lang: red.page.evaluate("document.documentElement.lang") == lang, "the language")
    assert "received" in focused(red)["classes"]
    # Blue votes: the reveal closes Red's question; the focus goes to what the question says now, not the top.
    table.answer({"seat": "blue", "vote": "blue"})
    red.wait_until(lambda: red.view().get("revealed"), "the reveal")
    red.wait_until(lambda: focused(red)["inQuestion"], "the focus in the question's place")


def test_the_focus_survives_every_answer_and_confirmation_in_every_game(live, phones):
    # Zombiegeddon: an action (the same answer asked again keeps the focus), "Sure? Tap again", a number.
    zg_script = script("zombiegeddon")
    actions = zg_script["actions"]
    zg = live(name="zombiegeddon", players=zg_script["players"], options=zg_script["options"])
    red = listening(phones, zg.seat_url("red"))
    red.shows_question("pre")
    act = {"seat": "red", "act": "action"}
    label = next(c["label"] for c in red.asked()["choices"] if c["action"] == act)
    acks = red.count("ack")
    press(red, red.choice(act))
    answered(red, acks)
    red.wait_until(lambda: red.view().get("question") and focused(red)["answer"] == json.dumps(
        act, separators=(",", ":")), "the focus on the action, asked again")
    hears(red, you_chose(red, label), "the action")
    for action in actions[1:11]:
        zg.answer(action)
    red.wait_until(lambda: (red.asked() or {}).get("id") == zg.call(lambda: zg.table.question("red").id),
                   "Red asked again")
    ending = red.choice({"seat": "red", "act": "phase_end"})
    press(red, ending)
    expect(ending).to_have_attribute("data-armed", "true")
    assert focused(red)["armed"] == "true", "the focus stays on the answer that asks for a second press"
    end_label = next(c["label"] for c in red.asked()["choices"] if c["action"] == {"seat": "red", "act": "phase_end"})
    hears(red, said({"key": "page.confirm_again", "params": {"choice": end_label}}, "en"), "the confirmation")
    acks = red.count("ack")
    red.page.keyboard.press("Enter")  # the second press, where the focus stayed
    answered(red, acks)
    red.wait_until(lambda: (red.asked() or {}).get("step") == "largest", "the largest disc")
    red.wait_until(lambda: focused(red)["inQuestion"], "the focus at the new question")
    new = said({"key": "page.new_question", "params": {"question": red.asked()["title"]}})
    if "question-title" in focused(red)["classes"]:  # read where the focus is: not said a second time
        red.page.wait_for_timeout(200)
        assert not any(squeezed(new) in squeezed(s) for s in voice(red)), voice(red)
    else:
        hears(red, new, "the new question")
    field = red.question.locator("input.number")
    field.focus()
    field.fill("4")
    acks = red.count("ack")
    red.page.keyboard.press("Tab")
    assert "send" in focused(red)["classes"]
    red.page.keyboard.press("Enter")
    answered(red, acks)
    expect(red.question.locator(".received")).to_have_text(red.say("page.answer_received"))
    red.wait_until(lambda: "received" in focused(red)["classes"], "the focus on the secret number's receipt")
    expect(field).to_have_value("4")  # the number sent stays in its field
    hears(red, you_chose(red, 4), "the number")

    # Eaten by Zombies!: a pick, then the next question.
    ebz_script = script("eaten-by-zombies")
    ebz = live(name="eaten-by-zombies", players=ebz_script["players"], options=ebz_script["options"])
    first = listening(phones, ebz.seat_url("red"))
    first.wait_until(lambda: first.asked(), "the first question")
    first.shows_question()
    level = {"seat": "red", "level": 2}
    acks = first.count("ack")
    press(first, first.choice(level))
    answered(first, acks)
    first.wait_until(lambda: focused(first)["inQuestion"], "the focus in the question")
    assert focused(first)["tag"] != "BODY"

    # District-Z: the corner, by keyboard; the next question keeps the focus in its place.
    dz = live(name="district-z", players=["red", "blue"], options={"grid": "4x4"}, scripted=DZ_DICE)
    survivor = listening(phones, dz.seat_url("red"))
    survivor.wait_until(lambda: survivor.asked(), "the first question")
    survivor.shows_question()
    corner = {"seat": "red", "corner": "nw"}
    label = next(c["label"] for c in survivor.asked()["choices"] if c["action"] == corner)
    acks = survivor.count("ack")
    press(survivor, survivor.choice(corner))
    answered(survivor, acks)
    hears(survivor, you_chose(survivor, label), "the corner")
    survivor.wait_until(lambda: focused(survivor)["inQuestion"], "the focus in the question")


# -- 3. one voice at a time ---------------------------------------------------------------------------------------


def test_one_polite_announcement_per_new_question_and_none_on_a_redraw(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red = listening(phones, table.seat_url("red"))
    asked = red.shows_question("vote")
    live_regions = red.page.evaluate("""[...document.querySelectorAll('[aria-live], [role=status], [role=log]')]
        .map((n) => n.id)""")
    assert live_regions == ["say", "status"], live_regions  # the question, the narration, the waiting: not live
    expect(red.page.locator("#say")).to_have_attribute("aria-live", "polite")
    new = said({"key": "page.new_question", "params": {"question": asked["title"]}})
    hears(red, new, "the new question")
    for lang in ("vi", "zh-Hant", "en"):  # every redraw: nothing said again
        red.page.select_option("#lang", lang)
        red.wait_until(lambda lang=lang: red.page.evaluate("document.documentElement.lang") == lang, "the language")
    table.answer({"seat": "blue", "vote": "red"})  # another seat's answer redraws the board and the waiting line
    red.wait_until(lambda: "blue" not in red.view()["prompt"]["waiting"], "Blue's vote in")
    red.page.wait_for_timeout(300)
    assert voice(red) == [new], voice(red)
    red.answer({"seat": "red", "vote": "red"})  # the last ballot: the reveal, then Red's next question, said once
    red.wait_until(lambda: red.view().get("revealed"), "the reveal")
    red.page.wait_for_timeout(300)
    questions = {m["view"]["question"]["id"] for m in red.states() if (m.get("view") or {}).get("question")}
    news = [s for s in voice(red) if s.startswith(said({"key": "page.new_question", "params": {"question": ""}}))]
    assert len(news) <= len(questions) and news[0] == new, (voice(red), questions)


# -- 4. every board element a player needs has a name --------------------------------------------------------------


def test_district_z_survivors_and_target_corners_are_named(live, phones):
    table = live(name="district-z", players=["red", "blue"], options={"grid": "4x4"}, scripted=DZ_DICE)
    table.answer({"seat": "red", "corner": "nw"})
    table.answer({"seat": "blue", "corner": "se"})
    books = catalogue()
    for lang, locale in (("en", "en-GB"), ("vi", "vi-VN"), ("zh-Hant", "zh-TW")):
        red = phones(table.seat_url("red"), locale=locale, viewport=SEAT, touch=True)
        grid = red.page.locator("#board .cell-grid")
        red.wait_until(lambda grid=grid: grid.locator("[data-outline]").count() >= 1, "the target corners")
        tree = grid.aria_snapshot()
        for cell in grid.locator(".cell").all():
            standing = [c.get_attribute("data-colour") for c in cell.locator(".cell-seats .chip").all()]
            text = re.sub(r"\s+", " ", cell.evaluate(SPOKEN))
            for seat in standing:  # each survivor by his colour's name, not its colour alone
                assert books.text(Message(f"colour.{seat}"), lang) in text, (lang, text)
            outline = (cell.get_attribute("data-outline") or "").split()
            if outline:
                sentence = books.text(Message("page.cell_target", {"colours": outline}), lang)
                assert sentence in text, (lang, text)
                expect(cell.locator(".cell-target")).to_contain_text("◎")
            if "down" in (cell.get_attribute("class") or "").split():
                assert books.text(Message("page.cell_down"), lang) in text
        assert books.text(Message("colour.red"), lang) in tree and books.text(Message("colour.blue"), lang) in tree
        expect(red.page.locator("#board .cell-grid + .part-line.hint")).to_have_text(
            books.text(Message("page.cell_target_legend"), lang))  # what ◎ means, under the city


__all__ = ["answer_selector"]
