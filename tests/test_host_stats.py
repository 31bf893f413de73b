"""The save file's statistics and history on the table's screen (the host page in Chromium), and their downloads.

A real save file holds finished games of all four games, played to the end by the games' own random players, some
with names (one hostile). The host page's Statistics section draws a bar chart of wins per person and a wins-over-time
line (each an image named by its figures, with the figures in a table beside it) and a table per game; its History
lists the finished games by evening, each game and each evening to download as the export's HTML. The figures come by
GETs with the host's token: stats.json is companion.stats.statistics of the save file, the downloads are
companion/export.py's documents, and any other token, or an id that is no finished game, is the same 404. Statistics
are read off the loop: a phone's ping is answered while the games are folded.

Screenshots (1280×800 and 390×844, four languages) go to $HOST_SHOTS or tests/screenshots/host-people/.
"""

from __future__ import annotations

import json
import math
import os
import re
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import test_phone_browser as page
from finished import play_finished
from test_accessibility import AXE, AXE_OPTIONS, SERIOUS
from test_host_page import PROBLEMS
from test_phone_browser import SCREENSHOTS, LiveTable, english_left

from companion import export, stats
from companion.catalogue import LANGUAGES, catalogue
from companion.contract import Message
from companion.store import EventStore

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
pytestmark = page.pytestmark
browser, phones = page.browser, page.phones  # one Chromium for the module, many pages

WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
LANGS = ["en", "zh-Hans", "zh-Hant", "vi"]
SHOTS = Path(os.environ.get("HOST_SHOTS") or SCREENSHOTS / "host-people")
HOSTILE = "<img src onerror=f>"
TRAP = "window.f = () => { window.pwned = (window.pwned || 0) + 1; };"
# (game, seed, names): every game twice over, the same people across games, a seat or two without a name.
PLAYED = [
    ("mall-of-horror", 1, {"red": "Anna", "yellow": "Bảo", "blue": HOSTILE}),
    ("zombiegeddon", 2, {"red": "Bảo", "yellow": "小明"}),
    ("eaten-by-zombies", 3, {"red": "Anna", "yellow": "Charlotte-Élise"}),
    ("district-z", 4, {"red": "小明", "yellow": "Anna"}),
    ("mall-of-horror", 5, {"red": "Bảo", "yellow": "Anna", "blue": "小明"}),
    ("zombiegeddon", 6, {}),
    ("eaten-by-zombies", 7, {"red": HOSTILE, "yellow": "Bảo"}),
    ("district-z", 8, {"yellow": "Anna"}),
]


@pytest.fixture(scope="module")
def save_file(tmp_path_factory) -> Path:
    """A save file of finished games (made once for the module; each test serves a copy of it)."""
    path = tmp_path_factory.mktemp("played") / "played.sqlite3"
    store = EventStore(path)
    for game, seed, names in PLAYED:
        play_finished(store, game, seed, names=names)
    store.close()
    return path


@pytest.fixture
def served(save_file, tmp_path):
    """The table serving a copy of the save file, no game on it."""
    db = tmp_path / "table.sqlite3"
    db.write_bytes(save_file.read_bytes())
    table = LiveTable(db, game=False)
    yield table
    table.close()


