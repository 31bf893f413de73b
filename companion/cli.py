"""The `companion` command (also `python -m companion`)."""

from __future__ import annotations

import argparse
import json
import os
import sys

from companion import __version__
from companion.catalogue import LANGUAGES
from companion.contract import IllegalAction


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", description="The zombie-table companion.")
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    commands = parser.add_subparsers(dest="command")

    replay = commands.add_parser("replay", help="play a script of actions and print the resulting state as JSON")
    replay.add_argument("script", help="the script (JSON): game, players, options, position, dice, actions")
    replay.add_argument("--db", help="also store the game in this save file (SQLite), to resume it later")
    replay.add_argument("--lang", choices=list(LANGUAGES),
                        help="add each narration line's text in this language (en, zh-Hans, zh-Hant, vi)")

    resume = commands.add_parser("resume", help="print the unfinished game in a save file, as replay does")
    resume.add_argument("--db", help="the save file (default: the companion's own, in the user data directory)")
    resume.add_argument("--lang", choices=list(LANGUAGES), help="add the narration's text in this language")

    run = commands.add_parser("run", help="the table's touchscreen app with the phone server and the pads "
                                          "(the default command)")
    serve = commands.add_parser("serve", help="run a table for phones, with no touchscreen window")
    for sub in (run, serve):
        _box_options(sub)
    serve.add_argument("--no-qr", action="store_true", help="do not draw QR codes in the terminal")
    run.add_argument("--lang", choices=list(LANGUAGES), help="the screen's language (default: the last one chosen)")
    run.add_argument("--power-button", metavar="GPIO", type=lambda pin: int(pin) if pin.isdigit() else pin,
                     help="a button on this GPIO pin (BCM number) that powers the box off when held 3 seconds")

    salvage = commands.add_parser("salvage", help="copy every game a damaged save file still holds into a new "
                                                  "save file (the damaged one is left as it is)")
    salvage.add_argument("--db", required=True, help="the damaged save file")
    salvage.add_argument("--to", required=True, help="the new save file (it must not exist yet)")
    salvage.add_argument("--lang", choices=list(LANGUAGES), default="en", help="the language of the summary")

    rules = commands.add_parser("rules", help="print a game's rules, phase by phase, as the table tells them")
    rules.add_argument("game", help="the game (mall-of-horror, zombiegeddon, eaten-by-zombies, district-z)")
    rules.add_argument("--lang", choices=list(LANGUAGES), default="en", help="the language (default en)")
    rules.add_argument("--options", help="the table options (JSON), to say the rules they change")

    history = commands.add_parser("history", help="list the finished games in a save file")
    history.add_argument("--db", help="the save file (default: the companion's own)")

    stats = commands.add_parser("stats", help="the statistics of every finished game in a save file, per person "
                                              "and per game")
    stats.add_argument("--db", help="the save file (default: the companion's own)")
    stats.add_argument("--json", action="store_true", help="print them as JSON (documented in the README)")
    stats.add_argument("--lang", choices=list(LANGUAGES), default="en", help="the language of the text (default en)")

    export = commands.add_parser("export", help="one finished game, or an evening of them, as one self-contained "
                                                "HTML file to take home (the latest evening unless told)")
    export.add_argument("--db", help="the save file (default: the companion's own)")
    which = export.add_mutually_exclusive_group()
    which.add_argument("--game", type=int, help="this finished game (its id, as `companion stats --json` names it)")
    which.add_argument("--evening", type=int, metavar="GAME", help="the evening of this finished game")
    export.add_argument("--lang", choices=list(LANGUAGES), default="en", help="the language (default en)")
    export.add_argument("--out", help="the file to write (default: its own name, in this folder)")

    doctor = commands.add_parser("doctor", help="check what the box needs (display, touch, fonts, sound, groups, "
                                                "GPIO, pad hub, network, space, save file): ok or the fix")
    doctor.add_argument("--db", help="the save file to check (default: the companion's own)")
    doctor.add_argument("--lang", choices=list(LANGUAGES), default="en", help="the language of the findings")
    doctor.add_argument("--port", type=int, default=8080, help="the port the phones use (default 8080)")

    bench = commands.add_parser("bench", help="measure speed and print figures")
    bench.add_argument("what", choices=["rules", "table", "phones", "pads", "ui", "soak", "stats"],
                       help="rules: the pure rules; table: answers through a Table into a save file on disk; "
                            "phones: simulated phones against companion serve; pads: button presses; "
                            "ui: the touchscreen app beside a bare Kivy window; "
                            "soak: whole games back to back with bot phones and spectators (a night of play); "
                            "stats: the statistics of many finished games, folded, kept and in memory")
    bench.add_argument("--games", type=int, help="how many games (default 500 for rules, 50 for table)")
    bench.add_argument("--players", type=int, default=5,
                       help="players per game (default 5, or fewer where the game takes fewer)")
    bench.add_argument("--seed", type=int, default=1, help="seed of the random players and dice")
    bench.add_argument("--clients", type=int, default=6, help="phones: how many (6 seats, the rest watch)")
    bench.add_argument("--answers", type=int, default=300, help="phones: how many answers to measure")
    bench.add_argument("--flood", action="store_true",
                       help="pads: 1,000 presses/s on the hub during play by bot phones (phone ack p99, notices)")
    bench.add_argument("--idle", type=float, default=30.0, help="ui: seconds of idle CPU to measure (default 30)")
    bench.add_argument("--game", default="mall-of-horror", help="the game to play (default mall-of-horror)")
    bench.add_argument("--minutes", type=float, default=10.0, help="soak: how long to play (default 10)")

    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay(args.script, args.db, args.lang)
    if args.command == "resume":
        return _resume(args.db, args.lang)
    if args.command == "history":
        return _history(args.db)
    if args.command == "export":
        return _export(args)
    if args.command == "stats":
        return _stats(args.db, args.json, args.lang)
    if args.command == "rules":
        return _rules(args.game, args.lang, args.options)
    if args.command == "salvage":
        from companion.salvage import salvage_command

        return salvage_command(args.db, args.to, args.lang)
    if args.command == "serve":
        return _serve(args)
    if args.command == "doctor":
        from companion.doctor import doctor

        return doctor(args.db, args.lang, args.port)
    if args.command is None:  # `companion` alone opens the table's screen
        args = parser.parse_args(["run"])
    if args.command == "run":
        return _run(args)
    if args.command == "bench":
        return _bench(args)
    parser.print_help()
    return 0


