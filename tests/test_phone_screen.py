"""The phone's question screen in Chromium: each kind of question, its facts and its answers on the first screen.

For every question kind of Mall of Horror (a ballot, a victim ballot, a card window, the Chief's destination with
his secret dice, a secret destination, a zombie player's destination, a move with a Sprint in two steps, the
sprinter, the victim, the truck's gift, a placement), on a 360×740 and a 390×844 phone, in the four languages
(switched with the page's own menu): the question, the player's own state, the decision's facts and every answer
are inside the first screen (bounding boxes), nothing scrolls sideways, the page says its language (lang) and
draws Chinese with the face of its script. Then a whole game, played from four phones in four languages, with a
screenshot of every distinct screen kept in tests/screenshots/phone/ and no secret in a frame a seat may not see.
"""

from __future__ import annotations

import json
import random
import shutil
import time

import pytest
import test_phone_browser as page
from test_phone_browser import ATTACK, FOUR, MOVE, NO_CARDS, ROUND, SCREENSHOTS, ZOMBIE_DICE

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
pytestmark = page.pytestmark
browser, live, phones = page.browser, page.live, page.phones  # one Chromium for the module, many pages

SIZES = [{"width": 360, "height": 740}, {"width": 390, "height": 844}]
LANGS = ["en", "zh-Hans", "zh-Hant", "vi"]
FACE = {"zh-Hans": "Noto Sans CJK SC", "zh-Hant": "Noto Sans CJK TC"}

DESTINATION = {  # Blue was elected Chief and looks at the dice 1 4 5 5 before he chooses first
    **{k: v for k, v in ROUND.items() if k != "phase"}, "phase": "destination", "chief": "blue", "elected": True,
    "cup": list(ZOMBIE_DICE)}
ZOMBIE_PLAYER = {**DESTINATION, "characters": {**ROUND["characters"], "green": {}}}
VICTIM = {  # only Red is in the breached Restroom, with two characters: he chooses who is eaten
    **ATTACK, "characters": {"red": {"pinup": 1, "tough": 1, "gunman": 5}, "blue": {"pinup": 6, "tough": 6},
                             "yellow": {"pinup": 6, "tough": 3}, "green": {"pinup": 3}},
    "zombies": {"1": 6}}
TRUCK = {"round": 2, "phase": "truck", "chief": "red", "hands": NO_CARDS, "deck": 10,
         "characters": {"red": {"pinup": 4}, "blue": {"pinup": 6, "tough": 6}, "yellow": {"pinup": 3},
                        "green": {"pinup": 1}}}

# name: (table, the seat asked, answers given at the table first, the step asked)
SCREENS = {
    "chief-ballot": (dict(position=ROUND, scripted=[ZOMBIE_DICE]), "red", [], "vote"),
    "victim-ballot": (dict(position=ATTACK), "red", [], "vote"),
    "card-window": (dict(position={**ATTACK, "hands": {**NO_CARDS, "red": 1}}), "red", [], "window"),
    "chief-destination": (dict(position=DESTINATION), "blue", [], "chief"),
    "secret-destination": (dict(position=DESTINATION), "red", [{"seat": "blue", "go": 6}], "secret"),
    "zombie-destination": (dict(position=ZOMBIE_PLAYER), "green", [{"seat": "blue", "go": 6}], "secret"),
    "move": (dict(position={**MOVE, "hands": {**NO_CARDS, "red": 1}}), "red", [], "move"),
    "sprinter": (dict(position={**MOVE, "hands": {**NO_CARDS, "red": 1}}), "red",
                 [{"seat": "red", "play": "sprint", "go": 4}], "sprint"),
    "victim": (dict(position=VICTIM), "red", [], "victim"),
    "gift": (dict(position=TRUCK), "red", [], "gift"),
    "placement": (dict(position=None, scripted=[(3, 6)]), None, [], "place"),
}


def switch(phone, lang: str) -> None:
    """The page's own language menu; waits until the question is redrawn in that language."""
    phone.page.select_option("#lang", lang)
    phone.lang = lang
    phone.wait_until(lambda: phone.page.evaluate("document.documentElement.lang") == lang, f"the page in {lang}")
    phone.shows_question()


