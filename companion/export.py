"""The evening to keep: one finished game, or an evening of them, as one self-contained HTML file to take home.

The document needs nothing but itself: its style (the page's style.css and parts.css, and static/export.css) and its
scripts (sha256.js, parts.js and export.js) are inlined, and it asks no network for anything. Its text is in one
language, every catalogue message rendered here with the people's names ("Anna (Red)"). The title, the winners, the
scores, the narration by round and every roll of the cup are plain HTML (readable with scripts off); the final board
is drawn in the reader's browser by the page's own part renderers (parts.js), from the board's parts with their
messages rendered here, and the reader's browser checks every roll's commitment again (static/export.js).

Every name and every text is escaped: a name is shown as typed, never read as markup.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.dates import format_date, format_datetime, format_time

from companion.catalogue import CORE_TERMS, DEFAULT, catalogue, folder
from companion.contract import Line, Message
from companion.cup import verify
from companion.store import EventStore, GameRecord
from companion.table import CupRoll, Table

STATIC = Path(__file__).parent / "web" / "static"
EVENING_GAP = timedelta(hours=6)  # a game started longer than this after the last one ended begins a new evening
# Seat colours with their symbols, as the page draws them (app.js's SYMBOLS): never a colour alone.
SYMBOLS = {"red": "●", "yellow": "▲", "blue": "■", "green": "◆", "purple": "★", "black": "✚", "white": "○",
           "orange": "✦"}
# The catalogue keys parts.js asks its ctx.t for (its quoted keys), besides the lists' words.
KEY_IN_PARTS = re.compile(r"""["']((?:page|list)\.[a-z0-9_.]+)["']""")
LIST_WORDS = ("list.separator", "list.and", "list.none")
# What export.js says of the rolls it checks again in the reader's browser.
BROWSER_WORDS = ("export.browser_checked", "export.browser_mismatch", "export.browser_summary_ok",
                 "export.browser_summary_bad", "export.board_failed")


# -- evenings ---------------------------------------------------------------------------------------------------


def evenings(games: Sequence[GameRecord]) -> list[list[GameRecord]]:
    """Finished games grouped into evenings, newest evening first; each evening's games in the order they finished.
    A game that started more than EVENING_GAP after the previous one finished begins a new evening."""
    done = sorted((g for g in games if g.finished is not None), key=lambda g: (g.finished, g.id))
    out: list[list[GameRecord]] = []
    for record in done:
        if out and record.started - out[-1][-1].finished <= EVENING_GAP:
            out[-1].append(record)
        else:
            out.append([record])
    return out[::-1]


def filename(records: Sequence[GameRecord]) -> str:
    """An ASCII file name: "<game>-2026-12-05-2107.html" for one game, "evening-2026-12-05-2107.html" for several
    (the first game's start, in the box's time)."""
    if not records:
        raise ValueError("no game to name a file after")
    first = min(records, key=lambda r: r.started)
    when = first.started.astimezone().strftime("%Y-%m-%d-%H%M")
    what = (re.sub(r"[^a-z0-9]+", "-", first.game.lower()).strip("-") or "game") if len(records) == 1 else "evening"
    return f"{what}-{when}.html"


# -- the documents ----------------------------------------------------------------------------------------------


def game_html(store: EventStore, game_id: int, lang: str) -> str:
    """One finished game as one HTML document in `lang`. KeyError: no such game; ValueError: not finished (or a
    TableError, a ValueError too, when its log no longer folds)."""
    game = _read(store, game_id, lang)
    title = game.say("export.title_game", game=game.title, date=game.day(game.record.started))
    return _document(lang, title, _game(game, level=1))


def evening_html(store: EventStore, game_ids: Sequence[int], lang: str) -> str:
    """Several finished games as one HTML document in `lang`: a title with the evening's date, a table of
    contents, then each game as in game_html. KeyError: a game is not in the save file; ValueError: one is not
    finished (or there is none)."""
    if not game_ids:
        raise ValueError("an evening needs at least one game")
    games = sorted((_read(store, game_id, lang) for game_id in dict.fromkeys(game_ids)),  # each game once
                   key=lambda g: (g.record.finished, g.record.id))
    first = min(g.record.started for g in games)
    date = format_date(first.astimezone(), format="full", locale=_locale(lang))
    title = _say(lang, "export.evening", date=date)
    entries = [(g.record.id, g.say("export.toc_entry", time=g.time(g.record.started), game=g.title,
                                   result=g.result())) for g in games]
    contents = "".join(f"<li><a href='#game-{gid}'>{_e(entry)}</a></li>" for gid, entry in entries)
    head = (f"<header class='evening-head'><h1>{_e(title)}</h1>"
            f"<p>{_e(_say(lang, 'export.games', count=len(games)))}</p>{_made(lang)}</header>"
            f"<nav class='contents' aria-labelledby='contents'><h2 id='contents'>{_e(_say(lang, 'export.contents'))}"
            f"</h2><ol>{contents}</ol></nav>")
    return _document(lang, title, head + "".join(_game(g, level=2) for g in games))


# -- one game, read and folded ----------------------------------------------------------------------------------


@dataclass
class _Game:
    """A finished game folded from its log, and the words to say it in one language."""

    record: GameRecord
    table: Table
    lang: str

    @property
    def names(self) -> Mapping[str, str]:
        return self.record.names

    @property
    def title(self) -> str:
        return catalogue().text(self.table.rules.SETUP.title, self.lang)

    def say(self, key: str, **params: Any) -> str:
        return catalogue().text(Message(key, params), self.lang, self.names)

    def text(self, message: Message | Mapping[str, Any]) -> str:
        if not isinstance(message, Message):
            message = Message(message["key"], message.get("params", {}))
        return catalogue().text(message, self.lang, self.names)

    def seat(self, seat: str) -> str:
        return catalogue().seat(seat, self.lang, self.names)

    def day(self, moment: datetime) -> str:
        return format_date(moment.astimezone(), format="long", locale=_locale(self.lang))

    def time(self, moment: datetime) -> str:
        return format_time(moment.astimezone(), format="short", locale=_locale(self.lang))

    def until(self, start: datetime, end: datetime) -> str:
        """The end's time; with its date too when the game went on past midnight."""
        if start.astimezone().date() == end.astimezone().date():
            return self.time(end)
        return format_datetime(end.astimezone(), format="short", locale=_locale(self.lang))

    def result(self) -> str:
        """Who won, as a sentence."""
        winners = list(self.record.winners or ())
        if not winners:
            return self.say("export.nobody_won")
        return self.say("export.winners" if len(winners) > 1 else "export.winner", winners=winners)


def _read(store: EventStore, game_id: int, lang: str) -> _Game:
    record = store.game(game_id)  # KeyError when the save file has no such game
    if not record.is_finished:
        raise ValueError(f"game {game_id} is not finished: only a finished game is exported")
    table = Table(store=store)
    table.load(record)
    return _Game(record, table, lang)


# -- the game's sections ----------------------------------------------------------------------------------------


def _game(game: _Game, level: int) -> str:
    """The game as an <article>: its title at heading `level`, its sections one level under it."""
    record, view = game.record, game.table.view(None)
    gid = f"game-{record.id}"
    played = game.say("export.played", date=game.day(record.started), started=game.time(record.started),
                      finished=game.until(record.started, record.finished))
    head = (f"<header class='game-head'><h{level} id='{gid}-title'>{_e(game.title)}</h{level}>"
            f"<p>{_e(played)}"
            f" · {_e(game.say('export.rounds', count=record.rounds or 0))}</p>"
            f"<p>{_e(game.say('export.players', colours=list(record.players)))}</p>"
            f"<p class='result'>{_e(game.result())}</p>"
            f"{_made(game.lang) if level == 1 else ''}</header>")
    body = (_scores(game, view, level + 1) + _board(game, view, level + 1) + _narration(game, level + 1)
            + _rolls(game, level + 1))
    return f"<article class='game' id='{gid}' aria-labelledby='{gid}-title' data-game='{_e(record.game)}'>" \
           f"{head}{body}</article>"


def _section(game: _Game, name: str, level: int, title: str, body: str) -> str:
    sid = f"game-{game.record.id}-{name}"
    # Named by the game and the section: an evening's sections stay apart ("Mall of Horror, The dice cup").
    return (f"<section class='part {name}' aria-labelledby='game-{game.record.id}-title {sid}'>"
            f"<h{level} id='{sid}'>{_e(title)}</h{level}>{body}</section>")


def _scores(game: _Game, view: Mapping[str, Any], level: int) -> str:
    """The end's table from the final board's "over" parts (the game's score breakdown), else the view's scores."""
    tables = [part for part in (view.get("parts") or {}).get("over") or [] if part.get("part") == "scores"]
    won = set(view.get("winners") or ())
    body = ""
    for number, part in enumerate(tables, start=1):
        columns = [game.text(c) for c in part.get("columns") or []]
        rows = part.get("rows") or []
        width = max([len(columns), *(len(r.get("cells") or []) for r in rows)])
        heads = columns + [""] * (width - len(columns))
        if width == 1 and not columns:
            heads = [game.say("export.col.result")]
        body += _table(game, heads, [(r["seat"], [_bits(game, cell) for cell in r.get("cells") or []],
                                      bool(r.get("winner"))) for r in rows], f"scores-{number}",
                       caption=game.text(part["title"]))
        if part.get("footer"):
            body += f"<p class='hint'>{_bits(game, part['footer'])}</p>"
    if not tables:
        scores = view.get("scores") or {}
        rows = [(seat, [_e(str(scores[seat]))] if seat in scores else [], seat in won) for seat in view["players"]]
        body = _table(game, [game.say("export.col.result")] if scores else [], rows, "scores-1", caption=None)
    return _section(game, "scores", level, game.say("export.scores"), body)


def _table(game: _Game, heads: list[str], rows: list[tuple[str, list[str], bool]], name: str,
           caption: str | None) -> str:
    """The scores as a table in its own box, which scrolls on a narrow screen (the page never sideways); a keyboard
    reaches the box, named by the game and the table's caption (or the section's heading)."""
    head = "".join(f"<th scope='col'>{_e(h)}</th>" for h in heads)
    body = "".join(
        f"<tr{' class=winner' if winner else ''} data-seat='{_e(seat)}'><th scope='row'>{_chip(game, seat)}</th>"
        + "".join(f"<td>{cell}</td>" for cell in cells)
        + f"<td>{_e(game.say('export.won')) if winner else ''}</td></tr>"
        for seat, cells, winner in rows)
    gid = f"game-{game.record.id}"
    caption_html = f"<caption id='{gid}-{name}'>{_e(caption)}</caption>" if caption else ""
    label = f"{gid}-title {gid}-{name}" if caption else f"{gid}-title {gid}-scores"
    return (f"<div class='table-scroll' role='region' tabindex='0' aria-labelledby='{label}'>"
            f"<table class='scores'>{caption_html}<thead><tr>"
            f"<th scope='col'>{_e(game.say('export.col.player'))}</th>{head}"
            f"<th scope='col'>{_e(game.say('export.col.won'))}</th></tr></thead><tbody>{body}</tbody></table></div>")


def _board(game: _Game, view: Mapping[str, Any], level: int) -> str:
    """The final board: drawn by export.js with parts.js from the board's parts, every message rendered here."""
    parts = (view.get("parts") or {}).get("main") or []
    data = {"main": _rendered(game, parts),
            "seats": {seat: game.seat(seat) for seat in game.record.players}}
    body = (f"<div class='board' data-level='{level}'></div>"
            f"<noscript><p class='hint'>{_e(game.say('export.board_no_script'))}</p></noscript>"
            f"<script type='application/json' class='board-data'>{_json(data)}</script>")
    return _section(game, "board", level, game.say("export.board"), body)


def _narration(game: _Game, level: int) -> str:
    """Every public line of the game by round; a line that asked the table to act is marked."""
    lines = [entry for entry in game.table.narration() if not entry.seats]
    rounds: list[tuple[int, list[Line]]] = []
    for entry in lines:
        if not rounds or rounds[-1][0] != entry.round:
            rounds.append((entry.round, []))
        rounds[-1][1].append(entry)
    act = _e(game.say("export.act"))
    body = f"<p class='hint'>{_e(game.say('export.act_legend'))}</p>"
    for number, entries in rounds:
        heading = game.say("export.round", round=number) if number else game.say("export.setup")
        items = "".join(
            f"<li class='line{' act' if entry.act else ''}'>"
            + (f"<span class='act-mark' role='img' aria-label='{act}' title='{act}'>☛</span>" if entry.act else "")
            + f"<span class='line-text'>{_e(game.text(entry.message))}</span></li>"
            for entry in entries)
        body += f"<h{level + 1}>{_e(heading)}</h{level + 1}><ul class='lines'>{items}</ul>"
    return _section(game, "narration", level, game.say("export.narration"), body)


def _rolls(game: _Game, level: int) -> str:
    """Every roll of the cup: its number, commitment, dice and nonce, checked here; export.js checks each again."""
    rolls = game.table.rolls
    if not rolls:
        return _section(game, "rolls", level, game.say("export.rolls"),
                        f"<p>{_e(game.say('export.rolls_none'))}</p>")
    checks = [_verifies(r) for r in rolls]
    bad = sum(1 for ok in checks if ok is False)
    opened = sum(1 for ok in checks if ok is not None)
    summary = (f"<p class='verify bad export-summary'>{_e(game.say('export.summary_bad', count=bad))}</p>" if bad else
               f"<p class='verify ok export-summary'>{_e(game.say('export.summary_ok', count=opened))}</p>")
    rows = "".join(_roll_row(game, n, roll, ok) for n, (roll, ok) in enumerate(zip(rolls, checks, strict=True), 1))
    heads = "".join(f"<th scope='col'>{_e(word)}</th>" for word in _roll_heads(game))
    body = (f"<p class='hint'>{_e(game.say('export.rolls_hint'))}</p>{summary}"
            f"<p class='browser-summary sealed'>{_e(game.say('export.browser_summary_off'))}</p>"
            f"<table class='rolls'><thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>")
    return _section(game, "rolls", level, game.say("export.rolls"), body)


def _roll_heads(game: _Game) -> list[str]:
    return [game.say(f"export.col.{name}") for name in ("roll", "dice", "commitment", "nonce", "check")]


def _verifies(roll: CupRoll) -> bool | None:
    """The roll's check: None while it was never revealed."""
    shown = roll.public_json()
    return verify(shown["commitment"], shown["dice"], shown["nonce"]) if "dice" in shown else None


def _roll_row(game: _Game, n: int, roll: CupRoll, ok: bool | None) -> str:
    """A roll as a row; each cell carries its column's name, said beside it where the rows stack (a phone)."""
    shown = roll.public_json()
    heads = _roll_heads(game)
    what = [f" data-label='{_e(heads[0])}'", *(f" data-label='{_e(game.say('export.labelled', label=word))}'"
                                               for word in heads[1:])]
    commitment = f"<td{what[2]}><code class='commitment'>{_e(shown['commitment'])}</code></td>"
    number = f"<th scope='row'{what[0]}>{n}</th>"
    if ok is None:
        return (f"<tr class='roll' data-roll='{n}'>{number}<td{what[1]} class='sealed'>"
                f"{_e(game.say('export.sealed'))}</td>{commitment}<td></td><td></td></tr>")
    said = game.say("export.verified" if ok else "export.mismatch")
    return (f"<tr class='roll' data-roll='{n}'>{number}<td{what[1]}>{_dice(shown['dice'])}</td>{commitment}"
            f"<td{what[3]}><code class='nonce'>{_e(shown['nonce'])}</code></td>"
            f"<td{what[4]}><div class='verify {'ok' if ok else 'bad'} export-check'>{_e(said)}</div>"
            f"<div class='browser-check sealed'>{_e(game.say('export.browser_off'))}</div></td></tr>")


# -- bits of the board as HTML (the scores) and as data (the board, for parts.js) --------------------------------


def _bits(game: _Game, bits: Iterable[Mapping[str, Any]]) -> str:
    """A line of the board's bits as HTML, as parts.js draws one: words, a label, a seat, dice, pips, a number."""
    out = []
    for bit in bits:
        if isinstance(bit.get("n"), int):
            out.append(str(bit["n"]))
        elif bit.get("t"):
            out.append(_e(game.text(bit["t"])))
        elif bit.get("label"):
            out.append(f"<span class='label'>{_e(game.text(bit['label']))}</span>")
        elif isinstance(bit.get("chip"), str):
            out.append(_chip(game, bit["chip"]))
        elif isinstance(bit.get("dice"), list):
            out.append(_dice(bit["dice"]))
        elif isinstance(bit.get("pips"), list):
            done, most = bit["pips"]
            out.append(f"<span class='pips-text'>{'●' * done}{'○' * max(0, most - done)}</span>")
    return " ".join(out)


def _chip(game: _Game, seat: str) -> str:
    """A seat as the page draws it: its colour's symbol, its name and colour."""
    colour = seat if seat in SYMBOLS else "unknown"
    return (f"<span class='chip c-{colour}' data-colour='{colour}'><span class='sym' aria-hidden='true'>"
            f"{SYMBOLS.get(seat, '?')}</span><span class='name'>{_e(game.seat(seat))}</span></span>")


def _dice(values: Sequence[int]) -> str:
    # Spaces between the dice: a screen reader says "1 4 5", not "one hundred and forty-five".
    return "<span class='dice'>" + " ".join(f"<span class='die'>{int(d)}</span>" for d in values) + "</span>"


def _rendered(game: _Game, value: Any) -> Any:
    """The board's parts with every message ({key, params}) replaced by its text, for the document's ctx.say."""
    if isinstance(value, dict):
        if isinstance(value.get("key"), str) and isinstance(value.get("params"), dict):
            return game.text(value)
        return {name: _rendered(game, item) for name, item in value.items()}
    if isinstance(value, list):
        return [_rendered(game, item) for item in value]
    return value


# -- the document -----------------------------------------------------------------------------------------------


def _document(lang: str, title: str, body: str) -> str:
    style = "\n".join(_asset(path, "</style") for path in (STATIC / "style.css", STATIC / "parts.css",
                                                           STATIC / "export.css"))
    scripts = "".join(f"<script>{_asset(path, '</script')}</script>" for path in (STATIC / "sha256.js",
                                                                                 STATIC / "parts.js",
                                                                                 STATIC / "export.js"))
    return (f"<!DOCTYPE html>\n<html lang='{_e(lang)}'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{_e(title)}</title><style>{style}</style></head>"
            f"<body class='export'><main>{body}</main>"
            f"<script type='application/json' id='export-words'>{_json(_words(lang))}</script>"
            f"{scripts}</body></html>\n")


def _made(lang: str) -> str:
    now = format_datetime(datetime.now(UTC).astimezone(), format="medium", locale=_locale(lang))
    return f"<p class='hint made'>{_e(_say(lang, 'export.made', date=now))}</p>"


@cache
def _words(lang: str) -> dict[str, Any]:
    """What export.js needs to speak `lang`: the words parts.js asks for, the lists', the rolls' check, the
    symbols, the plural rule and which parameters name seats."""
    books = catalogue()
    keys = sorted({*KEY_IN_PARTS.findall(_asset(STATIC / "parts.js", "</script")), *LIST_WORDS, *BROWSER_WORDS})
    messages = {}
    for key in keys:
        found = books.messages[lang].get(key) or books.messages[DEFAULT].get(key) or key
        messages[key] = list(found) if isinstance(found, tuple) else found
    return {"lang": lang, "plural": "en" if lang == "en" else "one", "messages": messages, "symbols": SYMBOLS,
            "seat_terms": sorted(name for name, prefix in CORE_TERMS.items() if prefix == "colour")}


@cache
def _asset(path: Path, closer: str) -> str:
    """A file of the page, inlined: it must not close its own element early."""
    text = path.read_text(encoding="utf-8")
    if closer in text.lower():
        raise ValueError(f"{path} holds {closer!r}: it cannot be inlined")
    return text


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(folder(lang))


def _say(lang: str, key: str, **params: Any) -> str:
    return catalogue().text(Message(key, params), lang)


def _e(text: str) -> str:
    return html.escape(str(text), quote=True)


def _json(data: Any) -> str:
    """JSON inside a <script> element: no "<", ">" or "&" that could end it or start markup."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
