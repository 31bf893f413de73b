"""The board is the truth, on the table's screen (the host page in Chromium): the host corrects the board from the
game's own edits (host.edits), place by place as the board names them; every phone's next board shows it with the
correction's line; a refusal shows in the error line and changes nothing; undo says why it cannot step back, with
the way out one tap away; a game in progress is started and then entered as it lies on the table.

Played with Lucky Die, the game only the tests know (tests/toy_game: nothing of the page was written for it). The
editor's screenshots (1280×800, 800×480 and a phone, in the four languages) go to tests/screenshots/host-correct/.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest
import test_phone_browser as page
from test_host_page import PROBLEMS
from test_phone_browser import ROUND, SCREENSHOTS, ZOMBIE_DICE, bare, english_left, leaks_secret_dice, said, say

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
pytestmark = page.pytestmark
browser, live, phones = page.browser, page.live, page.phones  # one Chromium for the module, many pages

WIDE = {"width": 1280, "height": 800}
SIZES = {"1280x800": WIDE, "800x480": {"width": 800, "height": 480}, "390x844": {"width": 390, "height": 844}}
LANGS = ["en", "zh-Hans", "zh-Hant", "vi"]
TOKENS = {"seat": "red", "give": {"sun": "red", "moon": "blue"}}  # the Sun to Red, the Moon to Blue
CHANGED = "correction.n.changed"
SMALL = """() => [...document.querySelectorAll('#correct button, #host button, #hostnav button')]
    .filter((n) => n.checkVisibility())
    .map((n) => [n.textContent.trim().slice(0, 24), n.getBoundingClientRect()])
    .filter(([, box]) => box.width < 43.5 || box.height < 43.5)
    .map(([text, box]) => text + ' ' + Math.round(box.width) + 'x' + Math.round(box.height))"""


@pytest.fixture(autouse=True)
def toy(lucky_die):
    return lucky_die


def corrector(host):
    return host.page.locator("#correct")


def place(host, at: str):
    return host.page.locator(f"#correct .edit-place[data-item='@{at}']")


def step(host, edit: str, way: str):
    return host.page.locator(f"#correct .step.{way}[data-item='{edit}']")


def choice(host, edit: str, value) -> object:
    return host.page.locator(f"#correct .edit-choice[data-item='{edit}'][data-choice='{json.dumps(value)}']")


def edits(host) -> dict[str, dict]:
    states = host.states()
    return {edit["id"]: edit for edit in (states[-1]["host"].get("edits") or [])} if states else {}


def shown(locator) -> list[str]:
    """The texts of the page's nodes, without the colours' symbols (the catalogue names a colour, the page adds
    its symbol)."""
    return [" ".join(bare(text).split()) for text in locator.all_text_contents()]


def draft_lines(host) -> list[str]:
    return shown(host.page.locator("#correct .edit-draft li"))


def change_said(host, edit: dict, was, now) -> str:
    """A change of the draft as the catalogue says it, in the host's language."""
    def value(v):
        for c in edit.get("choices", []):
            if c["value"] == v:
                return c["label"]
        return v
    return " ".join(say("page.correct_change", host.lang, what=edit["label"], was=value(was), now=value(now)).split())


def corrections_shown(phone) -> list[str]:
    return shown(phone.page.locator(f"#narration .line[data-key='{CHANGED}'] .line-text"))


def corrections_said(phone) -> list[str]:
    lines = [entry for entry in reversed(phone.view().get("narration", [])) if entry["key"] == CHANGED]
    return [" ".join(said(entry, phone.lang).split()) for entry in lines]


def no_secret_of_another_seat(phone, voter: str) -> None:
    """No frame this page received holds `voter`'s ballot: a seat's view carries only its own, the host's none (and
    the facts it may correct are public ones)."""
    for message in phone.messages():
        view = message.get("view") or {}
        if phone.seat == voter or message.get("type") != "state":
            continue
        assert "ballot" not in view and not view.get("secrets"), f"{phone.seat or 'the host'} was sent a ballot"
        if phone.seat is None:
            assert not {"question", "narration_mine"} & set(view), "the host was sent a seat's own view"
        for edit in (message.get("host") or {}).get("edits", []):
            assert edit["id"].split(".")[0] in {"points", "token", "round"}, edit