def first_screen_problems(phone, size: dict) -> list[str]:
    """What of the question is outside the first screen, and whether the page scrolls sideways."""
    return phone.page.evaluate("""([width, height]) => {
        const out = [];
        const wanted = ['#question .question-title', '#question .facts li', '#question [data-answer]',
                        '#question button.play-card', '#question [data-card]', '#question [data-choice]',
                        '#secrets .peek-button', '#secrets .zombie-player'];
        for (const selector of wanted) {
            for (const node of document.querySelectorAll(selector)) {
                const box = node.getBoundingClientRect();
                if (box.top < 0 || box.left < 0 || box.bottom > height + 0.5 || box.right > width + 0.5) {
                    out.push(selector + ' "' + node.textContent.slice(0, 40) + '" at ' +
                        [box.left, box.top, box.right, box.bottom].map(Math.round).join(','));
                }
            }
        }
        const root = document.documentElement;
        if (root.scrollWidth > root.clientWidth) out.push('scrolls sideways: ' + root.scrollWidth);
        return out;
    }""", [size["width"], size["height"]])


def font_of(phone, selector: str) -> str:
    return phone.page.evaluate("(s) => getComputedStyle(document.querySelector(s)).fontFamily", selector)


def check_everywhere(phone, name: str, shots: bool = True) -> None:
    """Every language and both phone sizes: the first screen holds the question; the right Chinese face."""
    for lang in LANGS:
        switch(phone, lang)
        for size in SIZES:
            phone.page.set_viewport_size(size)
            phone.page.evaluate("window.scrollTo(0, 0)")
            if shots:
                folder = SCREENSHOTS / "phone" / "screens" / lang
                folder.mkdir(parents=True, exist_ok=True)
                phone.page.screenshot(path=folder / f"{size['width']}-{name}.png")
            problems = first_screen_problems(phone, size)
            assert not problems, f"{name} in {lang} at {size['width']}x{size['height']}: {problems}"
            if lang in FACE:
                faces = font_of(phone, "#question .question-title")
                other = FACE["zh-Hant" if lang == "zh-Hans" else "zh-Hans"]
                assert FACE[lang] in faces and other not in faces, (lang, faces)