def _bench(args: argparse.Namespace) -> int:
    from companion.bench import rules_of

    try:
        rules_of(args.game)
    except IllegalAction as refusal:
        print(f"companion bench: {refusal}", file=sys.stderr)
        return 2
    game = args.game
    if args.what == "phones":
        from companion.bench.phones import bench_phones

        bench_phones(clients=args.clients, answers=args.answers, seed=args.seed, game=game)
        return 0
    if args.what == "ui":
        from companion.bench.ui import bench_ui

        return bench_ui(idle=args.idle, answers=min(args.answers, 200), game=game)
    if args.what == "soak":
        from companion.bench.soak import bench_soak

        figures = bench_soak(game=game, minutes=args.minutes, players=args.players, seed=args.seed)
        return 1 if figures["stalls"] or figures["tracebacks"] else 0
    if args.what == "pads":
        if args.flood:
            from companion.bench.flood import bench_pads_flood

            bench_pads_flood(seed=args.seed, game=game)
            return 0
        from companion.bench.pads import bench_pads

        bench_pads(game=game, seed=args.seed)
        return 0
    if args.what == "stats":
        from companion.bench.stats import bench_stats

        bench_stats(game=game, games=args.games or 100, players=args.players, seed=args.seed)
        return 0
    from companion.bench.rules import bench_rules, bench_table

    if args.what == "table":
        bench_table(game=game, games=args.games or 50, players=args.players, seed=args.seed)
    else:
        bench_rules(game=game, games=args.games or 500, players=args.players, seed=args.seed)
    return 0


def _box_options(sub: argparse.ArgumentParser) -> None:
    """The box's options, shared by `run` and `serve`."""
    sub.add_argument("--db", help="the save file (default: the companion's own)")
    sub.add_argument("--host", default="0.0.0.0", help="the address to listen on (default: all interfaces)")
    sub.add_argument("--port", type=int, default=8080, help="the port (default 8080; 0 picks a free one)")
    sub.add_argument("--address", help="the address put in the seat URLs (default: this machine's LAN IP)")
    sub.add_argument("--game", default="mall-of-horror", help="the game of a new table (with --players)")
    sub.add_argument("--players", help="start a new game with these colours, e.g. red,blue,yellow,green")
    sub.add_argument("--options", help='table options as JSON, e.g. \'{"end_timing": "round_end"}\'')
    sub.add_argument("--reveal-grace", type=int, choices=range(6), default=3, metavar="SECONDS",
                     help="the seconds the last secret answer waits before its reveal, to be changed (0-5, default "
                          "3), for a save file that keeps none (the new-game forms set it)")
    sub.add_argument("--wifi-ssid", help="the table's Wi-Fi name, to offer a QR code that joins it")
    # Still parsed, only to be refused: unknown, `--wifi-password x` would pass for an abbreviated
    # --wifi-password-file and the error would print the password as a file name.
    sub.add_argument("--wifi-password", help=argparse.SUPPRESS)
    sub.add_argument("--wifi-password-file", help="a file holding the table's Wi-Fi password (mode 600: readable by "
                                                  "its owner only), or give it in COMPANION_WIFI_PASSWORD")
    sub.add_argument("--pads", help="a pads config (TOML, see hardware/README.md): GPIO pads, the pad hub")


