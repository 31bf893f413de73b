"""The table when its save file takes no write: nothing changes, whoever asked is told why, and the table tries
again by itself (the roll the game waits for first) once the storage works again."""

from __future__ import annotations

import asyncio

import pytest

from companion.games import mall_of_horror as mall
from companion.store import EventStore, StorageError
from companion.table import NotStored, Table

FOUR = ["red", "blue", "yellow", "green"]


class FullDisk:
    """Wraps a store: while `full`, every write fails as SQLite's does on a full disk (rolls only, if `rolls`)."""

    def __init__(self, store: EventStore):
        self.store, self.full, self.rolls = store, False, False
        self.tries = 0
        for name in ("append", "append_all", "new_game", "finish", "set_setting", "probe"):
            setattr(self, name, self._guard(getattr(store, name)))

    def _guard(self, write):
        def guarded(*args, **kwargs):
            events = args[1] if len(args) > 1 else None
            rolls_only = self.rolls and not (isinstance(events, dict) and "roll" in events)
            if self.full and not rolls_only:
                self.tries += 1
                raise StorageError(self.store.path, "full", "database or disk is full")
            return write(*args, **kwargs)
        return guarded

    def __getattr__(self, name):
        return getattr(self.store, name)


@pytest.fixture
def disk(tmp_path):
    with EventStore(tmp_path / "companion.sqlite3") as store:
        yield FullDisk(store)


def first_answer(table: Table) -> tuple[str, dict]:
    prompt = mall.prompt(table.state)
    return prompt.id, table.question(prompt.seats[0]).choices[0].action


def test_an_answer_the_save_file_does_not_take_changes_nothing_and_says_why(disk):
    table = Table(disk)
    table.new_game("mall-of-horror", FOUR)
    before, events = table.state, list(table.events)
    disk.full = True
    question, action = first_answer(table)
    with pytest.raises(NotStored) as refused:
        table.answer(action, question=question)
    assert refused.value.code == "table.not_stored" and str(refused.value) == "Not stored: the disk is full"
    assert table.state is before and table.events == events and disk.events(table.game_id) == events
    assert table.storage_problem.key == "faults.storage.problem"
    disk.full = False
    table.answer(action, question=question)  # the same answer once there is room
    assert table.storage_problem is None and disk.events(table.game_id) == table.events


def test_a_new_game_the_save_file_does_not_take_leaves_the_game_on_the_table(disk):
    table = Table(disk)
    table.new_game("mall-of-horror", FOUR)
    state, game_id, generation = table.state, table.game_id, table.generation
    disk.full = True
    with pytest.raises(NotStored):
        table.new_game("mall-of-horror", ["red", "blue", "yellow"])
    assert (table.state, table.game_id, table.generation) == (state, game_id, generation)
    assert disk.unfinished().id == game_id


def test_a_device_thread_hears_not_stored_for_its_answer(disk):
    async def main():
        table = Table(disk)
        table.loop = asyncio.get_running_loop()
        table.new_game("mall-of-horror", FOUR)
        disk.full = True
        heard = asyncio.get_running_loop().create_future()
        _, action = first_answer(table)
        await asyncio.to_thread(table.answer_threadsafe, action, heard.set_result)
        refusal = await asyncio.wait_for(heard, 5)
        assert refusal.code == "table.not_stored" and refusal.params["detail"]["key"] == "faults.storage.full"
        table.close()
    asyncio.run(main())


def test_a_roll_that_could_not_be_stored_is_rolled_by_the_table_itself_once_storage_works(disk):
    async def main():
        table = Table(disk)
        table.loop = asyncio.get_running_loop()
        told = []
        table.subscribe(lambda: told.append(table.storage_problem))
        table.new_game("mall-of-horror", FOUR)
        disk.full, disk.rolls = True, True  # the answer fits, the roll after it does not
        question, action = first_answer(table)
        table.answer(action, question=question)  # stored: the device is acknowledged
        assert disk.events(table.game_id)[-1] == {"answer": action}
        assert mall.prompt(table.state) is None and table.rules.cup_request(table.state) is not None
        assert table.storage_problem is not None and told[-1] is not None
        await asyncio.sleep(1.7)  # tries at 0.5 s, then 1 s later: still no room
        assert disk.tries >= 2 and mall.prompt(table.state) is None
        disk.full = False
        for _ in range(60):
            await asyncio.sleep(0.1)
            if mall.prompt(table.state) is not None:
                break
        assert mall.prompt(table.state) is not None and table.storage_problem is None and told[-1] is None
        assert "roll" in disk.events(table.game_id)[-1]
        table.close()
    asyncio.run(main())


def test_after_a_failed_answer_the_table_probes_and_clears_the_problem_by_itself(disk):
    async def main():
        table = Table(disk)
        table.loop = asyncio.get_running_loop()
        table.new_game("mall-of-horror", FOUR)
        disk.full = True
        question, action = first_answer(table)
        with pytest.raises(NotStored):
            table.answer(action, question=question)
        disk.full = False
        await asyncio.sleep(0.8)
        assert table.storage_problem is None  # a probe went through: the host screen's warning is gone
        table.close()
    asyncio.run(main())
