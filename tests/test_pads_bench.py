"""The pads bench runs real presses through to the log and prints its figures (no speed is asserted here)."""

from __future__ import annotations

import pytest

from companion.bench.flood import bench_pads_flood
from companion.bench.pads import bench_pads, first_press
from companion.games import GAMES


def test_bench_pads_prints_p50_and_p99_for_gpio_and_serial_pads(capsys):
    figures = bench_pads(presses=40)  # more than a stuck pad presses in a second: the bench is not one
    printed = capsys.readouterr().out
    assert figures["presses"] == 40 and figures["store"] is True
    for pad in ("gpio", "serial"):
        assert 0 < figures[f"{pad}_p50_ms"] <= figures[f"{pad}_p99_ms"]
    assert "GPIO pad (mock pin edge)" in printed and "serial pad (pty line)" in printed
    assert printed.count(" p50 ") == 2


@pytest.mark.parametrize("game", sorted(GAMES))
def test_bench_pads_presses_a_button_its_games_question_offers(game, capsys):
    press = first_press(game)
    rules = GAMES[game]
    state = rules.start(press.players)
    for event in press.events:  # the game played up to the press: the seat is asked, and the button is an answer
        state = rules.apply(state, event)
    question = rules.question(state, press.seat)
    assert question is not None and question.choice_for(press.slot) is not None
    figures = bench_pads(presses=3, game=game)
    assert figures["game"] == game and figures["gpio_p50_ms"] > 0 and figures["serial_p50_ms"] > 0
    assert f"{game}, {press.seat}'s button {press.slot}" in capsys.readouterr().out


def test_bench_pads_flood_prints_the_phones_ack_quiet_and_flooded_and_the_notices(capsys):
    figures = bench_pads_flood(quiet=2.0, flood=2.0, rate=300.0)
    printed = capsys.readouterr().out
    assert figures["presses"] >= 300 and figures["quiet_answers"] > 0 and figures["flood_answers"] > 0
    assert 0 < figures["quiet_p50_ms"] <= figures["quiet_p99_ms"]
    assert "phone ack, quiet" in printed and "phone ack, flood" in printed and "host notices" in printed
