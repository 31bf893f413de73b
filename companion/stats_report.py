"""The statistics as lines of text in a language: `companion stats` in a terminal (the screens draw charts)."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from companion.catalogue import catalogue
from companion.contract import Message

COLUMNS = ("played", "wins", "win_rate", "score_avg", "score_best", "rounds_avg", "minutes_avg")


def who(row: Mapping[str, Any], lang: str) -> str:
    """A person's row named as the screens name it: the name, or the seat's colour where none was given."""
    return row["name"] if row.get("name") else catalogue().raw(f"colour.{row['colour']}", lang)


def figure(value: Any, column: str) -> str:
    """A figure as printed: a rate as a percentage, nothing as a dash."""
    if value is None:
        return "–"
    if column == "win_rate":
        return f"{round(value * 100)} %"
    return f"{value:g}" if isinstance(value, float) else str(value)


def report(stats: Mapping[str, Any], lang: str) -> list[str]:
    """The lines `companion stats` prints."""
    say = catalogue()

    def t(key: str, **params: Any) -> str:
        return say.text(Message(key, params), lang)

    if not stats["games"]:
        return [t("stats.none")]
    lines = [t("stats.title_count", count=stats["games"])]
    if stats["unreadable"]:
        lines.append(t("stats.unreadable", count=len(stats["unreadable"]),
                       ids=", ".join(str(i) for i in stats["unreadable"])))
    lines += ["", t("stats.every_game"), *_table(stats["people"], COLUMNS[:3], [], lang)]
    for game in stats["by_game"]:
        title = say.text(Message(game["title"]["key"], game["title"].get("params", {})), lang)
        lines += ["", t("stats.game_line", game=title, count=game["played"], rounds=figure(game["rounds_avg"], ""),
                        minutes=figure(game["minutes_avg"], "")),
                  *_table(game["people"], COLUMNS, game["stats"], lang)]
    return lines


def _table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str], counts: Sequence[str], lang: str) -> list[str]:
    say = catalogue()
    heads = [say.raw("stats.col.person", lang), *(say.raw(f"stats.col.{c}", lang) for c in columns),
             *(say.raw(key, lang) for key in counts)]
    body = [[who(row, lang), *(figure(row[c], c) for c in columns), *(str(row["counts"][k]) for k in counts)]
            for row in rows]
    widths = [max(_width(cells[i]) for cells in [heads, *body]) for i in range(len(heads))]
    return ["  ".join(_pad(cell, widths[i], left=i == 0) for i, cell in enumerate(cells)).rstrip()
            for cells in [heads, *body]]


def _width(text: str) -> int:
    """Columns a text takes in a terminal: a Chinese character takes two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int, left: bool) -> str:
    room = " " * (width - _width(text))
    return text + room if left else room + text