def test_the_host_corrects_the_board_and_every_phone_sees_it_with_its_line(live, phones):
    table = live(name="lucky-die", players=["red", "blue"], options={"target": "2"})
    table.answer(TOKENS)  # the secret vote is asked: nobody has voted yet, so the board may be corrected
    red, blue = phones(table.seat_url("red")), phones(table.seat_url("blue"), locale="zh-CN")
    host = phones(table.host_url, viewport=WIDE)
    host.wait_until(lambda: "token.moon" in edits(host), "the facts the table may correct")
    expect(corrector(host)).to_be_hidden()

    # The link along the board opens the corrector: the places with facts, as the board names them, and the round.
    host.page.locator("#hostnav .nav-link[data-to=correct]").click()
    expect(corrector(host).locator("h2")).to_have_text(say("page.correct_title"))
    expect(corrector(host).locator("h2")).to_be_focused()
    expect(host.page.locator("#correct .edit-place")).to_have_text([re.compile(r"1\s*Red"), re.compile(r"2\s*Blue")])
    expect(host.page.locator("#correct .edit-facts.whole .edit-what")).to_have_text([say("toy.edit.round")])
    expect(host.page.locator("#correct .edit-none")).to_have_text(say("page.correct_none"))
    expect(host.page.locator("#correct-apply")).to_be_disabled()

    # Blue's zone: his points (− and + within their range) and the token he holds (a choice of seats).
    place(host, "blue").click()
    expect(place(host, "blue")).to_have_attribute("aria-expanded", "true")
    assert shown(host.page.locator("#correct #edit-facts .edit-what")) == [
        say("toy.edit.points", colour="blue"), say("toy.edit.token", token="moon")]
    expect(step(host, "points.blue", "less")).to_have_attribute("aria-disabled", "true")  # 0 is the least
    step(host, "points.blue", "more").click()
    expect(host.page.locator("#edit-value-points_blue")).to_have_text("1")
    expect(step(host, "points.blue", "more")).to_have_attribute("aria-disabled", "true")  # short of the target
    step(host, "points.blue", "more").click(force=True)  # at the end of its range: nothing changes
    expect(host.page.locator("#edit-value-points_blue")).to_have_text("1")
    choice(host, "token.moon", "red").click()
    expect(choice(host, "token.moon", "red")).to_have_attribute("aria-pressed", "true")
    step(host, "round", "more").click()
    now = edits(host)
    assert draft_lines(host) == [change_said(host, now["points.blue"], 0, 1),
                                 change_said(host, now["token.moon"], "blue", "red"),
                                 change_said(host, now["round"], 1, 2)]

    # Apply: one message, every phone's next board shows it, each change said in the narration.
    host.page.locator("#correct-apply").click()
    expect(corrector(host)).to_be_hidden()
    sent = [json.loads(frame) for frame in host.sent if json.loads(frame).get("type") == "correct"]
    assert sent == [{"v": 1, "type": "correct", "changes": {"points.blue": 1, "token.moon": "red", "round": 2}}]
    for phone in (red, blue, host):
        board = phone.page.locator("#board")
        expect(board.locator(".zone[data-zone=blue] .zone-count")).to_have_text(
            say("board.points", phone.lang, count=1))
        expect(board.locator(".zone[data-zone=red] .token-name")).to_have_text(
            [say("toy.token.sun", phone.lang), say("toy.token.moon", phone.lang)])
        phone.wait_until(lambda p=phone: len(corrections_said(p)) == 3, "the correction's lines")
        phone.wait_until(lambda p=phone: sorted(corrections_shown(p)) == sorted(corrections_said(p)),
                         "the lines on the page")  # (a seat's phone lists first the lines about it)
    assert corrections_shown(red)[-1].startswith("Corrected:") and corrections_shown(blue)[-1].startswith("已更正")
    assert table.call(lambda: table.table.state.scores) == {"red": 0, "blue": 1}

    # The vote goes on; once Red's ballot is cast nothing is offered until the reveal (a correction would show
    # nothing, yet waits), and the open corrector says why: its draft goes with the facts.
    host.page.locator("#hostnav .nav-link[data-to=correct]").click()
    place(host, "red").click()
    step(host, "points.red", "more").click()
    red.vote("blue")
    events = table.call(lambda: len(table.table.events))
    expect(corrector(host).locator(".correct-why")).to_have_text(say("table.correct_secret"))
    expect(host.page.locator("#correct-apply")).to_be_disabled()
    expect(host.page.locator("#hostnav .nav-link[data-to=correct]")).to_have_count(0)
    assert edits(host) == {} and table.call(lambda: len(table.table.events)) == events
    expect(red.page.locator("#board .zone[data-zone=red] .zone-count")).to_have_text(say("board.points", count=0))
    for phone in (blue, host):
        no_secret_of_another_seat(phone, "red")

    # Blue's ballot completes the vote (a secret answer): undo cannot step back, and says why, with the way out.
    blue.answer({"seat": "blue", "vote": "blue"})  # the last ballot: counted at once
    host.page.locator("#correct-cancel").click()
    expect(corrector(host)).to_be_hidden()
    host.page.locator("#hostnav .nav-link[data-to=host]").click()
    expect(host.page.locator("#undo")).to_be_disabled()
    expect(host.page.locator("#undo-why span")).to_have_text(say("table.undo_why.secret"))
    host.page.locator("#undo-correct").click()
    expect(corrector(host).locator("h2")).to_be_focused()
    step(host, "round", "less").click()
    host.page.locator("#correct-apply").click()
    expect(corrector(host)).to_be_hidden()
    expect(host.page.locator("#undo")).to_be_enabled()  # a correction is taken back like a public answer
    expect(host.page.locator("#undo-why")).to_have_count(0)
    host.page.locator("#undo").click()
    host.page.locator("#undo-yes").click()
    expect(host.page.locator("#undo-why span")).to_have_text(say("table.undo_why.taken_back"))
    assert table.call(lambda: table.table.state.round) == 2


