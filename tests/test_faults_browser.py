"""Faults on the real page in Chromium: seat QR codes leave the table screen once a phone has them, a new device
waits until the table screen allows it, the host link is renewed, and a save file that takes no write is shown
on the table screen and told to the phone that answered."""

from __future__ import annotations

import re

import pytest
import test_phone_browser as page
from test_faults_table import FullDisk
from test_phone_browser import ROUND, WIDE, ZOMBIE_DICE, say

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
pytestmark = page.pytestmark
browser, live, phones = page.browser, page.live, page.phones  # the phone page's fixtures: Chromium, tables, phones


def test_a_seats_qr_code_leaves_the_table_screen_once_a_phone_has_it_and_comes_back_on_demand(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    host = phones(table.host_url, viewport=WIDE)
    red_card = host.page.locator("#join .qr-card.seat[data-seat=red]")
    expect(host.page.locator("#join .qr-card.seat")).to_have_count(4)
    red = phones(table.seat_url("red"))
    expect(red_card).to_have_count(0)  # nobody else at the table can scan it now
    expect(host.page.locator("#join .qr-card.seat")).to_have_count(3)
    show = host.page.locator("#join .hidden-qrs .show-qr[data-seat=red]")
    expect(show).to_contain_text(say("faults.page.show_qr"))
    red.close()  # the phone sleeps: its seat keeps its device, the code stays hidden
    expect(host.page.locator("#host .phone[data-seat=red]")).to_contain_text(say("page.missing"))
    expect(red_card).to_have_count(0)
    show.click()  # the host shows it again (a player whose phone died)
    expect(red_card).to_have_count(1)
    expect(red_card.locator(".url")).to_have_text(table.seat_url("red"))
    red_card.locator(".hide-qr").click()
    expect(red_card).to_have_count(0)


def test_a_new_device_waits_for_the_table_screen_which_refuses_one_and_allows_another(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    host = phones(table.host_url, viewport=WIDE)
    red = phones(table.seat_url("red"))
    stranger = phones(table.seat_url("red"))  # scanned Red's code: it waits, seeing no secret
    expect(stranger.question).to_have_text(stranger.say("faults.page.waiting", seat="red"))
    asking = host.page.locator("#host .takeover[data-where='host:red']")
    expect(asking.locator("p")).to_have_text(say("faults.page.host_asked", seat="red"))
    asking.locator(".takeover-refuse").click()
    expect(stranger.page.locator("#notice .notice-text")).to_have_text(say("faults.page.refused_notice"))
    expect(stranger.status).to_have_text(say("page.status.stopped"))
    expect(asking).to_have_count(0)
    assert all("question" not in state["view"] for state in stranger.states())
    expect(red.question.locator(".takeover")).to_have_count(0)  # Red's own phone is asked no more
    red.vote("blue")

    new_phone = phones(table.seat_url("red"))  # Red's new phone: the table screen allows it
    expect(new_phone.question).to_have_text(new_phone.say("faults.page.waiting", seat="red"))
    host.page.locator("#host .takeover[data-where='host:red'] .takeover-allow").click()
    expect(red.page.locator("#notice .notice-text")).to_have_text(say("page.taken_over"))
    expect(new_phone.question.locator(".received")).to_have_text(say("page.vote_received"))
    new_phone.peek_shows(say("board.your_vote") + " ■ Blue")  # the seat, with the ballot it cast


def test_the_host_link_is_renewed_from_the_table_screen_and_the_old_one_stops(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    old_url = table.host_url
    host = phones(old_url, viewport=WIDE)
    stolen = phones(old_url)  # someone copied the host link
    host.page.locator("#renew-host").click()
    expect(host.page.locator("#host .confirm")).to_contain_text(say("faults.page.renew_confirm"))
    host.page.locator("#renew-yes").click()
    host.page.wait_for_url(re.compile(r"/h/[A-Za-z0-9_-]+$"))
    host.wait_until(lambda: host.page.url != old_url, "the new host link")
    assert host.page.url == table.host_url
    expect(host.status).to_have_class(re.compile(r"\bconnected\b"))
    expect(host.page.locator("#host h2")).to_have_text(say("page.host_title"))
    expect(stolen.page.locator("#notice .notice-text")).to_have_text(say("faults.page.host_renewed"))
    expect(stolen.status).to_have_text(say("page.status.stopped"))


def test_a_save_file_that_takes_no_write_is_shown_on_the_table_screen_and_told_to_the_phone(live, phones):
    table = live(position=ROUND, scripted=[ZOMBIE_DICE])
    disk = table.call(lambda: FullDisk(table.table.store))
    table.call(setattr, table.table, "store", disk)
    host = phones(table.host_url, viewport=WIDE)
    red = phones(table.seat_url("red"))
    red.shows_question("vote")
    disk.full = True
    red.tap({"seat": "red", "vote": "blue"})
    expect(red.page.locator("#error .error-text")).to_have_text(
        say("page.server_error", message=say("table.not_stored", detail={"key": "faults.storage.full"})))
    problem = host.page.locator("#host .problems li[data-key='faults.storage.problem']")
    expect(problem).to_have_text(say("faults.storage.problem", reason={"key": "faults.storage.full"}))
    assert not red.count("ack")
    disk.full = False  # room again: the table finds it by itself and the warning goes
    expect(problem).to_have_count(0, timeout=10_000)
    red.vote("blue")