@pytest.mark.parametrize("name", list(SCREENS))
def test_each_question_kind_fits_the_first_screen_in_every_language(live, phones, name):
    table_args, seat, before, step = SCREENS[name]
    table = live(**table_args)
    for action in before:
        table.answer(action)
    if seat is None:  # the placement: whoever places first
        seat = table.call(lambda: table.table.view(None)["prompt"]["waiting"][0])
    phone = phones(table.seat_url(seat), viewport=SIZES[0], touch=True)
    asked = phone.shows_question(step)
    wanted = {"chief-ballot": "ballot", "victim-ballot": "ballot", "card-window": "cards"}.get(name, "pick")
    assert asked["kind"] == wanted
    assert asked.get("facts"), "a question comes with the facts of its decision"
    # Every answer control says the action it sends.
    for button in phone.question.locator("button.option:not(.card-pick):not(.card-choice)").all():
        assert json.loads(button.get_attribute("data-answer"))["seat"] == seat
    check_everywhere(phone, name)
    if name == "chief-destination":  # the dice: as locations, above the finger, and who else may see them
        hint = phone.page.locator("#secrets .dice-hint")
        expect(hint).to_contain_text(phone.say("mall.fact.dice_alone"))
        button = phone.page.locator("#secrets .peek-button")
        button.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True})
        secret = phone.page.locator(".peek-secret")
        expect(secret).to_contain_text(phone.say("mall.board.dice_to", count=2, location=5))
        shown, held = secret.bounding_box(), button.bounding_box()
        assert 0 <= shown["y"] < held["y"] and shown["y"] + shown["height"] <= SIZES[0]["height"]  # above the finger
        button.dispatch_event("pointerup", {"pointerType": "touch"})
        expect(secret).to_have_count(0)
    if name == "zombie-destination":
        expect(phone.question.locator(".facts")).to_contain_text(phone.say("mall.fact.zombie_player"))
    if name == "card-window":  # folded; each card with its effect; a card then "play it?"
        expect(phone.question.locator("[data-answer]")).to_have_count(1)  # pass
        phone.page.locator("#question button.play-card").click()
        check_everywhere(phone, name + "-unfolded", shots=False)
        threat = phone.question.locator("[data-card='mall.choice.play.threat']")
        expect(threat.locator(".option-note")).to_have_text(phone.say("mall.card_effect.threat"))
        threat.click()
        expect(phone.question.locator(".card-confirm")).to_contain_text(phone.say("mall.choice.play.threat"))
        phone.answer({"seat": "red", "play": "threat"})
        assert phone.shows_question("vote")["title"]["params"]["count"] == 2
    if name == "move":  # Sprint: the card, then where, then "play it?"; Back at each step
        phone.page.locator("#question button.play-card").click()
        phone.question.locator("[data-card='mall.choice.play.sprint']").click()
        expect(phone.question.locator("[data-choice]")).to_have_count(5)  # the open locations
        expect(phone.question.locator(".card-effect")).to_have_text(phone.say("mall.card_effect.sprint"))
        check_everywhere(phone, "move-sprint-where")
        sprint = {"seat": "red", "play": "sprint", "go": 4}
        phone.question.locator(f"[data-choice='{json.dumps(sprint, separators=(',', ':'))}']").click()
        check_everywhere(phone, "move-sprint-confirm")
        phone.question.locator(".card-back").click()
        expect(phone.question.locator("[data-choice]")).to_have_count(5)
        phone.question.locator(f"[data-choice='{json.dumps(sprint, separators=(',', ':'))}']").click()
        assert not phone.count("ack")  # nothing sent before "play it"
        phone.answer(sprint)
        phone.shows_question("sprint")