def zone_of(phone, zone: str) -> dict:
    """A zone of the board as the phone's last view has it."""
    return next(z for part in phone.view()["parts"]["main"] if part["part"] == "zones" for z in part["zones"]
                if z["id"] == zone)


def test_the_host_moves_a_mall_of_horror_figure_and_its_zombies_and_an_impossible_board_is_refused(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])  # the Chief's election: nobody has voted yet
    red, yellow = phones(table.seat_url("red")), phones(table.seat_url("yellow"), locale="vi-VN")
    host = phones(table.host_url, viewport=WIDE)
    host.wait_until(lambda: "figure.yellow.tough" in edits(host), "the facts the table may correct")
    host.page.locator("#hostnav .nav-link[data-to=correct]").click()
    supermarket = zone_of(host, "6")  # named as the board names it
    expect(place(host, "6")).to_have_text(supermarket["number"] + " " + said(supermarket["name"]))
    place(host, "6").click()  # the Supermarket: its zombies, whether it is closed, the figures standing there
    choice(host, "figure.yellow.tough", 4).click()  # Yellow's Tough Guy stands in the Parking in fact
    step(host, "zombies.6", "more").click()
    now = edits(host)
    assert draft_lines(host) == [change_said(host, now["figure.yellow.tough"], 6, 4),
                                 change_said(host, now["zombies.6"], 0, 1)]
    host.page.locator("#correct-apply").click()
    expect(corrector(host)).to_be_hidden()
    for phone in (red, yellow, host):
        parking = phone.page.locator("#board .zone[data-zone='4'] .zone-token[data-seat=yellow] .token-name")
        expect(parking).to_have_text(say("mall.character.tough", phone.lang))
        phone.wait_until(lambda p=phone: zone_of(p, "6")["count"] == 1, "the zombie in the Supermarket")
        expect(phone.page.locator("#board .zone[data-zone='6'] .zone-count")).to_have_text(
            said(zone_of(phone, "6")["count_label"], phone.lang))
        phone.wait_until(lambda p=phone: len(corrections_said(p)) == 2, "the correction's lines")
        phone.wait_until(lambda p=phone: sorted(corrections_shown(p)) == sorted(corrections_said(p)),
                         "the lines on the page")

    # Megatoys closed with its zombie still there: no board of the game can be so. Refused in the host's language,
    # and nothing changes.
    host.page.locator("#hostnav .nav-link[data-to=correct]").click()
    place(host, "3").click()
    choice(host, "closed.3", True).click()
    events = table.call(lambda: len(table.table.events))
    host.page.locator("#correct-apply").click()
    host.wait_until(lambda: host.count("error") == 1, "the refusal")
    refusal = next(m for m in host.messages() if m["type"] == "error")
    assert refusal["code"] == "refused"
    expect(host.page.locator("#error .error-text")).to_have_text(say("page.refused", message=said(refusal)))
    expect(corrector(host)).to_be_visible()
    assert table.call(lambda: len(table.table.events)) == events
    assert table.call(lambda: 3 in table.table.state.closed) is False

    # The game goes on from the corrected board; no page was sent a secret it may not see.
    red.vote("blue")
    table.answer({"seat": "blue", "vote": "blue"})
    red.wait_until(lambda: red.view().get("revealed"), "the reveal")
    for phone in (red, yellow):
        assert not any(leaks_secret_dice(frame) for frame in phone.frames)  # only the elected Chief sees the dice
    for state in host.states():
        assert not {"ballot", "destination", "cup_seen", "question", "narration_mine"} & set(state["view"])
    no_secret_of_another_seat(yellow, "red")


