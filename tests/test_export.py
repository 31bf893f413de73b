"""The evening to keep (companion/export.py): finished games of the four games, played to the end by the games' own
random players into a real save file, exported as self-contained HTML and read in Chromium with every network
request blocked and recorded. The document holds every public line, the winners, the scores and every roll (checked
when exported, and again in the reader's browser); it reads with scripts off; the board is drawn by the page's own
part renderers; a hostile name is shown literally and runs nothing; axe-core finds nothing serious; the four
languages leave no key unsaid. Screenshots for a person go to EXPORT_SHOTS (tests/screenshots/export otherwise).
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from babel.dates import format_date
from finished import SEATS, play_finished

from companion import export
from companion.catalogue import LANGUAGES, catalogue
from companion.contract import Message, Refusal
from companion.games import GAMES
from companion.store import EventStore, GameRecord
from companion.table import Table

sync_api = pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--no-first-run", "--disable-sync"]
WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SHOTS = Path(os.environ.get("EXPORT_SHOTS", ROOT / "tests" / "screenshots" / "export"))
SEED = 3  # Mall of Horror and District Z roll the cup in these games
# Names that would be markup, a tag closing the document's JSON, a forum's tags, quotes and an ampersand.
HOSTILE = ["<svg/onload=alert()>", "</script><b>x", "[b]x[/b] & 'co\""]
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
SERIOUS = {"serious", "critical"}

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),  # in CI a missing browser is a failure
    reason="Debian's Chromium is not installed (sh scripts/setup test installs it)")


# -- the save file: four finished games and one still running ------------------------------------------------------


class Saved:
    def __init__(self, path: Path, ids: dict[str, int], running: int):
        self.path, self.ids, self.running = path, ids, running

    def store(self) -> EventStore:
        return EventStore(self.path, readonly=True)


def names_for(game: str) -> dict[str, str]:
    return dict(zip(SEATS[game], HOSTILE, strict=False))


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Saved:
    path = tmp_path_factory.mktemp("export") / "x.sqlite3"
    with EventStore(path) as store:
        ids = {game: play_finished(store, game, SEED, names=names_for(game)) for game in sorted(GAMES)}
        table = Table(store)
        table.new_game("zombiegeddon", SEATS["zombiegeddon"], {})
        running = table.game_id
    return Saved(path, ids, running)


def folded(saved: Saved, game: str) -> Table:
    with saved.store() as store:
        table = Table(store=store)
        table.load(store.game(saved.ids[game]))
        table.view(None)  # made while the store is open
    return table


def say(key: str, lang: str = "en", **params) -> str:
    return catalogue().text(Message(key, params), lang)


def flat(text: str) -> str:
    return " ".join(text.split())


# -- the browser: every document opened from a file, every request recorded and refused --------------------------


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


class Opened:
    """A document opened from its file in a context of its own: the page, every request, every dialog and error."""

    def __init__(self, browser, path: Path, scripts: bool = True, viewport: dict | None = None):
        self.context = browser.new_context(java_script_enabled=scripts, viewport=viewport or WIDE)
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.url = path.resolve().as_uri()
        # The document's own file is read; anything else it asks for is refused (and recorded below).
        self.context.route("**/*", lambda route: route.continue_() if route.request.url == self.url
                           else route.abort())
        self.page = self.context.new_page()
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("dialog", lambda dialog: (self.dialogs.append(dialog.message), dialog.dismiss()))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.goto(self.url)
        self.page.wait_for_load_state("load")

    def text(self, selector: str = "body") -> str:
        return flat(self.page.inner_text(selector))

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def opened(browser, tmp_path):
    pages: list[Opened] = []

    def open_(document: str, name: str = "doc.html", **options) -> Opened:
        path = tmp_path / name
        path.write_text(document, encoding="utf-8")
        page = Opened(browser, path, **options)
        pages.append(page)
        return page

    yield open_
    for page in pages:
        page.close()


# -- what the document holds, read with scripts off --------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_document_holds_every_line_the_winners_the_scores_and_every_roll_with_scripts_off(saved, opened, game):
    table = folded(saved, game)
    with saved.store() as store:
        record = store.game(saved.ids[game])
        document = export.game_html(store, saved.ids[game], "en")
    view = table.view(None)
    doc = opened(document, scripts=False)
    names = dict(record.names)
    text = doc.text()
    lines = [entry for entry in table.narration() if not entry.seats]
    assert lines
    missing = [catalogue().text(e.message, "en", names) for e in lines
               if flat(catalogue().text(e.message, "en", names)) not in text]
    assert not missing, missing[:5]
    assert doc.page.locator(".narration li.line").count() == len(lines)
    assert doc.page.locator(".narration li.line.act").count() == sum(1 for e in lines if e.act)
    public = {flat(catalogue().text(e.message, "en", names)) for e in lines}
    secret = {flat(catalogue().text(e.message, "en", names)) for e in table.narration() if e.seats} - public
    assert not [line for line in secret if line in text]  # a seat's own line is never in the document
    # the winners, by their names
    winners = list(record.winners)
    result = doc.text(".game-head .result")
    if winners:
        assert all(flat(catalogue().seat(seat, "en", names)) in result for seat in winners), result
        assert doc.page.locator(".scores tr.winner").count() == len(winners)
    else:
        assert result == say("export.nobody_won")
    # each score, in its seat's row
    for seat, score in view["scores"].items():
        assert re.search(rf"\b{score}\b", doc.text(f".scores tr[data-seat={seat}]")), (seat, score)
    assert doc.page.locator(".scores tbody tr").count() == len(record.players)
    # every roll: its commitment, dice and nonce, checked when exported; this browser checked nothing
    rows = doc.page.locator("tr.roll")
    assert rows.count() == len(table.rolls)
    for n, cup_roll in enumerate(table.rolls, start=1):
        row = doc.page.locator(f"tr.roll[data-roll='{n}']")
        shown = cup_roll.public_json()
        assert row.locator(".commitment").inner_text() == shown["commitment"]
        assert [int(d) for d in row.locator(".die").all_inner_texts()] == shown["dice"]
        assert row.locator(".nonce").inner_text() == shown["nonce"]
        assert flat(row.locator(".export-check").inner_text()) == flat(say("export.verified"))
        assert flat(row.locator(".browser-check").inner_text()) == flat(say("export.browser_off"))
    if table.rolls:
        assert doc.text(".export-summary") == flat(say("export.summary_ok", count=len(table.rolls)))
    else:
        assert say("export.rolls_none") in text
    assert doc.requests == [doc.url]


def test_the_cup_is_used_in_these_games_so_the_rolls_are_tested(saved):
    assert len(folded(saved, "mall-of-horror").rolls) > 5
    assert len(folded(saved, "district-z").rolls) > 5


# -- the document in a browser: nothing fetched, the board drawn, the rolls checked again -------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_document_fetches_nothing_draws_the_board_and_checks_every_roll_in_the_browser(saved, opened, game):
    with saved.store() as store:
        document = export.game_html(store, saved.ids[game], "en")
    doc = opened(document)
    rolls = len(folded(saved, game).rolls)
    assert doc.requests == [doc.url], doc.requests  # the file itself, nothing else
    assert not doc.errors, doc.errors
    assert doc.page.locator(".board .phase").count() == 1  # the heading part, drawn by parts.js
    assert doc.page.locator(".board section, .board ul, .board .cell-grid, .board .focus").count() > 0
    assert say("export.board_failed") not in doc.text()
    checks = doc.page.locator(".browser-check").all_inner_texts()
    assert [flat(c) for c in checks] == [flat(say("export.browser_checked"))] * rolls
    if rolls:
        assert doc.text(".browser-summary") == flat(say("export.browser_summary_ok", count=rolls))
    # the board's headings come under the section's
    levels = doc.page.eval_on_selector_all("h1, h2, h3, h4, h5, h6", "hs => hs.map((h) => Number(h.tagName[1]))")
    assert levels[0] == 1 and all(b <= a + 1 for a, b in zip(levels, levels[1:], strict=False)), levels


def test_the_board_names_the_seats_as_the_catalogue_does(saved, opened):
    with saved.store() as store:
        record = store.game(saved.ids["mall-of-horror"])
        document = export.game_html(store, record.id, "vi")
    doc = opened(document)
    chips = doc.page.locator(".board .chip .name").all_inner_texts()
    assert chips and set(chips) <= {catalogue().seat(seat, "vi", record.names) for seat in record.players}


def test_a_tampered_roll_says_mismatch_when_exported_and_in_the_browser(saved, opened, tmp_path):
    copy = tmp_path / "tampered.sqlite3"
    with sqlite3.connect(saved.path) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    game_id = saved.ids["mall-of-horror"]
    with sqlite3.connect(copy) as db:
        rolls = [(seq, json.loads(text)) for seq, text in
                 db.execute("SELECT seq, event FROM events WHERE game_id = ? ORDER BY seq", (game_id,))]
    rolls = [(seq, event) for seq, event in rolls if "roll" in event]
    document, number = None, None
    for index in reversed(range(len(rolls))):  # the latest roll whose changed die still folds into the game
        seq, event = rolls[index]
        changed = dict(event, roll=[event["roll"][0] % 6 + 1, *event["roll"][1:]])
        _write(copy, game_id, seq, changed)
        try:
            with EventStore(copy, readonly=True) as store:
                document = export.game_html(store, game_id, "en")
        except Refusal:
            _write(copy, game_id, seq, event)
            continue
        number = index + 1
        break
    assert document is not None, "no roll of the game could be changed"
    doc = opened(document)
    assert doc.text(".export-summary") == flat(say("export.summary_bad", count=1))
    row = doc.page.locator(f"tr.roll[data-roll='{number}']")
    assert flat(row.locator(".export-check").inner_text()) == flat(say("export.mismatch"))
    assert flat(row.locator(".browser-check").inner_text()) == flat(say("export.browser_mismatch"))
    assert doc.page.locator(".export-check.bad").count() == 1
    assert doc.page.locator(".browser-check.bad").count() == 1
    assert doc.text(".browser-summary") == flat(say("export.browser_summary_bad", count=1))
    assert doc.requests == [doc.url]


def _write(path: Path, game_id: int, seq: int, event: dict) -> None:
    with sqlite3.connect(path) as db:
        db.execute("UPDATE events SET event = ? WHERE game_id = ? AND seq = ?",
                   (json.dumps(event, separators=(",", ":")), game_id, seq))


def test_a_hostile_name_shows_literally_and_runs_nothing(saved, opened):
    with saved.store() as store:
        document = export.evening_html(store, list(saved.ids.values()), "en")
    for scripts in (True, False):
        doc = opened(document, name=f"hostile-{scripts}.html", scripts=scripts)
        text = doc.page.inner_text("body")
        for name in HOSTILE:
            assert name in text, name
        assert not doc.dialogs
        assert not doc.errors, doc.errors
        assert doc.page.locator("main svg, main b, main img").count() == 0
        # every board's data was read whole: the closing tag in a name ended no script early
        if scripts:
            assert doc.page.locator(".board .phase").count() == len(saved.ids)
            assert HOSTILE[0] in doc.page.inner_text(".board")
        assert doc.requests == [doc.url]


# -- the evening ------------------------------------------------------------------------------------------------


def test_the_evening_has_its_date_a_table_of_contents_and_every_game(saved, opened):
    with saved.store() as store:
        document = export.evening_html(store, list(saved.ids.values()), "en")
        records = [store.game(i) for i in saved.ids.values()]
    doc = opened(document)
    first = min(r.started for r in records)
    assert doc.text("h1") == say("export.evening", date=format_date(first.astimezone(), format="full", locale="en"))
    links = doc.page.locator("nav.contents a")
    assert links.count() == len(records)
    for link in links.all():
        target = link.get_attribute("href")
        assert doc.page.locator(f"article{target}").count() == 1
    order = [int(a.get_attribute("id").split("-")[1]) for a in doc.page.locator("article.game").all()]
    assert order == [r.id for r in sorted(records, key=lambda r: (r.finished, r.id))]
    assert doc.page.locator("article.game .board .phase").count() == len(records)
    levels = doc.page.eval_on_selector_all("h1, h2, h3, h4, h5, h6", "hs => hs.map((h) => Number(h.tagName[1]))")
    assert levels[0] == 1 and all(b <= a + 1 for a, b in zip(levels, levels[1:], strict=False)), levels
    ids = doc.page.eval_on_selector_all("[id]", "nodes => nodes.map((n) => n.id)")
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_language_leaves_no_key_and_no_placeholder(saved, opened, lang):
    with saved.store() as store:
        document = export.evening_html(store, list(saved.ids.values()), lang)
    assert f"<html lang='{lang}'>" in document
    doc = opened(document, name=f"{lang}.html")
    text = doc.text()
    assert doc.page.evaluate("document.documentElement.lang") == lang
    assert not re.search(r"\b(export|page|list|colour)\.[a-z_]+", text), re.findall(r"\b(?:export|page)\.\w+", text)
    assert "{" not in text and "}" not in text
    assert say("export.rolls", lang) in text and say("export.narration", lang) in text
    if lang != "en":
        assert say("export.rolls", "en") not in text
    assert not doc.errors


def test_a_game_not_in_the_save_file_is_a_key_error_and_a_running_one_a_value_error(saved):
    with saved.store() as store:
        with pytest.raises(KeyError):
            export.game_html(store, 999, "en")
        with pytest.raises(KeyError):
            export.evening_html(store, [saved.ids["zombiegeddon"], 999], "en")
        with pytest.raises(ValueError):
            export.game_html(store, saved.running, "en")
        with pytest.raises(ValueError):
            export.evening_html(store, [saved.ids["zombiegeddon"], saved.running], "en")
        with pytest.raises(ValueError):
            export.evening_html(store, [], "en")


# -- evenings, from records made by hand --------------------------------------------------------------------------

T0 = datetime(2026, 12, 5, 19, 0, tzinfo=UTC)


def made(game_id: int, started: timedelta, minutes: int | None) -> GameRecord:
    """A finished game's record as the save file gives it (`minutes` None: still running)."""
    start = T0 + started
    return GameRecord(id=game_id, game="zombiegeddon", players=("red", "blue"), options={}, position=None,
                      started=start, finished=None if minutes is None else start + timedelta(minutes=minutes),
                      winners=None if minutes is None else ("red",), rounds=None if minutes is None else 3)


