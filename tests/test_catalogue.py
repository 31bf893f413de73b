"""The one catalogue: every message in the four languages, the same placeholders, no English left behind, and
every key the code and the page use is in it."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.catalogue import LANGUAGES, Catalogue, catalogue, folder, language, placeholders, say
from companion.contract import Message
from companion.cup import DiceCup
from companion.games import GAMES
from companion.simulate import random_game
from companion.table import Table

ROOT = Path(__file__).parents[1]
OTHERS = [lang for lang in LANGUAGES if lang != "en"]
# Names the players keep in English (../shared/rules/glossary.md) and words of the trade that stay as they are.
KEPT = ["Mall of Horror", "Pin-up", "Tough Guy", "Gunman", "Little Girl", "Cachou", "Megatoys", "Parking Lot",
        "Parking", "Security HQ", "Security Camera", "Threat", "Sprint", "Hardware", "Hidden", "Shotgun", "Chainsaw",
        "Grenades", "Gun", "Fire Axe", "Baseball Bat", "Action", "Voting Wheel", "Closed", "zombie", "Zombie",
        "Wi-Fi", "QR", "SHA-256", "GPIO", "USB", "OK", "Chief", "Weapon", "Lucky Die", "JSON", "firmware",
        "zh-Hans", "zh-Hant"]
ENGLISH_WORDS = re.compile(r"\b(the|and|your|you|is|are|of|with|to|for|not|this|that|has|have|from|who|what|"
                           r"cannot|must|now|here|there|will|waits?|votes?|dice|players?)\b", re.IGNORECASE)


def roots() -> list[Path]:
    return [ROOT / "companion" / "locale"] + [game.LOCALE for game in GAMES.values()]


def entries(lang: str) -> dict[str, tuple[str, ...]]:
    """key -> its forms, from every .po file of the language (and the file each comes from)."""
    found: dict[str, tuple[str, ...]] = {}
    for root in roots():
        for path in sorted((root / folder(lang)).glob("*.po")):
            with path.open("rb") as handle:
                for message in read_po(handle):
                    if message.id:
                        key = message.id[0] if isinstance(message.id, tuple) else message.id
                        forms = message.string if isinstance(message.string, tuple) else (message.string,)
                        found[key] = tuple(forms)
    return found


@pytest.fixture(scope="module")
def english() -> dict[str, tuple[str, ...]]:
    return entries("en")


@pytest.mark.parametrize("lang", OTHERS)
def test_every_message_exists_in_every_language(english, lang):
    other = entries(lang)
    missing = sorted(k for k in english if not any(other.get(k, ())))
    extra = sorted(set(other) - set(english))
    assert not missing, f"{lang} lacks {len(missing)} message(s): {missing[:20]}"
    assert not extra, f"{lang} has message(s) English does not: {extra[:20]}"


@pytest.mark.parametrize("lang", OTHERS)
def test_every_translation_keeps_the_placeholders_of_its_message(english, lang):
    other = entries(lang)
    wrong = []
    for key, forms in english.items():
        wanted = set().union(*(placeholders(f) for f in forms)) - {"count"}
        for form in other.get(key, ()):
            if form and placeholders(form) - {"count"} != wanted:
                wrong.append(f"{key}: {sorted(placeholders(form))} instead of {sorted(wanted)}")
    assert not wrong, "\n".join(wrong[:30])


def test_english_messages_are_not_empty_and_plural_forms_say_their_count(english):
    for key, forms in english.items():
        assert all(f.strip() for f in forms), key
        if len(forms) > 1:
            assert all("{count}" in f for f in forms[1:]), f"{key}: the plural form must say {{count}}"


def _left_english(text: str) -> str:
    text = re.sub(r"\{[a-z_]+\}", " ", text)
    text = re.sub(r'"[a-z_]+"', " ", text)  # a protocol's field name, quoted as the device must write it
    for name in sorted(KEPT, key=len, reverse=True):
        text = text.replace(name, " ")
    return text


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_no_english_is_left_in_the_chinese_catalogues(lang):
    left = []
    for key, forms in entries(lang).items():
        for form in forms:
            if re.search(r"[A-Za-z]{3,}", _left_english(form)):
                left.append(f"{key}: {form}")
    assert not left, "\n".join(left[:30])


def test_no_english_is_left_in_the_vietnamese_catalogue(english):
    left = []
    for key, forms in entries("vi").items():
        for form, english_form in zip(forms, english.get(key, ()) * len(forms), strict=False):
            rest = _left_english(form)
            same = form == english_form and re.search(r"[A-Za-z]{3,}", rest)
            if same or ENGLISH_WORDS.search(rest):
                left.append(f"{key}: {form}")
    assert not left, "\n".join(left[:30])


def test_the_english_check_finds_english_where_it_was_left():
    assert re.search(r"[A-Za-z]{3,}", _left_english("{colour} cannot vote now"))
    assert not re.search(r"[A-Za-z]{3,}", _left_english("{colour} 的 Pin-up 在 Megatoys"))
    assert ENGLISH_WORDS.search(_left_english("{colour} is not asked"))
    assert not ENGLISH_WORDS.search(_left_english("{colour} không được hỏi gì lúc này"))


# -- every key the code and the page use ----------------------------------------------------------------------

KEY_IN_CODE = re.compile(r"""(?:\bmsg|Message|IllegalAction|TableError|Refusal|BadMessage|line|say)\(\s*"""
                         r"""(?:[a-z_.]+\s*,\s*)?["']([a-z_]+\.[a-z0-9_.]+)["']""")
KEY_IN_PAGE = re.compile(r"""["'`]((?:page|colour|list|table|protocol)\.[a-z0-9_.]+)["'`]""")


def test_every_key_written_in_the_code_is_in_the_catalogue(english):
    missing = []
    for path in (ROOT / "companion").rglob("*.py"):
        for key in KEY_IN_CODE.findall(path.read_text(encoding="utf-8")):
            if key not in english and not key.endswith("."):
                missing.append(f"{path.relative_to(ROOT)}: {key}")
    assert not missing, "\n".join(missing)


def test_every_key_the_page_uses_is_in_the_catalogue(english):
    missing = []
    for path in (ROOT / "companion" / "web" / "static").rglob("*.js"):
        for key in KEY_IN_PAGE.findall(path.read_text(encoding="utf-8")):
            if key not in english and not key.endswith("."):
                missing.append(f"{path.relative_to(ROOT)}: {key}")
    assert not missing, "\n".join(missing)


def _messages(value, out: list[Message]) -> None:
    """Every message inside a view, a question or a line, found by its shape {"key", "params"}."""
    if isinstance(value, dict):
        if isinstance(value.get("key"), str) and isinstance(value.get("params"), dict):
            out.append(Message(value["key"], value["params"]))
        for item in value.values():
            _messages(item, out)
    elif isinstance(value, list):
        for item in value:
            _messages(item, out)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_message_met_in_random_whole_games_renders_in_every_language(name):
    rules = GAMES[name]
    found: list[Message] = []
    _messages(rules.SETUP.to_json(name), found)
    rng = random.Random(8)
    for players in ([*rules.SETUP.colours[:3]], [*rules.SETUP.colours[:6]]):
        players = players[:rules.SETUP.max_players]
        events, _ = random_game(rules, players, rng)
        dice = [tuple(e["roll"]) for e in events if "roll" in e]
        table = Table(cup=DiceCup(scripted=dice, picks=[e["pick"] for e in events if "pick" in e]))
        table.new_game(name, players)
        for event in events:
            if "roll" in event or "pick" in event:
                continue  # the table's cup rolls them, scripted
            for seat in (None, *table.state.players):
                _messages(table.view(seat), found)
            table.answer(event)
        assert table.state.over
        found += [entry.message for entry in table.narration()]
    keys = {m.key for m in found}
    assert len(keys) > 30
    books = catalogue()
    for message in {(m.key, repr(sorted(m.params.items()))): m for m in found}.values():
        for lang in LANGUAGES:
            rendered = books.text(message, lang)
            assert books.has(message.key, lang), f"{message.key} is missing in {lang}"
            assert "{" not in rendered and message.key not in rendered, (lang, message, rendered)


def test_terms_and_lists_are_rendered_in_the_readers_language():
    assert say("pads.given", "en", pad=2, seat="red") == "Pad 2 is Red's now."
    books = catalogue()
    assert books.join(["A", "B", "C"], "en") == "A, B and C"
    assert books.term("colours", ["red", "blue"], "en") == "Red and Blue"
    assert books.term("colours", ["red", "blue"], "zh-Hans") != "Red and Blue"


def test_a_plural_follows_the_count_in_english():
    assert say("table.undo_limit", count=1).startswith("Only 1 step can")
    assert say("table.undo_limit", count=2).startswith("Only 2 steps can")


def test_a_language_is_found_from_what_a_browser_or_a_person_says():
    assert [language(x) for x in ("vi", "vi-VN", "zh-CN", "zh-TW", "zh_Hant", "zh-hk", "fr", None, 3)] == [
        "vi", "vi", "zh-Hans", "zh-Hant", "zh-Hant", "zh-Hant", "en", "en", "en"]


def test_a_key_defined_twice_is_refused(tmp_path):
    (tmp_path / "en").mkdir()
    po = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a.b"\nmsgstr "A"\n'
    (tmp_path / "en" / "one.po").write_text(po)
    (tmp_path / "en" / "two.po").write_text(po)
    with pytest.raises(ValueError, match="defined twice"):
        Catalogue([tmp_path], {})


def test_the_page_gets_its_languages_catalogue_with_english_where_a_message_is_missing():
    page = catalogue().page("vi")
    assert page["lang"] == "vi" and page["plural"] == "one" and page["families"]["mall"]["location"] == "mall.location"
    assert page["messages"]["colour.red"] != "Red"
    assert set(page["messages"]) >= set(catalogue().messages["en"])


def _po(folder: Path, messages: dict[str, str]) -> None:
    (folder / "en").mkdir(parents=True)
    body = "".join(f'msgid "{key}"\nmsgstr "{text}"\n\n' for key, text in messages.items())
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    (folder / "en" / "words.po").write_text(header + body)


def test_a_games_terms_hold_within_its_own_messages_so_two_games_may_name_a_parameter_alike(tmp_path):
    from companion.catalogue import CORE_TERMS

    _po(tmp_path / "table", {"colour.red": "Red", "ui.said": "{place} said by {colour}", "ui.about": "About {what}"})
    _po(tmp_path / "alpha", {"alpha.n": "{colour} goes to {place}", "alpha.place.4": "the Parking"})
    _po(tmp_path / "beta", {"beta.n": "{colour} digs at {place}", "beta.place.4": "the fourth well"})
    books = Catalogue([tmp_path / "table"], CORE_TERMS, [(tmp_path / "alpha", {"place": "alpha.place"}),
                                                         (tmp_path / "beta", {"place": "beta.place"})])
    assert books.text(Message("alpha.n", {"colour": "red", "place": 4})) == "Red goes to the Parking"
    assert books.text(Message("beta.n", {"colour": "red", "place": 4})) == "Red digs at the fourth well"
    assert books.text(Message("ui.said", {"place": 4, "colour": "red"})) == "4 said by Red"  # the table's own
    nested = {"key": "beta.n", "params": {"colour": "red", "place": 4}}  # a message inside a message: its own terms
    assert books.text(Message("ui.about", {"what": nested})) == "About Red digs at the fourth well"
    page = books.page("en")
    assert page["families"] == {"alpha": {**CORE_TERMS, "place": "alpha.place"},
                                "beta": {**CORE_TERMS, "place": "beta.place"}}
    assert page["terms"] == CORE_TERMS


def test_two_games_with_one_family_of_messages_are_refused(tmp_path):
    _po(tmp_path / "alpha", {"alpha.n": "A"})
    _po(tmp_path / "other", {"alpha.m": "B"})
    with pytest.raises(ValueError, match="family 'alpha' is another game's"):
        Catalogue([], {}, [(tmp_path / "alpha", {}), (tmp_path / "other", {})])


def test_every_registered_game_has_a_family_of_its_own_with_its_terms():
    books = catalogue()
    for game in GAMES.values():
        (family,) = {key.split(".")[0] for key in books.messages["en"] if books.sources[key].startswith(
            str(game.LOCALE))}
        assert books.families[family] == {**books.terms, **game.TERMS}



def test_district_z_and_zombiegeddon_each_name_a_parameter_kind_and_each_says_its_own():
    books = catalogue()
    assert books.text(Message("dz.item", {"kind": "dual", "attack": 1, "health": 0})).startswith(
        "item card: " + books.text(Message("dz.kind.dual", {})))
    assert books.text(Message("zg.refuse.points_without_discs", {"kind": "food"})) == \
        f"You entered no discs of {books.text(Message('zg.kind.food', {}))}: their printed total is 0."
