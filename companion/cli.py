"""The `companion` command (also `python -m companion`)."""

from __future__ import annotations

import argparse
import json
import sys

from companion import __version__


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", description="The zombie-table companion.")
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    commands = parser.add_subparsers(dest="command")

    replay = commands.add_parser("replay", help="play a script of actions and print the resulting state as JSON")
    replay.add_argument("script", help="the script (JSON): game, players, options, position, dice, actions")

    bench = commands.add_parser("bench", help="measure speed and print figures")
    bench.add_argument("what", choices=["rules"], help="what to measure")
    bench.add_argument("--games", type=int, default=500, help="how many games (default 500)")
    bench.add_argument("--players", type=int, default=5, help="players per game (default 5)")
    bench.add_argument("--seed", type=int, default=1, help="seed of the random players and dice")

    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay(args.script)
    if args.command == "bench":
        from companion.bench import bench_rules

        bench_rules(games=args.games, players=args.players, seed=args.seed)
        return 0
    parser.print_help()
    return 0


def _replay(path: str) -> int:
    from companion.replay import ReplayError, load_script, play

    try:
        result = play(load_script(path))
    except ReplayError as error:
        print(f"companion replay: {error}", file=sys.stderr)
        return 2
    json.dump(result.rules.record(result.state), sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 0
