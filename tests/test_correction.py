"""The board is the truth: the table corrects the companion's board (companion/correction.py, Table.correct), in one
event of the log, said in the narration, kept across a power cut and taken back by undo; never during an open
secret question; and undo says why when it cannot take a step back. Played here with the toy game of tests/, which
gets all of it from its board description (`edits`, `correct`) and no code outside tests/.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from companion.catalogue import catalogue
from companion.contract import IllegalAction
from companion.cup import DiceCup
from companion.store import EventStore
from companion.table import Table, TableError

sys.path.insert(0, str(Path(__file__).parent))
import toy_game  # noqa: E402
from toy_game import NAME  # noqa: E402


@pytest.fixture(autouse=True)
def toy_registered(lucky_die):
    """The toy game in the registry, its words in the catalogue (conftest's lucky_die)."""
    return lucky_die


def table_at_vote(path: Path, dice: list[tuple[int, ...]] = ()) -> Table:
    table = Table(EventStore(path), DiceCup(scripted=list(dice)))
    table.new_game(NAME, ["red", "blue"])
    table.answer({"seat": "red", "give": {"sun": "red", "moon": "blue"}})
    return table


def lines(table: Table) -> list[str]:
    return [entry.message.key for entry in table.narration()]


def test_a_correction_is_one_event_said_in_the_narration_and_kept_across_a_restart(tmp_path):
    table = table_at_vote(tmp_path / "save.sqlite3")
    events = len(table.events)
    table.close_ballot()  # nobody voted: the first seat rolls
    table.answer({"seat": "red", "number": 4})  # the die is rolled at once; a new secret vote is asked
    edits = {edit["id"]: edit for edit in table.edits()}
    assert edits["points.blue"]["value"] == 0 and edits["token.sun"]["value"] == "red"
    before = len(table.events)
    table.correct({"points.blue": 1, "token.sun": "blue"})
    assert len(table.events) == before + 1 and table.events[-1] == {"correct": {"points.blue": 1,
                                                                                "token.sun": "blue"}}
    assert table.state.scores["blue"] == 1 and table.state.tokens["sun"] == "blue"
    assert lines(table)[-2:] == ["correction.n.changed", "correction.n.changed"]
    shown = [entry["key"] for entry in table.view(None)["narration"]]
    assert shown[-2:] == ["correction.n.changed", "correction.n.changed"]  # on every screen at once
    assert events < before
    # The box restarts: the save file read again holds the correction, and undo takes it back like a public step.
    table.store.close()
    again = Table(EventStore(tmp_path / "save.sqlite3"), DiceCup())
    again.resume()
    assert again.state.scores["blue"] == 1 and again.state.tokens["sun"] == "blue"
    assert again.can_undo >= 1
    again.undo()
    assert again.state.scores["blue"] == 0 and again.state.tokens["sun"] == "red"
    assert [entry.message.key for entry in again.undone][-2:] == ["correction.n.changed"] * 2


def test_a_correction_names_what_changed_in_every_language():
    state = toy_game.start(["red", "blue"])
    from companion.correction import corrected

    after = corrected(toy_game, state, {"points.red": 1})
    line = after.narration[-1].message
    assert line.key == "correction.n.changed"
    assert (line.params["was"], line.params["now"]) == (0, 1)
    words = {lang: catalogue().text(line, lang) for lang in ("en", "zh-Hans", "zh-Hant", "vi")}
    assert words["en"] == "Corrected: Red's points 0 → 1"
    assert words["vi"].startswith("Đã sửa: ") and words["zh-Hans"].startswith("已更正：")


def test_a_correction_refuses_an_unknown_fact_a_value_out_of_range_and_nothing_to_change(tmp_path):
    table = table_at_vote(tmp_path / "save.sqlite3")
    table.close_ballot()
    count = len(table.events)
    for changes, key in [({"points.green": 1}, "correction.unknown"), ({"points.red": 5}, "correction.value"),
                         ({"points.red": "1"}, "correction.value"), ({"points.red": 0}, "correction.nothing"),
                         ({}, "correction.shape"), (["points.red"], "correction.shape")]:
        with pytest.raises(IllegalAction) as refused:
            table.correct(changes)
        assert refused.value.code == key
    assert len(table.events) == count


def test_a_correction_waits_for_an_open_secret_question_and_the_end_of_the_game(tmp_path):
    table = table_at_vote(tmp_path / "save.sqlite3")
    table.correct({"points.red": 1})  # the secret vote is asked, nobody has voted yet: the board may be corrected
    table.answer({"seat": "red", "vote": "blue"})  # half the secret ballot is cast
    with pytest.raises(TableError) as refused:
        table.correct({"points.red": 0})
    assert refused.value.code == "table.correct_secret"
    assert table.edits() == [] and table.correct_why.key == "table.correct_secret"  # nothing offered, and why
    assert table.state.ballot.ballots == {"red": "blue"} and table.state.scores["red"] == 1  # nothing changed
    table.answer({"seat": "blue", "vote": "blue"})  # the ballot is complete and counted: the board may be corrected
    table.correct({"points.red": 0})
    assert table.state.scores["red"] == 0


def test_undo_says_why_it_cannot_take_a_step_back(tmp_path):
    table = table_at_vote(tmp_path / "save.sqlite3", dice=[(3,)])
    assert table.can_undo == 1 and table.undo_why is None  # the tokens, a public answer
    table.answer({"seat": "red", "vote": "red"})
    assert table.undo_why.key == "table.undo_why.wait_reveal"  # a ballot cast, the vote still open: nothing until then
    table.answer({"seat": "blue", "vote": "red"})  # the last ballot: secret, the vote is counted
    assert table.can_undo == 0 and table.undo_why.key == "table.undo_why.secret"
    assert table.view(None)["undo_why"]["key"] == "table.undo_why.secret"
    table.answer({"seat": "red", "number": 5})
    assert table.undo_why.key == "table.undo_why.rolled"  # the die was rolled at once
    table.correct({"points.blue": 1})  # the board is corrected instead, and that can be taken back
    assert table.can_undo == 1 and table.undo_why is None
    table.undo()
    assert table.undo_why.key == "table.undo_why.taken_back"
