"""The README opens with exactly two commands, and its example script plays."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")


def test_the_readme_opens_with_exactly_two_commands_that_exist():
    first_block = re.match(r"```sh\n(.*?)```", README, re.S)
    assert first_block, "the README must open with a sh block"
    commands = [line for line in first_block.group(1).splitlines() if line.strip()]
    assert len(commands) == 2
    assert commands[0].startswith("sh scripts/run") and commands[1].startswith("sh scripts/test")
    assert (REPO / "scripts" / "run").exists() and (REPO / "scripts" / "test").exists()
    assert "scripts/test" in (REPO / ".ci" / "run").read_text()


def test_the_readme_example_script_plays(tmp_path):
    script = json.loads(re.search(r"```json\n(.*?)```", README, re.S).group(1))
    path = tmp_path / "example.json"
    path.write_text(json.dumps(script))
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(path)], capture_output=True,
                          text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert "blue" not in record["characters"]  # Blue's Pin-up, his last character, was the Restroom's victim
    assert record["zombies"]["1"] == 0  # and the zombies left after the feast
    assert record["prompt"]["kind"] == "cards" and record["waiting"] == ["red"]  # now the Parking: Red may play a card
    assert any(line["key"].startswith("mall.") for line in record["narration"])


def test_the_readme_stands_on_its_own():
    assert "../shared" not in README  # a user of the project has the repository, not the team's shared folder


def test_the_systemd_unit_runs_a_real_companion_command():
    from companion.cli import main

    unit = (REPO / "systemd" / "companion-serve.service").read_text()
    exec_start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    words = exec_start.split("=", 1)[1].split()
    assert words[0].endswith("/.venv/bin/companion") and words[1] == "serve"
    try:
        main([*words[1:], "--help"])
    except SystemExit as done:  # argparse's --help: the options of the unit are real options
        assert done.code == 0


# -- the table options: the README's table is the games' own ---------------------------------------------------

SCRIPT_ONLY = "script/`--options` only"  # a row the game accepts in a script or --options, not on the new-game form


def options_table() -> list[dict]:
    """The README's table options, a row each: game title, option name, default and other values (as JSON)."""
    rows = []
    for line in README.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        if not line.startswith("  | ") or len(cells) != 4 or cells[0] == "game" or set(cells[0]) <= set("-|"):
            continue
        game, option, default, others = cells
        others = re.sub(r"\(.*?\)", "", others)  # "(older "every_kind" ... still read as these two)": not a choice
        rows.append({"game": game, "option": re.match(r"`(\w+)`", option).group(1),
                     "script_only": SCRIPT_ONLY in option,
                     "default": [json.loads(word) for word in re.findall(r"`([^`]+)`", default)][:1],
                     "others": [json.loads(word) for word in re.findall(r"`([^`]+)`", others)]})
    return rows


def test_the_readme_options_table_has_every_option_of_every_game_with_its_default_and_values():
    from companion.catalogue import text
    from companion.games import GAMES

    rows = options_table()
    assert rows, "the README has a table of the table options"
    titles = {text(game.SETUP.title): name for name, game in GAMES.items()}
    assert {row["game"] for row in rows} <= titles.keys(), "a row names a game that is not in the registry"
    on_form = {(name, option.name) for name, game in GAMES.items() for option in game.SETUP.options}
    in_readme = {(titles[row["game"]], row["option"]) for row in rows if not row["script_only"]}
    assert in_readme == on_form, f"missing from the README: {on_form - in_readme}; not a game's: {in_readme - on_form}"
    for row in rows:
        if row["script_only"]:
            continue
        game = GAMES[titles[row["game"]]]
        option = next(o for o in game.SETUP.options if o.name == row["option"]).to_json()
        assert row["default"] == [option["default"]] and type(row["default"][0]) is type(option["default"]), row
        choices = [choice["value"] for choice in option["choices"]]
        written = row["default"] + row["others"]
        assert sorted(map(json.dumps, written)) == sorted(map(json.dumps, choices)), row  # each value once, no other


def test_a_script_only_option_in_the_readme_is_accepted_by_its_game_but_is_not_on_the_new_game_form():
    from companion.catalogue import text
    from companion.contract import IllegalAction
    from companion.games import GAMES

    titles = {text(game.SETUP.title): game for game in GAMES.values()}
    script_only = [row for row in options_table() if row["script_only"]]
    assert [(row["game"], row["option"]) for row in script_only] == [("Eaten by Zombies!", "market")]
    for row in script_only:
        game = titles[row["game"]]
        players = list(game.SETUP.colours[:game.SETUP.min_players])
        assert row["option"] not in {option.name for option in game.SETUP.options}
        game.start(players, {row["option"]: row["default"][0]})  # accepted: the README's default is a value
        try:
            game.start(players, {row["option"] + "_not_an_option": row["default"][0]})
        except IllegalAction:
            pass  # a name the game does not know is refused, so the acceptance above means the game knows it
        else:
            raise AssertionError(f"{row['game']} accepts any option name")
