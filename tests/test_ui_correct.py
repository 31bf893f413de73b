"""The board is the truth, on the touchscreen: a game in progress entered by touch from the new-game screen ("Continue
a game in progress", then its board as it lies), played for a round, corrected by touch mid-game (from where Undo
is grey and says why, one tap away), then the box killed (SIGKILL) and started again on its save file: the
correction is there, undo takes it back, the narration says both. The editor refuses in the screen's language while
a secret ballot is half cast, and changes nothing. Every game with a board to correct (`edits`) is played so; the
toy game of tests/ always is. Screenshots of the editor at 800x480 in the four languages go to
tests/screenshots/ui-correct/<lang>/.

The app runs in a process of its own (one Kivy window per process): this file is also that process's script,
    python tests/test_ui_correct.py play|resume --game GAME --db SAVE --out REPORT
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
       "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), str(ROOT / "tests"), os.environ.get("PYTHONPATH")]))}
SHOTS = ROOT / "tests" / "screenshots" / "ui-correct"
READY = "READY"  # the child's line once its correction is stored: the parent kills it then
TOY = "lucky-die"


def games_with_edits() -> list[str]:
    from companion.games import GAMES

    return [TOY, *GAMES]  # every game says what may be corrected (the contract test checks it)


# -- the tests -----------------------------------------------------------------------------------------------------


def child(tmp: Path, phase: str, game: str, db: Path, *more: str) -> subprocess.Popen:
    out = tmp / f"{game}-{phase}.json"
    log = (tmp / f"{game}-{phase}.log").open("w")  # Kivy's log: a file, not a pipe that could fill and stall it
    return subprocess.Popen([sys.executable, str(ROOT / "tests" / "test_ui_correct.py"), phase, "--game", game,
                             "--db", str(db), "--out", str(out), *more], env=ENV, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=log, text=True)


def log_of(tmp: Path, game: str, phase: str) -> str:
    return (tmp / f"{game}-{phase}.log").read_text(encoding="utf-8", errors="replace")[-4000:]


def report_of(tmp: Path, game: str, phase: str) -> dict:
    return json.loads((tmp / f"{game}-{phase}.json").read_text(encoding="utf-8"))


def play_kill_resume(tmp: Path, game: str) -> dict:
    """Played by touch until a correction is stored; killed (SIGKILL) there; started again on its save file."""
    db = tmp / f"{game}.sqlite3"
    playing = child(tmp, "play", game, db)
    try:
        said = ""
        while said not in (READY, None):  # until the child says so, or dies (its stdout closes)
            said = playing.stdout.readline()
            said = said.strip() if said else None
        assert said == READY, f"the game was not played: {log_of(tmp, game, 'play')}"
        playing.send_signal(signal.SIGKILL)
        playing.wait(30)
    finally:
        if playing.poll() is None:
            playing.kill()
            playing.wait()
    assert playing.returncode == -signal.SIGKILL
    resuming = child(tmp, "resume", game, db)
    resuming.communicate(timeout=240)
    assert resuming.returncode == 0, log_of(tmp, game, "resume")
    return {"play": report_of(tmp, game, "play"), "resume": report_of(tmp, game, "resume"),
            "killed": playing.returncode}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, dict]:
    tmp = tmp_path_factory.mktemp("ui-correct")
    return {game: play_kill_resume(tmp, game) for game in games_with_edits()}


@pytest.mark.parametrize("game", games_with_edits())
def test_a_game_in_progress_is_entered_by_touch_from_the_new_game_screen(runs, game):
    entered = runs[game]["play"]["entered"]
    assert entered["screen"] == "correct" and entered["entering"]  # Continue opened the editor on its board
    assert entered["framed"], "no place of the board offers a fact to correct"
    assert entered["draft_lines"] and all("→" in line for line in entered["draft_lines"])
    assert entered["applied"] == entered["expected"]  # what was entered is what the table holds
    assert entered["after"] in ("board", "join")
    if game == TOY:  # Red's points in Red's zone, the round in the board's own list
        assert entered["expected"] == {"points.red": 1, "round": 2}
        assert "Red's points: 0 → 1" in entered["draft_lines"] and "The round: 1 → 2" in entered["draft_lines"]


@pytest.mark.parametrize("game", games_with_edits())
def test_the_game_entered_is_played_for_a_round_by_touch(runs, game):
    played = runs[game]["play"]["played"]
    assert played["answers"] >= 1 and played["round_after"] > played["round_before"] and not played["over"]


@pytest.mark.parametrize("game", games_with_edits())
def test_the_editor_refuses_while_a_secret_question_is_half_answered_and_changes_nothing(runs, game):
    refused = runs[game]["play"].get("refused")
    if game != TOY and refused is None:
        pytest.skip(f"no secret question of {game} was half answered in the answers played")
    assert refused["events_before"] == refused["events_after"] and refused["screen"] == "correct"
    assert refused["text"] and refused["text"] in refused["texts"]  # said on the screen, in its language
    assert refused["offered"] or not refused["apply"]  # (nothing offered: nothing to apply)
    if "shots" in refused:
        shots = refused["shots"]
        assert len(shots["paths"]) == 4 and not wrong_on(shots, game)
        assert all(said in shots["texts"][lang] for lang, said in refused["said"].items())
    if game == TOY:
        assert not refused["offered"] and refused["text"].startswith("A secret question is open")


@pytest.mark.parametrize("game", games_with_edits())
def test_where_undo_is_grey_it_says_why_beside_a_button_that_corrects_the_board(runs, game):
    grey = runs[game]["play"]["grey"]
    if game != TOY and grey is None:
        pytest.skip(f"Undo was never grey in {game}'s first round")
    assert grey["shown"] and grey["reason"] == grey["expected"] and grey["button"] == "Correct the board"
    assert grey["opened"] == "correct"  # one tap away
    if game == TOY:
        assert grey["key"] == "table.undo_why.rolled"


@pytest.mark.parametrize("game", games_with_edits())
def test_a_correction_by_touch_survives_a_kill_and_undo_takes_it_back(runs, game):
    run = runs[game]
    mid, resumed = run["play"]["mid"], run["resume"]
    assert run["killed"] == -signal.SIGKILL
    assert mid["applied"] == mid["expected"] and mid["can_undo"] >= 1
    assert len(mid["narrated"]) == len(mid["expected"]) and all(line in mid["board_texts"] for line in mid["narrated"])
    assert resumed["values"] == {**resumed["values"], **mid["expected"]}  # the save file held it
    assert all(line in resumed["board_texts"] for line in mid["narrated"])  # and the board says it again
    assert all(line in resumed["confirm_texts"] for line in mid["narrated"])  # undo names what it takes back
    assert resumed["undone_values"] == {**resumed["undone_values"], **mid["before"]}
    assert resumed["taken_back_shown"]
    if game == TOY:
        assert mid["narrated"] == ["Corrected: Blue's points 0 → 1"]
        assert resumed["undo_why"] == "Everything since the last roll or secret answer is taken back: correct the " \
                                      "board for what came before."


def wrong_on(shots: dict, game: str) -> list[str]:
    problems = shots["problems"]
    if game == TOY:  # the toy's own words are English only (no player reads them): what else is wrong is kept
        problems = [p for p in problems if not re.search(r"missing in [a-zA-Z-]+: toy\.|English left in", p)]
    return problems


@pytest.mark.parametrize("game", games_with_edits())
def test_the_editor_is_shot_in_four_languages_with_nothing_wrong_on_it(runs, game):
    shots = runs[game]["play"]["shots"]
    assert len(shots["paths"]) == 4 and all(Path(p).stat().st_size > 10_000 for p in shots["paths"])
    assert not wrong_on(shots, game)
    for lang, texts in shots["texts"].items():
        assert shots["draft"][lang] in texts, lang  # the draft line, in that language


@pytest.mark.parametrize("game", games_with_edits())
def test_continue_and_the_reason_undo_is_grey_fit_the_screen_in_four_languages(runs, game):
    play = runs[game]["play"]
    shots = [play["newgame_shots"], *([play["grey"]["shots"]] if play["grey"] else [])]
    for shot in shots:
        assert len(shot["paths"]) == 4 and not wrong_on(shot, game)
    continue_words = {"en": "Continue a game in progress", "zh-Hans": "继续进行中的游戏", "zh-Hant": "繼續進行中的遊戲",
                      "vi": "Tiếp tục ván đang chơi"}
    assert all(words in play["newgame_shots"]["texts"][lang] for lang, words in continue_words.items())


@pytest.mark.parametrize("game", games_with_edits())
def test_every_target_of_the_editor_is_big_enough_for_a_finger(runs, game):
    small = runs[game]["play"]["small_targets"]
    assert not small, small


# -- the child: the app by touch -------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("phase", choices=["play", "resume"])
    parser.add_argument("--game", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    import uikit  # noqa: F401  (opens the offscreen window, only in the child; registers the toy game when named)

    asyncio.run(play(args) if args.phase == "play" else resume(args))
    if args.phase == "play":
        print(READY, flush=True)
        signal.pause()  # the power is cut here (the parent's SIGKILL)
    return 0


def colours_for(game) -> list[str]:
    setup = game.SETUP
    return list(setup.colours[:max(setup.min_players, min(3, setup.max_players))])


async def play(args) -> None:
    from uikit import Driver, Glyphs, open_box, run_with

    from companion.cup import DiceCup
    from companion.games import GAMES
    from companion.ui.app import CompanionApp
    from companion.ui.widgets import Action

    game = GAMES[args.game]
    box = open_box(args.db)
    await box.open()
    if args.game == TOY:
        box.table.cup = DiceCup(scripted=[(6,)] * 10)  # guesses of 1 never score: the game goes on
    else:
        from seeded import SeededCup

        box.table.cup = SeededCup(7, nonces_seeded=False)  # the same game on every run (the first answers)
    app = CompanionApp(box, lang="en")
    report: dict = {}
    glyphs = Glyphs()

    async def script(d: Driver) -> None:
        table = app.table
        assert app.manager.current == "newgame", app.manager.current
        await d.tap(d.find(Action, lambda w: getattr(w, "game", None) == args.game))
        for colour in colours_for(game):
            await d.tap(d.find(Action, lambda w, c=colour: getattr(w, "colour", None) == c))
        report["newgame_shots"] = await shoot_screen(d, app, f"{args.game}-newgame", glyphs)
        await d.tap(app.manager.current_screen.ids.continue_game)
        editor = app.manager.current_screen
        entered = report["entered"] = {"screen": app.manager.current, "entering": editor.entering,
                                       "framed": [at for at in editor.places if at]}
        before = {e["id"]: e["value"] for e in table.edits()}
        if args.game == TOY:
            expected = await change(d, editor, "red", "points.red") | await change(d, editor, "", "round")
        else:
            expected = await change(d, editor)
        entered["draft_lines"] = [w.text for w in editor.ids.draft.children][::-1]
        await d.tap(editor.ids.apply)
        if args.game != TOY:
            expected = await until_taken(d, app, editor, expected)
        entered["expected"] = expected
        entered["after"] = app.manager.current
        values = {e["id"]: e["value"] for e in table.edits()}
        entered["applied"] = {key: values[key] for key in expected}
        entered["untouched"] = all(values[k] == v for k, v in before.items() if k not in expected and k in values)
        if app.manager.current == "join":
            await d.tap(app.manager.current_screen.ids.back)
        report["played"] = await play_a_round(d, app, report, glyphs)
        await grey_undo_and_correct(d, app, report, glyphs)

    try:
        await run_with(app, script)
    finally:
        await box.close()
    Path(args.out).write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")


async def change(d, editor, at: str | None = None, key: str | None = None) -> dict:
    """One fact changed by touch in the editor: the item `at` tapped on the board (or the board's own list), then +
    (or −, or another choice). Without `at`, the first framed item's first fact. Returns {edit id: new value}."""
    from companion.ui.widgets import Action

    if at is None:
        at = next((a for a in editor.places if a), "")
    if at in editor.small:  # too small for a finger on the board: its button
        await d.tap(d.find(Action, lambda w: getattr(w, "place", None) == at, editor.ids.places))
    elif at:
        await d.tap(editor.items[at][1])
    else:
        await d.tap(editor.ids.whole)
    assert editor.at == at, (editor.at, at)
    edit = next(e for e in editor.places[at] if key is None or e["id"] == key)
    buttons = [w for w in d.widgets(Action, editor.ids.facts) if getattr(w, "edit", None) == edit["id"]]
    if "choices" in edit:
        button = next(w for w in buttons if w.role == "choice" and w.value != edit["value"])
        value = button.value
    else:
        button = next(w for w in buttons if w.role == "plus" and w.enabled) if any(
            w.role == "plus" and w.enabled for w in buttons) else next(w for w in buttons if w.role == "minus")
        value = edit["value"] + (1 if button.role == "plus" else -1)
    await d.tap(button)
    assert editor.draft.get(edit["id"]) == value, (editor.draft, edit["id"], value)
    return {edit["id"]: value}


async def until_taken(d, app, editor, expected: dict) -> dict:
    """The board the rules found impossible (refused: still in the editor) is set aside, and the next place's first
    fact changed instead, until the table takes one. Returns what was taken."""
    candidates = [at for at in editor.places if at] + [""]
    while app.manager.current == "correct":
        assert editor.refused is not None and candidates, "the editor neither took nor refused the change"
        await d.tap(editor.ids.discard)
        expected = await change(d, editor, candidates.pop(0))
        await d.tap(editor.ids.apply)
    return expected


async def answer_once(d, app, report: dict) -> bool:
    """The table's next question answered by touch, whatever its kind; True once an answer is stored."""
    from companion.contract import ASSIGN, NUMBER
    from companion.ui.widgets import Action, SeatButton

    table = app.table
    screen = app.manager.current
    if screen == "board":
        seat = app.view["prompt"]["waiting"][0]
        await d.tap(d.find(SeatButton, lambda w: w.seat == seat))
        await d.until(lambda: app.manager.current != "board")
    elif screen == "cover":
        await d.tap(app.manager.current_screen.ids.go)
        await d.until(lambda: app.manager.current != "cover")
    elif screen == "rules":
        await d.tap(app.manager.current_screen.ids.close)
    elif screen == "join":
        await d.tap(app.manager.current_screen.ids.back)
    elif screen == "answer":
        question = table.question(app.manager.current_screen.seat)
        before = len(table.events)
        if question.kind == NUMBER:
            await d.tap(d.find(Action, lambda w: getattr(w, "answer_role", None) == "send"))
        elif question.kind == ASSIGN:
            for item in question.items:
                target = question.targets[-1].value
                await d.tap(d.find(Action, lambda w, i=item.value, t=target: getattr(w, "assign", None) == (i, t)))
            await d.tap(d.find(Action, lambda w: getattr(w, "answer_role", None) == "send"))
        else:
            action = dict(question.choices[0].action)
            found = [w for w in d.widgets(Action) if getattr(w, "answer_action", None) == action]
            if not found:  # cards folded away
                await d.tap(d.find(Action, lambda w: getattr(w, "answer_role", None) == "cards"))
                found = [w for w in d.widgets(Action) if getattr(w, "answer_action", None) == action]
            await d.tap(found[0])
            if d.armed(action) is not None:  # "Sure? Tap again"
                await d.tap(d.armed(action))
        if not await d.until(lambda: len(table.events) > before):
            raise RuntimeError(f"the {question.kind} answer was not taken")
        return True
    else:
        raise RuntimeError(f"unexpected screen {screen}")
    return False


async def play_a_round(d, app, report: dict, glyphs, most: int = 40) -> dict:
    """Answers by touch until the round goes on (and on, up to `most` answers, until a secret question is half
    answered); a correction is tried once while a secret question has an answer cast in it."""
    table = app.table
    start = table.view(None)["round"]
    answers = 0
    cast_in = None  # the secret question with an answer cast in it, while it is open
    for _ in range(500):
        if table.state.over or table.view(None)["round"] > start and ("refused" in report or answers >= most):
            break
        asked = table.rules.prompt(table.state)
        if "refused" not in report and app.manager.current == "board" and asked is not None and asked.id == cast_in:
            await refused_while_secret(d, app, report, glyphs)
        if await answer_once(d, app, report):
            answers += 1
            now = table.rules.prompt(table.state)
            cast_in = asked.id if asked.secret and now is not None and now.id == asked.id else None
    await d.settle(3)
    return {"answers": answers, "round_before": start, "round_after": table.view(None)["round"],
            "over": bool(table.state.over)}


async def refused_while_secret(d, app, report: dict, glyphs) -> None:
    """Menu, Correct the board, a change, Apply: refused in the screen's language; nothing changes; Cancel. (A game
    that offers nothing to correct meanwhile: the editor says so, and Apply stays grey.)"""
    table = app.table
    await d.tap(app.manager.current_screen.ids.menu)
    await d.tap(app.manager.current_screen.ids.correct)
    editor = app.manager.current_screen
    assert app.manager.current == "correct"
    events = len(table.events)
    offered = bool(editor.places)
    if offered:
        await change(d, editor)
    await d.tap(editor.ids.apply)
    refused = editor.refused
    from companion.contract import IllegalAction

    why = table.correct_why  # nothing offered while a secret answer is cast: the table's reason is said instead
    reason = refused if refused is not None else IllegalAction(why.key, **why.params) if why is not None else None
    said = reason.text(app.lang) if reason is not None else app.t("ui.correct.none")
    report["refused"] = {"events_before": events, "events_after": len(table.events), "screen": app.manager.current,
                         "offered": offered, "text": said, "texts": d.texts(), "apply": editor.ids.apply.enabled}
    if reason is not None:  # the refusal or the reason in each language, on the screen
        from companion.catalogue import LANGUAGES

        report["refused"]["shots"] = await shoot_screen(d, app, f"{table.rules.NAME}-editor-refused", glyphs)
        report["refused"]["said"] = {lang: reason.text(lang) for lang in LANGUAGES}
    await d.tap(editor.ids.cancel)
    assert app.manager.current == "board", app.manager.current


async def grey_undo_and_correct(d, app, report: dict, glyphs) -> None:
    """Where Undo is grey the board says why, and its button opens the editor; a change there, shot in four
    languages, applied: the board says it. (Without a grey Undo, the editor comes from the menu.)"""
    table = app.table
    # (first-game explanations, the join screen; and a secret question with an answer cast answered to its end:
    # nothing can be corrected until then, and the editor would say so)
    while app.manager.current != "board" or (table.correct_why is not None and not table.state.over):
        await answer_once(d, app, report)
    board = app.manager.current_screen
    await d.settle(3)
    why = app.view.get("undo_why")
    report["grey"] = None
    if not board.ids.undo.enabled and why:
        report["grey"] = {"reason": board.ids.undo_reason.text, "expected": app.words.say(why), "key": why["key"],
                          "button": board.ids.correct.text, "shown": board.ids.undo_why.parent is not None}
        report["grey"]["shots"] = await shoot_screen(d, app, f"{table.rules.NAME}-board-undo-why", glyphs)
        await d.tap(board.ids.correct)
        report["grey"]["opened"] = app.manager.current
    else:
        await d.tap(board.ids.menu)
        await d.tap(app.manager.current_screen.ids.correct)
    editor = app.manager.current_screen
    assert app.manager.current == "correct"
    before = {e["id"]: e["value"] for e in table.edits()}
    expected = await change(d, editor, *(("blue", "points.blue") if app.table.rules.NAME == TOY else ()))
    report["small_targets"] = small_targets(d, editor)
    lines = len(table.narration())
    report["shots"] = await shoot_screen(d, app, f"{table.rules.NAME}-editor", glyphs)
    report["shots"]["draft"] = draft_said(editor)
    await d.tap(editor.ids.apply)
    expected = await until_taken(d, app, editor, expected)
    await d.settle(3)
    values = {e["id"]: e["value"] for e in table.edits()}
    narrated = [app.words.say(e.message) for e in table.narration()[lines:] if e.message.key == "correction.n.changed"]
    report["mid"] = {"expected": expected, "before": {key: before[key] for key in expected},
                     "applied": {key: values[key] for key in expected}, "can_undo": table.can_undo,
                     "narrated": narrated, "board_texts": d.texts(), "screen": app.manager.current}


def small_targets(d, editor) -> list[str]:
    """The editor's buttons smaller than a finger (48 px at 800x480), and the board's framed items smaller than one
    that no button offers."""
    from companion.ui.widgets import TARGET, Action

    out = [f"{w.text!r} {w.width:.0f}x{w.height:.0f}" for w in d.widgets(Action, editor)
           if w.opacity and (w.width < TARGET - 1 or w.height < TARGET - 1)]
    offered = {w.place for w in d.widgets(Action, editor.ids.places)}
    out += [f"{at} {w.width:.0f}x{w.height:.0f}" for at, (_name, w) in editor.items.items()
            if at in editor.places and (w.width < TARGET - 1 or w.height < TARGET - 1) and at not in offered]
    return out


async def shoot_screen(d, app, name: str, glyphs) -> dict:
    """The screen as it is, in the four languages, into tests/screenshots/ui-correct/<lang>/<name>.png, with
    what is wrong on each (uikit's checks: overflow, missing glyphs, words left untranslated)."""
    report: dict = {"shots": [], "problems": []}

    def path_of(lang: str) -> Path:
        folder = SHOTS / lang
        folder.mkdir(parents=True, exist_ok=True)
        return folder / f"{name}.png"

    report["texts"] = await d.shoot_languages(path_of, glyphs, report)
    report["paths"] = report.pop("shots")
    return report


def draft_said(editor) -> dict[str, str]:
    """The draft's first line as the editor says it, in each language."""
    from companion.catalogue import LANGUAGES, catalogue
    from companion.contract import Message

    key, value = next(iter(editor.draft.items()))
    edit = editor.edits[key]
    line = Message("ui.correct.change", {"what": edit["label"], "was": editor.said(edit, edit["value"]),
                                         "now": editor.said(edit, value)})
    return {lang: catalogue().text(line, lang) for lang in LANGUAGES}


async def resume(args) -> None:
    from uikit import Driver, open_box, run_with

    from companion.ui.app import CompanionApp

    box = open_box(args.db)
    await box.open()
    app = CompanionApp(box, lang="en")
    report: dict = {}

    async def script(d: Driver) -> None:
        table = app.table
        await d.settle(3)
        assert app.manager.current == "board", app.manager.current
        board = app.manager.current_screen
        report["values"] = {e["id"]: e["value"] for e in table.edits()}
        report["board_texts"] = d.texts()
        await d.tap(board.ids.undo)
        assert app.manager.current == "confirm", app.manager.current
        report["confirm_texts"] = d.texts()
        await d.tap(app.manager.current_screen.ids.yes)
        await d.settle(3)
        report["undone_values"] = {e["id"]: e["value"] for e in table.edits()}
        report["taken_back_shown"] = app.t("ui.undone") in d.texts()
        report["undo_why"] = board.ids.undo_reason.text if board.ids.undo_why.parent is not None else None

    try:
        await run_with(app, script)
    finally:
        await box.close()
    Path(args.out).write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