def _open_store(path: str | None, readonly: bool = False):
    from companion.store import EventStore, StoreError, default_db_path

    try:
        return EventStore(path or default_db_path(), readonly=readonly)
    except StoreError as error:
        print(f"companion: {error}", file=sys.stderr)
        return None


def _print_json(data: dict) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


def _record(table, lang: str | None) -> dict:
    """The table's record, with the whole game's public narration (and its text in `lang`)."""
    from companion.catalogue import catalogue
    from companion.contract import Message

    out = table.record()
    if lang:
        for item in out["narration"]:
            item["text"] = catalogue().text(Message(item["key"], item["params"]), lang)
    return out


def _replay(path: str, db: str | None, lang: str | None = None) -> int:
    from companion.replay import ReplayError, load_script, play
    from companion.store import StoreError

    store = _open_store(db) if db else None
    if db and store is None:
        return 2
    try:
        table = play(load_script(path), store)
    except ReplayError as error:
        print(f"companion replay: {error}", file=sys.stderr)
        return 2
    except StoreError as error:  # a damaged page found while playing
        print(f"companion: {error}", file=sys.stderr)
        return 2
    finally:
        if store is not None:
            store.close()
    _print_json(_record(table, lang))
    return 0


def _resume(db: str | None, lang: str | None = None) -> int:
    from companion.store import StoreError
    from companion.table import Table, TableError

    store = _open_store(db)
    if store is None:
        return 2
    with store:
        table = Table(store, roll_when_asked=False)
        try:
            record = table.resume()
        except TableError as error:
            print(f"companion resume: {error}", file=sys.stderr)
            return 2
        except StoreError as error:  # the game's record or a page of its log is damaged
            print(f"companion: {error}", file=sys.stderr)
            return 2
        if record is None:
            print(f"companion resume: no unfinished game in {store.path}", file=sys.stderr)
            return 1
        _print_json(_record(table, lang))
    return 0


def _rules(game: str, lang: str, options_json: str | None) -> int:
    """The whole rule book of a game in the terminal: each phase, each rule with the options that change it."""
    from companion.catalogue import catalogue
    from companion.contract import Message
    from companion.games import get_game
    from companion.rulebook import Rules

    books = catalogue()
    try:
        rules = get_game(game)
        options = json.loads(options_json) if options_json else None
        setup = rules.SETUP
        state = rules.start(list(setup.colours[:setup.min_players]), options)
    except json.JSONDecodeError as error:
        print(f"companion rules: --options is not valid JSON: {error.msg}", file=sys.stderr)
        return 2
    except IllegalAction as refused:
        print(f"companion rules: {refused.text(lang)}", file=sys.stderr)
        return 2
    say = lambda message: books.text(Message(message["key"], message.get("params", {})), lang)  # noqa: E731
    book = Rules(rules.RULES, rules.table_options(state), books.has)
    print(books.text(Message("rules.heading", {"game": setup.title.to_json()}), lang))
    for phase in book.whole():
        print(f"\n== {say(phase['phase'])} ==")
        for rule in phase["rules"]:
            print(f"\n* {say(rule['title'])}\n  {say(rule['text'])}")
            for note in rule["options"]:
                print(f"  {say(note)}")
    return 0


def _history(db: str | None) -> int:
    from companion.store import StoreError

    store = _open_store(db, readonly=True)  # beside a running table too
    if store is None:
        return 2
    with store:
        try:
            games = store.history()
        except StoreError as error:
            print(f"companion: {error}", file=sys.stderr)
            return 2
        if not games:
            print("no finished games yet")
        for game in games:
            winners = ", ".join(_named(seat, game.names) for seat in game.winners or ())
            players = ", ".join(_named(seat, game.names) for seat in game.players)
            print(f"{game.finished:%Y-%m-%d %H:%M}  {game.game}  {players}  "
                  f"won by {winners} after {game.rounds} round(s)")
    return 0


