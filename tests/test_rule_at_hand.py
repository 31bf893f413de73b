"""The rule at hand in the table's views: every line, the prompt and a seat's question name the rule behind them,
the view carries that rule's words (and the table options in force that change it), and first-game mode names each
rule once, at the first moment the game meets it. Played with every registered game and the toy."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import pytest
from test_every_seat_asked_can_answer import accepted, shown_answers

from companion.catalogue import catalogue
from companion.cup import DiceCup
from companion.games import GAMES
from companion.store import EventStore
from companion.table import Table

sys.path.insert(0, str(Path(__file__).parent))
import toy_game  # noqa: E402

NAMES = [*GAMES, toy_game.NAME]


def play(table: Table, rng: random.Random, most: int = 400):
    """Answer at random until the end (or `most` answers); yield after each answer."""
    rules = table.rules
    for _ in range(most):
        if table.state.over:
            return
        prompt = rules.prompt(table.state)
        seat = rng.choice(prompt.seats)
        answers = list(prompt.options[seat]) or shown_answers(table.question(seat), rng)
        rng.shuffle(answers)
        table.answer(next(a for a in answers if accepted(rules, table.state, a)))
        yield


@pytest.mark.parametrize("name", NAMES)
def test_every_line_and_question_names_its_rule_and_the_view_holds_its_words(name, lucky_die):
    table = Table(None, DiceCup())
    setup = GAMES[name].SETUP
    table.new_game(name, list(setup.colours[:setup.min_players]))
    book, books = table.rules.RULES, catalogue()
    rng = random.Random(name)
    seen_rules, nows = set(), 0
    for _ in play(table, rng, 150):
        for seat in [None, *table.state.players]:
            view = table.view(seat)
            tagged = [*view["narration"], *view.get("narration_mine", []),
                      *([view["question"]] if view.get("question") else []),
                      *([view["prompt"]] if view["prompt"] and "title" in view["prompt"] else [])]
            for item in tagged:
                key = item["key"] if "key" in item else item["title"]["key"]
                assert item.get("rule") == book.rule_of(key), (key, item.get("rule"))
                assert item["rule"] in view["rules"], f"{key}: the view lacks the words of {item['rule']}"
                words = view["rules"][item["rule"]]
                for message in [words["title"], words["text"], *words["options"]]:
                    assert books.has(message["key"]), message["key"]
                if "now" in item:
                    nows += 1
                    assert books.has(item["now"]["key"])
                seen_rules.add(item["rule"])
    assert len(seen_rules) >= 3, seen_rules
    assert nows or name == "lucky-die" and not table.state.over  # the toy says its facts at the points only


def test_an_option_in_force_that_changes_a_rule_is_said_with_it(lucky_die):
    for target, said in ((1, "toy.rules.option.target.1"), (2, "toy.rules.option.target.2")):
        table = Table(None, DiceCup())
        table.new_game("lucky-die", ["red", "blue"], {"target": str(target)})
        words = table.rules_at_hand().words("points")
        assert [m["key"] for m in words["options"]] == [said]
        assert [m["key"] for m in table.rules_at_hand().words("vote")["options"]] == []  # no option changes it


@pytest.mark.parametrize("name", NAMES)
def test_first_game_mode_names_each_rule_once_at_the_first_moment_the_game_meets_it(name, lucky_die, tmp_path):
    db = tmp_path / "first.sqlite3"
    table = Table(EventStore(db), DiceCup())
    table.first_game_mode = True
    setup = GAMES[name].SETUP
    table.new_game(name, list(setup.colours[:setup.min_players]))
    book = table.rules.RULES
    rng = random.Random(f"first {name}")
    named: dict[str, int] = {}  # rule -> the moment (answers so far) it was first named
    moments = [table.view(None)["first"]]
    for _ in play(table, rng, 120):
        moments.append(table.view(None)["first"])
    for moment, rules in enumerate(moments):
        for rule in rules:
            assert rule in book.rules
            assert named.setdefault(rule, moment) == moment, f"{rule} named again at {moment}"
    met = {book.rule_of(line.message.key) for line in table.narration() if not line.seats}
    assert met <= set(named), f"met but never named: {sorted(met - set(named))}"

    # A power cut: the table read back names nothing already met before the last answer.
    last = moments[-1]
    table.store.close()
    again = Table(EventStore(db), DiceCup())
    again.first_game_mode = True
    if again.resume() is not None:
        assert again.view(None)["first"] == last
    again.store.close()


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant", "vi"])
@pytest.mark.parametrize("name", NAMES)
def test_companion_rules_prints_every_phase_and_rule_in_each_language(name, lang, lucky_die, capsys):
    from companion.cli import main

    options = {"target": "1"} if name == "lucky-die" else None
    assert main(["rules", name, "--lang", lang, *(["--options", json.dumps(options)] if options else [])]) == 0
    out = capsys.readouterr().out
    books = catalogue()
    book = GAMES[name].RULES
    for phase, rules in book.phases:
        assert books.raw(f"{book.family}.rules.phase.{phase}", lang) in out
        for rule in rules:
            assert books.raw(f"{book.family}.rules.{rule}.title", lang) in out
            assert books.raw(f"{book.family}.rules.{rule}", lang) in out
    assert not re.search(r"\{[a-z_]+\}", out) and f"{book.family}.rules." not in out  # no placeholder, no raw key
    if name == "lucky-die":
        assert books.raw("toy.rules.option.target.1", lang) in out


def test_companion_rules_refuses_an_unknown_game_and_bad_options_in_one_line(capsys, lucky_die):
    from companion.cli import main

    assert main(["rules", "chess"]) == 2
    assert main(["rules", "lucky-die", "--options", "{"]) == 2
    assert main(["rules", "lucky-die", "--options", '{"target": "9"}']) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 3 and all(line.startswith("companion rules: ") for line in errors)
