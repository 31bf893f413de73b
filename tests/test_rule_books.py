"""Every game's rule book (contract.RuleBook) is whole in the four languages: every question title and every line of
the narration has the rule behind it, every rule its name and its text, the moment's facts only from parameters
the messages behind it have, and every table option that changes a rule says so."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from companion.catalogue import LANGUAGES, catalogue, placeholders
from companion.games import GAMES

sys.path.insert(0, str(Path(__file__).parent))
import toy_game  # noqa: E402

NAMES = [*GAMES, toy_game.NAME]
CJK = re.compile("[\u4e00-\u9fff]")


def texts(books, key: str) -> dict[str, str]:
    """The key's text in each language (the singular form of a plural)."""
    out = {}
    for lang in LANGUAGES:
        raw = books.messages[lang].get(key)
        out[lang] = raw[0] if isinstance(raw, tuple) else raw
    return out


def spoken(books, keys) -> list[str]:
    return [key for key in books.messages["en"] if any(key.startswith(prefix) for prefix in keys)]


@pytest.mark.parametrize("name", NAMES)
def test_every_question_and_every_line_has_its_rule_and_every_rule_its_words(name, lucky_die):
    rules = GAMES[name]
    book = rules.RULES
    books = catalogue()
    family = book.family
    ids = book.rules
    assert len(ids) == len(set(ids)), "a rule is listed twice"
    assert set(book.about.values()) <= set(ids), sorted(set(book.about.values()) - set(ids))
    asked_or_said = spoken(books, [f"{family}.q.", f"{family}.n."])
    assert asked_or_said, f"{name} has no question titles or narration keys"
    orphans = [key for key in asked_or_said if book.rule_of(key) is None]
    assert not orphans, f"{name}: no rule behind {orphans}"

    problems = []
    for phase, _ in book.phases:
        key = f"{family}.rules.phase.{phase}"
        problems += [f"{key} [{lang}]" for lang, text in texts(books, key).items() if not text]
    for rule in ids:
        behind = [key for key in asked_or_said if book.rule_of(key) == rule]
        for part in ("title", ""):
            key = f"{family}.rules.{rule}" + (f".{part}" if part else "")
            for lang, text in texts(books, key).items():
                if not text:
                    problems.append(f"{key} [{lang}]: missing")
                elif placeholders(text):
                    problems.append(f"{key} [{lang}]: a placeholder in the book's own words")
                elif lang.startswith("zh") and not CJK.search(text):
                    problems.append(f"{key} [{lang}]: not Chinese")
            if texts(books, key)["vi"] == texts(books, key)["en"]:
                problems.append(f"{key} [vi]: the English text")
        now = f"{family}.rules.{rule}.now"
        said = texts(books, now)
        if said["en"]:
            english = placeholders(said["en"])
            problems += [f"{now} [{lang}]: placeholders differ" for lang, text in said.items()
                         if text is None or placeholders(text) != english]
            for key in behind:  # the facts come from the parameters of every message the rule is behind
                missing = english - placeholders(texts(books, key)["en"])
                if missing:
                    problems.append(f"{now}: {key} has no {sorted(missing)}")
    option_names = {option.name for option in rules.SETUP.options}
    for rule, names in book.options.items():
        assert rule in ids and set(names) <= option_names, (rule, names)
        for option in names:
            notes = [key for key in books.messages["en"] if key.startswith(f"{family}.rules.option.{option}.")]
            if not notes:
                problems.append(f"{family}.rules.option.{option}.*: no value of the option says what it changes")
            for key in notes:
                problems += [f"{key} [{lang}]: missing" for lang, text in texts(books, key).items() if not text]
    assert not problems, f"{name}: {len(problems)} problem(s): {problems[:12]}"


@pytest.mark.parametrize("name", NAMES)
def test_every_rule_is_in_a_phase_of_the_whole_book(name, lucky_die):
    book = GAMES[name].RULES
    assert book.phases and all(rules for _, rules in book.phases)
    assert len({phase for phase, _ in book.phases}) == len(book.phases)
