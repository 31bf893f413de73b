"""The pads bench runs real presses through to the log and prints its figures (no speed is asserted here)."""

from __future__ import annotations

from companion.bench_pads import bench_pads


def test_bench_pads_prints_p50_and_p99_for_gpio_and_serial_pads(capsys):
    figures = bench_pads(presses=5)
    printed = capsys.readouterr().out
    assert figures["presses"] == 5 and figures["store"] is True
    for pad in ("gpio", "serial"):
        assert 0 < figures[f"{pad}_p50_ms"] <= figures[f"{pad}_p99_ms"]
    assert "GPIO pad (mock pin edge)" in printed and "serial pad (pty line)" in printed
    assert printed.count(" p50 ") == 2