def test_a_game_in_progress_is_started_then_entered_as_it_lies_on_the_table(live, phones):
    table = live(game=False)
    host = phones(table.host_url, viewport=SIZES["800x480"])
    form = host.page.locator("#newgame")
    host.page.locator("#new-game-game").select_option("lucky-die")
    expect(host.page.locator("#continue-game")).to_be_disabled()
    for colour in ("blue", "red"):
        form.locator(f".colour-pick[data-colour={colour}]").click()
    expect(host.page.locator("#continue-game")).to_have_attribute("aria-describedby", "continue-hint")
    host.page.locator("#continue-game").click()
    # The game starts, and the corrector opens on its board: nothing is sent before the table's board has come.
    expect(corrector(host).locator("h2")).to_be_focused()
    assert table.call(lambda: table.table.state.players) == ("blue", "red")
    expect(host.page.locator("#correct .edit-place")).to_have_text([re.compile(r"1\s*Blue"), re.compile(r"2\s*Red")])
    place(host, "red").click()
    step(host, "points.red", "more").click()
    for _ in range(3):
        step(host, "round", "more").click()
    host.page.locator("#correct-apply").click()
    expect(corrector(host)).to_be_hidden()
    expect(host.page.locator("#board .phase")).to_have_text(say("toy.board.round", round=4))
    assert table.call(lambda: (table.table.state.round, table.table.state.scores)) == (4, {"blue": 0, "red": 1})
    blue = phones(table.seat_url("blue"))
    blue.shows_question("tokens")  # the game goes on from the board entered
    blue.wait_until(lambda: len(corrections_said(blue)) == 2, "the corrections said")
    blue.wait_until(lambda: sorted(corrections_shown(blue)) == sorted(corrections_said(blue)),
                    "the corrections on the page")



def test_the_corrector_is_used_with_a_keyboard_alone(live, phones):
    table = live(name="lucky-die", players=["red", "blue"])
    table.answer(TOKENS)
    host = phones(table.host_url, viewport=WIDE)
    host.wait_until(lambda: "token.sun" in edits(host), "the facts")
    keyboard = host.page.keyboard
    host.page.locator("#hostnav .nav-link[data-to=correct]").focus()
    keyboard.press("Enter")
    expect(corrector(host).locator("h2")).to_be_focused()
    keyboard.press("Tab")
    expect(place(host, "red")).to_be_focused()
    keyboard.press("Enter")
    expect(place(host, "red")).to_have_attribute("aria-expanded", "true")
    expect(place(host, "red")).to_be_focused()  # drawn anew, it keeps the focus
    keyboard.press("Tab")
    keyboard.press("Tab")
    keyboard.press("Tab")
    expect(step(host, "points.red", "more")).to_be_focused()
    keyboard.press("Enter")
    expect(host.page.locator("#edit-value-points_red")).to_have_text("1")
    expect(step(host, "points.red", "more")).to_be_focused()
    keyboard.press("Space")  # the end of the range: it stays there, and keeps the focus
    expect(step(host, "points.red", "more")).to_be_focused()
    expect(step(host, "points.red", "more")).to_have_accessible_name(say("page.correct_more", what=say(
        "toy.edit.points", colour="red")))
    keyboard.press("Escape")
    expect(corrector(host)).to_be_hidden()
    assert table.call(lambda: table.table.state.scores["red"]) == 0  # nothing applied


