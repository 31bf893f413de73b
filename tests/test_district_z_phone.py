"""District-Z played to its end from two phones on the real page in Chromium (red in English, blue in Tiếng Việt),
watched by a spectator in 繁體中文 and the host page in 简体中文: every answer tapped, typed or selected on the page
(corners and moves picked, numbers typed, the dice pairing chosen in the assignment's selects), the board drawn by
boards/district-z.js in each language. Nothing in the page, the server or the table was written for this game."""

from __future__ import annotations

import re
from pathlib import Path

from test_phone_browser import bare, browser, live, phones, said  # noqa: F401 — the page's own fixtures

from companion.catalogue import catalogue
from companion.contract import Message

SHOTS = Path(__file__).resolve().parent / "screenshots" / "district-z"
R, B = "red", "blue"
GAME = [
    (R, {"corner": "nw"}), (B, {"corner": "se"}),
    (R, {"attack": 3}), (R, {"health": 4}), (R, {"found": "district"}), (R, {"move": "e"}),
    (R, {"found": "district"}), (R, {"outcome": "zombies"}), (R, {"zombies": 1}),
    (R, {"pairs": {"r1": "b1", "r2": "none", "r3": "none"}}),
    (B, {"attack": 2}), (B, {"health": 3}), (B, {"found": "district"}), (B, {"move": "n"}),
    (B, {"found": "district"}), (B, {"outcome": "nothing"}),
    (R, {"move": "e"}), (R, {"found": "objective"}), (R, {"outcome": "nothing"}),
    (B, {"move": "w"}), (B, {"found": "district"}), (B, {"outcome": "nothing"}),
    (R, {"move": "s"}), (R, {"found": "district"}), (R, {"outcome": "nothing"}),
    (B, {"move": "w"}), (B, {"found": "district"}), (B, {"outcome": "nothing"}),
    (R, {"move": "s"}), (R, {"found": "district"}), (R, {"outcome": "nothing"}),
    (B, {"move": "n"}), (B, {"found": "district"}), (B, {"outcome": "nothing"}),
    (R, {"move": "e"}), (R, {"found": "district"}), (R, {"outcome": "nothing"}),
    (B, {"move": "n"}), (B, {"found": "district"}), (B, {"outcome": "nothing"}),
    (R, {"move": "s"}), (R, {"found": "district"}), (R, {"outcome": "nothing"}),
]
DICE = [(2,), (6, 2, 2), (3,), (1,), (3,), (4,), (5,), (6,), (1,), (2,), (3,), (4,), (5,)]


def shows_board(phone, wanted) -> None:
    phone.wait_until(lambda: wanted(phone.page.locator("#board").inner_text()), "the board")


def test_district_z_is_played_to_its_end_from_two_phones(live, phones):  # noqa: F811
    SHOTS.mkdir(parents=True, exist_ok=True)
    table = live(name="district-z", players=[R, B], options={"grid": "4x4"}, scripted=DICE)
    red = phones(table.seat_url(R))
    blue = phones(table.seat_url(B), locale="vi-VN")
    spectator = host = None  # the watchers come in at the first fight (fewer pages for the table to feed)
    by_seat = {R: red, B: blue}
    shown_combat = False
    for index, (seat, fields) in enumerate(GAME):
        phone = by_seat[seat]
        action = {"seat": seat, **fields}
        current = table.call(lambda: table.table.rules.prompt(table.table.state).id)
        phone.wait_until(lambda p=phone, c=current: (p.asked() or {}).get("id") == c, "the question on the phone")
        asked = phone.shows_question()
        kind = asked["kind"]
        if kind == "number":
            field = asked["field"]
            phone.page.locator("#question input.number").fill(str(fields[field]))
        elif kind == "assign":
            assert [i["value"] for i in asked["items"]] == ["r1", "r2", "r3"]
            assert asked["answer"]["pairs"] == fields["pairs"]  # the rules' proposal, shown in the facts too
            facts = phone.page.locator("#question .facts").inner_text()
            assert "Red 1: 6 → Black 1: 3" in facts
            if not shown_combat:
                shown_combat = True
                spectator = phones(table.spectator_url, locale="zh-TW")
                host = phones(table.host_url, locale="zh-CN", viewport={"width": 1280, "height": 800})
                for who, name in ((spectator, "phone-spectator-combat-zh-Hant"), (host, "phone-host-combat-zh-Hans")):
                    shows_board(who, lambda text: "6 2 2" in re.sub(r"\s+", " ", text) or "622" in text)
                    who.page.screenshot(path=SHOTS / f"{name}.png", full_page=True)
                phone.page.screenshot(path=SHOTS / "phone-red-pairing-en.png", full_page=True)
            for item, target in fields["pairs"].items():  # the selects start at the proposal: send as it is
                assert phone.page.locator(f"#question select[data-item={item}]").input_value() == target
        phone.answer(action)
        answers = table.call(lambda: [e["answer"] for e in table.table.events if "answer" in e])
        assert len(answers) == index + 1 and answers[-1] == action  # stored as the page sent it
    state = table.call(lambda: table.table.state)
    assert state.over and state.winners == (R,)
    for phone in (red, blue, spectator):
        phone.wait_until(lambda p=phone: p.view().get("over") is True, "the end")
    # The board and the end in each reader's language, drawn by the game's renderer.
    lines = [said(entry, "vi") for entry in blue.view()["narration"]]
    blue.wait_until(lambda: all(line in {bare(t) for t in blue.page.locator("#narration .line-text")
                                         .all_text_contents()} for line in lines), "the narration in Vietnamese")
    assert blue.page.locator("#board .cell").count() == 16
    assert red.page.locator("#board [data-cell=D4] .cell-seats [data-colour=red]").count() == 1
    books = catalogue()
    spectator.wait_until(lambda: books.text(_m("dz.board.result.won"), "zh-Hant") in spectator.page.locator(
        "#over").inner_text(), "the end in 繁體中文")
    assert books.text(_m("dz.board.stock", hidden=1, aside=1, spare=4), "zh-Hant") in \
        spectator.page.locator("#board").inner_text()
    for phone, name in ((red, "phone-red-end-en"), (blue, "phone-blue-end-vi"),
                        (spectator, "phone-spectator-end-zh-Hant"), (host, "phone-host-end-zh-Hans")):
        phone.page.screenshot(path=SHOTS / f"{name}.png", full_page=True)


def _m(key: str, **params) -> Message:
    return Message(key, params)
