"""Pass-and-play as good as a phone (issue 29): a whole Mall of Horror game with all four seats on the touchscreen,
played by touch events offscreen (tests/passkit.py, in a process of its own). Every frame's text is read against
what is secret at that moment; each seat's taps are counted per round beside what a phone would have taken."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.catalogue import catalogue
from companion.contract import Message

ROOT = Path(__file__).parents[1]
ENV = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
       "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
SEATS = ["red", "yellow", "blue", "green"]


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> dict:
    tmp = tmp_path_factory.mktemp("pass-and-play")
    out = tmp / "report.json"
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "passkit.py"), "--out", str(out), "--tmp", str(tmp)],
                          env=ENV, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    report["printed"] = done.stdout
    return report


def said(key: str, **params) -> str:
    return catalogue().text(Message(key, params), "en")


def test_a_whole_game_passed_from_hand_to_hand_is_played_by_touch_to_its_end(game):
    assert game["over"] and game["winners"] == game["expected_winners"]
    assert game["final_screen"] == "end"
    assert {"board", "answer", "cover", "end"} <= set(game["screens"])
    assert game["on_board"] > 20  # one seat asked and nothing secret: its answers stood on the board


def test_no_secret_shows_outside_its_seats_cover_in_any_frame(game):
    assert game["frames"] > 200
    assert not game["leaks"], json.dumps(game["leaks"][:5], ensure_ascii=False, indent=1)
    # The check sees secrets where they may be: behind their own seat's cover (the dice beside a Chief's question,
    # a ballot marked as chosen), so a secret shown anywhere else would have been seen too.
    assert game["covered_secrets"] > 20
    assert game["looked_in_question"] and all(look["covered"] and look["shown"] for look in game["looked_in_question"])


def test_screen_seats_tap_at_most_twice_what_a_phone_seat_does(game):
    print("\n" + game["printed"])  # taps per seat per round: the screen's / a phone's for the same answers
    for seat in SEATS:
        screen = sum(n for key, n in game["taps"].items() if key.endswith(":" + seat))
        phone = sum(n for key, n in game["phone"].items() if key.endswith(":" + seat))
        assert phone > 10 and screen <= 2 * phone, (seat, screen, phone)
    for round_ in {key.split(":")[0] for key in game["taps"]}:
        screen = sum(n for key, n in game["taps"].items() if key.startswith(round_ + ":"))
        phone = sum(n for key, n in game["phone"].items() if key.startswith(round_ + ":"))
        assert screen <= 2 * phone, (round_, screen, phone)
    secret = [entry for entry in game["ledger"] if entry["kind"] == "answer" and
              any(n == 2 for n in entry["screen"].values())]
    assert secret  # a pass-and-play secret answer: its seat's button (no secret shows yet), the answer, done


def test_a_mis_tapped_last_answer_is_changed_within_the_grace_counted_down_on_its_screen(game):
    change = game["changes"]["grace"]
    assert game["grace_chosen"] and game["grace_changed"]  # 5 s, then 0 s: the new-game form's row, by touch
    assert change["held_wrong"] == change["wrong"]  # the mis-tap is held, not revealed
    assert change["screen"] == "answer" and change["marked"] and change["marked"][0].startswith("✓ ")
    assert change["countdown"] == [said("ui.revealing", seconds=5)]
    assert change["held_right"] != change["wrong"] and change["folded"] == change["held_right"]
    seconds = [said("ui.revealing", seconds=n) for n in (5, 4, 3, 2, 1, 0)]
    shown = [seconds.index(text) for text in game["countdown"]]
    assert shown == sorted(shown) and len(shown) >= 3  # counted down, second by second


def test_a_secret_answer_given_stays_changeable_its_choice_marked_behind_the_cover(game):
    earlier = game["changes"]["earlier"]
    assert earlier["screens"] == ["cover", "cover"]  # its button on the board: the cover first
    first, other = earlier["marked"]
    assert len(first) == 1 and len(other) == 1 and first != other  # its own earlier choice, marked, then the new
    assert earlier["ballot"] == earlier["first"]["vote"] and earlier["after"] == ["board", "board"]


def test_a_one_use_card_takes_a_second_tap_on_the_screen_as_on_a_phone(game):
    cards = game["cards"]
    assert cards
    for card in cards:
        armed = card["armed"]
        assert armed is not None and not armed["sent_by_first_tap"], card
        assert armed["text"].startswith(said("ui.confirm_again", choice="|").split("|")[0])  # "Sure? Tap again"
        assert card["taps"] <= card["phone"]  # "Play a card…", the card, again: no more than the phone's steps


def test_a_seat_whose_phone_went_is_said_on_the_board_beside_its_button(game):
    dropped = game["dropped"]
    assert dropped, "the seat whose phone went was never waited on"
    assert game["dropped_key"] in dropped["notes"]  # "phone off: answer here", under its button
    assert any(said("devices.seat_dropped", seat="green") in text for text in dropped["texts"])