def test_answers_wait_with_the_reason_while_the_phone_is_disconnected(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    red = phones(table.seat_url("red"), viewport=SIZES[0], touch=True)
    red.shows_question("vote")
    buttons = red.question.locator("[data-answer]")
    expect(buttons.first).to_be_enabled()
    table.drop_connections()
    seen = []
    red.wait_until(lambda: seen.append(red.page.evaluate("""() => [
        [...document.querySelectorAll('#question [data-answer]')].every((b) => b.disabled),
        (document.querySelector('#question .offline') || {}).textContent || null]""")) or seen[-1][0], "disabled")
    assert seen[-1][1] == red.say("page.offline")
    expect(buttons.first).to_be_enabled()  # back by itself
    red.vote("blue")


# -- a whole game from four phones, one per language ---------------------------------------------------------


def screen_name(view: dict, phone) -> str | None:
    """What makes a screen distinct: the question's step and kind, answered or not, or why there is none."""
    question = view.get("question")
    if view.get("over"):
        return "over"
    if question:
        return f"{question['step']}-{question['kind']}" + ("-answered" if question.get("answered") else "")
    if not (view.get("characters") or {}).get(phone.seat):
        return "zombie-player"
    return "waiting-" + str(view.get("phase"))


def may_see_dice(view: dict) -> bool:
    """Only the elected Chief and this round's Security Camera players may look at the dice before the reveal."""
    seat = view.get("seat")
    if view.get("elected") and view.get("chief") == seat:
        return True
    return any(line.get("key") == "mall.n.card.camera" and line.get("params", {}).get("colour") == seat
               for line in view.get("narration", []))


@pytest.mark.parametrize("locale", ["en-GB", "zh-CN", "zh-TW", "vi-VN"])
def test_a_whole_game_from_four_phones_in_each_language(live, phones, locale):
    # Everyone starts in the Parking, where every zombie arrives (scripted dice): each zombie there eats someone,
    # so that the game ends in a few rounds.
    table = live(players=FOUR, position=None, scripted=[(4, 4)] * 12 + [(4, 4, 4, 4)] * 10)
    everyone = [phones(table.seat_url(seat), locale=locale, viewport=SIZES[1], touch=True) for seat in FOUR]
    lang = everyone[0].lang
    chance = random.Random(11)
    seen: set[tuple[str, str]] = set()
    answers = 0
    shutil.rmtree(SCREENSHOTS / "phone" / "game" / lang, ignore_errors=True)
    (SCREENSHOTS / "phone" / "game" / lang).mkdir(parents=True, exist_ok=True)

    def look(phone) -> None:
        view = phone.view()
        name = screen_name(view, phone)
        if name and (phone.lang, name) not in seen:
            seen.add((phone.lang, name))
            if view.get("question"):
                phone.shows_question()
            problems = first_screen_problems(phone, SIZES[1]) if view.get("question") else []
            assert not problems, (phone.lang, name, problems)
            if view.get("narration"):  # the newest line is always among those shown, never folded below older
                shown = phone.page.evaluate("[...(document.querySelector('#narration ul.lines.public') || "
                                            "{children: []}).children].map((li) => li.dataset.key)")
                assert view["narration"][-1]["key"] in shown, (phone.lang, name, shown)
            phone.page.screenshot(path=SCREENSHOTS / "phone" / "game" / phone.lang / f"{len(seen):02d}-{name}.png")

    spent = {"look": 0.0, "answer": 0.0, "wait": 0.0}
    while not table.call(lambda: table.table.state.over):
        assert answers < 600, "the game should have ended"
        current = table.call(lambda: (table.table.view(None).get("prompt") or {}).get("id"))
        everyone[0].wait_until(lambda current=current: all(
            (p.view().get("prompt") or {}).get("id") == current for p in everyone), "every phone up to date")
        asked = [p for p in everyone if (p.asked() or {}) and not p.asked().get("answered")]
        if not asked:
            began = time.monotonic()
            everyone[0].wait_until(lambda: table.call(lambda: table.table.state.over) or any(
                (p.asked() or {}) and not p.asked().get("answered") for p in everyone), "a question", 20)
            spent["wait"] += time.monotonic() - began
            continue
        phone = asked[0]
        question = phone.asked()
        began = time.monotonic()
        look(phone)
        spent["look"] += time.monotonic() - began
        began = time.monotonic()
        plain = [c for c in question["choices"] if c.get("group") != "card"]
        cards = [c for c in question["choices"] if c.get("group") == "card"]
        if cards and chance.random() < 0.3:  # play a card, in its steps
            card = chance.choice(cards)
            phone.unfold_cards()
            phone.question.locator(f"[data-card='{card['label']['key']}']").click()
            choice = phone.question.locator(
                f"[data-choice='{json.dumps(card['action'], ensure_ascii=False, separators=(',', ':'))}']")
            if choice.count():
                choice.click()
            look_card = (phone.lang, "card-confirm")
            if look_card not in seen:
                seen.add(look_card)
                phone.page.screenshot(path=SCREENSHOTS / "phone" / "game" / phone.lang / "card-confirm.png")
            phone.answer(card["action"])
        else:
            action = chance.choice(plain)["action"]
            try:
                phone.answer(action)
            except Exception:  # keep what the phone showed, for whoever reads the failure
                phone.page.screenshot(path=SCREENSHOTS / "phone" / "game" / "failed.png", full_page=True)
                raise AssertionError(f"{phone.seat} could not answer {action}; asked {phone.asked()}") from None
        answers += 1
        spent["answer"] += time.monotonic() - began
        look(phone)
    for phone in everyone:
        phone.wait_until(lambda p=phone: p.view().get("over") is True, "the end")
        look(phone)
        for frame in phone.states():  # the secret dice only to who may see them
            view = frame.get("view") or {}
            if "cup_seen" in view:
                assert may_see_dice(view), (phone.seat, view.get("round"))
    assert {phone.lang for phone in everyone} == {lang} and lang in LANGS
    assert len(seen) >= 8, sorted(seen)  # the placement, the votes, the dice, the destinations, the cards, the end
    print(f"{answers} answers, {len(seen)} distinct screens", {k: round(v, 1) for k, v in spent.items()})