def test_evenings_are_split_where_a_game_starts_more_than_six_hours_after_the_last_one_ended():
    a = made(1, timedelta(0), 60)  # 19:00-20:00
    b = made(2, timedelta(hours=1, minutes=5), 50)  # 20:05-20:55
    c = made(3, timedelta(hours=2, minutes=55), 60)  # 21:55-22:55
    d = made(4, timedelta(hours=9, minutes=55), 30)  # 04:55-05:25: 6 h after c ended, the same evening
    e = made(5, timedelta(hours=16, minutes=26), 30)  # 11:26: 6 h 1 min after d ended, a new evening
    f = made(6, timedelta(days=3), 45)
    running = made(7, timedelta(days=3, hours=1), None)
    history = [running, f, e, d, c, b, a]  # as EventStore.history() gives them, newest first
    assert [[g.id for g in evening] for evening in export.evenings(history)] == [[6], [5], [1, 2, 3, 4]]
    assert [[g.id for g in evening] for evening in export.evenings([c, a, f, b, e, d])] == [[6], [5], [1, 2, 3, 4]]
    assert export.evenings([]) == [] and export.evenings([running]) == []


def test_games_of_one_evening_are_in_the_order_they_finished():
    long = made(1, timedelta(0), 180)  # 19:00-22:00
    short = made(2, timedelta(minutes=10), 30)  # a second table: 19:10-19:40
    assert [[g.id for g in evening] for evening in export.evenings([long, short])] == [[2, 1]]