@pytest.fixture(scope="module")
def shots():
    folder = SCREENSHOTS / "host-correct"
    shutil.rmtree(folder, ignore_errors=True)
    for lang in LANGS:
        (folder / lang).mkdir(parents=True, exist_ok=True)
    return folder


# Each game at a moment undo cannot step back past: Lucky Die after its counted secret ballot, Mall of Horror after
# the Chief's election (the zombies' dice are rolled).
SHOWN = {
    "lucky-die": ({"name": "lucky-die", "players": ["red", "blue"], "options": {"target": "2"}, "scripted": [(6,)]},
                  [TOKENS, {"seat": "red", "vote": "blue"}, {"seat": "blue", "vote": "blue"}]),
    "mall-of-horror": ({"position": ROUND, "scripted": [ZOMBIE_DICE]},
                       [{"seat": "red", "vote": "blue"}, {"seat": "blue", "vote": "blue"}]),
}


def draft_a_change(host, scope: str) -> None:
    """The first fact of `scope` changed: one more, or another of its choices."""
    host.page.locator(f"#correct {scope} .step.more:not([aria-disabled]), "
                      f"#correct {scope} .edit-choice:not(.on)").first.click()


@pytest.mark.parametrize("game", SHOWN)
def test_screenshots_of_the_corrector_in_every_language_and_size(live, phones, shots, game):
    """The corrector with a place open and a draft, at the table's screens and a phone, in the four languages:
    nothing scrolls sideways or overflows, every control at least 44×44 px; undo's reason beside it."""
    options, actions = SHOWN[game]
    table = live(**options)
    for action in actions:
        table.answer(action)
    host = phones(table.host_url, viewport=WIDE)
    host.wait_until(lambda: host.view().get("undo_why") and edits(host), "undo's reason and the facts")
    for lang in LANGS:
        host.page.select_option("#lang", lang)
        host.lang = lang
        host.wait_until(lambda lang=lang: host.page.evaluate("document.documentElement.lang") == lang, "the language")
        host.wait_until(lambda: host.page.locator("#lang-label").text_content() == host.say("page.language"),
                        "the words")
        host.page.locator("#hostnav .nav-link[data-to=correct]").click()
        host.page.locator("#correct .edit-place").first.click()
        draft_a_change(host, "#edit-facts")
        draft_a_change(host, ".edit-facts.whole")
        expect(host.page.locator("#correct .edit-draft li")).to_have_count(2)
        for size, viewport in SIZES.items():
            host.page.set_viewport_size(viewport)
            host.page.evaluate("window.scrollTo(0, 0)")  # the corrector comes first, under the header
            host.page.screenshot(path=shots / lang / f"{game}-{size}-corrector.png")
            host.page.locator("#correct-apply").scroll_into_view_if_needed()
            host.page.screenshot(path=shots / lang / f"{game}-{size}-corrector-apply.png")
            where = f"the corrector of {game} in {lang} at {size}"
            problems = host.page.evaluate(PROBLEMS)
            assert not problems, f"{where}: {problems[:8]}"
            assert host.page.evaluate(SMALL) == [], where
            expect(host.page.locator("#correct h2")).to_have_text(host.say("page.correct_title"))
            expect(host.page.locator("#correct-apply")).to_have_text(host.say("page.correct_apply"))
            if lang != "en" and game != "lucky-die":  # (Lucky Die's own words are English only)
                left = english_left(host.page.locator("#correct").inner_text(), lang)
                assert not left, f"{where}: English left: {left[:10]}"
        host.page.locator("#correct-cancel").click()
        host.page.locator("#hostnav .nav-link[data-to=host]").click()
        expect(host.page.locator("#undo-why span")).to_have_text(host.say(host.view()["undo_why"]["key"]))
        for size, viewport in SIZES.items():
            host.page.set_viewport_size(viewport)
            host.page.locator("#undo-why").scroll_into_view_if_needed()
            host.page.screenshot(path=shots / lang / f"{game}-{size}-undo-why.png")
            assert host.page.evaluate(PROBLEMS) == [], f"undo's reason in {lang} at {size}"
        host.page.set_viewport_size(WIDE)