def _stats(db: str | None, as_json: bool, lang: str) -> int:
    from companion.stats import statistics
    from companion.stats_report import report
    from companion.store import StoreError

    store = _open_store(db, readonly=True)  # beside a running table too
    if store is None:
        return 2
    with store:
        try:
            stats = statistics(store)
        except StoreError as error:
            print(f"companion: {error}", file=sys.stderr)
            return 2
    if as_json:
        _print_json(stats)
    else:
        print("\n".join(report(stats, lang)))
    return 0


def _export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from companion.export import evening_html, evenings, filename, game_html
    from companion.store import StoreError

    store = _open_store(args.db, readonly=True)  # beside a running table too
    if store is None:
        return 2
    with store:
        try:
            history = store.history()
            if args.game is not None:
                chosen = [record for record in history if record.id == args.game]
            else:
                nights = evenings(history)
                chosen = next((night for night in nights if any(r.id == args.evening for r in night)), []) \
                    if args.evening is not None else (nights[0] if nights else [])
            if not chosen:
                what = args.game if args.game is not None else args.evening
                print(f"companion: no finished game {what} in {store.path}" if what is not None else
                      f"companion: no finished game in {store.path}", file=sys.stderr)
                return 2
            page = game_html(store, chosen[0].id, args.lang) if args.game is not None else \
                evening_html(store, [record.id for record in chosen], args.lang)
        except (StoreError, KeyError, ValueError) as error:
            print(f"companion: {error}", file=sys.stderr)
            return 2
    out = Path(args.out or filename(chosen))
    try:
        out.write_text(page, encoding="utf-8")
    except OSError as error:
        print(f"companion: cannot write {out}: {error.strerror or error}", file=sys.stderr)
        return 2
    print(out)
    return 0


def _named(seat: str, names: dict) -> str:
    """A seat in `companion history`: "red", or "Anna (red)" where a name was given."""
    return f"{names[seat]} ({seat})" if names.get(seat) else seat


def _box(args: argparse.Namespace):
    """The box's options from the command line (None, said on stderr, if they are not valid)."""
    from companion.box import BoxOptions
    from companion.store import default_db_path

    try:
        options = json.loads(args.options) if args.options else None
    except json.JSONDecodeError as error:
        print(f"companion {args.command}: --options is not valid JSON: {error.msg}", file=sys.stderr)
        return None
    except (RecursionError, ValueError):  # nested too deep, or an integer of thousands of digits
        print(f"companion {args.command}: --options is not valid JSON: nested too deep or too long", file=sys.stderr)
        return None
    players = [p.strip() for p in args.players.split(",")] if args.players else None
    password = _wifi_password(args)
    if password is False:
        return None
    return BoxOptions(
        db=args.db or str(default_db_path()), host=args.host, port=args.port, address=args.address,
        game=args.game, players=players, options=options, wifi_ssid=args.wifi_ssid,
        wifi_password=password, pads=args.pads, reveal_grace=args.reveal_grace,
    )


def _wifi_password(args: argparse.Namespace) -> str | None | bool:
    """The Wi-Fi password from --wifi-password-file or the environment (where the systemd units put it from
    /etc/default/companion): never from a command line, which every user's `ps` shows. Taken out of the
    environment, so no program the companion starts inherits it. False: refused, said in one line on stderr."""
    from_environment = os.environ.pop("COMPANION_WIFI_PASSWORD", None)
    said = f"companion {args.command}:"
    if args.wifi_password is not None:  # (not echoed: it is the secret)
        print(f"{said} --wifi-password is refused (every user's ps shows a command line): use "
              "--wifi-password-file FILE or COMPANION_WIFI_PASSWORD in the environment", file=sys.stderr)
        return False
    if args.wifi_password_file:
        path = args.wifi_password_file
        try:
            with open(path, "rb") as file:
                # As ssh with a key: a secret others can read is no secret. The mode of the file opened, not of
                # whatever the name points to a moment later.
                if os.fstat(file.fileno()).st_mode & 0o044:
                    print(f"{said} {path} is readable by others: chmod 600 {path}", file=sys.stderr)
                    return False
                return file.read().decode("utf-8").strip("\r\n") or None
        except (OSError, UnicodeDecodeError) as error:
            print(f"{said} --wifi-password-file: {error}", file=sys.stderr)
            return False
    return from_environment or None


def _serve(args: argparse.Namespace) -> int:
    import asyncio

    from companion.serve import serve

    options = _box(args)
    if options is None:
        return 2
    return asyncio.run(serve(options, draw_qr=not args.no_qr))


def _run(args: argparse.Namespace) -> int:
    import asyncio

    from companion.ui.run import run

    options = _box(args)
    if options is None:
        return 2
    return asyncio.run(run(options, lang=args.lang, power_button=args.power_button))
