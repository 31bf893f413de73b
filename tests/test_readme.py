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