def test_the_file_name_is_ascii_with_the_game_and_its_start():
    one = made(12, timedelta(0), 60)
    local = one.started.astimezone()
    assert export.filename([one]) == f"zombiegeddon-{local:%Y-%m-%d-%H%M}.html"
    assert export.filename([made(13, timedelta(hours=2), 5), one]) == f"evening-{local:%Y-%m-%d-%H%M}.html"
    assert export.filename([one]).isascii()


def test_the_documents_colour_symbols_are_the_pages():
    source = (ROOT / "companion" / "web" / "static" / "app.js").read_text(encoding="utf-8")
    found = dict(re.findall(r'(\w+): "(.)"', re.search(r"const SYMBOLS = \{([^}]*)\}", source).group(1)))
    assert found == export.SYMBOLS


# -- every reader: axe-core, and a phone's width ----------------------------------------------------------------


@pytest.fixture(scope="module")
def axe_script():
    axe = pytest.importorskip("axe_playwright_python.sync_playwright",
                              reason="axe-playwright-python is not installed (sh scripts/setup test)")
    return axe.Axe().axe_script


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_axe_finds_nothing_serious_and_a_phone_never_scrolls_sideways(saved, opened, axe_script, lang):
    with saved.store() as store:
        document = export.evening_html(store, list(saved.ids.values()), lang)
    found = []
    for viewport in (WIDE, PHONE):
        doc = opened(document, name=f"axe-{lang}-{viewport['width']}.html", viewport=viewport)
        doc.page.evaluate(axe_script)
        results = doc.page.evaluate("(options) => axe.run(document, options)",
                                    {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
        found += [(viewport["width"], v["id"], v["impact"], len(v["nodes"]), v["nodes"][0]["html"][:120])
                  for v in results["violations"] if v["impact"] in SERIOUS]
        wide = doc.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert wide <= 0, f"{lang} at {viewport['width']} px scrolls {wide} px sideways"
    assert not found, found


def test_screenshots_of_one_game_in_english_and_chinese(saved, opened):
    """For a person to look at: the top, the board and the rolls of Mall of Horror at the table's screen's size and
    a phone's, in English and Simplified Chinese."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    with saved.store() as store:
        documents = {lang: export.game_html(store, saved.ids["mall-of-horror"], lang) for lang in ("en", "zh-Hans")}
    for lang, document in documents.items():
        for viewport in (WIDE, PHONE):
            doc = opened(document, name=f"shot-{lang}-{viewport['width']}.html", viewport=viewport)
            size = f"{viewport['width']}x{viewport['height']}"
            doc.page.screenshot(path=SHOTS / f"mall-of-horror-{lang}-{size}-top.png")
            for part in ("board", "rolls"):
                doc.page.locator(f"section.{part}").evaluate("(node) => node.scrollIntoView()")
                doc.page.screenshot(path=SHOTS / f"mall-of-horror-{lang}-{size}-{part}.png")
            assert (SHOTS / f"mall-of-horror-{lang}-{size}-rolls.png").stat().st_size > 10_000
            assert doc.requests == [doc.url]
