"""The people at the table (issue 28): a name per seat, checked once, kept with the game, said beside its colour."""

from __future__ import annotations

import pytest
from finished import play_finished

from companion.catalogue import LANGUAGES, catalogue, text
from companion.contract import Message, Refusal
from companion.names import MAX_NAME, check_name, check_names, person
from companion.salvage import salvage
from companion.store import EventStore
from companion.table import Table

MALL = ["red", "yellow", "blue", "green"]


@pytest.fixture
def store(tmp_path):
    with EventStore(tmp_path / "names.sqlite3") as store:
        yield store


def refused(players, names) -> Refusal:
    with pytest.raises(Refusal) as caught:
        check_names(players, names)
    return caught.value


# -- a name is checked once ---------------------------------------------------------------------------------


def test_a_name_is_kept_without_the_spaces_around_it_and_an_empty_one_is_no_name():
    assert check_names(MALL, {"red": "  Anna ", "blue": "", "green": None}) == {"red": "Anna"}
    assert check_names(MALL, None) == {}
    assert check_name("red", "陈小明") == "陈小明" and check_name("red", "Nguyễn Thị Hà") == "Nguyễn Thị Hà"


def test_a_name_longer_than_the_most_is_refused_with_its_length():
    refusal = refused(MALL, {"red": "x" * (MAX_NAME + 1)})
    assert refusal.code == "names.too_long" and refusal.params["count"] == MAX_NAME + 1
    assert text(refusal.message) == f"Red's name is {MAX_NAME + 1} characters long: {MAX_NAME} at most."
    assert check_names(MALL, {"red": "x" * MAX_NAME}) == {"red": "x" * MAX_NAME}


@pytest.mark.parametrize("name, code", [("   ", "names.blank"), ("An\x07na", "names.control"),
                                        ("An\u200bna", "names.control"), ("An\nna", "names.control"),
                                        ("An\u202ena", "names.control"), (7, "names.not_text")])
def test_a_blank_name_a_control_character_or_not_text_is_refused(name, code):
    assert refused(MALL, {"blue": name}).code == code


def test_two_seats_never_share_a_name_whatever_its_case():
    refusal = refused(MALL, {"red": "Anna", "blue": "ANNA"})
    assert refusal.code == "names.twice"
    assert text(refusal.message) == "Blue and Red have the same name, ANNA: give one of them another."


def test_a_seat_that_does_not_play_takes_no_name():
    assert refused(MALL, {"purple": "Anna"}).code == "names.not_playing"
    assert refused(MALL, ["Anna"]).code == "names.not_text"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_refusal_reads_whole_in_every_language(lang):
    for names in ({"red": "x" * 30}, {"red": " "}, {"red": "a\x00"}, {"red": "Al", "blue": "al"}, {"pink": "A"},
                  {"red": 1}):
        said = text(refused(MALL, names).message, lang)
        assert "{" not in said and "names." not in said and said.strip()


# -- said beside the colour ------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang, said", [("en", "Anna (Red)"), ("zh-Hans", "Anna（红）"), ("zh-Hant", "Anna（紅）"),
                                        ("vi", "Anna (Đỏ)")])
def test_a_seat_with_a_name_is_said_with_it_in_every_language(lang, said):
    assert catalogue().seat("red", lang, {"red": "Anna"}) == said
    assert catalogue().seat("blue", lang, {"red": "Anna"}) == catalogue().raw("colour.blue", lang)


def test_a_name_is_text_never_markup_nor_a_placeholder():
    for name in ("<b>Bo</b>", "[b]Bo[/b]", "{seat}", "{0}", "Al & <i>"):
        assert catalogue().seat("red", "en", {"red": name}) == f"{name} (Red)"
    lines = Message("names.twice", {"seat": "red", "to_seat": "blue", "name": "x"})
    assert text(lines, "en", {"red": "{to_seat}", "blue": "[b]"}) == \
        "{to_seat} (Red) and [b] (Blue) have the same name, x: give one of them another."


def test_people_are_counted_by_name_or_by_colour_where_none_was_given():
    assert person("red", {"red": "Anna"}) == "Anna" and person("blue", {"red": "Anna"}) == "colour:blue"


# -- kept with the game --------------------------------------------------------------------------------------


def test_names_are_kept_with_the_game_and_come_back_after_a_restart(tmp_path):
    path = tmp_path / "kept.sqlite3"
    with EventStore(path) as store:
        table = Table(store)
        table.new_game("mall-of-horror", MALL, {}, names={"red": "Anna", "green": "Bảo"})
        assert table.view(None)["names"] == {"red": "Anna", "green": "Bảo"}
        assert table.view("red")["names"] == {"red": "Anna", "green": "Bảo"}
    with EventStore(path) as store:  # the power came back
        table = Table(store)
        assert table.resume() is not None
        assert table.view(None)["names"] == {"red": "Anna", "green": "Bảo"}
        said = [text(entry.message, "en", table.names) for entry in table.narration()]
        assert said and any("Anna (Red)" in line for line in said)


def test_a_refused_name_starts_nothing_and_stores_nothing(store):
    table = Table(store)
    with pytest.raises(Refusal):
        table.new_game("mall-of-horror", MALL, {}, names={"red": "x" * 40})
    assert table.state is None and store.unfinished() is None and store.names_used() == []


def test_a_game_without_names_has_none(store):
    table = Table(store)
    table.new_game("mall-of-horror", MALL, {})
    assert table.view(None)["names"] == {} and store.game(table.game_id).names == {}


def test_the_names_used_before_are_offered_latest_first_each_once(store):
    play_finished(store, "eaten-by-zombies", 1, names={"red": "Anna", "yellow": "Bo"})
    play_finished(store, "eaten-by-zombies", 2, names={"red": "bo", "yellow": "Chi"})
    Table(store).new_game("mall-of-horror", MALL, {}, names={"blue": "Dũng"})
    assert store.names_used() == ["Dũng", "bo", "Chi", "Anna"]
    assert [record.names for record in store.history()] == [{"red": "bo", "yellow": "Chi"},
                                                           {"red": "Anna", "yellow": "Bo"}]


def test_a_salvaged_save_file_keeps_the_names(tmp_path):
    damaged, new = tmp_path / "old.sqlite3", tmp_path / "new.sqlite3"
    with EventStore(damaged) as store:
        play_finished(store, "zombiegeddon", 4, names={"red": "Anna"})
        store.checkpoint()
    salvage(damaged, new)
    with EventStore(new) as store:
        (record,) = store.history()
        assert record.names == {"red": "Anna"} and store.names_used() == ["Anna"]