def get(table: LiveTable, path: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(table.server.url(path), timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def host_path(table: LiveTable, rest: str) -> str:
    return f"/x/{table.server.tokens.host}/{rest}"


def reader(table: LiveTable) -> EventStore:
    return EventStore(table.store.path, readonly=True)


MADE = re.compile(r"<p class='hint made'>[^<]*</p>")  # when the document was written: to the second


def document(html: str | bytes) -> str:
    """An export's document without the moment it was written (the server's and the test's differ by a second)."""
    text = html.decode("utf-8") if isinstance(html, bytes) else html
    assert len(MADE.findall(text)) >= 1
    return MADE.sub("", text)


def expected_stats(table: LiveTable) -> dict:
    with reader(table) as store:
        return json.loads(json.dumps(stats.statistics(store)))


# -- the figures, by HTTP -------------------------------------------------------------------------------------


def test_stats_json_is_the_save_files_statistics_and_only_the_host_gets_it(served):
    status, headers, body = get(served, host_path(served, "stats.json"))
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    assert "default-src 'none'" in headers["Content-Security-Policy"] and headers["Cache-Control"] == "no-store"
    figures = json.loads(body)
    assert figures == expected_stats(served)
    assert figures["games"] == len(PLAYED) and not figures["unreadable"]
    assert {row["person"] for row in figures["people"]} >= {"Anna", "Bảo", "小明", HOSTILE}
    assert {g["game"] for g in figures["by_game"]} == {game for game, _, _ in PLAYED}

    # A game being played is no finished game: the figures stay as they were.
    served.call(lambda: served.table.new_game("mall-of-horror", ["red", "blue", "yellow"], {}, names={"red": "Zoe"}))
    assert json.loads(get(served, host_path(served, "stats.json"))[2]) == figures

    # Any other token (a seat's, the spectators', a wrong one, none) is the same 404, saying nothing.
    refused = {get(served, f"/x/{token}/{what}")[0:3:2] for token in (
        served.server.tokens.seats["red"], served.server.tokens.spectator, "not-a-token", "x" * 22, "%E2%80%8B")
        for what in ("stats.json", "history.json", "game/1.html", "evening/1.html")}
    assert refused == {(404, b"unknown\n")}


def test_history_json_lists_the_finished_games_newest_first_and_their_evenings(served):
    status, _, body = get(served, host_path(served, "history.json"))
    assert status == 200
    history = json.loads(body)
    with reader(served) as store:
        records = store.history()
        evenings = export.evenings(records)
    assert [g["id"] for g in history["games"]] == [r.id for r in records]  # newest first
    for shown, record in zip(history["games"], records, strict=True):
        assert shown["game"] == record.game and shown["players"] == list(record.players)
        assert shown["names"] == dict(record.names) and shown["winners"] == list(record.winners or ())
        assert shown["finished"] == record.finished.isoformat(timespec="seconds")
    assert history["evenings"] == [[r.id for r in evening] for evening in evenings]
    assert sum(map(len, history["evenings"])) == len(PLAYED)


def test_a_game_and_an_evening_download_as_the_exports_html_and_anything_else_is_a_404(served):
    with reader(served) as store:
        records = store.history()
        evening = export.evenings(records)[0]
        first = min(r.id for r in evening)
        for lang in ("en", "vi", "zh-Hant"):
            record = records[-1]
            status, headers, body = get(served, host_path(served, f"game/{record.id}.html?lang={lang}"))
            assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
            assert document(body) == document(export.game_html(store, record.id, lang))
            assert headers["Content-Disposition"] == f'attachment; filename="{export.filename([record])}"'
            assert headers["Content-Disposition"].isascii()
        status, headers, body = get(served, host_path(served, f"evening/{first}.html?lang=zh-Hans"))
        assert status == 200
        assert document(body) == document(export.evening_html(store, sorted(r.id for r in evening), "zh-Hans"))
        assert headers["Content-Disposition"] == f'attachment; filename="{export.filename(evening)}"'
        assert HOSTILE not in body.decode()  # escaped in the document: a name there is text too
        unknown_language = get(served, host_path(served, f"game/{record.id}.html?lang=xx"))[2].decode()
        assert document(unknown_language) == document(export.game_html(store, record.id, "en"))

    served.call(lambda: served.table.new_game("district-z", ["red", "yellow"], {}))
    playing = served.table.game_id
    later = [r.id for r in evening if r.id != first]
    for rest in (f"game/{playing}.html", "game/99999.html", "game/abc.html", "game/1", "game/-1.html",
                 "game/1.5.html", "game/" + "9" * 30 + ".html", f"evening/{playing}.html",
                 f"evening/{later[0]}.html", "evening/99999.html", "stats", "nothing.json", "game/%2F1.html"):
        assert get(served, host_path(served, rest))[0:3:2] == (404, b"unknown\n"), rest
    seat = served.server.tokens.seats["red"]
    assert get(served, f"/x/{seat}/game/{first}.html")[0:3:2] == (404, b"unknown\n")


def test_statistics_are_folded_off_the_loop_a_ping_is_answered_meanwhile(served, monkeypatch):
    """Each game folded takes half a second here (a slow Pi, a long game): the loop answers pings all along (folded
    on the loop, a ping would wait for all eight games, four seconds)."""
    folded_on: list[str] = []
    fold = stats.summarise
    FOLD = 0.5  # noqa: N806 — seconds per game folded

    def slow(store, record):
        folded_on.append(threading.current_thread().name)
        time.sleep(FOLD)
        return fold(store, record)

    monkeypatch.setattr(stats, "summarise", slow)
    loop_thread = served.thread.name
    done = threading.Event()
    gaps: list[float] = []

    def ping() -> None:
        while not done.is_set():
            began = time.monotonic()
            served.call(lambda: None)  # a turn of the table's loop, as a phone's ping needs
            gaps.append(time.monotonic() - began)
            time.sleep(0.02)

    pinger = threading.Thread(target=ping)
    pinger.start()
    began = time.monotonic()
    try:
        status, _, body = get(served, host_path(served, "stats.json"))
    finally:
        done.set()
        pinger.join()
    took = time.monotonic() - began
    assert status == 200 and json.loads(body)["games"] == len(PLAYED)
    assert len(folded_on) == len(PLAYED) and loop_thread not in folded_on
    assert took >= FOLD * len(PLAYED) and len(gaps) > 20
    # Folded on the loop, a ping would wait for all eight games (4 s); a loaded machine may stall a turn of the loop
    # for a moment anyway (the box's idle checkpoint syncs the disk), never that long.
    assert max(gaps) < 2 * FOLD, max(gaps)
    # Folded once: asked again, nothing is folded and the answer is quick.
    began = time.monotonic()
    assert json.loads(get(served, host_path(served, "stats.json"))[2])["games"] == len(PLAYED)
    assert len(folded_on) == len(PLAYED) and time.monotonic() - began < FOLD * len(PLAYED) / 2


# -- the host page ------------------------------------------------------------------------------------------


def said(key: str, lang: str = "en", **params) -> str:
    return catalogue().text(Message(key, params), lang)


def who(row: dict, lang: str) -> str:
    return row["name"] or said(f"colour.{row['colour']}", lang)


def wins_said(row: dict, lang: str) -> str:
    return said("page.people.wins_of", lang, who=who(row, lang), count=row["wins"])


def shown_statistics(host) -> None:
    host.wait_until(lambda: host.page.locator("#people .chart.bars").count() == 1, "the statistics drawn")
    host.wait_until(lambda: host.page.locator("#history .history-game").count() == len(PLAYED), "the history")


def test_the_host_page_draws_the_statistics_as_charts_and_tables_with_every_person_named(served, phones):
    host = phones(served.host_url, viewport=WIDE, init_script=TRAP)
    shown_statistics(host)
    figures = expected_stats(served)
    people = figures["people"]
    section = host.page.locator("#people")
    expect(section.locator("h2")).to_have_text(said("stats.title_count", count=len(PLAYED)))

    # The bars: one per person, most wins first, each as long as its wins (the longest the most), each named.
    bars = section.locator(".chart.bars .bar")
    assert bars.count() == len(people)
    widths = [float(bar.get_attribute("width")) for bar in bars.all()]
    most = max(row["wins"] for row in people)
    longest = max(widths)
    assert longest > 100
    for width, row in zip(widths, people, strict=True):
        assert abs(width - longest * row["wins"] / most) < 0.05, (row, width)
    assert [int(bar.get_attribute("data-wins")) for bar in bars.all()] == [row["wins"] for row in people]
    labels = section.locator(".chart.bars .bar-label").all_text_contents()
    for label, row in zip(labels, people, strict=True):
        name = who(row, "en")
        assert label == name or (label.endswith("…") and name.startswith(label[:-1])), (label, name)
    assert HOSTILE in labels or any(HOSTILE.startswith(label[:-1]) for label in labels if label.endswith("…"))
    chart = section.locator(".chart.bars")
    assert chart.get_attribute("role") == "img"
    assert chart.get_attribute("aria-label") == said("page.people.bars_said",
                                                     list=[wins_said(row, "en") for row in people])

    # The wins over time: a line each for those with the most wins, ending at their wins; named in its label.
    winners = [row for row in people if row["wins"]][:6]
    runs = section.locator(".chart.lines .run")
    assert runs.count() == len(winners)
    over_time = stats.wins_over_time(figures, [row["person"] for row in winners])
    ends = [float(run.locator(".run-end").get_attribute("cy")) for run in runs.all()]
    for i, row in enumerate(winners):
        assert over_time[row["person"]][-1] == row["wins"]
        for other, end in zip(winners[i + 1:], ends[i + 1:], strict=True):  # more wins: higher (a smaller y)
            assert (ends[i] < end) if row["wins"] > other["wins"] else (ends[i] == end), (row, other)
    assert section.locator(".chart.lines").get_attribute("aria-label") == said(
        "page.people.line_said", count=len(PLAYED), list=[wins_said(row, "en") for row in winners])
    line_rows = section.locator(".line-table tbody tr")
    assert line_rows.count() == len(PLAYED)
    last = line_rows.nth(len(PLAYED) - 1).locator("td").all_text_contents()[1:]
    assert last == [str(row["wins"]) for row in winners]

    # The table of every game, and one per game with its own columns (the game's STATS labels).
    every = section.locator(".stats-table").first
    assert every.locator("tbody tr").count() == len(people)
    for row, shown in zip(people, every.locator("tbody tr").all(), strict=True):
        cells = shown.locator("td").all_text_contents()
        assert " ".join(page.bare(shown.locator("th").text_content()).split()) == who(row, "en")
        assert cells[0] == str(row["played"]) and cells[1] == str(row["wins"])
        assert cells[2] == f"{math.floor(row['win_rate'] * 100 + 0.5)}%"
    for game in figures["by_game"]:
        frame = section.locator(f".game-title[data-game='{game['game']}'] + p + .table-frame")
        heads = frame.locator("thead th[data-stat]").all_text_contents()
        assert heads == [said(key) for key in game["stats"]]
        assert frame.locator("tbody tr").count() == len(game["people"])
        for row, shown in zip(game["people"], frame.locator("tbody tr").all(), strict=True):
            assert [int(cell) for cell in shown.locator("td[data-stat]").all_text_contents()] == [
                row["counts"][key] for key in game["stats"]]
    assert host.page.evaluate("window.pwned || 0") == 0
    assert host.page.locator("main img:not(.qr), main script").count() == 0


def test_the_history_lists_each_game_with_its_people_and_downloads_it_and_its_evening(served, phones, tmp_path):
    host = phones(served.host_url, viewport=WIDE, locale="vi-VN", init_script=TRAP)
    shown_statistics(host)
    with reader(served) as store:
        records = store.history()
        evenings = export.evenings(records)
    items = host.page.locator("#history .history-game")
    assert [int(item.get_attribute("data-game")) for item in items.all()] == [r.id for r in records]
    for item, record in zip(items.all(), records, strict=True):
        chips = [" ".join(page.bare(text).split()) for text in
                 item.locator(".history-players .chip .name").all_text_contents()]
        assert chips == [catalogue().seat(seat, "vi", record.names) for seat in record.players]
        winners = [" ".join(page.bare(t).split()) for t in item.locator(".history-winners .chip .name")
                   .all_text_contents()]
        assert winners == [catalogue().seat(seat, "vi", record.names) for seat in record.winners or ()]
        link = item.locator("a.download")
        assert link.get_attribute("href") == host_path(served, f"game/{record.id}.html?lang=vi")
        assert link.text_content() == said("page.people.save_game", "vi")
    assert host.page.locator("#history .evening").count() == len(evenings)
    assert host.page.evaluate("window.pwned || 0") == 0

    # A tap saves the file the server sends: the export's document, in the page's language, under its name.
    record = records[0]
    with host.page.expect_download() as caught:
        host.page.locator(f"#history .history-game[data-game='{record.id}'] a.download").click()
    download = caught.value
    assert download.suggested_filename == export.filename([record])
    saved = tmp_path / "saved.html"
    download.save_as(saved)
    with reader(served) as store:
        assert document(saved.read_text(encoding="utf-8")) == document(export.game_html(store, record.id, "vi"))
        evening = evenings[0]
        with host.page.expect_download() as caught:
            host.page.locator(f"#history .evening[data-first='{min(r.id for r in evening)}'] "
                              ".evening-head a.download").click()
        caught.value.save_as(saved)
        assert document(saved.read_text(encoding="utf-8")) == document(
            export.evening_html(store, sorted(r.id for r in evening), "vi"))


def test_a_save_file_with_no_finished_game_says_so(phones, tmp_path):
    table = LiveTable(tmp_path / "empty.sqlite3", game=False)
    try:
        host = phones(table.host_url, viewport=WIDE)
        expect(host.page.locator("#people .stats-none")).to_have_text(said("stats.none"))
        expect(host.page.locator("#history .history-none")).to_have_text(said("page.people.no_history"))
        # A game played to its end here: the figures are asked again, and count it.
        table.call(lambda: play_finished(table.store, "district-z", 11, names={"red": "Anna"}))
        table.call(lambda: table.table.new_game("district-z", ["red", "yellow"], {}))  # the page sees a change
        host.wait_until(lambda: host.page.locator("#people .chart.bars .bar").count() == 2, "the first game counted")
        expect(host.page.locator("#history .history-game")).to_have_count(1)
    finally:
        table.close()


def test_the_host_page_with_the_statistics_passes_axe_in_four_languages_with_screenshots(served, phones):
    SHOTS.mkdir(parents=True, exist_ok=True)
    host = phones(served.host_url, viewport=WIDE)
    shown_statistics(host)
    found = []
    for lang in LANGS:
        host.page.select_option("#lang", lang)
        host.lang = lang
        host.wait_until(lambda lang=lang: host.page.locator("#people-title").text_content() == said(
            "stats.title_count", lang, count=len(PLAYED)), f"the statistics in {lang}")
        for size, viewport in (("1280x800", WIDE), ("390x844", PHONE)):
            host.page.set_viewport_size(viewport)
            where = f"{lang} {size}"
            if not host.page.evaluate("typeof window.axe === 'object'"):
                host.page.evaluate(AXE)
            results = host.page.evaluate("(options) => axe.run(document, options)", AXE_OPTIONS)
            found += [(where, v["id"], v["impact"], v["nodes"][0]["target"]) for v in results["violations"]
                      if v["impact"] in SERIOUS]
            problems = [p for p in host.page.evaluate(PROBLEMS) if "table-frame" not in p]
            assert not problems, (where, problems[:6])
            small = host.page.evaluate("""() => [...document.querySelectorAll('#people a, #history a, #people button')]
                .map((n) => n.getBoundingClientRect()).filter((b) => b.width && (b.width < 43.5 || b.height < 43.5))
                .length""")
            assert small == 0, where
            for part in ("people", "history"):
                host.page.locator(f"#{part}").screenshot(path=SHOTS / f"{part}-{lang}-{size}.png")
            if lang != "en":
                text = host.page.locator("#people, #history").evaluate_all(
                    "(nodes) => nodes.map((n) => n.innerText).join(' ')")
                for name in ["Charlotte-Élise", HOSTILE, "Anna", "Bảo", *LANGUAGES.values()]:
                    for cut in range(len(name), 0, -1):  # a name in full, or cut short to fit a chart ("<img src…")
                        text = text.replace(name[:cut] + "…", " ")
                    text = text.replace(name, " ")
                assert not english_left(text, lang), (where, english_left(text, lang)[:10])
        host.page.set_viewport_size(WIDE)
    assert not found, found
