"""The touchscreen app plays whole games by touch, offscreen: the real app, the real box (table, save file, phone
server, pads), touch events on the widgets, while a phone (the real page in Chromium) and a GPIO pad (gpiozero's
mock pins, pressed from another thread) answer for their seats. Each game runs in a process of its own (one Kivy
window per process). What the table would hear (its sounds, the spoken narration) is recorded, not played."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from companion.games import mall_of_horror
from companion.ui.sound import sound_for, spoken

ROOT = Path(__file__).parents[1]
ENV = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
       "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def drive(tmp: Path, *args: str) -> dict:
    out = tmp / f"report-{'-'.join(a.strip('-') for a in args) or 'game'}.json"
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "uikit.py"), "game", "--out", str(out),
                           "--tmp", str(tmp), *args], env=ENV, cwd=ROOT, capture_output=True, text=True,
                          timeout=240)
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> dict[str, dict]:
    """Mall of Horror in English, in 繁體中文 and in Tiếng Việt in first-game mode, and Lucky Die, each by touch,
    two at a time."""
    tmp = tmp_path_factory.mktemp("ui-games")
    runs = {"en": ("--lang", "en"), "zh-Hant": ("--lang", "zh-Hant", "--seed", "11", "--players",
                                                   "red,yellow,blue,green", "--phone", "green", "--pad", "blue"),
            "toy": ("--game", "lucky-die"),
            "first": ("--lang", "vi", "--seed", "7", "--first-game")}
    with ThreadPoolExecutor(2) as pool:
        futures = {name: pool.submit(drive, tmp, *args) for name, args in runs.items()}
        return {name: future.result() for name, future in futures.items()}


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_whole_game_of_mall_of_horror_is_played_by_touch_to_its_end(games, lang):
    report = games[lang]
    assert report["over"] and report["winners"] == report["expected_winners"]
    assert report["final_screen"] == "end"
    assert {"board", "answer", "cover", "end"} <= set(report["screens"])
    assert report["on_board"] > 10  # one seat asked, nothing secret: answered on the board itself
    assert report["grace_row"]  # the new-game form's grace, chosen by touch


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_every_line_of_the_narration_appears_on_the_screen(games, lang):
    report = games[lang]
    seen = "\n".join(report["seen"])
    missing = [line for line in report["narration"] if line not in seen]
    assert len(report["narration"]) > 50
    assert not missing, f"{len(missing)} line(s) never shown: {missing[:5]}"
    assert len(report["order"]) > 20 and all(report["order"]), "the narration is not newest first"


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_collection_walks_only_what_the_game_made_not_the_screens_made_ahead(games, lang):
    """The screens and lines made ahead live as long as the app: set aside from Python's collections, which
    otherwise walked them all (15-25 ms) each time they looked for the widgets a step dropped."""
    collected = games[lang]["collected"]
    assert collected["ahead"] > 3 and collected["walked"] == 0, collected


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_long_round_shows_its_newest_lines_and_opens_history_for_the_others(games, lang):
    more = games[lang]["more"]
    assert more["round_lines"] > more["limit"]  # the round said more than the board shows
    assert more["shown"] <= more["limit"]
    assert more["screen"] == "history" and more["scroll_y"] < 0.05 and more["newest_visible"]


def test_a_phone_and_a_pad_answer_for_their_seats_while_the_screen_answers_for_the_others(games):
    report = games["zh-Hant"]
    phone, pad = report["phone"], report["pad"]
    assert phone["seat"] == "green" and phone["answers"] > 3 and phone["acks"] == phone["answers"]
    assert not phone["errors"]
    assert all(re.search("[\u4e00-\u9fff]", title) for title in phone["titles"])  # the page speaks 繁體中文 too
    assert pad["seat"] == "blue" and pad["answers"] > 3  # pressed on the pad whenever its buttons hold the answer
    assert "用手機" in "\n".join(report["seen"])  # the board marks the seat that answers on its phone
    assert "已連上手機" in "\n".join(report["join_texts"])  # and the join screen says it is connected


def test_the_table_hears_the_dice_the_reveals_and_the_breaches_unless_muted(games):
    report = games["zh-Hant"]
    heard = report["sound"]
    made = {sound_for(key, mall_of_horror.SOUNDS) for key in report["keys"]} - {None}
    assert made == {"dice", "reveal", "breach"}  # this game has all three
    assert set(heard["played"]) == made
    assert heard["unmuted_at"] > heard["muted_at"]  # muted while lines that make a sound came
    assert heard["played_muted"] == heard["played_before"]  # and none was heard


def test_the_narration_is_spoken_in_the_screens_language_once_switched_on(games):
    report = games["zh-Hant"]
    heard = report["sound"]
    spoken_lines = [text for text, _lang in heard["spoken"]]
    assert {lang for _text, lang in heard["spoken"]} == {"zh-Hant"}
    lines = report["narration"]
    wanted = [said for said in (spoken(line, "zh-Hant") for line in lines[heard["spoken_from"]:]) if said]
    assert len(wanted) > 50
    missing = [line for line in wanted if line not in spoken_lines]  # each line said on its own, symbols as words
    assert not missing, missing[:5]
    assert heard["spoken_muted"] > heard["spoken_before"]  # the sound effects' switch leaves the voice on
    assert report["private"] and not any(spoken(line, "zh-Hant") in spoken_lines for line in report["private"])


def test_undo_asks_first_and_says_what_it_takes_back(games):
    undo = games["en"]["undo"]
    assert undo and undo["can_undo"] >= 1
    shown = "\n".join(undo["shown"])
    assert "Take back the last answer?" in shown
    assert all(line in shown for line in undo["preview"])  # the lines that go are named before
    assert "Taken back:" in "\n".join(undo["after"])  # and the board says what was taken back


def test_the_secret_dice_show_only_behind_the_hand_over_cover(games):
    peeks = games["en"]["peeks"]
    assert peeks, "no look at the secret dice was offered on the board"
    for peek in peeks:
        assert not any(ch.isdigit() for ch in peek["button"])  # the board's button names the dice, never shows them
        assert peek["screen"] == "cover" and "Hand the screen to" in "\n".join(peek["cover"])
        assert not any(line in text for line in peek["lines"] for text in peek["cover"])  # nothing yet
        assert peek["stage"] == "secret" and peek["secret"].splitlines() == peek["lines"]  # then the dice
        assert any(ch.isdigit() for ch in peek["lines"][0])
        assert peek["back"] == "board"  # hidden again
        assert not any(line in text for line in peek["lines"] for text in peek["after"])


def test_a_game_only_the_tests_know_plays_by_touch_with_its_board_drawn_from_its_parts(games):
    toy = games["toy"]
    assert toy["over"] and toy["winners"]
    assert toy["kinds"] == ["assign", "ballot", "number"]
    seen = "\n".join(toy["seen"])
    assert all(line in seen for line in toy["narration"])
    assert "cannot draw this game's board" not in seen
    board = "\n".join(toy["board_texts"])  # its zones (a seat's name and points), its grid (the die's faces)
    assert "Round 1" in board and "Red" in board and "Blue" in board and "points" in board
    assert all(str(face) in toy["board_texts"] for face in range(1, 7))
    assert "★ the Sun token · ◆ the Moon token · the guess is lit" in board
    assert Path(toy["board_shot"]).stat().st_size > 10_000


def test_first_game_mode_explains_every_kind_of_step_once_and_never_twice(games):
    report = games["first"]
    assert report["over"] and report["winners"] == report["expected_winners"]
    explained = report["first"]["explained"]
    assert len(explained) == len(set(explained)), f"explained twice: {explained}"
    book = mall_of_horror.RULES
    met = {book.rule_of(key) for key in report["keys"]}
    assert met <= set(explained), f"met but never explained: {sorted(met - set(explained))}"
    assert len(explained) >= 10
    words = "\n".join(text for texts in report["first"]["texts"] for text in texts)
    assert "Lần đầu trong ván này" in words and "Đã hiểu" in words  # said in the table's language


def test_a_tap_on_a_line_and_why_beside_a_question_show_the_rule_behind_them(games):
    first = games["first"]["first"]
    line, question = first["why_line"], first["why_question"]
    assert line is not None and line["items"][0][0] == line["rule"] and not line["first"]
    assert line["line"].endswith("ℹ") and line["back"] == "board"
    assert question is not None and question["items"] and tuple(question["back"]) == ("answer", question["seat"])
